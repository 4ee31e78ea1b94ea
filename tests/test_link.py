"""compile(..., link=[...]): modules linked in before optimisation.

Only what the module references is linked, and what was linked in is
internalised (what NVIDIA's and AMD's toolchains do with their device
libraries). Bad link inputs are LinkErrors naming the input and the problem.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys

import pytest

import llvmplug

MAIN = """\
declare i32 @helper(i32)

define i32 @entry(i32 %x) {
  %y = call i32 @helper(i32 %x)
  %z = add i32 %y, 1
  ret i32 %z
}
"""

LIBRARY = """\
define i32 @helper(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}

define i32 @unused(i32 %x) {
  ret i32 %x
}

@table = global [4 x i32] [i32 1, i32 2, i32 3, i32 4]
"""


def defined(ir: bytes) -> dict[str, str]:
    """Function name -> its linkage word ('' when external) in IR text."""
    text = ir.decode()
    return {m.group(2): m.group(1).strip() for m in re.finditer(r"^define ((?:internal |private )?)[^@]*@(\w+)\(", text, re.M)}


def test_only_referenced_definitions_are_linked_and_internalised():
    ir = llvmplug.compile(MAIN, flags=["-passes="], output="ll", link=[LIBRARY])
    functions = defined(ir)
    assert functions == {"entry": "", "helper": "internal"}
    assert b"@table" not in ir and b"@unused" not in ir


def test_linked_code_runs(load_object):
    obj = llvmplug.compile(MAIN, flags=["-O2", "-relocation-model=pic"], link=[LIBRARY])
    lib = load_object(obj, "linked")
    lib.entry.restype, lib.entry.argtypes = ctypes.c_int, [ctypes.c_int]
    assert lib.entry(5) == 16
    with pytest.raises(AttributeError):
        lib.helper  # internalised: not exported from the object


def test_linked_before_optimisation():
    """At -O2 the linked helper is inlined and folded: (x * 3) + 1 in one function."""
    ir = llvmplug.compile(MAIN, flags=["-O2"], output="ll", link=[LIBRARY]).decode()
    assert "call" not in ir and "@helper" not in ir
    assert re.search(r"mul i32 %x, 3", ir)


def test_bitcode_and_wrapped_bitcode_link_inputs():
    bitcode = llvmplug.compile(LIBRARY, output="bc", flags=["-passes="])
    ir = llvmplug.compile(MAIN, flags=["-passes="], output="ll", link=[bitcode])
    assert defined(ir) == {"entry": "", "helper": "internal"}


def test_inputs_link_in_order_and_pull_what_earlier_ones_need():
    first = "declare i32 @second(i32)\ndefine i32 @helper(i32 %x) {\n  %y = call i32 @second(i32 %x)\n  ret i32 %y\n}\n"
    second = "define i32 @second(i32 %x) {\n  ret i32 %x\n}\ndefine i32 @other() {\n  ret i32 0\n}\n"
    ir = llvmplug.compile(MAIN, flags=["-passes="], output="ll", link=[first, second])
    assert defined(ir) == {"entry": "", "helper": "internal", "second": "internal"}


def test_weak_definition_in_a_library_yields_to_the_module():
    main = MAIN.replace("declare i32 @helper(i32)", "define i32 @helper(i32 %x) {\n  ret i32 42\n}")
    weak = LIBRARY.replace("define i32 @helper", "define weak i32 @helper")
    ir = llvmplug.compile(main, flags=["-passes="], output="ll", link=[weak]).decode()
    assert "ret i32 42" in ir and "mul i32" not in ir


def test_link_to_a_module_without_a_triple_takes_the_module_target():
    aarch64 = 'target triple = "aarch64-unknown-linux-gnu"\n' + MAIN
    ir = llvmplug.compile(aarch64, flags=["-passes="], output="ll", link=[LIBRARY]).decode()
    assert 'target triple = "aarch64-unknown-linux-gnu"' in ir and "define internal i32 @helper" in ir


# -- bad link inputs -------------------------------------------------------------

@pytest.mark.parametrize("bad, message", [
    ("define i32 @helper(i32 %x) {\n  ret i64 %x\n}\n", r"(?s)^link module 1:2:11: (?!.*link module)"),  # named once
    (b"BC\xc0\xde\x00\x00garbage", "link module 1: invalid bitcode"),
    ("this is not IR", "link module 1"),
])
def test_unparsable_link_input_is_a_link_error(bad, message):
    with pytest.raises(llvmplug.LinkError, match=message):
        llvmplug.compile(MAIN, link=[bad])


def test_link_input_for_another_architecture_is_a_link_error():
    other = 'target triple = "aarch64-unknown-linux-gnu"\n' + LIBRARY
    with pytest.raises(llvmplug.LinkError, match="link module 1: it is for 'aarch64-unknown-linux-gnu'"):
        llvmplug.compile(MAIN, "x86_64-unknown-linux-gnu", link=[other])


def test_link_input_for_the_same_architecture_and_another_os_is_retargeted():
    other = 'target triple = "x86_64-pc-windows-msvc"\n' + LIBRARY
    ir = llvmplug.compile(MAIN, "x86_64-unknown-linux-gnu", ["-passes="], output="ll", link=[other]).decode()
    assert 'target triple = "x86_64-unknown-linux-gnu"' in ir and "define internal i32 @helper" in ir


@pytest.mark.parametrize("layout", ["E-m:e-i64:64-n32:64", "e-m:e-p:32:32-i64:64-n32"])
def test_link_input_with_another_byte_order_or_pointer_size_is_a_link_error(layout):
    other = f'target datalayout = "{layout}"\n' + LIBRARY
    with pytest.raises(llvmplug.LinkError, match="data layout .* byte order or pointer size"):
        llvmplug.compile(MAIN, "x86_64-unknown-linux-gnu", link=[other])


def test_conflicting_definitions_are_a_link_error():
    main = MAIN.replace("declare i32 @helper(i32)", "define i32 @helper(i32 %x) {\n  ret i32 42\n}")
    with pytest.raises(llvmplug.LinkError, match="'helper' is defined both here and in the module"):
        llvmplug.compile(main, link=[LIBRARY])


def test_conflicting_definitions_between_link_inputs_are_a_link_error():
    with pytest.raises(llvmplug.LinkError, match="link module 2: 'helper' is defined"):
        llvmplug.compile(MAIN, link=[LIBRARY, LIBRARY])


def test_linked_module_that_fails_the_verifier_is_a_link_error():
    broken = """\
