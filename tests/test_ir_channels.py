"""The IR itself as an input channel: assembler text, target attributes, link modules' limits, data layout.

Under the safe policy (the default) LLVM's assembler never reads a host file
for a module, and what module asm and inline asm may expand to is bounded;
``policy="all"`` keeps LLVM's behaviour. Function attributes naming an
unknown CPU or feature are TargetErrors like the flags. Link modules go
through the same parse, with the same limits. A module without a data layout
is parsed with the target's, as llc parses it.

Hostile inputs that would hang or exhaust the host on a build without these
checks run in a child process (``isolation="process"`` with a timeout and a
memory limit, or a subprocess), so that such a build fails these tests
instead of taking the test run down.
"""

from __future__ import annotations

import ctypes
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_llc_parity import reference, refllc  # noqa: E402,F401  (the refllc fixture and its runner)

import llvmplug  # noqa: E402

MARKER = b"LLVMPLUG-SECRET-7f3a9c"


@pytest.fixture(scope="module")
def isolated():
    """A child process with a memory limit, for inputs that exhaust or kill a build without the checks."""
    with llvmplug.Plugin(isolation="process", memory_limit=2 << 30) as plugin:
        yield plugin


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_bytes(MARKER + b"\n")
    return path


def module_asm(text: str) -> str:
    """IR whose module asm is `text` (quotes and newlines escaped as IR strings want)."""
    escaped = text.replace("\\", "\\5C").replace('"', "\\22").replace("\n", "\\0A")
    return f'module asm "{escaped}"\ndefine void @f() {{\n  ret void\n}}\n'


def inline_asm(text: str, constraints: str = "", args: str = "", prelude: str = "") -> str:
    escaped = text.replace("\\", "\\5C").replace('"', "\\22").replace("\n", "\\0A")
    return (f'{prelude}define void @f() {{\n  call void asm sideeffect "{escaped}", "{constraints}"({args})\n'
            "  ret void\n}\n")


# -- directives that read or write host files, or print ----------------------------

@pytest.mark.parametrize("spelling", [".incbin", ".INCBIN", ".IncBin", ".include"])
@pytest.mark.parametrize("where", ["module", "inline"])
def test_directives_that_read_files_are_refused(secret, spelling, where):
    text = f'{spelling} "{secret}"'
    ir = module_asm(text) if where == "module" else inline_asm(text)
    with pytest.raises(llvmplug.OptionError, match=rf"the assembler directive '\{spelling}' \(it reads a file"):
        llvmplug.compile(ir)


@pytest.mark.parametrize("text", [".print \"hello\"", ".secure_log_unique \"x\""])
def test_directives_that_print_or_write_are_refused(text):
    with pytest.raises(llvmplug.OptionError, match="the assembler directive .* is refused by the safe policy"):
        llvmplug.compile(module_asm(text), "x86_64-apple-macosx")


@pytest.mark.parametrize("output", ["asm", "bc"])
def test_incbin_is_refused_for_every_output(secret, output):
    """Assembly output assembles inline asm too, and writing bitcode parses module asm for its symbol table."""
    with pytest.raises(llvmplug.OptionError, match="'.incbin'"):
        llvmplug.compile(module_asm(f'.incbin "{secret}"'), output=output)


def test_incbin_is_refused_under_process_isolation(secret):
    with llvmplug.Plugin(isolation="process") as plugin:
        with pytest.raises(llvmplug.OptionError, match="'.incbin'"):
            plugin.compile(module_asm(f'.incbin "{secret}"'), timeout=60)


def test_the_all_policy_keeps_llvm_behaviour(secret):
    ir = module_asm(f'.incbin "{secret}"')
    with llvmplug.Plugin(private=True, policy="all", sandbox=False) as trusted:  # (the sandbox: test_sandbox.py)
        assert MARKER in trusted.compile(ir)
    with pytest.raises(llvmplug.OptionError, match="'.incbin'"):
        llvmplug.compile(ir)


