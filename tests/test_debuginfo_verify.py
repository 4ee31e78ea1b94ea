"""A module with debug info is read as LLVM reads it, without LLVM's printed, fatal verifier.

LLVM's readers (the IR parser, and the bitcode reader once it finishes a
module) run UpgradeDebugInfo, which verifies a module whose debug info is of
the current version, prints the verifier's report on stderr and calls
report_fatal_error if the module is broken. llvmplug reads modules without it
and does the same itself (csrc/compile/debuginfo.cpp): a broken module is a
VerifyError (a LinkError for a link module) carrying the report, nothing is
printed, and the copy is not suspect; debug info alone broken is a warning and
is stripped, as llc does; debug info of an older version is stripped with
LLVM's warning.

Every scenario runs in a fresh interpreter whose stderr must stay empty.

tests/data/debuginfo/*.bc are the .ll files beside them as LLVM 19 writes
them: ``llvm-as-19 -disable-verify X.ll -o X.bc`` (Debian's llvm-19); LLVM's
own tools refuse to write a broken module otherwise. Being LLVM 19's, they
also carry an intrinsic that LLVM 23's reader upgrades.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data" / "debuginfo"

# The same function as the .ll files, without any debug info.
PLAIN = 'define i32 @f() {\n  %a = add i32 1, 1\n  ret i32 %a\n}\n'
# A module that needs @f from a link module.
CALLER = "declare i32 @f()\ndefine i32 @g() {\n  %r = call i32 @f()\n  ret i32 %r\n}\n"

PRELUDE = """
import json, sys, warnings
from pathlib import Path
import llvmplug

DATA = Path(sys.argv[1])

def source(name, kind):
    path = DATA / f"{name}.{kind}"
    return path.read_text() if kind == "ll" else path.read_bytes()