define i32 @helper(i32 %x) {
entry:
  br label %next
next:
  %a = add i32 %b, 1
  %b = add i32 %a, 1
  ret i32 %b
}
"""
    with pytest.raises(llvmplug.LinkError, match="verifier"):
        llvmplug.compile(MAIN, link=[broken])


def test_a_link_error_leaves_the_plugin_usable():
    with llvmplug.Plugin(private=True) as plugin:
        with pytest.raises(llvmplug.LinkError):
            plugin.compile(MAIN, link=["nonsense"])
        assert not plugin.poisoned
        assert defined(plugin.compile(MAIN, flags=["-passes="], output="ll", link=[LIBRARY]))["helper"] == "internal"


@pytest.mark.parametrize("link, error", [
    ("not a sequence of modules", llvmplug.ArgumentTypeError),
    (b"bytes alone", llvmplug.ArgumentTypeError),
    ([42], llvmplug.ArgumentTypeError),
    ([b""], llvmplug.ArgumentError),
])
def test_bad_link_arguments(link, error):
    with pytest.raises(error):
        llvmplug.compile(MAIN, link=link)


def test_cli_link(tmp_path):
    (tmp_path / "main.ll").write_text(MAIN)
    (tmp_path / "lib.ll").write_text(LIBRARY)
    result = subprocess.run([sys.executable, "-m", "llvmplug", "compile", str(tmp_path / "main.ll"), "--link",
                             str(tmp_path / "lib.ll"), "--emit", "ll", "-o", "-", "-passes="],
                            capture_output=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert defined(result.stdout) == {"entry": "", "helper": "internal"}


def test_what_the_linker_itself_refuses_is_a_link_error():
    """Module flags that must agree (wchar_size) and do not: the linker's own error, typed."""
    flag = '!llvm.module.flags = !{{!0}}\n!0 = !{{i32 1, !"wchar_size", i32 {}}}\n'
    with pytest.raises(llvmplug.LinkError, match="link module 1: the linker refused it: .*wchar_size"):
        llvmplug.compile(MAIN + flag.format(4), link=[LIBRARY + flag.format(2)])


