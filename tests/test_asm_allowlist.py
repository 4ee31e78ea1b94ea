"""The asm allow-list (csrc/asm_*): asm is checked as the assembler will read it, against one table.

Issue 25 §1: llvmplug 2.1 checked the raw IR string against a list of dangerous
directives, so whatever that list and its hand-written scan missed reached
LLVM's assembler: Intel-dialect "$$" (nothing to AsmPrinter), counts with
operators, a comment hiding a table index, directives no list named, long or
self-referencing expressions. Every attack below reaches the host, crashes,
hangs or prints on that build; each runs in a child process
(``isolation="process"``, a timeout and a memory limit) so that a build
without the checks fails the test instead of taking the run down. Ordinary
asm of every kind the corpus and real programs use keeps compiling, to the
same bytes as under ``policy="all"``.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import llvmplug

sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
import asm_table  # noqa: E402

MARKER = b"LLVMPLUG-ASM-SECRET-51e0"


@pytest.fixture(scope="module")
def isolated():
    with llvmplug.Plugin(isolation="process", memory_limit=2 << 30) as plugin:
        yield plugin


@pytest.fixture(scope="module")
def trusted():
    # The control: LLVM as it is, so also without the kernel's sandbox (which
    # would refuse the reads these tests show the policy must stop).
    with llvmplug.Plugin(private=True, policy="all", sandbox=False) as plugin:
        yield plugin


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    path = tmp_path / "secret.txt"
    path.write_bytes(MARKER + b"\n")
    return path


def escape(text: str) -> str:
    return text.replace("\\", "\\5C").replace('"', "\\22").replace("\n", "\\0A")


def module_asm(text: str, triple: str | None = None) -> str:
    head = f'target triple = "{triple}"\n' if triple else ""
    return f'{head}module asm "{escape(text)}"\ndefine void @f() {{\n  ret void\n}}\n'


def inline_asm(text: str, dialect: str = "", constraints: str = "", args: str = "", prelude: str = "") -> str:
    return (f'{prelude}define void @f() {{\n  call void asm sideeffect {dialect} "{escape(text)}", "{constraints}"'
            f'({args})\n  ret void\n}}\n')


def refused(plugin: llvmplug.Plugin, ir: str, what: str, error=llvmplug.OptionError, **kwargs) -> None:
    if plugin.isolation == "process":
        kwargs.setdefault("timeout", 60)
    with pytest.raises(error, match=what):
        plugin.compile(ir, **kwargs)


# -- Intel-dialect inline asm: "$$" is nothing to AsmPrinter -----------------------------------

@pytest.mark.parametrize("text, what", [
    ('.inc$$bin "{secret}"', "'.incbin'"),
    ('.in$$clude "{secret}"', "'.include'"),
    ('.pr$$int "hello"', "'.print'"),
    (".mac$$ro m\nnop\n.endm", "'.macro'"),
])
def test_intel_dialect_dollars_cannot_build_a_directive(isolated, secret, text, what):
    refused(isolated, inline_asm(text.format(secret=secret), "inteldialect"), what)


def test_intel_dialect_dollars_cannot_build_a_size(isolated):
    """'.sp$$ace 100000000' is a 100 MB .space to an Intel-dialect call."""
    refused(isolated, inline_asm(".sp$$ace 100000000", "inteldialect"), "64 MiB", llvmplug.LimitError)


def test_the_text_checked_is_the_text_assembled(trusted, secret):
    """Under policy="all" the Intel call really reads the file: the check above is on the text LLVM reads."""
    assert MARKER in trusted.compile(inline_asm(f'.inc$$bin "{secret}"', "inteldialect"))
    # In the GCC dialect "$$" is a '$': no directive, and MC says so.
    with pytest.raises(llvmplug.CodegenError, match="unknown directive"):
        trusted.compile(inline_asm(f'.inc$$bin "{secret}"'))


@pytest.mark.parametrize("dialect, text, accepted", [
    # $( a $| b $): AsmPrinter keeps variant 0 of a GCC-dialect call, variant 1 of an Intel one.
    ("", '$(nop$|.incbin "{secret}"$)', True),
    ("inteldialect", '$(nop$|.incbin "{secret}"$)', False),
    ("", '$(.incbin "{secret}"$|nop$)', False),
    ("inteldialect", '$(.incbin "{secret}"$|nop$)', True),
    # ${:comment} is the target's comment string: what follows it is not assembled.
    ("", '${{:comment}} .incbin "{secret}"', True),
    # ${:private} is the private prefix, ".L" on ELF: ".L" + "comm" is .lcomm, sized by a literal.
    ("", "${{:private}}comm x, 100000000", False),
    # ${:uid} is a number: ".code" + a number is no directive llvmplug allows.
    ("", ".code${{:uid}}", False),
])
def test_asm_printer_substitutions_are_modelled(trusted, secret, dialect, text, accepted):
    ir = inline_asm(text.format(secret=secret), dialect)
    if accepted:
        out = llvmplug.compile(ir)
        assert MARKER not in out and out == trusted.compile(ir)
    else:
        with pytest.raises((llvmplug.OptionError, llvmplug.LimitError)):
            llvmplug.compile(ir)


@pytest.mark.parametrize("text, what", [
    ("nop ${:foo}", r"'\$\{:foo\}'"),  # AsmPrinter: "Unknown special formatter" (a fatal error)
    ("nop $x", "no operand"),
    ("nop $5", "operand \\$5 of an inline asm call with 0 operands"),
    ("$(nop $(nop$)$)", "nested"),
    ("nop ${0:", "bad"),
])
def test_what_asm_printer_rejects_fatally_is_refused_first(text, what):
    refused(llvmplug.default_plugin(), inline_asm(text), what)


@pytest.mark.parametrize("text, constraints, args, what", [
    ('.inc${0:c} "x"', "s", "ptr @bin", "joined to '.inc' before"),
    ("${0:c}.incbin \"x\"", "s", "ptr @bin", "joined to '.incbin' after"),
    ('${0:c} .incbin "x"', "s", "ptr @bin", "operand at the start of a statement"),
    ("${0:c}: nop", "s", "ptr @bin", "operand at the start of a statement"),
    (".set $0, 1", "s", "ptr @bin", "operand as the symbol"),
])
def test_operands_cannot_form_or_define_names(text, constraints, args, what):
    refused(llvmplug.default_plugin(), inline_asm(text, "", constraints, args, "@bin = global i32 0\n"), what)


# -- sizes, counts and indexes: the lexer's integer tokens only ---------------------------------

@pytest.mark.parametrize("text", [".space 1/1*200000000", ".space 200000000+0", ".fill 2*100000000", ".p2align 2+28",
                                  ".rept 1-(-3)\nnop\n.endr", ".zero (200000000)"])
def test_a_count_with_an_operator_is_a_limit_error(isolated, text):
    """llvmplug 2.1 read '1' and stopped at '/': 190 MiB of object."""
    refused(isolated, module_asm(text), "not a plain number", llvmplug.LimitError)


@pytest.mark.parametrize("text", ['.file /**/ 4294967295 "x.c"', '.file 4294967295 /* x */ "x.c"',
                                  '.file 0x7fffffff "x.c"'])
def test_a_table_index_is_read_as_the_lexer_reads_it(isolated, text):
    """A comment hid the number from llvmplug 2.1's scan: MC resized its file table to it (SIGSEGV)."""
    refused(isolated, module_asm(text), "64 MiB", llvmplug.LimitError)


