"""Every directive LLVM's asm parsers accept has a row in csrc/policy/asm_directives.def.

The walk: every '.'-prefixed name in the shim's read-only data (the parsers
compare directive names with string literals, which the linker may merge into
the tail of longer strings, so every '.'-suffix counts) is put to the real
parser of each target, a line each, in module asm compiled by refllc (LLVM
23.1.1's llc, tests/support/llc), which reports every line's error. A line MC
answers with anything but "unknown directive" names a directive that parser
knows. Each line is followed by a sentinel directive that must be unknown: a
candidate that changes what the next line means (.end, .if, .rept) is run
again alone. A crash splits the batch until the crashing candidate stands
alone (it is known: unknown names only draw an error).

Every directive found must then be covered by a row: the shim's own check,
under the safe policy, may refuse it (a Refused row, or its operands) but
never as "not on llvmplug's allow-list". And a directive that not every
parser knows must have a target or platform row: a generic row would apply it
on targets whose parsers give the name another meaning.
"""

from __future__ import annotations

import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import reduce
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "support"))
import asm_table  # noqa: E402
from test_llc_parity import refllc  # noqa: E402,F401  (the refllc fixture)

import llvmplug  # noqa: E402
from llvmplug import _loader  # noqa: E402

# One triple per parser configuration: each object format of each target.
TRIPLES = [
    "x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu", "x86_64-pc-windows-msvc", "x86_64-pc-windows-gnu",
    "x86_64-apple-macosx", "aarch64-unknown-linux-gnu", "aarch64-apple-macosx", "aarch64-pc-windows-msvc",
    "armv7-unknown-linux-gnueabihf", "thumbv7-pc-windows-msvc", "armv7-apple-ios", "riscv64-unknown-linux-gnu",
    "riscv32-unknown-elf", "riscv64be-unknown-elf", "powerpc64le-unknown-linux-gnu", "powerpc-unknown-linux-gnu",
    "powerpc64-ibm-aix", "mips-unknown-linux-gnu", "mips64el-unknown-linux-gnuabi64", "sparc-unknown-linux-gnu",
    "sparcv9-unknown-linux-gnu", "s390x-unknown-linux-gnu", "wasm32-unknown-unknown", "wasm64-unknown-unknown",
    "amdgcn-amd-amdhsa", "r600-unknown-unknown", "bpfel", "hexagon-unknown-linux-musl", "lanai-unknown-unknown",
    "loongarch64-unknown-linux-gnu", "loongarch32-unknown-elf", "msp430-unknown-unknown", "avr-unknown-unknown",
    "ve-unknown-linux-gnu",
]
# z/OS reads HLASM, where no line is a directive this way: the safe policy accepts no statement there
# (tests/test_asm_allowlist.py), and its parser takes minutes per walk. NVPTX, SPIR-V and XCore have no
# asm parser.
SENTINEL = ".llvmplug_sentinel"
UNKNOWN = "unknown directive"
LINE = re.compile(r"<inline asm>:(\d+):\d+: (?:error: )?(.*)")


def candidates() -> list[str]:
    data = _loader.library_path().read_bytes()
    found = set()
    for match in re.finditer(rb"[\x20-\x7e]{2,}(?=\x00)", data):
        text = match.group()
        start = text.find(b".")
        while start != -1:
            tail = text[start:]
            if (len(tail) <= 48 and re.fullmatch(rb"\.[A-Za-z0-9_][A-Za-z0-9_.$]*", tail)
                    and not re.fullmatch(rb"\.[0-9]+", tail)):  # ".5" is a number to MC's lexer
                found.add(tail.decode())
            start = text.find(b".", start + 1)
    return sorted(found)