def test_incbin_of_stdin_does_not_block(tmp_path):
    """Run in a child with an open stdin pipe: a build that reads it blocks until the timeout."""
    code = ("import llvmplug\n"
            "try:\n"
            "    llvmplug.compile('module asm \".incbin \\\\22/dev/stdin\\\\22\"\\n')\n"
            "except llvmplug.OptionError as error:\n"
            "    print('refused:', error.message)\n")
    child = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, cwd=tmp_path)
    try:
        child.wait(timeout=60)  # stdin stays open (communicate() would close it)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        pytest.fail('.incbin "/dev/stdin" blocked the compile')
    finally:
        child.stdin.close()
    out, err = child.stdout.read(), child.stderr.read()
    child.stdout.close()
    child.stderr.close()
    assert child.returncode == 0, err.decode()[-2000:]
    assert b"refused:" in out and b"'.incbin'" in out


# -- nothing may build a directive name ---------------------------------------------

@pytest.mark.parametrize("text, what", [
    ('.irp s, bin\n.inc\\s "{secret}"\n.endr', "'.irp'"),
    ('.irpc c, x\n.incbin "{secret}"\n.endr', "'.irpc'"),
    ('.macro m\n.inc\\()bin "{secret}"\n.endm\nm', "'.macro'"),
    ('.altmacro\n.fill 1', "'.altmacro'"),
    ('.rept 1\n.inc\\()bin "{secret}"\n.endr', r"'\\' outside a string"),
    ('.rept 1\n.p\\@align 4\n.endr', r"'\\' outside a string"),
    ('.rept 1\n.ascii "\\()"\n.endr', r"'\\\(' inside a .rept body"),
])
def test_macro_machinery_is_refused(secret, text, what):
    with pytest.raises(llvmplug.OptionError, match=what):
        llvmplug.compile(module_asm(text.format(secret=secret)))


@pytest.mark.parametrize("body, what", [
    ('.inc$0bin "{secret}"', "'.inc\\$0bin': it is not on llvmplug's allow-list"),
    ('.ascii "$0"', "'\\$0' inside a Mach-O .rept body"),
])
def test_mach_o_rept_substitutions_are_refused(secret, body, what):
    """On Mach-O a .rept body replaces $0-$9 (no arguments: by nothing), so '.inc$0bin' is .incbin."""
    ir = module_asm(".rept 1\n" + body.format(secret=secret) + "\n.endr")
    with pytest.raises(llvmplug.OptionError, match=what):
        llvmplug.compile(ir, "x86_64-apple-macosx")


def test_an_operand_cannot_complete_a_directive_name(secret):
    """AsmPrinter prints ${0:c} as the symbol's name: '.inc' + 'bin' would be .incbin."""
    ir = inline_asm(f'.inc${{0:c}} "{secret}"', "s", "ptr @bin", prelude="@bin = global i32 0\n")
    with pytest.raises(llvmplug.OptionError, match="operand joined to '.inc'"):
        llvmplug.compile(ir)


def test_an_operand_symbol_must_have_a_plain_name():
    ir = inline_asm("call ${0:c}", "s", "ptr @\"x\\0A.incbin\"", prelude='@"x\\0A.incbin" = global i32 0\n')
    with pytest.raises(llvmplug.OptionError, match="not a plain identifier"):
        llvmplug.compile(ir)


# -- expansion is bounded -------------------------------------------------------------

REPT_BOMB = ".rept 1000\n.rept 1000\n.rept 1000\n.rept 1000\n.rept 1000\nnop\n.endr\n.endr\n.endr\n.endr\n.endr"