@pytest.mark.parametrize("text, size", [(".space 0b101", 5), (".space 010", 8), (".space 0x10", 16),
                                        (".space 'a'", 97), (".space 10ULL", 10)])
def test_literals_are_the_values_mc_reads(trusted, text, size):
    """Binary, octal, hex, character and suffixed literals are read as the real lexer reads them."""
    ir = module_asm(".data\nllvmplug_start:\n" + text + "\nllvmplug_end:\n.long llvmplug_end - llvmplug_start")
    assert llvmplug.compile(ir) == trusted.compile(ir)
    assert size.to_bytes(4, "little") in llvmplug.compile(ir)


def test_masm_integers_are_read_as_intel_asm_reads_them(isolated):
    """AsmPrinter lexes Intel-dialect inline asm with MASM integers: '4000000h' is 64 MiB, not 4000000."""
    refused(isolated, inline_asm(".space 4000001h", "inteldialect"), "64 MiB", llvmplug.LimitError)
    assert isolated.compile(inline_asm(".space 10h", "inteldialect"), timeout=60)


# -- directives no list named: refused unless the table allows them --------------------------------

CRASH_TRIPLES = ["x86_64-unknown-linux-gnu", "x86_64-pc-windows-msvc", "aarch64-unknown-linux-gnu",
                 "riscv64-unknown-linux-gnu", "wasm32-unknown-unknown", "powerpc64le-unknown-linux-gnu",
                 "s390x-unknown-linux-gnu"]


