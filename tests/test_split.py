"""Split code generation: one module into parts generated in parallel.

The parts are real objects: the tests link them with the system C compiler
into one shared library and call into it, so a symbol that one part defines
and another uses (internal helpers and globals included) must resolve.
"""

from __future__ import annotations

import ctypes
import re
import subprocess
import sys
from pathlib import Path

import llvmplug
import pytest

MASK = (1 << 64) - 1
TABLE = (5, 7, 11, 13)
SCALE = 3
FUNCTIONS = 40


def program(count: int = FUNCTIONS) -> str:
    """A chain of exported functions, each calling an internal helper and the
    previous function; helpers read an internal constant table and an
    external global, and count their calls in an internal global."""
    lines = [
        f"@scale = global i64 {SCALE}",
        "@table = internal constant [4 x i64] [" + ", ".join(f"i64 {t}" for t in TABLE) + "]",
        "@counter = internal global i64 0",
    ]
    for i in range(count):
        lines.append(
            f"""define internal i64 @helper{i}(i64 %x) noinline {{
  %idx = and i64 %x, 3
  %p = getelementptr [4 x i64], ptr @table, i64 0, i64 %idx
  %t = load i64, ptr %p
  %s = load i64, ptr @scale
  %m = mul i64 %x, %s
  %r = add i64 %m, %t
  %c = load i64, ptr @counter
  %c1 = add i64 %c, 1
  store i64 %c1, ptr @counter
  ret i64 %r
}}"""
        )
        previous = f"call i64 @f{i - 1}(i64 %h)" if i else "add i64 %h, 0"
        lines.append(
            f"""define i64 @f{i}(i64 %x) noinline {{
  %h = call i64 @helper{i}(i64 %x)
  %p = {previous}
  %r = add i64 %p, {i}
  ret i64 %r
}}"""
        )
    lines.append("define i64 @calls() {\n  %c = load i64, ptr @counter\n  ret i64 %c\n}")
    return "\n".join(lines) + "\n"


def expected(i: int, x: int) -> int:
    """What @f<i>(x) returns, as a signed 64-bit integer."""
    h = (x * SCALE + TABLE[x & 3]) & MASK
    value = h if i == 0 else expected(i - 1, h)
    value = (value + i) & MASK
    return value - (1 << 64) if value >> 63 else value


def link(parts: list[bytes], directory, cc: str, name: str) -> ctypes.CDLL:
    objects = []
    for index, data in enumerate(parts):
        path = directory / f"{name}-{index}.o"
        path.write_bytes(data)
        objects.append(str(path))
    library = directory / f"lib{name}.so"
    subprocess.run([cc, "-shared", "-o", str(library), *objects], check=True)
    return ctypes.CDLL(str(library))


@pytest.mark.parametrize(
    "parts, level", [(2, "-O2"), (4, "-O2"), (2, "-O0"), (2, "-O3"), (3, "-O1"), (2, "-passes=instcombine")]
)
def test_linked_parts_make_the_whole_program(plugin, tmp_path, cc, parts, level):
    objects = plugin.compile_parts(program(), flags=f"-relocation-model=pic {level}", parts=parts)
    assert 1 < len(objects) <= parts
    assert all(obj.startswith(b"\x7fELF") for obj in objects)
    library = link(objects, tmp_path, cc, f"split{parts}{level.strip('-=')}")
    for i in (0, 1, 17, FUNCTIONS - 1):
        function = getattr(library, f"f{i}")
        function.restype, function.argtypes = ctypes.c_int64, [ctypes.c_int64]
        for x in (0, 5, 123456789):
            assert function(x) == expected(i, x), (i, x)
    # One counter shared by every helper, wherever each landed.
    library.calls.restype = ctypes.c_int64
    calls = sum(i + 1 for i in (0, 1, 17, FUNCTIONS - 1)) * 3
    assert library.calls() == calls