@pytest.mark.parametrize("text", [
    REPT_BOMB,
    ".fill 10000000, 8, 0",
    ".space 0x5000000",
    ".zero 80000000",
    ".p2align 40",
    ".balign 0x8000000",
    ".org 0x5000000",
    ".rept 100000\n.rept 100000\nnop\n.endr\n.endr",
    ".rept 0\n.endr\n.fill 10000000, 8, 0",  # a .rept 0 elsewhere multiplies nothing away
    '.file 400000000 "x.c"',  # MC resizes its file table to the number
    '.file /**/ 4294967295 "x.c"',  # a comment hid the number from llvmplug 2.1's scan (a SIGSEGV)
])
def test_expansion_beyond_the_limit_is_a_limit_error(isolated, text):
    """Each just over the 64 MiB limit or far beyond it, in a child with a memory limit (a build without
    the limit returns the bytes or exhausts the child)."""
    with pytest.raises(llvmplug.LimitError, match="64 MiB"):
        isolated.compile(module_asm(text), timeout=120)


@pytest.mark.parametrize("text", [".rept 1<<40\nnop\n.endr", ".space 1<<40", ".fill n", ".space 1/1*200000000",
                                  ".p2align 2+2"])
def test_counts_that_are_not_literals_are_limit_errors(isolated, text):
    with pytest.raises(llvmplug.LimitError, match="cannot bound"):
        isolated.compile(module_asm(text), timeout=120)


def test_inline_asm_copied_by_inlining_counts_every_copy(isolated):
    """One 1 MiB .space, inlined into 80 callers: 80 MiB once optimised, so -O2 refuses what -O0 accepts."""
    callers = "".join(f"define void @c{i}() {{\n  call void @pad()\n  ret void\n}}\n" for i in range(80))
    ir = ('define internal void @pad() {\n  call void asm sideeffect ".space 1048576", ""()\n'
          "  ret void\n}\n" + callers)
    assert len(isolated.compile(ir, flags="-O0", timeout=120)) > 1 << 20
    with pytest.raises(llvmplug.LimitError, match="every inline asm call counted"):
        isolated.compile(ir, flags="-O2", timeout=120)


@pytest.mark.parametrize("expression", ["(" * 100_000 + "1" + ")" * 100_000, "-" * 100_000 + "1"],
                         ids=["brackets", "unary-minus"])
def test_deep_assembler_expressions_are_limit_errors(isolated, expression):
    """MC's expression parser recurses on brackets and unary operators: deep enough, it overflows the stack."""
    with pytest.raises(llvmplug.LimitError, match="nests more than 1000"):
        isolated.compile(inline_asm(".long " + expression), timeout=120)


# -- ordinary asm keeps working ------------------------------------------------------

def test_ordinary_inline_asm_compiles_and_runs(load_object):
    ir = r"""
define i32 @add_one(i32 %x) {
  %y = call i32 asm "leal 1($1), $0", "=r,r"(i32 %x)
  ret i32 %y
}
define i32 @three() {
  %y = call i32 asm "movl $$3, $0\0A.p2align 4\0A1:\0A.rept 4\0Anop\0A.endr\0A.space 16, 0x90 # pad", "=r"()
  ret i32 %y
}
module asm ".file 1 \22asm.c\22"
module asm ".section .rodata.llvmplug,\22a\22,@progbits"
module asm ".p2align 4"
module asm "table: .long 1, 2, 3"
module asm ".text"
"""
    with pytest.raises(llvmplug.OptionError, match="'.incbin'"):
        llvmplug.compile(ir + 'module asm ".incbin \\22/etc/hostname\\22"\n')  # the check is on
    lib = load_object(llvmplug.compile(ir, flags="-relocation-model=pic"), "asm")
    lib.add_one.restype, lib.add_one.argtypes = ctypes.c_int, [ctypes.c_int]
    lib.three.restype = ctypes.c_int
    assert lib.add_one(41) == 42
    assert lib.three() == 3