@pytest.mark.parametrize("triple", CRASH_TRIPLES)
@pytest.mark.parametrize("text", [".cv_filechecksumoffset 1", ".pseudoprobe 1 2 0 0 f"])
def test_directives_that_crash_mc_are_refused(isolated, triple, text):
    refused(isolated, module_asm(text, triple), "is refused by the safe policy")


@pytest.mark.parametrize("triple, text", [
    ("powerpc64-ibm-aix", ".globl x"),
    ("powerpc64-ibm-aix", "x = 42"),
    ("powerpc64-ibm-aix", "bl foo"),
    ("wasm32-unknown-unknown", ".byte x"),
    ("wasm32-unknown-unknown", ".cfi_restore f"),
    ("s390x-ibm-zos", " DC F'1'"),
])
def test_fragile_object_formats_accept_no_statement(isolated, triple, text):
    refused(isolated, module_asm(text, triple), "only empty asm passes")
    refused(isolated, inline_asm(text).replace("define", f'target triple = "{triple}"\ndefine', 1),
            "only empty asm passes")
    assert isolated.compile(inline_asm(""), triple, timeout=60)  # a compiler barrier stays


@pytest.mark.parametrize("triple, text, what", [
    ("powerpc64le-unknown-linux-gnu", ".byte s0", "a symbol or '.' in an operand of '.byte'"),
    ("powerpc64le-unknown-linux-gnu", "1: .byte 1f\n", "a symbol or '.' in an operand of '.byte'"),
    ("lanai-unknown-unknown", ".short .", "a symbol or '.' in an operand of '.short'"),
    ("x86_64-apple-macosx", "x = 1f", "local label reference"),
    ("arm64-apple-macosx", ".set x, 2f - 1f", "local label reference"),
    ("amdgcn-amd-amdhsa", ".zero 7", "not whole 4-byte words"),
    ("amdgcn-amd-amdhsa", '.ascii "abc"', "not whole 4-byte words"),
    ("amdgcn-amd-amdhsa", ".byte 1", "not whole 4-byte words"),
    ("armv7-unknown-linux-gnueabihf", ".rodata 1", "subsection other than 0"),
    ("hexagon-unknown-linux-musl", "{ foo", "without its '}'"),
    ("hexagon-unknown-linux-musl", ".comm tab, 64", "'.comm'"),
    ("lanai-unknown-unknown", ".dc 1f\n1:", "a symbol or '.' in an operand of '.dc'"),
    ("loongarch64-unknown-linux-gnu", ".option norelax", "'.option'"),
    ("armv7-unknown-linux-gnueabihf", ".pushsection .data, 2\n.popsection", "subsection number"),
])
def test_what_a_target_crashes_or_hangs_on_is_refused_there(isolated, triple, text, what):
    """Found by tests/campaigns/campaign_asm.py: each crashes (or hangs) LLVM 23.1.1 on that target only."""
    refused(isolated, module_asm(text, triple), what)


