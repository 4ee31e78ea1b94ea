"""The benchmark's input: the real IR corpus, and larger modules built from it.

The corpus modules are small (one to a few functions each), so to show how
cost grows with module size the suite also compiles:

- ``concat-N``: N corpus modules merged into one module (each copy's names,
  attribute groups, metadata and struct types renamed so they cannot clash;
  intrinsic declarations merged);
- ``loops-N``: N generated functions, each a loop the O2 pipeline vectorises
  and unrolls, so optimisation and codegen dominate parsing.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

# The tests' vendored corpus (tests/data/corpus/SOURCE.md): the tests find it the same way.
DEFAULT_CORPUS = Path(__file__).resolve().parents[1] / "tests" / "data" / "corpus"


def corpus_dir() -> Path:
    """The corpus directory: $LLVMPLUG_CORPUS, else the vendored tests/data/corpus."""
    return Path(os.environ.get("LLVMPLUG_CORPUS") or DEFAULT_CORPUS)


@dataclass(frozen=True)
class Module:
    """One benchmark input: a name and its IR text."""

    name: str
    text: str

    @property
    def functions(self) -> int:
        return len(re.findall(r"^define ", self.text, flags=re.M))


def load_corpus(limit: int | None = None) -> list[Module]:
    """The corpus modules in name order (the names are content hashes: a fair sample)."""
    files = sorted(corpus_dir().glob("*.ll"))
    if not files:
        raise FileNotFoundError(f"no *.ll files in the IR corpus {corpus_dir()} (set LLVMPLUG_CORPUS)")
    return [Module(path.stem, path.read_text()) for path in files[:limit]]


def median_module() -> Module:
    """The corpus module of median size (ties by name)."""
    modules = sorted(load_corpus(), key=lambda module: (len(module.text.encode()), module.name))
    return modules[len(modules) // 2]


_GLOBAL = re.compile(r'@(?!llvm\.)([-a-zA-Z$._][-a-zA-Z$._0-9]*|"[^"]*"|\d+)')
_TYPE = re.compile(r"^(%[-a-zA-Z$._][-a-zA-Z$._0-9]*) = type ", re.M)


def merge_modules(texts: list[str]) -> str:
    """One module defining everything the given target-neutral modules define:
    each module's globals (not intrinsics), named types, attribute groups and
    numbered metadata made unique to it; intrinsic declarations kept once."""
    out: list[str] = []
    declared: set[str] = set()
    for index, text in enumerate(texts):
        text = "\n".join(line for line in text.splitlines() if line and not line.lstrip().startswith(";")
                         and not line.startswith(("source_filename", "target datalayout", "target triple")))
        for name in sorted(set(_TYPE.findall(text)), key=len, reverse=True):
            text = re.sub(re.escape(name) + r"(?![-a-zA-Z$._0-9])", f"{name}.m{index}", text)

        def rename(match: re.Match[str], index: int = index) -> str:
            name = match.group(1)
            if name.startswith('"'):
                return f'@"{name[1:-1]}.m{index}"'
            return f"@m{index}.{name}" if name.isdigit() else f"@{name}.m{index}"

        text = _GLOBAL.sub(rename, text)
        text = re.sub(r"#(\d+)\b", lambda m: f"#{index * 1000 + int(m.group(1))}", text)
        text = re.sub(r"!(\d+)\b", lambda m: f"!{index * 1000 + int(m.group(1))}", text)
        for line in text.splitlines():
            declare = re.search(r"@[^(\s]+", line) if line.startswith("declare") else None
            if declare and declare.group(0) in declared:
                continue
            if declare:
                declared.add(declare.group(0))
            out.append(line)
    return "\n".join(out) + "\n"


def concatenate(modules: list[Module], count: int) -> Module:
    """One module holding ``count`` corpus modules (cycling through them)."""
    return Module(f"concat-{count}", merge_modules([modules[copy % len(modules)].text for copy in range(count)]))


_OPS = [("fadd", "fmul"), ("fsub", "fmul"), ("fmul", "fadd"), ("fadd", "fsub")]


def loops(count: int) -> Module:
    """``count`` generated functions, each an a[i] = f(a[i], b[i]) loop over floats."""
    functions = []
    for index in range(count):
        first, second = _OPS[index % len(_OPS)]
        scale = 1.0 + index / 8
        functions.append(f"""\
define void @loop{index}(ptr noalias %a, ptr noalias %b, float %s, i64 %n) {{
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %body
body:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %va = load float, ptr %pa, align 4
  %vb = load float, ptr %pb, align 4
  %x = {first} float %va, %s
  %y = {second} float %x, %vb
  %z = fmul float %y, {scale:.6e}
  store float %z, ptr %pa, align 4
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %body, label %exit
exit:
  ret void
}}
""")
    return Module(f"loops-{count}", "\n".join(functions))


EMPTY = Module("empty", "; a module with nothing in it\n")

# An AVX2 intrinsic for baseline x86-64: x86 instruction selection reports
# it through report_fatal_error, the path that poisons and reloads a Plugin.
FATAL_IR = """
declare <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16>, <16 x i16>)

define <8 x i32> @pmadd(<16 x i16> %a, <16 x i16> %b) {
  %r = call <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16> %a, <16 x i16> %b)
  ret <8 x i32> %r
}
"""
