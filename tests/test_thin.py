"""Modules optimised together ThinLTO's way: compile_modules and compile_parts.

Each module is optimised and generated on its own thread after a thin link
over summaries; cross-module importing keeps inlining across modules. The
outputs are linked with cc and run, and must not depend on the thread count.
"""

from __future__ import annotations

import subprocess

import pytest

import llvmplug

# Two translation units, each with a static helper of the same name (the
# promoted copies must not collide) and a call across them.
MAIN = r"""
@.str = private unnamed_addr constant [7 x i8] c"%d %d\0A\00"
declare i32 @printf(ptr, ...)
declare i32 @other(i32)
define internal i32 @helper(i32 %x) noinline {
  %y = mul i32 %x, 3
  ret i32 %y
}
define i32 @main() {
  %a = call i32 @helper(i32 5)
  %b = call i32 @other(i32 %a)
  %c = call i32 @twice(i32 %b)
  call i32 (ptr, ...) @printf(ptr @.str, i32 %b, i32 %c)
  ret i32 0
}
define i32 @twice(i32 %x) {
  %y = shl i32 %x, 1
  ret i32 %y
}
"""

OTHER = r"""
@table = internal constant [2 x i32] [i32 100, i32 200]
define internal i32 @helper(i32 %x) noinline {
  %t = load i32, ptr @table
  %y = add i32 %x, %t
  ret i32 %y
}
define i32 @other(i32 %x) {
  %r = call i32 @helper(i32 %x)
  ret i32 %r
}
"""


def run_program(objects: list[bytes], tmp_path, cc) -> str:
    paths = []
    for index, obj in enumerate(objects):
        path = tmp_path / f"part{index}.o"
        path.write_bytes(obj)
        paths.append(str(path))
    subprocess.run([cc, *paths, "-o", str(tmp_path / "program")], check=True)
    return subprocess.run([str(tmp_path / "program")], capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize("level", ["-O0", "-O2", "-O3"])
def test_modules_compiled_together_link_and_run(level, tmp_path, cc):
    objects = llvmplug.compile_modules([MAIN, OTHER], flags=[level, "-relocation-model=pic"])
    assert len(objects) == 2
    assert run_program(objects, tmp_path, cc) == "115 230\n"


def test_outputs_do_not_depend_on_the_thread_count():
    one = llvmplug.compile_modules([MAIN, OTHER], flags="-O2", threads=1)
    assert llvmplug.compile_modules([MAIN, OTHER], flags="-O2", threads=2) == one
    assert llvmplug.compile_modules([MAIN, OTHER], flags="-O2", threads=8) == one


def test_inlining_crosses_modules_through_importing():
    """other() is imported into the first module and folded: its call is gone."""
    optimised = llvmplug.compile_modules([MAIN, OTHER], flags="-O2", output="bc")
    text = llvmplug.compile(optimised[0], flags="-passes=", output="ll").decode()
    main = text.split("@main()")[1].split("\n}")[0]
    assert "@other" not in main and "@helper.llvm." in main, text  # helper is noinline: promoted, called


def test_promoted_helpers_of_separate_calls_do_not_collide(tmp_path, cc):
    """Two calls, each promoting its own static helper: the names carry each module's hash."""
    first = llvmplug.compile_modules([MAIN, OTHER], flags=["-O2", "-relocation-model=pic"])
    renamed = OTHER.replace("@other", "@other_b").replace("i32 100", "i32 1000")
    second = llvmplug.compile_modules([renamed.replace("define i32 @other_b", "define i32 @other_b")],
                                      flags=["-O2", "-relocation-model=pic"])
    text = llvmplug.compile_modules([MAIN, OTHER], flags="-O2", output="bc")
    names = {line.split("@")[1].split("(")[0] for line in
             llvmplug.compile(text[1], flags="-passes=", output="ll").decode().splitlines()
             if line.startswith("define") and ".llvm." in line}
    assert names and all(not name.endswith(".llvm.0") for name in names), names
    assert run_program(first + second, tmp_path, cc) == "115 230\n"


def test_stop_before_codegen_gives_optimised_bitcode_per_module(tmp_path, cc):
    bitcode = llvmplug.compile_modules([MAIN, OTHER], flags="-O2", output="bc")
    assert all(b[:4] == b"BC\xc0\xde" for b in bitcode)
    # Generated one by one afterwards (no IR pipeline), they still make the program.
    objects = [llvmplug.compile(b, flags=["-passes=", "-relocation-model=pic"]) for b in bitcode]
    assert run_program(objects, tmp_path, cc) == "115 230\n"


def test_conflicting_definitions_are_a_link_error():
    with pytest.raises(llvmplug.LinkError, match="'twice' is defined by module 0 and module 1"):
        llvmplug.compile_modules([MAIN, MAIN.replace("@main", "@main2")])


@pytest.mark.parametrize("flags, output, error, match", [
    ("-passes=default<O2>", "obj", llvmplug.OptionError, "-passes cannot be used"),
    ("", "ll", llvmplug.ArgumentError, "output"),
])
def test_what_thinlto_cannot_do_is_refused(flags, output, error, match):
    with pytest.raises(error, match=match):
        llvmplug.compile_modules([MAIN, OTHER], flags=flags, output=output)


@pytest.mark.parametrize("modules, error", [([], llvmplug.ArgumentError), ("define void @f() {\n ret void\n}",
                                                                            llvmplug.ArgumentTypeError)])
def test_bad_module_lists(modules, error):
    with pytest.raises(error):
        llvmplug.compile_modules(modules)


def test_parts_are_optimised_in_parallel_and_still_make_the_program(tmp_path, cc):
    """compile_parts splits first, then optimises the parts ThinLTO's way."""
    whole = MAIN.replace("declare i32 @other(i32)\n", "") + OTHER.replace("@helper", "@helper2").replace(
        "@table", "@table2")
    parts = llvmplug.compile_parts(whole, flags=["-O2", "-relocation-model=pic"], parts=2, cache=None)
    assert len(parts) == 2
    assert run_program(parts, tmp_path, cc) == "115 230\n"
    again = llvmplug.compile_parts(whole, flags=["-O2", "-relocation-model=pic"], parts=2, cache=None)
    assert again == parts


def test_modules_under_process_isolation_match_in_process():
    with llvmplug.Plugin(isolation="process") as plugin:
        assert plugin.compile_modules([MAIN, OTHER], flags="-O2") == llvmplug.compile_modules([MAIN, OTHER],
                                                                                              flags="-O2")