def test_linker_warnings_reach_the_caller():
    """A module flag whose behaviour is Warning (2) and differs: LLVM's warning, as a LLVMPlugWarning."""
    flag = '!llvm.module.flags = !{{!0}}\n!0 = !{{i32 2, !"probe", i32 {}}}\n'
    with pytest.warns(llvmplug.LLVMPlugWarning, match="linking module flags 'probe'"):
        obj = llvmplug.compile(MAIN + flag.format(4), link=[LIBRARY + flag.format(2)])
    assert obj[:4] == b"\x7fELF"


# -- several link modules: linked to a fixed point, whatever their order --------------

import io  # noqa: E402
import itertools  # noqa: E402

from elftools.elf.elffile import ELFFile  # noqa: E402

CALLS_A = "declare i32 @a(i32)\ndefine i32 @entry(i32 %x) {\n  %y = call i32 @a(i32 %x)\n  ret i32 %y\n}\n"
DEFINES_A = ("declare i32 @b(i32)\ndefine i32 @a(i32 %x) {\n  %y = call i32 @b(i32 %x)\n  %z = add i32 %y, 1\n"
             "  ret i32 %z\n}\n")
DEFINES_B = "define i32 @b(i32 %x) {\n  %y = mul i32 %x, 3\n  ret i32 %y\n}\ndefine i32 @spare() {\n  ret i32 0\n}\n"


def symbols(obj: bytes) -> tuple[set[str], set[str]]:
    """(global symbols defined, symbols left undefined) of an ELF object."""
    table = ELFFile(io.BytesIO(obj)).get_section_by_name(".symtab")
    defined, undefined = set(), set()
    for symbol in table.iter_symbols():
        if not symbol.name or symbol["st_info"]["type"] in ("STT_FILE", "STT_SECTION"):
            continue
        if symbol["st_shndx"] == "SHN_UNDEF":
            undefined.add(symbol.name)
        elif symbol["st_info"]["bind"] != "STB_LOCAL":
            defined.add(symbol.name)
    return defined, undefined


@pytest.mark.parametrize("form", ["text", "bitcode"])
@pytest.mark.parametrize("order", ["b-then-a", "a-then-b"])
def test_a_definition_only_a_later_link_module_needs_is_linked(load_object, form, order):
    """link=[defines b, defines a calling b] with a module calling a: b must not be dropped."""
    a, b = DEFINES_A, DEFINES_B
    if form == "bitcode":
        a, b = (llvmplug.compile(m, flags="-passes=", output="bc") for m in (a, b))
    links = [b, a] if order == "b-then-a" else [a, b]
    ir = llvmplug.compile(CALLS_A, flags=["-passes="], output="ll", link=links)
    assert defined(ir) == {"entry": "", "a": "internal", "b": "internal"}
    obj = llvmplug.compile(CALLS_A, flags=["-O0", "-relocation-model=pic"], link=links)
    assert symbols(obj) == ({"entry"}, set())
    lib = load_object(obj, f"fixed_{form}_{order.replace('-', '_')}")
    lib.entry.restype, lib.entry.argtypes = ctypes.c_int, [ctypes.c_int]
    assert lib.entry(5) == 16


LIBRARY_SET = [  # like the ROCm device libraries: each calls into the others
    "declare i32 @l2(i32)\ndefine i32 @l1(i32 %x) {\n  %y = call i32 @l2(i32 %x)\n  %z = add i32 %y, 1\n  ret i32 %z\n}\n",
    "declare i32 @l3(i32)\ndefine i32 @l2(i32 %x) {\n  %y = call i32 @l3(i32 %x)\n  %z = mul i32 %y, 2\n  ret i32 %z\n}\n"
    "define i32 @l2_unused() {\n  ret i32 2\n}\n",
    "@k = constant i32 10\ndefine i32 @l3(i32 %x) {\n  %k = load i32, ptr @k\n  %y = add i32 %x, %k\n  ret i32 %y\n}\n"
    "define i32 @l3_unused() {\n  ret i32 3\n}\n",
]
CALLS_L1 = "declare i32 @l1(i32)\ndefine i32 @entry(i32 %x) {\n  %y = call i32 @l1(i32 %x)\n  ret i32 %y\n}\n"


@pytest.mark.parametrize("order", list(itertools.permutations(range(3))), ids=lambda o: "".join(map(str, o)))
def test_a_set_of_libraries_links_the_same_in_every_order(load_object, order):
    links = [LIBRARY_SET[i] for i in order]
    ir = llvmplug.compile(CALLS_L1, flags=["-passes="], output="ll", link=links)
    assert defined(ir) == {"entry": "", "l1": "internal", "l2": "internal", "l3": "internal"}
    obj = llvmplug.compile(CALLS_L1, flags=["-O0", "-relocation-model=pic"], link=links)
    assert symbols(obj) == ({"entry"}, set())
    lib = load_object(obj, "set_" + "".join(map(str, order)))
    lib.entry.restype, lib.entry.argtypes = ctypes.c_int, [ctypes.c_int]
    assert lib.entry(5) == (5 + 10) * 2 + 1