def test_internal_symbols_are_defined_once_across_parts(plugin, tmp_path):
    """An internal function or global lands in exactly one part (the others
    refer to it), so linking cannot see duplicates or lose one. Internal
    names carry the module's `.llvm.N` suffix (issue 19 §5), stripped here."""
    from elftools.elf.elffile import ELFFile

    objects = plugin.compile_parts(program(), flags="-relocation-model=pic", parts=4)
    defined: dict[str, int] = {}
    referenced: set[str] = set()
    for index, data in enumerate(objects):
        path = tmp_path / f"part{index}.o"
        path.write_bytes(data)
        with path.open("rb") as stream:
            symbols = ELFFile(stream).get_section_by_name(".symtab")
            for symbol in symbols.iter_symbols():
                kind = symbol["st_info"]["type"]
                name = symbol.name.split(".llvm.")[0]
                if symbol["st_shndx"] != "SHN_UNDEF" and kind in ("STT_FUNC", "STT_OBJECT"):
                    defined[name] = defined.get(name, 0) + 1
                elif symbol["st_shndx"] == "SHN_UNDEF" and name:
                    referenced.add(name)
    names = [f"helper{i}" for i in range(FUNCTIONS)] + [f"f{i}" for i in range(FUNCTIONS)]
    names += ["counter", "table", "scale", "calls"]
    assert {name: defined.get(name) for name in names} == {name: 1 for name in names}
    # Parts do refer to each other's (formerly internal) symbols.
    assert {"counter", "table"} & referenced
    assert any(f"helper{i}" in referenced for i in range(FUNCTIONS))


def test_never_more_parts_than_asked_nor_than_definitions(plugin):
    tiny = "define i32 @one() {\n  ret i32 1\n}\n"
    assert len(plugin.compile_parts(tiny, parts=8)) == 1
    # 3 global variables, 3 helpers, 3 chained functions and @calls
    assert 1 < len(plugin.compile_parts(program(3), parts=64)) <= 10
    assert 1 < len(plugin.compile_parts(program(), parts=10**6)) <= 256  # the shim's cap


def test_one_part_is_the_ordinary_compile(plugin):
    ir = program()
    assert plugin.compile_parts(ir, parts=1) == [plugin.compile(ir)]


def test_split_is_deterministic(plugin):
    ir = program()
    assert plugin.compile_parts(ir, parts=4) == plugin.compile_parts(ir, parts=4)


def test_assembly_parts(plugin):
    parts = plugin.compile_parts(program(), parts=2, output="asm")
    assert len(parts) == 2
    text = b"".join(parts).decode()
    assert all(f"f{i}:" in text for i in range(FUNCTIONS))


@pytest.mark.parametrize("output", ["bc", "ll"])
def test_parts_of_bitcode_or_ir_text_are_refused(plugin, output):
    with pytest.raises(llvmplug.ArgumentError, match="one of obj, asm"):
        plugin.compile_parts(program(), parts=2, output=output)
    # A -filetype in the flags reaches the shim, which refuses it too.
    with pytest.raises(llvmplug.ArgumentError, match="objects or assembly only"):
        plugin.compile_parts(program(), flags=f"-filetype={output}", parts=2)


@pytest.mark.parametrize(
    "parts, error",
    [
        (0, llvmplug.ArgumentError),
        (-1, llvmplug.ArgumentError),
        (2.0, llvmplug.ArgumentTypeError),
        (True, llvmplug.ArgumentTypeError),
    ],
)
def test_bad_parts_are_refused(plugin, parts, error):
    with pytest.raises(error):
        plugin.compile_parts(program(2), parts=parts)


def test_errors_in_a_part_arrive_typed(plugin):
    with pytest.raises(llvmplug.ParseError):
        plugin.compile_parts("not IR", parts=2)
    with pytest.raises(llvmplug.OptionError):
        plugin.compile_parts(program(), flags="-no-such-option", parts=2)
    # and the Plugin still works
    assert len(plugin.compile_parts(program(), parts=2)) == 2