def test_ptx_inline_asm_is_left_alone():
    """NVPTX has no assembler in LLVM: its inline asm is printed as is, and PTX has dotted words everywhere."""
    ir = """target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p) {
  %v = call i32 asm "{ .reg .b32 t; mov.u32 t, 7; add.s32 $0, t, 1; }", "=r"()
  store i32 %v, ptr addrspace(1) %p
  ret void
}
"""
    ptx = llvmplug.compile(ir, flags="-mcpu=sm_80", output="asm")
    assert b"add.s32" in ptx and b".reg .b32 t;" in ptx
    # The same asm for a target that assembles it is checked ('.reg' is no directive there, '.incbin' is).
    x86 = ir.replace('target triple = "nvptx64-nvidia-cuda"\n', "").replace("ptx_kernel ", "").replace(
        "ptr addrspace(1)", "ptr").replace("mov.u32 t, 7;", ".incbin \\22/etc/hostname\\22;")
    with pytest.raises(llvmplug.OptionError, match="'.incbin'"):
        llvmplug.compile(x86, "x86_64-unknown-linux-gnu")


# -- target attributes are checked like the flags -------------------------------------

@pytest.mark.parametrize("attributes, message", [
    ('"target-cpu"="no-such-cpu"', "unknown CPU 'no-such-cpu' .*function 'f'"),
    ('"tune-cpu"="no-such-cpu"', "unknown tuning CPU 'no-such-cpu' .*function 'f'"),
    ('"target-features"="+avx2,+no-such-feature"', r"unknown CPU feature '\+no-such-feature' .*function 'f'"),
])
def test_unknown_target_attributes_are_target_errors(attributes, message):
    ir = f"define void @f() #0 {{\n  ret void\n}}\nattributes #0 = {{ {attributes} }}\n"
    with pytest.raises(llvmplug.TargetError, match=message):
        llvmplug.compile(ir, "x86_64-unknown-linux-gnu")


def test_unknown_target_attributes_in_a_link_module_are_target_errors():
    helper = 'define i32 @h(i32 %x) #0 {\n  ret i32 %x\n}\nattributes #0 = { "target-cpu"="gfx9000" }\n'
    main = "declare i32 @h(i32)\ndefine i32 @f(i32 %x) {\n  %y = call i32 @h(i32 %x)\n  ret i32 %y\n}\n"
    with pytest.raises(llvmplug.TargetError, match="unknown CPU 'gfx9000'"):
        llvmplug.compile(main, "x86_64-unknown-linux-gnu", link=[helper])


def test_unknown_disabled_features_are_dropped_without_a_word(capfd):
    """clang 19 lists -experimental-smmpm and friends in every RISC-V function; LLVM 23 knows them by other
    names. Disabling an unknown feature disables nothing: it is dropped, and LLVM prints nothing."""
    ir = ('target triple = "riscv64-unknown-linux-gnu"\ndefine i32 @f(i32 %x) #0 {\n  ret i32 %x\n}\n'
          'attributes #0 = { "target-cpu"="generic-rv64" "target-features"="+m,+a,-experimental-smmpm,-relax" }\n')
    text = llvmplug.compile(ir, flags="-passes=", output="ll")
    assert b'"target-features"="+m,+a,-relax"' in text
    assert llvmplug.compile(ir)[:4] == b"\x7fELF"
    assert "not a recognized feature" not in capfd.readouterr().err
    with pytest.raises(llvmplug.TargetError, match="unknown CPU feature '\\+experimental-smmpm'"):
        llvmplug.compile(ir.replace("-experimental-smmpm", "+experimental-smmpm"))


def test_known_target_attributes_compile_and_a_typo_does_not():
    ir = ('define void @f() #0 {\n  ret void\n}\n'
          'attributes #0 = { "target-cpu"="skylake" "tune-cpu"="generic" "target-features"="+avx2,-sse4a" }\n')
    assert llvmplug.compile(ir, "x86_64-unknown-linux-gnu")[:4] == b"\x7fELF"
    with pytest.raises(llvmplug.TargetError, match="unknown CPU 'skylak'"):
        llvmplug.compile(ir.replace("skylake", "skylak"), "x86_64-unknown-linux-gnu")


# -- link modules: the same parse, the same limits ------------------------------------

MAIN = "declare i32 @h(i32)\ndefine i32 @f(i32 %x) {\n  %y = call i32 @h(i32 %x)\n  ret i32 %y\n}\n"
HELPER = "define i32 @h(i32 %x) {\n  ret i32 %x\n}\n"