# -- what a link module brings in: as a program linker pulls archive members (issue 26 §2) ----

def _library(name: str, value: int, calls: str = "", extra: str = "") -> str:
    """A link module like a C++ translation unit: @<name>_get reads a state its
    constructor set, its destructor prints '<name> bye', @<name>_keep is in
    llvm.used. `calls` names a function its constructor also calls."""
    call = f"  call void @{calls}()\n" if calls else ""
    declare = f"declare void @{calls}()\n" if calls else ""
    return f"""@{name}_state = internal global i32 0
@.{name}_bye = private constant [{len(name) + 5} x i8] c"{name} bye\\00"
@.{name}_hi = private constant [{len(name) + 4} x i8] c"{name} hi\\00"
@llvm.global_ctors = appending global [1 x {{ i32, ptr, ptr }}] [{{ i32, ptr, ptr }} {{ i32 65535, ptr @{name}_init, ptr null }}]
@llvm.global_dtors = appending global [1 x {{ i32, ptr, ptr }}] [{{ i32, ptr, ptr }} {{ i32 65535, ptr @{name}_fini, ptr null }}]
@llvm.used = appending global [1 x ptr] [ptr @{name}_keep], section "llvm.metadata"
declare i32 @puts(ptr)
{declare}define internal void @{name}_init() {{
  store i32 {value}, ptr @{name}_state
  %p = call i32 @puts(ptr @.{name}_hi)
{call}  ret void
}}
define internal void @{name}_fini() {{
  %p = call i32 @puts(ptr @.{name}_bye)
  ret void
}}
define i32 @{name}_keep() {{
  ret i32 9
}}
define i32 @{name}_get(i32 %x) {{
  %s = load i32, ptr @{name}_state
  %r = add i32 %x, %s
  ret i32 %r
}}
{extra}"""


def _calling(*names: str) -> str:
    declarations = "".join(f"declare i32 @{n}_get(i32)\n" for n in names)
    calls = "".join(f"  %v{i} = call i32 @{n}_get(i32 %x)\n  %s{i + 1} = add i32 %s{i}, %v{i}\n"
                    for i, n in enumerate(names))
    return f"{declarations}define i32 @entry(i32 %x) {{\n  %s0 = add i32 0, 0\n{calls}  ret i32 %s{len(names)}\n}}\n"