def test_the_merged_corpus_splits_and_links(plugin, corpus_files, tmp_path, cc):
    """Real IR: the benchmark's merged corpus (every module's functions in
    one module) in 2 parts links into one library exporting every function."""
    sys.path.append(str(Path(__file__).resolve().parents[1]))  # after the installed llvmplug
    from benchmarks.corpus import merge_modules

    merged = merge_modules([path.read_text() for path in corpus_files])
    names = set(re.findall(r"^define [^@]*@([\w.$]+)\(", merged, re.M))
    assert len(names) == merged.count("\ndefine ") + merged.startswith("define ")
    objects = plugin.compile_parts(merged, flags="-relocation-model=pic", parts=2)
    assert len(objects) == 2
    library = link(objects, tmp_path, cc, "corpus")
    missing = [name for name in names if not hasattr(library, name)]
    assert not missing, missing[:5]


def unit(name: str, greeting: str) -> str:
    """One translation unit as clang emits it for

        static int helper;
        static int bump(int by) { return helper += by; }
        int NAME(int by) { bump(by); printf("GREETING %d\\n", helper); return helper; }

    : an internal global, an internal function and a private string, each
    under the same name as in every other such unit."""
    text = greeting.encode() + b" %d\n\0"
    size = len(text)
    literal = "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}" for b in text)
    return f"""source_filename = "{name}.c"
@helper = internal global i32 0
@.str = private unnamed_addr constant [{size} x i8] c"{literal}"
declare i32 @printf(ptr, ...)
define internal i32 @bump(i32 %by) noinline {{
  %old = load i32, ptr @helper
  %new = add i32 %old, %by
  store i32 %new, ptr @helper
  ret i32 %new
}}
define i32 @{name}(i32 %by) noinline {{
  %b = call i32 @bump(i32 %by)
  %h = load i32, ptr @helper
  %p = call i32 (ptr, ...) @printf(ptr @.str, i32 %h)
  ret i32 %h
}}
"""


MAIN = """source_filename = "main.c"
declare i32 @first(i32)
declare i32 @second(i32)
define i32 @main() {
  %a = call i32 @first(i32 2)
  %b = call i32 @second(i32 40)
  %c = call i32 @first(i32 3)
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  %r = sub i32 %t, 47
  ret i32 %r
}
"""


@pytest.mark.parametrize("level", ["-O0", "-O2"])
def test_parts_of_two_modules_with_the_same_static_names_link_into_one_program(plugin, tmp_path, cc, level):
    """Issue 19 §5: each unit's `static int helper`, `bump` and `.str` become
    hidden globals when split; under their own names two units' parts
    collided at link time (multiple definition of `helper`)."""
    objects = []
    for name, ir in (("first", unit("first", "one says")), ("second", unit("second", "two says")),
                     ("main", MAIN)):
        parts = plugin.compile_parts(ir, flags=f"-relocation-model=pic {level}", parts=2)
        assert len(parts) == 2 or name == "main"
        for index, data in enumerate(parts):
            path = tmp_path / f"{name}-{index}.o"
            path.write_bytes(data)
            objects.append(str(path))
    program = tmp_path / "program"
    linked = subprocess.run([cc, "-o", str(program), *objects], capture_output=True, text=True)
    assert linked.returncode == 0, linked.stderr
    ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    # helper of first: 2, then 5; of second: 40; main returns 2 + 40 + 5 - 47.
    assert (ran.returncode, ran.stdout) == (0, "one says 2\ntwo says 40\none says 5\n")


