"""Shared fixtures: real IR, the real shim, and the system C compiler."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parent / "data"
# The corpus lives in shared/ beside the project checkout (see shared/corpus/codegen/SOURCE.md).
CORPUS = Path(os.environ.get("LLVMPLUG_CORPUS", Path(__file__).resolve().parents[2] / "shared" / "corpus" / "codegen"))


@pytest.fixture(scope="session")
def arith_ir() -> str:
    return (DATA / "arith.ll").read_text()


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    files = sorted(CORPUS.glob("*.ll"))
    if not files:
        pytest.skip(f"IR corpus not found at {CORPUS} (set LLVMPLUG_CORPUS)")
    return files


@pytest.fixture(scope="session")
def cc() -> str:
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        pytest.skip("no C compiler to link objects with")
    return compiler


@pytest.fixture
def load_object(tmp_path, cc):
    """Link an object file into a shared library with the system C compiler and load it."""

    def load(obj: bytes, name: str = "mod") -> ctypes.CDLL:
        obj_path = tmp_path / f"{name}.o"
        lib_path = tmp_path / f"lib{name}.so"
        obj_path.write_bytes(obj)
        subprocess.run([cc, "-shared", "-o", str(lib_path), str(obj_path)], check=True)
        return ctypes.CDLL(str(lib_path))

    return load