def _run(obj: bytes, tmp_path, cc, name: str) -> str:
    (tmp_path / f"{name}.o").write_bytes(obj)
    (tmp_path / f"{name}.c").write_text('#include <stdio.h>\nint entry(int);\n'
                                        'int main(void) { printf("entry %d\\n", entry(1)); return 0; }\n')
    linked = subprocess.run([cc, "-o", str(tmp_path / name), str(tmp_path / f"{name}.c"), str(tmp_path / f"{name}.o")],
                            capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr
    ran = subprocess.run([str(tmp_path / name)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def test_a_pulled_link_module_brings_its_constructors_destructors_and_used_list(tmp_path, cc):
    """As a linker pulling an archive member: a link module from which a
    definition is needed contributes its llvm.global_ctors, global_dtors
    and llvm.used entries (today's main refused any of them: every C++ file
    that includes <iostream> has a constructor)."""
    obj = llvmplug.compile(_calling("lib"), flags="-relocation-model=pic", link=[_library("lib", 40)])
    assert _run(obj, tmp_path, cc, "pulled") == "lib hi\nentry 41\nlib bye\n"
    defined, _ = symbols(obj)
    assert defined == {"entry", "lib_keep"}  # llvm.used keeps its symbol as it was; the rest is internalised


def test_a_link_module_nothing_is_needed_from_brings_nothing(tmp_path, cc):
    """An archive member no symbol pulls in adds nothing: not its
    constructors, destructors or used list, not its module flags."""
    unneeded = _library("spare", 1) + '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"wchar_size", i32 2}\n'
    main = _calling("lib") + '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"wchar_size", i32 4}\n'
    obj = llvmplug.compile(main, flags="-relocation-model=pic", link=[unneeded, _library("lib", 40)])
    assert _run(obj, tmp_path, cc, "unneeded") == "lib hi\nentry 41\nlib bye\n"
    assert symbols(obj)[0] == {"entry", "lib_keep"}
    ir = llvmplug.compile(main, flags="-passes=", output="ll", link=[unneeded, _library("lib", 40)]).decode()
    assert "spare" not in ir


@pytest.mark.parametrize("order", ["a-then-b", "b-then-a"])
def test_what_a_pulled_constructor_needs_pulls_its_module_in_too(tmp_path, cc, order):
    """The fixed point takes the lists in: a's constructor calls b's
    function, so b is pulled in as well, with its own constructor."""
    b = _library("b", 2, extra="define void @b_touch() {\n  ret void\n}\n")
    a = _library("a", 40, calls="b_touch")
    links = [a, b] if order == "a-then-b" else [b, a]
    obj = llvmplug.compile(_calling("a"), flags="-relocation-model=pic", link=links)
    out = _run(obj, tmp_path, cc, f"fixed-{order}").splitlines()
    assert sorted(out[:2]) == ["a hi", "b hi"] and out[2] == "entry 41" and sorted(out[3:]) == ["a bye", "b bye"]
    assert symbols(obj)[0] == {"entry", "a_keep", "b_keep"}


@pytest.mark.parametrize("extra, what", [
    ('module asm ".globl from_asm"\nmodule asm "from_asm: ret"\n', "module-level asm"),
    ('@llvm.global.annotations = appending global [1 x { ptr, ptr, ptr, i32, ptr }] [{ ptr, ptr, ptr, i32, ptr } '
     '{ ptr @helper, ptr @helper, ptr @helper, i32 1, ptr null }], section "llvm.metadata"\n',
     "'llvm.global.annotations', an appending list that is neither"),
])
def test_a_link_module_with_module_asm_or_another_list_is_a_link_error(extra, what):
    """Module asm cannot be attributed to a definition (what it defines is
    not known before it is assembled), and an appending list other than the
    four a linker takes with a member is unknown: both refused."""
    with pytest.raises(llvmplug.LinkError, match=f"link module 1: it has {what}"):
        llvmplug.compile(MAIN, link=[LIBRARY + extra])


# A link module's function whose only reference to @g is in debug info reached
# through a #dbg_value record: its variable's type names @g as a template
# value parameter, which DWARF writes as g's address.
REFERS_THROUGH_A_RECORD = """
define i32 @f() !dbg !3 {
  #dbg_value(i32 0, !5, !DIExpression(), !6)
  ret i32 0, !dbg !6
}
define i32 @g() {
  ret i32 7
}
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, producer: "t", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "a.cc", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)
!4 = !DISubroutineType(types: !{null})
!5 = !DILocalVariable(name: "v", scope: !3, file: !1, line: 1, type: !7)
!6 = !DILocation(line: 1, scope: !3)
!7 = !DICompositeType(tag: DW_TAG_structure_type, name: "S<g>", file: !1, size: 8, elements: !{}, templateParams: !{!8}, identifier: "_ZTS1SIXadL_Z1gvEEE")
!8 = !DITemplateValueParameter(name: "F", type: !9, value: ptr @g)
!9 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !4, size: 64)
"""
CALLS_F = "declare i32 @f()\ndefine i32 @entry() {\n  %r = call i32 @f()\n  ret i32 %r\n}\n"


def test_what_a_debug_record_refers_to_is_linked():
    # Old: linking's walk read only a record's location, so the bitcode
    # module's @g was dropped and the object referred to g undefined.
    library = llvmplug.compile(REFERS_THROUGH_A_RECORD, flags="-passes=", output="bc")
    obj = llvmplug.compile(CALLS_F, flags="-O0", link=[library])
    assert symbols(obj) == ({"entry"}, set())


def test_an_available_externally_copy_in_the_module_gives_way_to_the_linked_definition(tmp_path, cc):
    """C99 inline (or an extern template): the module's available_externally
    body stands for a definition in a link module; that definition is
    linked, as the program's linker would find it."""
    main = MAIN.replace("declare i32 @helper(i32)", "define available_externally i32 @helper(i32 %x) {\n"
                        "  %y = mul i32 %x, 3\n  ret i32 %y\n}")
    obj = llvmplug.compile(main, flags="-O0 -relocation-model=pic", link=[LIBRARY])
    assert symbols(obj) == ({"entry"}, set())