def test_promoted_names_are_unique_to_the_module_and_stable(plugin, tmp_path):
    """The promoted names carry a hash of the module (as ThinLTO's `.llvm.N`):
    different modules, different names; the same module, the same names."""
    from elftools.elf.elffile import ELFFile

    def promoted(ir: str) -> set[str]:
        names = set()
        for index, data in enumerate(plugin.compile_parts(ir, flags="-relocation-model=pic", parts=2)):
            path = tmp_path / f"promoted{index}.o"
            path.write_bytes(data)
            with path.open("rb") as stream:
                for symbol in ELFFile(stream).get_section_by_name(".symtab").iter_symbols():
                    if symbol["st_shndx"] != "SHN_UNDEF" and symbol["st_other"]["visibility"] == "STV_HIDDEN":
                        names.add(symbol.name)
        return names

    first, second = promoted(unit("first", "one says")), promoted(unit("second", "two says"))
    assert {name.split(".llvm.")[0] for name in first} == {"helper", "bump", ".str"}
    assert all(re.fullmatch(r"[\w.]+\.llvm\.\d+", name) for name in first | second)
    assert not first & second
    assert promoted(unit("first", "one says")) == first


# -- every definition a part needs, whatever its linkage (issue 26 §1) ----------------------

CALLERS = 16  # enough callers that every part of 2..8 calls each kind


def run_program(objects: list[bytes], main: str, tmp_path: Path, cc: str, name: str) -> str:
    """Link the objects with a C `main` and run it; its standard output."""
    paths = []
    for index, data in enumerate(objects):
        path = tmp_path / f"{name}-{index}.o"
        path.write_bytes(data)
        paths.append(str(path))
    (tmp_path / f"{name}.c").write_text(main)
    program = tmp_path / name
    linked = subprocess.run([cc, "-o", str(program), str(tmp_path / f"{name}.c"), *paths], capture_output=True,
                            text=True)
    assert linked.returncode == 0, linked.stderr[-3000:]
    ran = subprocess.run([str(program)], capture_output=True, text=True, timeout=60)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def callers(calls: str, count: int = CALLERS) -> str:
    """@f0..@f<count-1>(x): `calls` (IR lines reading %x, leaving %r) plus the caller's index."""
    return "\n".join(f"define i32 @f{i}(i32 %x) noinline {{\n{calls}\n  %out = add i32 %r, {i}\n  ret i32 %out\n}}"
                     for i in range(count)) + "\n"


def main_calling(count: int = CALLERS, before: str = "", after: str = "") -> str:
    declarations = "".join(f"int f{i}(int);\n" for i in range(count))
    calls = "".join(f'  printf("%d\\n", f{i}({i + 1}));\n' for i in range(count))
    return f"#include <stdio.h>\n{before}\n{declarations}int main(void) {{\n{calls}{after}  return 0;\n}}\n"


ALWAYS_INLINE = """$helper = comdat any
define linkonce_odr i32 @helper(i32 %x) alwaysinline comdat {
  %r = mul i32 %x, 3
  ret i32 %r
}
""" + callers("  %r = call i32 @helper(i32 %x)")


@pytest.mark.parametrize("parts", [2, 4])
def test_an_always_inline_linkonce_function_called_from_every_part_links(plugin, tmp_path, cc, parts):
    """Issue 26 §1, its smallest form: the split kept the one linkonce_odr
    definition in one part, whose always-inliner inlined and deleted it; the
    other parts still called it (undefined reference to `helper`)."""
    objects = plugin.compile_parts(ALWAYS_INLINE, flags="-relocation-model=pic", parts=parts)
    assert len(objects) == parts
    out = run_program(objects, main_calling(), tmp_path, cc, f"inline{parts}")
    assert out == "".join(f"{(i + 1) * 3 + i}\n" for i in range(CALLERS))