@pytest.mark.parametrize("triple, text", [
    ("powerpc64le-unknown-linux-gnu", ".byte 1, 2+3\n.long s0\n.quad ."),
    ("x86_64-unknown-linux-gnu", ".byte s0, .\n.long 1f\n1:"),
    ("amdgcn-amd-amdhsa", ".long 1\n.zero 8\n.p2align 4\ns_nop 0"),
])
def test_the_same_text_is_fine_elsewhere(trusted, triple, text):
    ir = module_asm(text, triple)
    flags = "-mcpu=gfx900" if "amdgcn" in triple else ""
    assert llvmplug.compile(ir, flags=flags) == trusted.compile(ir, flags=flags)


def test_repeated_diagnostics_count_towards_the_limit(isolated):
    """A warning per repeated statement: 300,000 of them would be ~60 MB of warnings for 3 MB of text."""
    refused(isolated, module_asm(".rept 300000\n.p2align\n.endr"), "64 MiB", llvmplug.LimitError)


@pytest.mark.parametrize("text", [".bundle_align_mode 30", ".cv_func_id 400000000", ".ds.l 5000000",
                                  ".reloc 0, R_X86_64_NONE, x", ".lto_set_conditional a, b", ".if 1\n.endif",
                                  ".subsection 4", ".no_such_directive"])
def test_directives_off_the_table_are_option_errors_naming_them(text):
    name = text.split()[0]
    refused(llvmplug.default_plugin(), module_asm(text), f"'\\{name}'")


def test_a_quoted_directive_name_is_the_directive(secret):
    """MC takes a quoted name as the statement's name: '".incbin" "file"' is .incbin."""
    refused(llvmplug.default_plugin(), module_asm(f'".incbin" "{secret}"'), "'.incbin'")


@pytest.mark.parametrize("text", [
    'foo /**/ : .incbin "{secret}"',  # a comment between a label and its ':'
    'nop ; .incbin "{secret}"',
    '.p2align 4 ; .incbin "{secret}"',
])
def test_a_second_statement_is_checked_wherever_it_starts(secret, text):
    refused(llvmplug.default_plugin(), module_asm(text.format(secret=secret)), "'.incbin'")


@pytest.mark.parametrize("text, what", [
    ('.symver a, a@V .incbin "{secret}"', "after the operands of '.symver'"),  # MC starts a statement there
    ('nop .incbin "{secret}"', "directive name '.incbin' inside"),  # a parser that stops early would run it
    ('.arch foo // ; .incbin "{secret}"', "raw scan"),  # .arch reads its line raw, to the ';'
    ('nop /* \n .incbin "{secret}" */', "raw scan"),
])
def test_statement_ends_are_where_mc_sees_them(secret, text, what):
    refused(llvmplug.default_plugin(), module_asm(text.format(secret=secret)), what)


# -- expressions and symbol definitions -------------------------------------------------------

def test_a_long_flat_expression_is_a_limit_error(isolated):
    """MC evaluates 1+1+...+1 recursively: 200,000 terms overflow its stack."""
    refused(isolated, inline_asm(".long " + "+".join(["1"] * 200_000)), "more than 4096 terms",
            llvmplug.LimitError)


def test_a_chain_of_doubling_definitions_is_a_limit_error(isolated):
    """a1 = a0+a0, a2 = a1+a1, ... on an undefined a0: evaluating a60 visits 2^60 nodes (a hang)."""
    text = ".set a0, u\n" + "".join(f".set a{i}, a{i - 1}+a{i - 1}\n" for i in range(1, 61)) + ".quad a60"
    refused(isolated, module_asm(text), "more than 4096 expression terms", llvmplug.LimitError)