def errors_by_line(tool: Path, triple: str, lines: list[str], scratch: Path) -> dict[int, str] | None:
    """MC's first error on each line, or None when the tool crashed."""
    module = scratch / f"{triple}.ll"
    module.write_text("".join(f'module asm "{line}"\n' for line in lines) + "define void @f() {\n  ret void\n}\n")
    done = subprocess.run([str(tool), f"-mtriple={triple}", "-filetype=obj", str(module), "-o", "/dev/null"],
                          capture_output=True, text=True, timeout=900)
    if done.returncode < 0 or "Stack dump" in done.stderr:
        return None
    errors: dict[int, str] = {}
    for match in LINE.finditer(done.stderr):
        errors.setdefault(int(match.group(1)), match.group(2))
    return errors


def known_directives(tool: Path, triple: str, names: list[str], scratch: Path) -> set[str]:
    known: set[str] = set()
    work = [names]
    while work:
        batch = work.pop()
        if not batch:
            continue
        errors = errors_by_line(tool, triple, [line for name in batch for line in (name, SENTINEL)], scratch)
        if errors is None:
            if len(batch) == 1:
                known.add(batch[0])
            else:
                work += [batch[:len(batch) // 2], batch[len(batch) // 2:]]
            continue
        for i, name in enumerate(batch):
            if errors.get(2 * i + 2) != UNKNOWN:  # the sentinel after it: `name` changed what follows
                if len(batch) == 1:
                    if errors.get(1) != UNKNOWN:
                        known.add(name)
                else:
                    work += [batch[i + 1:], [name]]
                break
            if errors.get(2 * i + 1) != UNKNOWN:
                known.add(name)
    return known


@pytest.fixture(scope="module")
def accepted(refllc, tmp_path_factory) -> dict[str, set[str]]:
    names = candidates()
    scratch = tmp_path_factory.mktemp("walk")
    with ThreadPoolExecutor(2) as pool:
        found = pool.map(lambda triple: known_directives(refllc, triple, names, scratch), TRIPLES)
        return dict(zip(TRIPLES, found))


def levels() -> dict[str, set[str]]:
    """Each directive's row levels in the table."""
    found: dict[str, set[str]] = {}
    for row in asm_table.rows():
        found.setdefault(row.name, set()).add(row.level)
    return found


def test_the_walk_finds_directives_and_tells_targets_apart(accepted):
    """Guards the walk itself: it finds the generic, platform and target directives it must."""
    assert {".incbin", ".rept", ".set", ".cfi_startproc", ".pseudoprobe"} <= accepted["x86_64-unknown-linux-gnu"]
    assert ".type" in accepted["x86_64-unknown-linux-gnu"] and ".type" not in accepted["x86_64-apple-macosx"]
    assert ".code32" in accepted["i686-unknown-linux-gnu"] and ".code32" not in accepted["riscv64-unknown-linux-gnu"]
    assert ".option" in accepted["riscv64-unknown-linux-gnu"] and ".amdgpu_metadata" in accepted["amdgcn-amd-amdhsa"]
    assert all(len(names) > 150 for names in accepted.values())


@pytest.mark.filterwarnings("ignore::llvmplug.LLVMPlugWarning")  # MC's warnings on operand-less directives
def test_every_directive_a_parser_accepts_has_a_row(accepted):
    missing = []
    with llvmplug.Plugin(isolation="process", memory_limit=2 << 30) as plugin:
        for triple, names in accepted.items():
            for name in sorted(names):
                ir = f'target triple = "{triple}"\nmodule asm "{name}"\ndefine void @f() {{\n  ret void\n}}\n'
                try:
                    plugin.compile(ir, timeout=60)
                except (llvmplug.OptionError, llvmplug.LimitError, llvmplug.CodegenError) as error:
                    if "not on llvmplug's allow-list" in error.message:
                        missing.append(f"{triple}: {name}")
    assert not missing, "directives the parsers accept that no row of csrc/policy/asm_directives.def covers:\n" + \
        "\n".join(missing)


def test_directives_only_some_parsers_know_have_target_or_platform_rows(accepted):
    common = reduce(set.intersection, accepted.values())
    table = levels()
    generic_only = sorted(name for names in accepted.values() for name in names - common
                          if table.get(name.lower()) == {"GENERIC"})
    assert not generic_only, ("directives some parsers lack, covered only by generic rows (which apply on "
                              f"every target): {sorted(set(generic_only))}")