# Every kind of definition the issue names, each used from every caller: what
# each adds to x is its own number, so a wrong or missing one shows.
KINDS = """$ai = comdat any
$alt = comdat any
$mix = comdat any
$kv = comdat any
$gv = comdat any
@gv = linkonce_odr global i32 5, comdat
@kv = linkonce_odr global i32 0, comdat
@counter = internal global i32 0
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 65535, ptr @kvinit, ptr @kv }]
define internal void @kvinit() comdat($kv) {
  store i32 42, ptr @kv
  ret void
}
define linkonce_odr i32 @ai(i32 %x) alwaysinline comdat {
  %r = mul i32 %x, 3
  ret i32 %r
}
define linkonce_odr i32 @ni(i32 %x) noinline {
  %r = add i32 %x, 11
  ret i32 %r
}
define linkonce i32 @lo(i32 %x) noinline {
  %r = add i32 %x, 13
  ret i32 %r
}
define available_externally i32 @ae(i32 %x) {
  %r = add i32 %x, 7
  ret i32 %r
}
define weak i32 @wk(i32 %x) noinline {
  %r = add i32 %x, 17
  ret i32 %r
}
define weak_odr i32 @wo(i32 %x) alwaysinline {
  %r = add i32 %x, 19
  ret i32 %r
}
define linkonce_odr i32 @alt(i32 %x) comdat {
  %r = add i32 %x, 23
  ret i32 %r
}
@al = linkonce_odr alias i32 (i32), ptr @alt
@ifn = ifunc i32 (i32), ptr @resolver
define internal ptr @resolver() {
  ret ptr @impl
}
define internal i32 @impl(i32 %x) {
  %r = add i32 %x, 29
  ret i32 %r
}
define internal i32 @sai(i32 %x) alwaysinline {
  %c = load i32, ptr @counter
  %c1 = add i32 %c, 1
  store i32 %c1, ptr @counter
  %r = add i32 %x, 31
  ret i32 %r
}
define linkonce_odr i32 @mix(i32 %x) alwaysinline comdat {
  %h = call i32 @mixhelper(i32 %x)
  ret i32 %h
}
define internal i32 @mixhelper(i32 %x) noinline comdat($mix) {
  %r = add i32 %x, 37
  ret i32 %r
}
define i32 @count() {
  %c = load i32, ptr @counter
  ret i32 %c
}
""" + callers("""  %a = call i32 @ai(i32 %x)
  %b = call i32 @ni(i32 %a)
  %c = call i32 @lo(i32 %b)
  %d = call i32 @ae(i32 %c)
  %e = call i32 @wk(i32 %d)
  %f = call i32 @wo(i32 %e)
  %g = call i32 @al(i32 %f)
  %h = call i32 @ifn(i32 %g)
  %j = call i32 @sai(i32 %h)
  %k = call i32 @mix(i32 %j)
  %gv = load i32, ptr @gv
  %kv = load i32, ptr @kv
  %l = add i32 %k, %gv
  %r = add i32 %l, %kv""")
# @ae is available_externally: the program defines it, as a library would.
KINDS_MAIN = main_calling(before="int ae(int x) { return x + 7; }\nint count(void);",
                          after='  printf("%d\\n", count());\n')
KINDS_OUT = "".join(f"{(i + 1) * 3 + 11 + 13 + 7 + 17 + 19 + 23 + 29 + 31 + 37 + 5 + 42 + i}\n"
                    for i in range(CALLERS)) + f"{CALLERS}\n"


@pytest.mark.parametrize("parts, flags", [(2, "-O2"), (3, "-O2"), (4, "-O2"), (8, "-O2"), (2, "-O0"), (3, "-O3"),
                                          (2, "-passes=default<O2>")])
def test_parts_keep_every_kind_of_definition_they_need(plugin, tmp_path, cc, parts, flags):
    """linkonce_odr (always_inline in a comdat, noinline), linkonce,
    available_externally, weak, weak_odr, an alias in a comdat, an ifunc, a
    static always_inline function, a linkonce_odr function in a comdat with a
    static (which cannot be copied), comdat variables and a comdat-keyed
    constructor: the parts link and run as the whole module does."""
    whole = plugin.compile(KINDS, flags=f"-relocation-model=pic {flags}")
    assert run_program([whole], KINDS_MAIN, tmp_path, cc, "whole") == KINDS_OUT
    objects = plugin.compile_parts(KINDS, flags=f"-relocation-model=pic {flags}", parts=parts)
    assert len(objects) == parts
    name = f"kinds{parts}{flags.strip('-=<>').replace('<', '')}"
    assert run_program(objects, KINDS_MAIN, tmp_path, cc, name) == KINDS_OUT