def test_a_deep_chain_of_definitions_is_a_limit_error():
    text = ".set a0, 1\n" + "".join(f".set a{i}, a{i - 1}\n" for i in range(1, 100)) + ".long a99"
    refused(llvmplug.default_plugin(), module_asm(text), "chain of more than 64", llvmplug.LimitError)


@pytest.mark.parametrize("triple", ["x86_64-apple-macosx", "x86_64-unknown-linux-gnu"])
@pytest.mark.parametrize("text", [".set x, x+1\n.long x", "x = x", "x = y\ny = x", ".set a, b\n.set b, a\n.long a",
                                  ".weakref a, b\n.set b, a", ".set a, 1\n.set a, 2"])
def test_cycles_and_redefinitions_are_refused(isolated, triple, text):
    """'x = x' and 'x = y, y = x' spin for ever on Mach-O (which has no .weakref: not on its list)."""
    refused(isolated, module_asm(text, triple), "cycle|second definition|'.weakref'")


def test_symbols_across_texts_cannot_form_a_cycle(isolated):
    """Module asm and every inline asm go to one MC context: a cycle could span two texts."""
    ir = module_asm(".set a, 1").replace("ret void", 'call void asm sideeffect ".set b, a+1", ""()\n'
                                                     '  call void asm sideeffect ".set c, b", ""()\n  ret void')
    refused(isolated, ir, "from another asm text")


def test_an_asm_label_cannot_redefine_a_function(isolated):
    """AsmPrinter stops with a fatal error when a function's label was already emitted by asm."""
    refused(isolated, module_asm("f:\nnop"), "the module defines a symbol of that name")
    refused(isolated, module_asm(".set f, 1"), "the module defines a symbol of that name")
    # A function the module only declares may be defined by asm (a trampoline).
    ir = module_asm(".text\n.globl g\ng:\nret").replace("define void @f() {\n  ret void",
                                                        "declare void @g()\ndefine void @f() {\n  call void @g()\n"
                                                        "  ret void")
    assert isolated.compile(ir, timeout=60)


# -- AMDGPU metadata printed YAML errors on the host's stderr -------------------------------------

