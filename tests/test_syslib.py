"""llvmplug.system_library: a name -> address table for runtimes without a dynamic loader."""

from __future__ import annotations

import io
import shutil
import subprocess
import tempfile
import sys

import pytest
from elftools.elf.elffile import ELFFile

import llvmplug

FUNCTIONS_C = """
int add(int a, int b) { return a + b; }
int mul(int a, int b) { return a * b; }
"""

MAIN_C = r"""
#include <stdio.h>
#include <string.h>
void *llvmplug_syslib_lookup(const char *name);
struct entry { const char *name; void *address; };
extern const struct entry llvmplug_syslib_table[];
int add(int, int);
int main(void) {
  int (*add_)(int, int) = (int (*)(int, int))llvmplug_syslib_lookup("add");
  int (*mul_)(int, int) = (int (*)(int, int))llvmplug_syslib_lookup("mul");
  int entries = 0;
  while (llvmplug_syslib_table[entries].name) entries++;
  printf("%d %d %d %d %d %d\n", add_(2, 3), mul_(4, 5), add_ == add,
         llvmplug_syslib_lookup("ad") == NULL, llvmplug_syslib_lookup("addx") == NULL, entries);
  return 0;
}
"""


def test_host_program_calls_functions_by_name(tmp_path, cc):
    (tmp_path / "functions.c").write_text(FUNCTIONS_C)
    (tmp_path / "main.c").write_text(MAIN_C)
    (tmp_path / "syslib.o").write_bytes(
        llvmplug.system_library(["add", "mul"], flags="-relocation-model=pic"))
    subprocess.run([cc, "-o", str(tmp_path / "program"), str(tmp_path / "main.c"),
                    str(tmp_path / "functions.c"), str(tmp_path / "syslib.o")], check=True)
    run = subprocess.run([str(tmp_path / "program")], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["5", "20", "1", "1", "1", "2"]


def _symbols(obj: bytes) -> tuple[str, dict[str, str]]:
    elf = ELFFile(io.BytesIO(obj))
    table = elf.get_section_by_name(".symtab")
    symbols = {s.name: s["st_shndx"] for s in table.iter_symbols() if s.name and s["st_info"]["bind"] == "STB_GLOBAL"}
    return elf["e_machine"], symbols


@pytest.mark.parametrize("triple, machine", [("thumbv7em-none-eabi", "EM_ARM"),
                                             ("riscv32-unknown-elf", "EM_RISCV")])
def test_bare_metal_object_needs_only_the_functions(triple, machine):
    """For a microcontroller: the object references the listed functions and nothing else (no libc)."""
    names = ["add", "mul", "kernel.v2"]
    e_machine, symbols = _symbols(llvmplug.system_library(names, triple))
    assert e_machine == machine
    undefined = {name for name, index in symbols.items() if index == "SHN_UNDEF"}
    assert undefined == set(names)
    assert {"llvmplug_syslib_lookup", "llvmplug_syslib_table"} <= set(symbols) - undefined


def test_bare_metal_link_with_lld(tmp_path):
    """The RISC-V object links into a static bare-metal image with the functions' object (ld.lld)."""
    lld = next(filter(None, map(shutil.which, [f"ld.lld-{v}" for v in range(30, 18, -1)] + ["ld.lld"])), None)
    if lld is None:
        pytest.skip("no ld.lld (Debian's lld-19)")
    target = "riscv32-unknown-elf"
    functions = "define i32 @add(i32 %a, i32 %b) {\n  %s = add i32 %a, %b\n  ret i32 %s\n}\n" \
                "define i32 @mul(i32 %a, i32 %b) {\n  %p = mul i32 %a, %b\n  ret i32 %p\n}\n"
    # +m: multiplication in hardware (without it the code calls libgcc's __mulsi3).
    (tmp_path / "functions.o").write_bytes(llvmplug.compile(functions, target, "-mattr=+m"))
    (tmp_path / "syslib.o").write_bytes(llvmplug.system_library(["add", "mul"], target, prefix="registry"))
    subprocess.run([lld, "--entry=registry_lookup", "-o", str(tmp_path / "image"),
                    str(tmp_path / "syslib.o"), str(tmp_path / "functions.o")], check=True)
    machine, symbols = _symbols((tmp_path / "image").read_bytes())
    assert machine == "EM_RISCV" and "SHN_UNDEF" not in {symbols[n] for n in ("add", "mul", "registry_lookup")}


@pytest.mark.parametrize("functions, error", [
    ([], llvmplug.ArgumentError),
    ("add", llvmplug.ArgumentTypeError),
    (["add", "add"], llvmplug.ArgumentError),
    (["a\0b"], llvmplug.ArgumentError),
    ([1], llvmplug.ArgumentTypeError),
    (["llvmplug_syslib_lookup"], llvmplug.ArgumentError),
])
def test_bad_function_lists_are_typed_errors(functions, error):
    with pytest.raises(error):
        llvmplug.system_library(functions)


@pytest.mark.parametrize("name, shown", [
    ("llvm.x86.sse2.pmulu.dq", "'llvm.'"),  # old: SIGSEGV (the IR parser freed the renamed intrinsic)
    ("llvm.memcpy.p0.p0.i64", "'llvm.'"),  # old: a VerifyError about intrinsic users
    ("\udc80", "lone surrogate"),  # old: an untyped UnicodeEncodeError
])
def test_names_no_table_can_hold_are_argument_errors(name, shown):
    code = f"""
import llvmplug
try:
    llvmplug.system_library(["f", {name!r}])
except llvmplug.ArgumentError as error:
    print(error)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tempfile.gettempdir(), text=True, timeout=120)
    assert done.returncode == 0, f"the child died ({done.returncode}): {done.stderr[-2000:]}"
    assert shown in done.stdout and repr(name) in done.stdout, done.stdout


def test_names_like_the_tables_own_strings_are_kept_apart():
    # Old: a function named ".name.0" redefined the table's first string (ParseError).
    obj = llvmplug.system_library([".name.0", "0", "f"], "x86_64-unknown-linux-gnu")
    symbols = _symbols(obj)[1]
    assert {".name.0", "0", "f"} <= set(symbols)


def test_bad_prefix_is_an_argument_error():
    with pytest.raises(llvmplug.ArgumentError, match="prefix"):
        llvmplug.system_library(["add"], prefix="not an identifier")