def test_a_deep_link_module_is_a_limit_error(isolated):
    """200,000 nested brackets: without the limit the child dies (WorkerCrashedError), not the test."""
    deep = "@g = global " + "[1 x " * 200_000 + "i32" + "]" * 200_000 + " zeroinitializer\n"
    with pytest.raises(llvmplug.LimitError, match="link module 2: .*nests brackets"):
        isolated.compile(MAIN, link=[HELPER, deep], timeout=120)


def test_a_lazily_loaded_link_function_is_checked_when_loaded(secret):
    """A bitcode link module's bodies load only when needed; each is checked as it loads."""
    helper = inline_asm(f'.incbin "{secret}"').replace("define void @f()", "define void @g()")
    with llvmplug.Plugin(private=True, policy="all") as trusted:
        bitcode = trusted.compile(helper, flags="-passes=", output="bc")
    main = "declare void @g()\ndefine void @f() {\n  call void @g()\n  ret void\n}\n"
    with pytest.raises(llvmplug.OptionError, match="link module 1: inline asm in function 'g'.*'.incbin'"):
        llvmplug.compile(main, link=[bitcode])
    unused = "define void @f() {\n  ret void\n}\n"
    assert llvmplug.compile(unused, link=[bitcode])[:4] == b"\x7fELF"  # never loaded, never checked


def test_inline_asm_of_a_link_module_is_checked(secret):
    helper = inline_asm(f'.incbin "{secret}"').replace("define void @f()", "define void @g()")
    main = "declare void @g()\ndefine void @f() {\n  call void @g()\n  ret void\n}\n"
    with pytest.raises(llvmplug.OptionError, match="link module 1: inline asm in function 'g'.*'.incbin'"):
        llvmplug.compile(main, link=[helper])


# -- data layout at parse time: as llc --------------------------------------------------

NO_LAYOUT = """source_filename = "layout.ll"
define i64 @copy(ptr %p, ptr %q) {
  %v = load i64, ptr %p
  store i64 %v, ptr %q
  %w = load double, ptr %q
  %x = fptosi double %w to i64
  %s = add i64 %v, %x
  ret i64 %s
}
"""
NVPTX_NO_LAYOUT = """source_filename = "layout.ll"
target triple = "nvptx64-nvidia-cuda"
define ptx_kernel void @k(ptr addrspace(1) %p, ptr addrspace(1) %q) {
  %v = load i64, ptr addrspace(1) %p
  %w = load double, ptr addrspace(1) %q
  %x = fptosi double %w to i64
  %s = add i64 %v, %x
  store i64 %s, ptr addrspace(1) %q
  ret void
}
"""


def test_a_module_without_a_data_layout_gets_the_targets_alignment():
    """LLVM's default layout aligns i64 to 4; wasm32's to 8, which llc prints as no p2align."""
    wasm = llvmplug.compile(NO_LAYOUT, flags="-passes= -mtriple=wasm32-unknown-unknown", output="asm")
    assert b"i64.load\t0\n" in wasm and b"p2align=2" not in wasm
    ptx = llvmplug.compile(NVPTX_NO_LAYOUT, flags="-passes= -mcpu=sm_80", output="asm")
    assert b"ld.global.b64" in ptx and b"ld.global.b32" not in ptx


@pytest.mark.parametrize("ir, flags", [(NO_LAYOUT, "-mtriple=wasm32-unknown-unknown"),
                                       (NVPTX_NO_LAYOUT, "-mcpu=sm_80"),
                                       (NO_LAYOUT, "-march=nvptx64")])
def test_a_module_without_a_data_layout_equals_refllc(refllc, tmp_path, ir, flags):
    if not {"WebAssembly", "NVPTX"} <= set(llvmplug.info()["backends"]):
        pytest.skip("built without WebAssembly or NVPTX")
    assert llvmplug.compile(ir, flags=f"-passes= {flags}", output="asm") == reference(refllc, ir, flags, "asm", tmp_path)

