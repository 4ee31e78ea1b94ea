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
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
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
