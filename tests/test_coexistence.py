"""llvmplug in one process with other LLVMs and the libraries that carry them.

Every scenario runs in its own interpreter (tests/support/neighbours.py) outside the
checkout, and is compared with what the same code produces in a clean
process. Each one also checks that the neighbour really is there and really
took its option, so a scenario cannot pass by doing nothing.
"""

from __future__ import annotations

import ctypes.util
import importlib.util
import json
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

HELPER = Path(__file__).resolve().parent / "support" / "neighbours.py"

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the neighbours are Linux libraries"),
    pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                       reason="the scenarios use -x86-asm-syntax (the SDK ships the X86 target only)"),
]


def system_llvms() -> list[str]:
    """Shared system libLLVMs with the C API we drive (Debian's libllvm14/15 packages)."""
    return [name for name in (ctypes.util.find_library(f"LLVM-{v}") for v in (15, 14)) if name]


SYSTEM_LLVMS = system_llvms() or [
    pytest.param(None, marks=pytest.mark.skip(reason="no system libLLVM-15/14 (apt-get install libllvm15)"))
]


def needs(module: str):
    return pytest.mark.skipif(importlib.util.find_spec(module) is None,
                              reason=f"{module} is not installed (it is in the test extra)")


def run(*args: str) -> dict:
    result = subprocess.run([sys.executable, str(HELPER), *args], capture_output=True, text=True,
                            timeout=600, cwd=tempfile.gettempdir())
    assert result.returncode == 0, (
        f"neighbours.py {' '.join(args)} exited with {result.returncode}\n"
        f"stdout: {result.stdout[-2000:]}\nstderr: {result.stderr[-4000:]}"
    )
    lines = [line for line in result.stdout.splitlines() if line.startswith("RESULT ")]
    return json.loads(lines[-1][len("RESULT "):])


def syntax(asm: str) -> str:
    return "intel" if ".intel_syntax" in asm else "att"


@pytest.fixture(scope="module")
def clean() -> dict:
    """llvmplug's outputs in a process of its own."""
    outputs = run("clean")["plug"]
    assert syntax(outputs["asm"]) == "att" and syntax(outputs["asm_intel_per_call"]) == "intel"
    return outputs


@pytest.fixture(scope="module")
def llvmlite_clean() -> str:
    asm = run("llvmlite-clean")["llvmlite_asm"]
    assert "scale:" in asm and syntax(asm) == "att"
    return asm


# -- a system libLLVM loaded RTLD_GLOBAL ---------------------------------------------

@pytest.mark.parametrize("order", ["neighbour-first", "llvmplug-first"])
@pytest.mark.parametrize("library", SYSTEM_LLVMS)
def test_system_llvm_options_do_not_reach_llvmplug(library, order, clean):
    result = run("system-options", library, order)
    # The neighbour took the option (it prints Intel syntax), and llvmplug
    # produces exactly what it produces alone.
    assert result["neighbour_before"] == result["neighbour_after"] == "intel"
    assert result["plug"] == clean
    assert result.get("plug_before", clean) == clean


@pytest.mark.parametrize("order", ["neighbour-first", "llvmplug-first"])
@pytest.mark.parametrize("library", SYSTEM_LLVMS)
def test_llvmplug_options_do_not_reach_system_llvm(library, order):
    alone = run("system-clean", library)["neighbour_asm"]
    assert "scale:" in alone and syntax(alone) == "att"
    result = run("plug-options-reach-system", library, order)
    assert result["plug_syntax"] == {"per_call": "intel", "sticky": "intel"}
    assert result["neighbour_asm"] == alone


# -- llvmlite, Numba, PyTorch --------------------------------------------------------------

