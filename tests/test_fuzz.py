"""Hostile input at scale: the fuzzer's contract, and every crasher it ever found.

The contract: a compile returns bytes or raises a typed LLVMPlugError. In
process that holds for mutated IR *text* (the parser rejects what it cannot
read before LLVM's backend sees it); mutated *bitcode*, random LLVM options and
random bytes can crash LLVM itself (see tests/data/crashers/), which only
``Plugin(isolation="process")`` contains, so they are fuzzed there.

Each campaign runs tests/campaigns/fuzz_compile.py in a subprocess, so a crash fails the
test instead of killing pytest. LLVMPLUG_FUZZ_SEED / LLVMPLUG_FUZZ_CASES
change the campaign (the defaults are fixed, so CI is reproducible).
"""

from __future__ import annotations

import json
import os
import pickle
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import llvmplug
import pytest

HERE = Path(__file__).resolve().parent
FUZZER = HERE / "campaigns" / "fuzz_compile.py"
CRASHERS = HERE / "data" / "crashers"
SEED = int(os.environ.get("LLVMPLUG_FUZZ_SEED", "2026"))
CASES = int(os.environ.get("LLVMPLUG_FUZZ_CASES", "8000"))


def campaign(tmp_path: Path, corpus: Path, *args: str) -> dict:
    crashers = tmp_path / "crashers"
    done = subprocess.run(
        [sys.executable, str(FUZZER), "--seed", str(SEED), "--cases", str(CASES), "--crashers", str(crashers), *args],
        capture_output=True,
        text=True,
        cwd=tempfile.gettempdir(),
        timeout=600,
        env={**os.environ, "LLVMPLUG_CORPUS": str(corpus)},
    )
    if done.returncode < 0:
        current = crashers / "current.case"
        pytest.fail(
            f"the fuzzer died of {signal.Signals(-done.returncode).name}; the case is in {current} "
            f"(replay: python {FUZZER} --replay {current} --mode inprocess)\n{done.stderr[-3000:]}"
        )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert not summary["failures"], summary["failures"]
    assert summary["cases"] == CASES
    return summary


class TestCampaigns:
    def test_mutated_text_in_process(self, tmp_path, corpus_files):
        summary = campaign(tmp_path, corpus_files[0].parent, "--mode", "inprocess", "--inputs", "text")
        outcomes = summary["outcomes"]
        # Both sides of the parser were exercised, not just rejections.
        assert outcomes.get("text:ok", 0) > CASES // 20
        assert outcomes.get("text:ParseError", 0) > CASES // 4

    @pytest.mark.skipif(sys.platform == "win32", reason="process isolation is tested on POSIX")
    def test_bitcode_random_bytes_and_options_in_process_isolation(self, tmp_path, corpus_files):
        summary = campaign(tmp_path, corpus_files[0].parent, "--mode", "process", "--inputs", "bitcode,random,flags",
                           "--timeout", "20")
        outcomes = summary["outcomes"]
        for kind in ("bitcode", "random", "flags"):
            assert sum(n for key, n in outcomes.items() if key.startswith(kind + ":")) >= CASES // 3
        assert outcomes.get("flags:ok", 0) and outcomes.get("flags:OptionError", 0)
        # Crashes are within the contract here (WorkerCrashedError is typed);
        # new ones are worth keeping: copy them into tests/data/crashers/.
        for path in summary["crashers"]:
            print("crasher:", path, pickle.loads(Path(path).read_bytes())["flags"])


def known_crashers() -> list[dict]:
    return json.loads((CRASHERS / "crashers.json").read_text())


@pytest.mark.skipif(sys.platform != "linux", reason="process isolation with memory_limit is Linux-only")
@pytest.mark.parametrize("crasher", known_crashers(), ids=lambda c: c["file"])
def test_known_crashers_are_contained_by_process_isolation(crasher, arith_ir):
    """Each input that crashes (or exhausts) LLVM in process is a typed error in a child."""
    module = (CRASHERS / crasher["file"]).read_bytes()
    # policy="all": some crashers need an option the safe policy refuses.
    with llvmplug.Plugin(isolation="process", memory_limit=2 << 30, policy="all") as plugin:
        try:
            plugin.compile(module, "x86_64-unknown-linux-gnu", crasher["flags"], output=crasher["output"], timeout=30)
        except llvmplug.WorkerCrashedError as error:
            assert crasher["in_process"] == error.signal, "behaviour changed: update crashers.json and the README"
        except llvmplug.InternalError as error:
            assert crasher["in_process"] == "out-of-memory"
            assert "out of memory" in error.message
        except llvmplug.LLVMPlugError as error:
            # LLVM got better at this input. Still within the contract, but the
            # kept crasher no longer tests containment: say so by failing.
            pytest.fail(f"{crasher['file']} no longer crashes LLVM ({error!r}): move it out of "
                        "tests/data/crashers/ (crashers.json) and update the README")
        else:
            pytest.fail(f"{crasher['file']} now compiles: move it out of tests/data/crashers/ "
                        "(crashers.json) and update the README")
        # The Plugin goes on serving, with the same results as ever.
        assert plugin.compile(arith_ir) == llvmplug.compile(arith_ir)


def test_every_crasher_file_is_listed():
    listed = {c["file"] for c in known_crashers()}
    present = {p.name for p in CRASHERS.iterdir()} - {"crashers.json"}
    assert listed == present
