"""The safe policy reads values as LLVM does, and fails closed where it cannot tell.

Range checks once read numbers with strtod, while LLVM's integer parsers read
0b, 0o, 0x and leading-0 prefixes (StringRef::getAsInteger(0)):
-align-all-functions=0b11100 passed the 0..16 check and made a 512 MiB
object. And option shapes (type, named values) came only from LLVM's help
text, captured through a Linux-only write() override; elsewhere every option
looked like a bool, so -stack-usage-file was accepted. The refusals here use
set_options (nothing is compiled), so on a build without the fix a test fails
instead of hanging or filling memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import llvmplug
import pytest

DATA = Path(__file__).resolve().parent / "data"
REFUSED = "refused by the safe option policy"


@pytest.fixture(scope="module")
def plugin():
    with llvmplug.Plugin(private=True) as p:
        yield p


@pytest.fixture(scope="module")
def trusted():
    with llvmplug.Plugin(private=True, options="all") as p:
        yield p


def allowed(plugin: llvmplug.Plugin, flag: str) -> bool:
    """Whether the safe policy lets `flag` through (and LLVM's parser takes it)."""
    try:
        plugin.set_options([flag])
    except llvmplug.OptionError as error:
        return False if REFUSED in str(error) or "bad value" in str(error) else pytest.fail(str(error))
    finally:
        plugin.clear_options()
    return True


def llvm_reads(trusted: llvmplug.Plugin, name: str, value: str) -> int | None:
    """The number LLVM's own parser makes of `value`, None if it refuses it."""
    try:
        trusted.set_options([f"-{name}={value}"])
    except llvmplug.OptionError:
        return None
    try:
        return int(trusted.options(name)[0]["value"])
    finally:
        trusted.clear_options()


SPELLINGS = ["16", "0x10", "0X10", "0b10000", "0B10000", "0o20", "020", "017", "0b11100", "0b10001",
             "0o777", "0x1f", "00", "0", "08", "0o8", "0x", "0b", "-0", "+4", " 4", "1e1", "16.0",
             "4294967312", "0b11110"]


def test_range_checks_read_numbers_as_llvm_does(plugin, trusted):
    # -align-all-functions is a cl::opt<unsigned> bounded to 0..16: the policy
    # must accept exactly the spellings LLVM reads as 0..16, whatever the prefix.
    wrong = []
    for spelling in SPELLINGS:
        number = llvm_reads(trusted, "align-all-functions", spelling)
        expected = number is not None and 0 <= number <= 16
        if allowed(plugin, f"-align-all-functions={spelling}") != expected:
            wrong.append((spelling, number))
    assert wrong == [], f"spellings the policy reads differently from LLVM (spelling, LLVM's value): {wrong}"


@pytest.mark.parametrize(
    ("flag", "ok"),
    [
        ("-align-all-functions=0b11100", False),  # 28: a 512 MiB object; strtod read 0
        ("-align-all-functions=0o777", False),  # 511; strtod read 0
        ("-align-all-functions=0b10001", False),  # 17; strtod read 0
        ("-force-vector-interleave=0o777", False),  # 511 > 64
        ("-lsr-complexity-limit=0b10", True),  # 2, the lowest allowed; strtod read 0
        ("-x86-experimental-pref-innermost-loop-alignment=-0b1", False),  # int: -1
    ],
)
def test_prefixed_spellings_are_range_checked(plugin, flag, ok):
    assert allowed(plugin, flag) is ok


def test_octal_and_hex_read_as_llvm_reads_them(plugin):
    # 017 is 15 to LLVM (strtod read 17, out of range); 0x1f is 31 to both.
    assert allowed(plugin, "-align-all-functions=017")
    assert allowed(plugin, "-align-all-functions=020")  # 16
    assert not allowed(plugin, "-align-all-functions=0x1f")
    plugin.compile("define void @f() {\n  ret void\n}\n", flags=["-align-all-functions=017"])


@pytest.mark.parametrize(
    "flags",
    [
        ["-force-target-max-vector-interleave=0"],
        ["-force-target-max-scalar-interleave=0", "-force-vector-width=1"],
    ],
)
def test_a_zero_interleave_limit_is_refused(plugin, flags):
    # Given at all, these replace the target's limit; 0 makes the interleave
    # count 0 and loop vectorisation never finishes. (0 is their default, so
    # the sweep of other values never set it: tests/sweep_options.py
    # --explicit-defaults.)
    name = flags[0].split("=")[0]
    for zero in ("0", "00", "0x0", "0b0", "0o0"):
        assert not allowed(plugin, f"{name}={zero}"), f"{name}={zero}"
    assert allowed(plugin, f"{name}=1") and allowed(plugin, f"{name}=8")
    # Why: with options="all" LLVM hangs. In a child process with a timeout,
    # so the hang costs this test 3 s.
    module = (DATA / "sweep.ll").read_text()
    with llvmplug.Plugin(isolation="process", options="all") as p:
        p.compile(module, flags=["-O2", f"{name}=1", *flags[1:]], timeout=60)
        with pytest.raises(llvmplug.CompileTimeoutError):
            p.compile(module, flags=["-O2", *flags], timeout=3)


# --- Fail closed without the output capture ---------------------------------

CHILD = textwrap.dedent(
    """
    import json, sys
    import llvmplug

    names = json.loads(sys.stdin.read())
    with llvmplug.Plugin(private=True) as p:
        listed = p.options()
        outcome = {}
        for name in names:
            message = ""
            for flag in (f"-{name}=1", f"-{name}"):
                try:
                    p.set_options([flag])
                    message = "accepted"
                    p.clear_options()
                except llvmplug.OptionError as error:
                    message = str(error)
                if "does not take a value" not in message and "needs a value" not in message:
                    break
            outcome[name] = message
    with open(sys.argv[1], "w") as out:
        json.dump({"listed": listed, "outcome": outcome}, out)
    """
)


def test_policy_fails_closed_without_the_capture(plugin, tmp_path):
    # LLVMPLUG_TEST_NO_CAPTURE makes the Linux build behave as Windows and
    # macOS do: no captured help text. Every option that prints, writes files,
    # runs code or exits must still be refused, nothing may be printed, and
    # options whose shape then cannot be learned are "unknown" (refused).
    normal = {o["name"]: o for o in plugin.options()}
    risky = sorted(n for n, o in normal.items() if o["class"] in ("file", "code", "print", "exit") and n)
    assert {"stack-usage-file", "info-output-file", "crash-diagnostics-dir", "print-after-all"} <= set(risky)
    result = tmp_path / "result.json"
    env = {**os.environ, "LLVMPLUG_TEST_NO_CAPTURE": "1"}
    child = subprocess.run([sys.executable, "-c", CHILD, str(result)], input=json.dumps(risky), cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=600)
    assert child.returncode == 0, child.stderr[-2000:]
    # Nothing printed: no help text on stdout, and none on stderr (where this
    # shim's own write() sends fd 1 on Linux).
    assert child.stdout == "" and child.stderr == ""
    data = json.loads(result.read_text())
    let_through = {n: m for n, m in data["outcome"].items() if REFUSED not in m and "not available" not in m}
    assert let_through == {}
    assert sorted(os.listdir(tmp_path)) == ["result.json"]  # no file written (not "1", not a .su)

    listed = {o["name"]: o for o in data["listed"]}
    assert listed.keys() == normal.keys()
    unknown = {n for n, o in listed.items() if o["class"] == "unknown"}
    # The switch took effect: enums (shape only in the help text) are unknown...
    assert "x86-asm-syntax" in unknown and listed["x86-asm-syntax"]["type"] is None
    assert all("could not be learned" in listed[n]["reason"] for n in unknown)
    # ... and no option the policy refuses with the capture is allowed without it.
    loosened = [n for n, o in listed.items() if o["class"] == "value" and normal[n]["class"] != "value"]
    assert loosened == []
    # Shapes learned without printing agree with the printed ones.
    differ = [n for n, o in listed.items() if o["type"] is not None and o != normal[n]]
    assert differ == []
    assert len(unknown) < 0.1 * len(listed)

