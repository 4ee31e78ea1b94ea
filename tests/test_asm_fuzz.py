"""The asm grammar campaign (tests/campaigns/campaign_asm.py) and every crasher it or issue 25 found.

A short, fixed campaign runs in a subprocess (a crash of the harness fails the
test instead of killing pytest); each case already runs in a child process.
LLVMPLUG_ASM_FUZZ_SEED / LLVMPLUG_ASM_FUZZ_CASES change it (the defaults are
fixed, so CI is reproducible; docs/safety.md gives the size of the long runs).

tests/data/asm_crashers/ keeps the inputs that crash or hang LLVM 23.1.1's
assembler (header "all:", the outcome under ``policy="all"``): under the safe
policy each is refused before LLVM reads it; under ``policy="all"`` each still
does what its header says, so a file that no longer does is noticed.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import llvmplug

HERE = Path(__file__).resolve().parent
CAMPAIGN = HERE / "campaigns" / "campaign_asm.py"
CRASHERS = HERE / "data" / "asm_crashers"
SEED = int(os.environ.get("LLVMPLUG_ASM_FUZZ_SEED", "25"))
CASES = int(os.environ.get("LLVMPLUG_ASM_FUZZ_CASES", "1500"))

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="process isolation with memory_limit is Linux-only")


def test_a_short_campaign_breaks_nothing(tmp_path):
    done = subprocess.run([sys.executable, str(CAMPAIGN), "--seed", str(SEED), "--cases", str(CASES),
                           "--seconds", "1500", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=1800, cwd=tempfile.gettempdir())
    assert done.returncode in (0, 1), done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["cases"] == CASES
    assert not summary["broken"], f"kept in {tmp_path}: {summary['broken']}"
    # The campaign reaches MC, not only the refusals: some cases assemble.
    assert summary["outcomes"].get("ok", 0) > CASES // 20, summary["outcomes"]


def crashers() -> list[dict]:
    found = []
    for path in sorted(CRASHERS.glob("*.ll")):
        text = path.read_text()
        header = dict(re.findall(r"^; (\w[\w ]*): (.*)$", text, re.M))
        found.append({"file": path.name, "module": text, **header})
    return found


def test_every_crasher_has_its_header():
    assert crashers()
    for crasher in crashers():
        assert {"triple", "output", "all", "found by"} <= crasher.keys(), crasher["file"]
        assert re.fullmatch(r"timeout|crash:SIG[A-Z]+", crasher["all"]), crasher["file"]


@pytest.fixture(scope="module")
def isolated():
    with llvmplug.Plugin(isolation="process", memory_limit=2 << 30) as safe, \
            llvmplug.Plugin(isolation="process", memory_limit=2 << 30, policy="all") as trusted:
        yield safe, trusted


@pytest.mark.parametrize("crasher", crashers(), ids=lambda c: c["file"])
def test_a_crasher_is_refused_and_still_crashes_llvm(crasher, isolated):
    safe, trusted = isolated
    request = (crasher["module"], crasher["triple"])
    with pytest.raises((llvmplug.OptionError, llvmplug.LimitError)):
        safe.compile(*request, output=crasher["output"], timeout=60)
    stale = f"{crasher['file']}: LLVM no longer does what its header says; update it and docs/safety.md"
    if crasher["all"] == "timeout":
        with pytest.raises(llvmplug.CompileTimeoutError):
            trusted.compile(*request, output=crasher["output"], timeout=10)
    else:
        with pytest.raises(llvmplug.WorkerCrashedError) as error:
            trusted.compile(*request, output=crasher["output"], timeout=60)
        assert f"crash:{error.value.signal}" == crasher["all"], stale