@needs("llvmlite")
@pytest.mark.parametrize("setter", ["llvmlite", "llvmplug"])
@pytest.mark.parametrize("order", ["llvmlite-first", "llvmplug-first"])
def test_llvmlite(order, setter, clean, llvmlite_clean):
    result = run("llvmlite", order, setter)
    assert result["llvmlite_first"] == llvmlite_clean
    assert result["plug_first"] == clean
    if setter == "llvmlite":
        # llvmlite.binding.set_option took effect in llvmlite, not in llvmplug.
        assert syntax(result["llvmlite_after"]) == "intel"
        assert result["plug_after"] == clean
    else:
        assert result["plug_syntax"] == {"per_call": "intel", "sticky": "intel"}
        assert result["llvmlite_after"] == llvmlite_clean


@needs("tvm_ffi_orcjit")
@pytest.mark.parametrize("order", ["orcjit-first", "llvmplug-first"])
def test_orcjit(order, clean):
    """tvm-ffi-orcjit's LLVM beside llvmplug's: llvmplug's code runs under it, outputs are unchanged."""
    reference = run("orcjit-clean")["object"]
    result = run("orcjit", order)
    assert result["orcjit"]["add_one"] == 42
    assert result["orcjit"]["scaled"] == [0.0, 3.0, 6.0, 9.0, 12.0]
    assert result["orcjit"]["object"] == reference
    assert result["plug"] == result["plug_again"] == clean


@needs("numba")
@pytest.mark.parametrize("order", ["numba-first", "llvmplug-first"])
def test_numba(order, clean):
    result = run("numba", order)
    assert result["numba"]["triangle"] == result["numba"]["expected"] == 332833500
    assert result["plug"] == result["plug_again"] == clean


@needs("torch")
@pytest.mark.parametrize("order", ["torch-first", "llvmplug-first"])
def test_torch(order, clean):
    result = run("torch", order)
    for tensors in (result["torch"], result["torch_again"]):
        assert tensors["matmul_ok"] and tensors["softmax_sum"] == 1.0
    assert result["plug"] == clean


@needs("torch")
@needs("numba")
@needs("llvmlite")
# Without a system libLLVM, the rest still runs together (its own tests skip).
@pytest.mark.parametrize("library", system_llvms()[:1] or [None])
def test_everything_at_once(library, clean, llvmlite_clean):
    result = run("everything", library or "-")
    assert result.get("neighbour") == ("intel" if library else None)
    assert result["torch"]["matmul_ok"] and result["torch_again"]["matmul_ok"]
    assert result["numba"]["triangle"] == result["numba_again"]["triangle"] == 332833500
    assert result["llvmlite_asm"] == result["llvmlite_again"] == llvmlite_clean
    # Two private copies with different sticky options, and the default copy.
    assert result["private_intel_asm"] == result["private_intel_again"] == clean["asm_intel_per_call"]
    assert result["private_plain"] == result["default"] == clean


# -- libNVVM: NVIDIA's own LLVM (nvidia-nvvm), beside llvmplug's NVPTX ----------------------

def _nvvm_installed() -> bool:
    spec = importlib.util.find_spec("nvidia")
    return bool(spec and any(Path(p).glob("*/lib/libnvvm.so.*") for p in spec.submodule_search_locations or []))


@pytest.mark.skipif(not _nvvm_installed(), reason="nvidia-nvvm is not installed (it is in the test extra)")
@pytest.mark.parametrize("order", ["nvvm-first", "llvmplug-first"])
def test_libnvvm(order, clean):
    reference = run("plug-gpu-clean")
    assert reference["plug"] == clean
    gpu = reference["gpu"]
    assert ".target sm_80" in gpu["ptx_sm_80"] and ".target sm_90" in gpu["ptx_sm_90"]
    assert gpu["ptx_fast_math"] != gpu["ptx_sm_80"]  # the per-call option did something
    nvvm_alone = run("nvvm-clean")["nvvm_ptx"]
    assert "Generated by NVIDIA NVVM Compiler" in nvvm_alone

    result = run("nvvm", order)
    assert result["plug"] == clean
    assert result["gpu"] == gpu and result["gpu_again"] == gpu and result["gpu_after_fast"] == gpu
    assert result["nvvm_first"] == nvvm_alone and result["nvvm_again"] == nvvm_alone
    assert result["nvvm_fast"] != nvvm_alone  # the neighbour really took its options