def attempt(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            outcome = {"output": call().hex()}
        except llvmplug.LLVMPlugError as error:
            outcome = {"error": type(error).__name__, "message": str(error)}
    outcome["warnings"] = [f"{w.category.__name__}: {str(w.message).strip()}" for w in caught]
    return outcome
"""


def run_child(code: str) -> dict:
    """Run `code` after PRELUDE in a fresh interpreter; return the JSON it prints, with stderr empty."""
    result = subprocess.run([sys.executable, "-c", PRELUDE + code, str(DATA)], capture_output=True,
                            text=True, timeout=300, cwd=tempfile.gettempdir())
    assert result.returncode == 0, f"child exited with {result.returncode}\n{result.stderr[-4000:]}"
    assert result.stderr == "", f"printed on the host's stderr:\n{result.stderr[-4000:]}"
    return json.loads(result.stdout.strip().splitlines()[-1])


def module(name: str, kind: str) -> str:
    """Child code for the module `name` as IR text or bitcode."""
    return f"source({name!r}, {kind!r})"


@pytest.mark.parametrize("kind", ["ll", "bc"])
def test_broken_module_is_a_verify_error_and_the_copy_stays(kind):
    outcome = run_child(f"""
with llvmplug.Plugin(private=True) as plugin:
    copy = plugin.loaded_path
    broken = attempt(lambda: plugin.compile({module("broken", kind)}))
    poisoned = plugin.poisoned
    after = attempt(lambda: plugin.compile({PLAIN!r}))
    print(json.dumps({{"broken": broken, "poisoned": poisoned, "after": after,
                      "same_copy": plugin.loaded_path == copy}}))
""")
    broken = outcome["broken"]
    assert broken.get("error") == "VerifyError", broken
    assert "Instruction does not dominate all uses!" in broken["message"]
    assert not outcome["poisoned"] and outcome["same_copy"]  # no FatalError, no reload
    assert "output" in outcome["after"]


@pytest.mark.parametrize("kind", ["ll", "bc"])
def test_broken_debug_info_alone_is_stripped_with_a_warning(kind):
    outcome = run_child(f"""
print(json.dumps({{"broken": attempt(lambda: llvmplug.compile({module("broken-debug-info", kind)},
                                                             flags="-passes=", output="asm")),
                  "plain": attempt(lambda: llvmplug.compile({PLAIN!r}, flags="-passes=", output="asm"))}}))
""")
    broken, plain = outcome["broken"], outcome["plain"]
    assert broken["warnings"] == ["LLVMPlugWarning: warning: ignoring invalid debug info in <module>"]
    # The module's name aside (its source_filename), the output is that of the module without debug info.
    ours = bytes.fromhex(broken["output"]).decode().replace("broken-debug-info.ll", "<module>")
    assert ours == bytes.fromhex(plain["output"]).decode()


@pytest.mark.parametrize("kind", ["ll", "bc"])
def test_old_debug_info_is_stripped_with_a_warning(kind):
    outcome = run_child(f"""
print(json.dumps(attempt(lambda: llvmplug.compile({module("old-debug-info", kind)}, output="asm"))))
""")
    assert outcome["warnings"] == [
        "LLVMPlugWarning: warning: ignoring debug info with an invalid version (2) in <module>"]
    assert ".debug_info" not in bytes.fromhex(outcome["output"]).decode()


def test_broken_link_module_is_a_link_error_naming_it():
    """A LinkError, as every failure of a link module is; named as parse.cpp names link modules."""
    outcome = run_child(f"""
with llvmplug.Plugin(private=True) as plugin:
    broken = attempt(lambda: plugin.compile({CALLER!r}, link=[{PLAIN!r}, {module("broken", "ll")}]))
    print(json.dumps({{"broken": broken, "poisoned": plugin.poisoned}}))
""")
    broken = outcome["broken"]
    assert broken.get("error") == "LinkError", broken
    assert broken["message"].startswith("link module 2: Instruction does not dominate all uses!")
    assert not outcome["poisoned"]


@pytest.mark.parametrize("kind", ["ll", "bc"])
def test_link_module_debug_info_of_an_old_version_is_stripped_with_a_warning(kind):
    outcome = run_child(f"""
print(json.dumps(attempt(lambda: llvmplug.compile({CALLER!r}, link=[{module("old-debug-info", kind)}],
                                                  output="asm"))))
""")
    assert outcome["warnings"] == [
        "LLVMPlugWarning: warning: ignoring debug info with an invalid version (2) in link module 1"]
    assert ".debug_info" not in bytes.fromhex(outcome["output"]).decode()


def test_broken_debug_info_of_a_text_link_module_is_stripped_with_a_warning():
    outcome = run_child(f"""
print(json.dumps(attempt(lambda: llvmplug.compile({CALLER!r}, link=[{module("broken-debug-info", "ll")}]))))
""")
    assert outcome["warnings"] == ["LLVMPlugWarning: warning: ignoring invalid debug info in link module 1"]
    assert "output" in outcome


# -- bitcode: verified before the reader finishes the module ------------------------------


@pytest.mark.parametrize("name", ["intrinsic-address", "upgraded-intrinsic-address"])
def test_bitcode_taking_an_intrinsics_address_is_a_verify_error(name):
    """The verifier checks intrinsics' uses only in a finished module; llvmplug checks them before."""
    outcome = run_child(f"""
print(json.dumps(attempt(lambda: llvmplug.compile({module(name, "bc")}))))
""")
    assert outcome.get("error") == "VerifyError", outcome
    assert outcome["message"] == "Invalid user of intrinsic instruction!\nptr @p"


def test_bitcode_with_an_upgraded_intrinsic_and_debug_info_equals_its_text():
    """Verified while the reader still holds the intrinsic's old declaration: no false failure."""
    outcome = run_child(f"""
def compile(source):
    return attempt(lambda: llvmplug.compile(source, flags="-passes=", output="asm"))
print(json.dumps([compile({module("upgraded-intrinsic", "ll")}), compile({module("upgraded-intrinsic", "bc")})]))
""")
    text, bitcode = outcome
    assert "output" in text and "output" in bitcode, outcome
    assert bitcode == text


# -- -disable-auto-upgrade-debug-info: LLVM's readers then leave debug info alone, and so does llvmplug --


@pytest.mark.parametrize("kind", ["ll", "bc"])
def test_disabling_the_upgrade_keeps_debug_info_as_it_is(kind):
    outcome = run_child(f"""
def compile(name):
    return attempt(lambda: llvmplug.compile(source(name, {kind!r}), output="asm",
                                            flags="-disable-auto-upgrade-debug-info"))
print(json.dumps({{"old": compile("old-debug-info"), "broken": compile("broken-debug-info")}}))
""")
    old, broken = outcome["old"], outcome["broken"]
    assert old["warnings"] == [] and ".debug_info" in bytes.fromhex(old["output"]).decode()
    # Not stripped, so the compile's own verifier refuses it, debug info and all.
    assert broken.get("error") == "VerifyError", broken
    assert broken["message"].startswith("DILocation's scope must be a DILocalScope")


# -- what LLVM's debug info writers assume and its verifier does not check (csrc/llvm_bugs/debuginfo_writers.cpp) --
#
# Debug info the verifier passes and AsmPrinter's writers read with unchecked
# casts (annotations !{!{!1}}, a local variable without a type, ...) is broken
# debug info too: stripped with LLVM's warning as it is read
# (tests/test_backend_crashers.py runs tests/data/backend_crashers/*.ll marked
# "expect: stripped"), a VerifyError or LinkError where the verifier runs
# without the upgrade. tests/data/debuginfo/writers/ holds clang's debug info
# that borders on each rule: near.c and near.cpp, compiled by clang-19 and
# clang++-19 to the .ll files beside them (-g -O0 -S -emit-llvm; near.cpp also
# with -gtemplate-alias, and for x86_64-pc-windows-msvc with -gcodeview, and
# at -O2), and annotations-link.ll with its bitcode (llvm-as-19 -disable-verify).


WRITERS = DATA / "writers"
BACKEND_CRASHERS = DATA.parent / "backend_crashers"
WRITER_CRASHERS = sorted(path.name for path in BACKEND_CRASHERS.glob("*.ll")
                         if "; expect: stripped\n" in path.read_text())


def header(text: str) -> dict:
    return dict(re.findall(r"^; ([a-z0-9. ]+): (.*)$", text, re.M))


def test_writer_crashers_are_verify_errors_where_the_verifier_runs_alone():
    """-disable-auto-upgrade-debug-info: nothing stripped, so the compile's own verifier refuses
    each, naming what the writer assumes (their "verifier" line); stripped otherwise."""
    assert len(WRITER_CRASHERS) >= 15
    cases = {name: header((BACKEND_CRASHERS / name).read_text()) for name in WRITER_CRASHERS}
    outcome = run_child(f"""
crashers = Path({str(BACKEND_CRASHERS)!r})
results = {{}}
for name, head in {cases!r}.items():
    text = (crashers / name).read_text()
    results[name] = attempt(lambda: llvmplug.compile(text, head["triple"], head["flags"] +
                                                     " -disable-auto-upgrade-debug-info", output="asm"))
print(json.dumps(results))
""")
    for name, head in cases.items():
        result = outcome[name]
        assert result.get("error") == "VerifyError", (name, result)
        assert result["message"].startswith(head["verifier"]), (name, result["message"])
        assert result["warnings"] == [], name


@pytest.mark.parametrize("kind", ["ll", "bc"])
def test_writer_broken_debug_info_is_stripped_from_a_module_or_a_text_link_module(kind):
    outcome = run_child(f"""
source = (DATA / "writers" / "annotations-link.{kind}")
source = source.read_text() if {kind!r} == "ll" else source.read_bytes()
print(json.dumps({{"main": attempt(lambda: llvmplug.compile(source, output="asm")),
                  "link": attempt(lambda: llvmplug.compile({CALLER!r}, link=[source], output="asm"))}}))
""")
    main, link = outcome["main"], outcome["link"]
    assert main["warnings"] == ["LLVMPlugWarning: warning: ignoring invalid debug info in <module>"]
    assert ".debug_info" not in bytes.fromhex(main["output"]).decode()
    if kind == "ll":
        assert link["warnings"] == ["LLVMPlugWarning: warning: ignoring invalid debug info in link module 1"]
        assert ".debug_info" not in bytes.fromhex(link["output"]).decode()
    else:
        # A bitcode link module is loaded lazily and verified once linked, as for the verifier's own checks.
        assert link.get("error") == "LinkError", link
        assert link["message"].startswith("the module with its link modules fails the verifier: invalid annotations")


# The clang output bordering on the rules (well-formed annotations, templates, imported
# declarations, static members, friends, pointers to members, vectors, typedefs of void,
# anonymous unions, VLAs): (file, triple).
NEAR_MISSES = [
    ("near-c.x86_64.ll", "x86_64-unknown-linux-gnu"),
    ("near-c.bpfel.ll", "bpfel"),  # BTF reads btf_decl_tag and btf_type_tag too
    ("near-cpp.x86_64.ll", "x86_64-unknown-linux-gnu"),
    ("near-cpp.x86_64-O2.ll", "x86_64-unknown-linux-gnu"),
    ("near-cpp.windows.ll", "x86_64-pc-windows-msvc"),  # CodeView
]

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_llc_parity import reference, refllc  # noqa: E402,F401


@pytest.mark.skipif(sys.platform != "linux", reason="refllc is built and run on Linux")
@pytest.mark.parametrize("level", ["-O0", "-O2"])
@pytest.mark.parametrize(("name", "triple"), NEAR_MISSES)
def test_clang_debug_info_compiles_as_llc_compiles_it(refllc, tmp_path, name, triple, level):  # noqa: F811
    """No false alarm: what clang emits keeps its debug info, byte for byte llc's object."""
    text = (WRITERS / name).read_text()
    assert "!llvm.dbg.cu" in text
    flags = f"-mtriple={triple} {level}"
    outcome = run_child(f"""
print(json.dumps(attempt(lambda: llvmplug.compile((DATA / "writers" / {name!r}).read_text(),
                                                  flags={"-passes= " + flags!r}))))
""")
    assert outcome["warnings"] == [], outcome["warnings"]
    assert bytes.fromhex(outcome["output"]) == reference(refllc, text, flags, "obj", tmp_path)
