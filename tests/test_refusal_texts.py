"""One refusal text for everything the safe policy refuses (issue 29 section 3; csrc/messages.h, policyRefusal).

An option, an option's value, a pass and asm text refused by the safe policy all end alike and name the
policy as the C ABI does ("all"), not as a front end spells it (Plugin(policy="all"), --options all), so
the command line prints the shim's text as it is instead of rewriting it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import llvmplug

DATA = Path(__file__).resolve().parent / "data"
IR = (DATA / "arith.ll").read_text()
ENDING = 'is refused by the safe policy ({why}); it is allowed only with the "all" policy, for trusted callers'
ASM = IR + 'module asm ".incbin \\22/etc/hostname\\22"\n'

REFUSALS = [
    ("option", IR, ["-stack-usage-file=x"], "option '-stack-usage-file' " + ENDING.format(why="file: ")),
    (
        "value",
        IR,
        ["-align-all-functions=100"],
        "value '100' of option '-align-all-functions' " + ENDING.format(why="the safe range is 0 to 16, "),
    ),
    ("pass", IR, ["-passes=print<domtree>"], "in -passes " + ENDING.format(why="print: ")),
    ("asm", ASM, [], "'.incbin'"),
]


@pytest.fixture(scope="module")
def plugin():
    with llvmplug.Plugin(private=True) as plugin:
        yield plugin


def _refusal(plugin: llvmplug.Plugin, ir: str, flags: list[str]) -> str:
    with pytest.raises(llvmplug.OptionError) as caught:
        plugin.compile(ir, flags=flags)
    return str(caught.value)


@pytest.mark.parametrize("ir, flags, expected", [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS])
def test_every_policy_refuses_in_one_text(plugin, ir, flags, expected):
    message = _refusal(plugin, ir, flags)
    head, _, tail = expected.partition("(")
    assert head in message and tail.split(")")[0] in message
    assert message.endswith('; it is allowed only with the "all" policy, for trusted callers')
    assert "is refused by the safe policy" in message
    assert "Plugin(" not in message and "--options" not in message


def test_the_command_line_prints_the_shims_refusal_unchanged(plugin, tmp_path):
    message = _refusal(plugin, IR, ["-stack-usage-file=x"])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "llvmplug",
            "compile",
            str(DATA / "arith.ll"),
            "-o",
            str(tmp_path / "x.o"),
            "-stack-usage-file=x",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert result.returncode != 0
    assert f"llvmplug: OptionError: {message}\n" in result.stderr
