"""Assembly that assemblers before LLVM 23 read: what the README says about .prefalign holds.

LLVM 23 aligns functions on some ELF targets with ``.prefalign N``, a
directive GNU as (2.40 here) and clang 19 reject; ``-align-all-functions=N``
makes it write ``.p2align N`` instead. Checked with whichever of the two
assemblers is installed (CI installs clang-19).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import llvmplug
import pytest

README = (Path(__file__).resolve().parents[1] / "README.md").read_text()

# The targets the README names, with the N its advice gives for them.
TARGETS = {"x86_64-linux-gnu": 4, "powerpc64le-linux-gnu": 4, "s390x-linux-gnu": 4, "loongarch64-linux-gnu": 5}


@pytest.mark.parametrize("triple", TARGETS)
def test_prefalign_and_the_flag_that_avoids_it(triple, arith_ir):
    default = llvmplug.compile(arith_ir, triple, output="asm").decode()
    declared = {int(n) for n in re.findall(r"\.prefalign\s+(\d+)", default)}
    assert declared and max(declared) <= TARGETS[triple], declared  # the README's N covers it
    avoided = llvmplug.compile(arith_ir, triple, f"-align-all-functions={TARGETS[triple]}", output="asm").decode()
    assert ".prefalign" not in avoided and f".p2align\t{TARGETS[triple]}" in avoided
    assert "-align-all-functions=N" in README and "4 on x86, 5 on LoongArch" in README


def assemblers() -> list[list[str]]:
    found = []
    if shutil.which("as"):
        found.append(["as", "-o", "/dev/null", "-"])
    for clang in ("clang-19", "clang"):
        if shutil.which(clang):
            found.append([clang, "--target=x86_64-linux-gnu", "-c", "-x", "assembler", "-", "-o", "/dev/null"])
            break
    return found


def test_older_assemblers_read_the_corpus_with_the_flag(corpus_files):
    tools = assemblers()
    if not tools:
        pytest.skip("no GNU as or clang to assemble with")
    for path in corpus_files[:12]:
        module = path.read_bytes()
        plain = llvmplug.compile(module, "x86_64-unknown-linux-gnu", "-O2", output="asm")
        fixed = llvmplug.compile(module, "x86_64-unknown-linux-gnu", "-O2 -align-all-functions=4", output="asm")
        for tool in tools:
            if b".prefalign" in plain:  # a module with a function in it
                refused = subprocess.run(tool, input=plain, capture_output=True, timeout=120)
                assert refused.returncode != 0 and b"prefalign" in refused.stderr, (path.name, tool[0])
            read = subprocess.run(tool, input=fixed, capture_output=True, timeout=120)
            assert read.returncode == 0, (path.name, tool[0], read.stderr.decode()[:500])