def test_amdgpu_metadata_is_refused_and_prints_nothing(tmp_path):
    code = ("import llvmplug\n"
            "ir = 'target triple = \"amdgcn-amd-amdhsa\"\\n'\n"
            "ir += 'module asm \".amdgpu_metadata\"\\nmodule asm \"  - [: : {\"\\n'\n"
            "ir += 'module asm \".end_amdgpu_metadata\"\\ndefine void @f() {\\n  ret void\\n}\\n'\n"
            "try:\n"
            "    llvmplug.compile(ir, flags='-mcpu=gfx900')\n"
            "except llvmplug.OptionError as error:\n"
            "    print('refused:', error.message)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert b"refused:" in done.stdout and b"'.amdgpu_metadata'" in done.stdout
    assert done.stderr == b""


# -- ordinary asm keeps working, byte for byte --------------------------------------------------

ORDINARY = [
    # (triple, flags, IR body of @f or a whole module)
    ("x86_64-unknown-linux-gnu", "", 'call { i32, i32, i32, i32 } asm sideeffect "cpuid", '
                                     '"={ax},={bx},={cx},={dx},0,2,~{dirflag},~{fpsr},~{flags}"(i32 0, i32 0)'),
    ("x86_64-unknown-linux-gnu", "", 'call i64 asm sideeffect "rdtsc\\0A\\09shlq $$32, %rdx\\0A\\09orq %rdx, %rax", '
                                     '"={ax},~{dx},~{dirflag},~{fpsr},~{flags}"()'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect "", "~{memory},~{dirflag},~{fpsr},~{flags}"()'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect "pause\\0A\\09mfence\\0A\\09lock; orl $$0, (%rsp)", '
                                     '"~{memory}"()'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect ".intel_syntax noprefix\\0Amov eax, 1\\0A'
                                     'lea rax, [rip + 0x10]\\0A.att_syntax prefix", "~{eax},~{rax}"()'),
    ("x86_64-unknown-linux-gnu", "", 'call i32 asm sideeffect inteldialect "mov eax, $1\\0Aadd eax, 2", '
                                     '"={eax},r,~{dirflag},~{fpsr},~{flags}"(i32 5)'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect "661:\\0A\\09nop\\0A662:\\0A.pushsection '
                                     '.altinstructions,\\22a\\22\\0A.p2align 3\\0A.long 661b - .\\0A.long 662b - .\\0A'
                                     '.byte 1, 2\\0A.popsection", ""()'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect "pushq %rbx\\0A.cfi_adjust_cfa_offset 8\\0A'
                                     'popq %rbx\\0A.cfi_adjust_cfa_offset -8", ""()'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect ".p2align 4, 0x90\\0A1: dec %ecx\\0Ajnz 1b", '
                                     '"~{ecx}"()'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect "movl $$${0:c}, %eax\\0Acall ${1:c}@PLT", '
                                     '"i,s,~{eax}"(i32 5, ptr @f)'),
    ("x86_64-unknown-linux-gnu", "", 'call void asm sideeffect ".L${:uid}:\\0Ajmp .L${:uid}", ""()'),
    ("aarch64-unknown-linux-gnu", "", 'call i64 asm sideeffect "mrs $0, cntvct_el0\\0Admb ish\\0Ayield", "=r"()'),
    ("aarch64-unknown-linux-gnu", "", 'call void asm sideeffect ".arch_extension crc\\0Acrc32cx w0, w0, x1", '
                                     '"~{w0}"()'),
    ("armv7-unknown-linux-gnueabihf", "", 'call void asm sideeffect ".syntax unified\\0Adsb ish\\0A'
                                          'mrc p15, 0, r0, c13, c0, 3\\0Aadd r0, r0, #${0:c}", "i,~{r0}"(i32 4)'),
    ("riscv64-unknown-linux-gnu", "", 'call void asm sideeffect ".option push\\0A.option norvc\\0Anop\\0A'
                                      '.option pop\\0Afence rw, rw", ""()'),
    ("mips64el-unknown-linux-gnuabi64", "", 'call void asm sideeffect ".set push\\0A.set noreorder\\0Async\\0A'
                                            '.set pop", ""()'),
    ("powerpc64le-unknown-linux-gnu", "", 'call i64 asm sideeffect "sync\\0Amftb $0", "=r"()'),
    ("s390x-unknown-linux-gnu", "", 'call void asm sideeffect "bcr 14, 0", ""()'),
    ("x86_64-apple-macosx", "", 'call void asm sideeffect "nop\\0A.p2align 2", ""()'),
    ("x86_64-pc-windows-msvc", "", 'call void asm sideeffect "nop\\0A.balign 16", ""()'),
]

ORDINARY_MODULE_ASM = [
    ("x86_64-unknown-linux-gnu", '.section .note.GNU-stack,"",@progbits'),
    ("x86_64-unknown-linux-gnu", ".symver memcpy, memcpy@GLIBC_2.2.5"),
    ("x86_64-unknown-linux-gnu", '.pushsection .rodata.tab,"a",@progbits\n.p2align 3\ntab: .quad 1, 2, 3\n'
                                 ".size tab, .-tab\n.type tab, @object\n.popsection"),
    ("x86_64-unknown-linux-gnu", '.text\n.globl tramp\n.type tramp, @function\ntramp:\n.cfi_startproc\njmp *%rax\n'
                                 ".cfi_endproc\n.size tramp, .-tramp"),
    ("x86_64-unknown-linux-gnu", '.file 1 "a.c"\n.ident "clang version 19"\n.set answer, 42\n.long answer'),
    ("x86_64-apple-macosx", ".section __TEXT,__text,regular,pure_instructions\n.private_extern _tramp\n"
                            "_tramp:\nret\n.subsections_via_symbols".replace("\n.subsections_via_symbols", "")),
    ("x86_64-pc-windows-msvc", '.section .drectve,"yn"\n.ascii " /DEFAULTLIB:kernel32"'),
    ("aarch64-unknown-linux-gnu", ".text\n.p2align 2\n.globl tramp\ntramp:\nbr x16"),
]


@pytest.mark.parametrize("triple, flags, body", ORDINARY, ids=lambda v: v[:40] if isinstance(v, str) else v)
def test_ordinary_inline_asm_compiles_as_under_policy_all(trusted, triple, flags, body):
    ir = f'target triple = "{triple}"\ndefine void @f() uwtable {{\n  {body}\n  ret void\n}}\n'
    for output in ("obj", "asm"):
        assert llvmplug.compile(ir, flags=flags, output=output) == trusted.compile(ir, flags=flags, output=output)


@pytest.mark.parametrize("triple, text", ORDINARY_MODULE_ASM, ids=lambda v: v[:40])
def test_ordinary_module_asm_compiles_as_under_policy_all(trusted, triple, text):
    ir = module_asm(text, triple)
    for output in ("obj", "bc"):
        assert llvmplug.compile(ir, output=output) == trusted.compile(ir, output=output)


CLANG_ASM = sorted((Path(__file__).resolve().parent / "data" / "asm").glob("*.ll"))


@pytest.mark.parametrize("path", CLANG_ASM, ids=lambda p: p.stem)
def test_clangs_inline_asm_compiles_as_under_policy_all(trusted, path):
    """tests/data/asm/inline_asm.c (cpuid, rdtsc, lock cmpxchg, asm goto, .intel_syntax blocks, MSVC __asm
    blocks, mrs, .arch_extension, .syntax unified, .option push, .set noreorder...) as clang-19 compiles it."""
    ir = path.read_text()
    assert ir.count("asm ") >= 3
    for output in ("obj", "asm"):
        assert llvmplug.compile(ir, output=output) == trusted.compile(ir, output=output)


@pytest.mark.parametrize("triple", ["nvptx64-nvidia-cuda", "xcore-unknown-unknown"])
def test_targets_without_an_asm_parser_print_asm_unchecked(trusted, triple):
    """NVPTX and XCore have no MC asm parser: the text is printed verbatim, never assembled, never checked."""
    ir = inline_asm('.incbin "/nonexistent" ; .rept 1000000000').replace("define", f'target triple = "{triple}"\n'
                                                                                 "define", 1)
    flags = "-mcpu=sm_80" if "nvptx" in triple else ""
    out = llvmplug.compile(ir, flags=flags, output="asm")
    assert b'.incbin "/nonexistent"' in out and out == trusted.compile(ir, flags=flags, output="asm")


def test_spirv_has_no_asm_parser_either():
    """SPIR-V refuses asm itself (a typed error of its own), whatever the policy: still not our check's."""
    ir = module_asm('.incbin "/nonexistent"', "spirv64-unknown-unknown")
    with pytest.raises(llvmplug.CodegenError, match="SPIR-V does not support module-level inline assembly"):
        llvmplug.compile(ir)


def test_docs_count_the_table():
    """docs/safety.md quotes the table's size: it must be the table's."""
    rows = asm_table.rows()
    text = (Path(__file__).resolve().parents[1] / "docs" / "safety.md").read_text()
    quoted = re.search(r"(\d+) rows for (\d+) names, (\d+)\s+rows allow something", text)
    assert quoted, "docs/safety.md no longer counts the rows of csrc/policy/asm_directives.def"
    assert tuple(map(int, quoted.groups())) == (
        len(rows), len({row.name for row in rows}), sum(row.rule != "Refused" for row in rows))