KEYS = 8  # keyed variables, so that for any part count some land apart from the list
KEYED = "".join(f"""$kv{k} = comdat any
@kv{k} = linkonce_odr global i32 0, comdat
define internal void @kvinit{k}() comdat($kv{k}) {{
  store i32 {k + 1}, ptr @kv{k}
  ret void
}}
""" for k in range(KEYS)) + (
    f"@llvm.global_ctors = appending global [{KEYS} x {{ i32, ptr, ptr }}] ["
    + ", ".join(f"{{ i32, ptr, ptr }} {{ i32 65535, ptr @kvinit{k}, ptr @kv{k} }}" for k in range(KEYS)) + "]\n"
) + callers("\n".join(f"  %v{k} = load i32, ptr @kv{k}\n  %s{k} = add i32 {'%x' if k == 0 else f'%s{k - 1}'}, %v{k}"
                       for k in range(KEYS)) + f"\n  %r = add i32 %s{KEYS - 1}, 0")


@pytest.mark.parametrize("flags", ["-O2", "-passes=default<O2>"])
def test_a_comdat_keyed_constructor_runs_whatever_part_holds_it(plugin, tmp_path, cc, flags):
    """A template's static member with a dynamic initialiser: its
    llvm.global_ctors entry is emitted into the variable's comdat group. In
    another part than the variable, the program linker kept one of the two
    groups of that name and the initialiser never ran (-passes= path)."""
    for parts in (2, 3, 4):
        objects = plugin.compile_parts(KEYED, flags=f"-relocation-model=pic {flags}", parts=parts)
        out = run_program(objects, main_calling(), tmp_path, cc, f"keyed{parts}{len(flags)}")
        assert out == "".join(f"{i + 1 + KEYS * (KEYS + 1) // 2 + i}\n" for i in range(CALLERS)), parts


def test_copies_are_optimised_away_where_they_prevail_elsewhere(plugin, tmp_path):
    """A linkonce_odr function that every part calls is defined once in the
    linked program (ThinLTO keeps one copy), not once per part."""
    from elftools.elf.elffile import ELFFile

    ir = """define linkonce_odr i32 @shared(i32 %x) noinline {
  %r = mul i32 %x, 5
  ret i32 %r
}
""" + callers("  %r = call i32 @shared(i32 %x)")
    objects = plugin.compile_parts(ir, flags="-relocation-model=pic", parts=4)
    definitions = 0
    for index, data in enumerate(objects):
        path = tmp_path / f"shared{index}.o"
        path.write_bytes(data)
        with path.open("rb") as stream:
            for symbol in ELFFile(stream).get_section_by_name(".symtab").iter_symbols():
                definitions += symbol.name == "shared" and symbol["st_shndx"] != "SHN_UNDEF"
    assert definitions == 1


def test_module_asm_that_does_not_assemble_is_a_codegen_error(tmp_path):
    """Issue 25 §3: compile_parts crashed (SIGSEGV) on a module asm error that
    compile and compile_modules report; the error was thrown from a
    diagnostic handler through SplitModule, whose value map outlived the
    throw. Run in a child: on the old code it kills the process."""
    ir = 'module asm "bogus_instruction"\n' + callers("  %r = add i32 %x, 1", 4)
    with llvmplug.Plugin(isolation="process") as child:
        for compile in (lambda: child.compile(ir), lambda: child.compile_modules([ir]),
                        lambda: child.compile_parts(ir, parts=2)):
            with pytest.raises(llvmplug.CodegenError, match="bogus_instruction"):
                compile()
        assert len(child.compile_parts(callers("  %r = add i32 %x, 1", 4), parts=2)) == 2
