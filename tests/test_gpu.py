"""NVPTX kernels with libdevice, checked with NVIDIA's own ptxas; GPU and host side by side.

libdevice.10.bc (nvidia-nvvm) is linked into each kernel before optimisation,
as NVIDIA's toolchains do, and the PTX is assembled by ptxas
(nvidia-cuda-nvcc): no GPU is needed. Both wheels are in the test extra.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from gpu_support import KERNEL, LOOP, fresh_process_output, libdevice, ptxas  # noqa: E402

import llvmplug  # noqa: E402

LIBDEVICE = libdevice()
PTXAS = ptxas()
needs_libdevice = pytest.mark.skipif(LIBDEVICE is None, reason="nvidia-nvvm is not installed (test extra)")
needs_ptxas = pytest.mark.skipif(PTXAS is None, reason="nvidia-cuda-nvcc is not installed (test extra)")

# CUDA 13's ptxas starts at sm_75 (Turing); one per generation since.
ARCHS = ["sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_100", "sm_120"]

EM_CUDA = 190


@pytest.fixture(scope="module", autouse=True)
def _needs_nvptx():
    if "NVPTX" not in llvmplug.info()["backends"]:
        pytest.skip("this shim was built without NVPTX (LLVMPLUG_TARGETS)")


@pytest.fixture(scope="module")
def libdevice_bc() -> bytes:
    assert LIBDEVICE is not None
    return LIBDEVICE.read_bytes()


def assemble(ptx: bytes, arch: str, tmp_path: Path) -> subprocess.CompletedProcess:
    source = tmp_path / f"kernel_{arch}.ptx"
    source.write_bytes(ptx)
    return subprocess.run([str(PTXAS), f"-arch={arch}", str(source), "-o", str(tmp_path / f"kernel_{arch}.cubin")],
                          capture_output=True, text=True, timeout=120)


@needs_libdevice
@needs_ptxas
@pytest.mark.parametrize("arch", ARCHS)
def test_libdevice_kernel_assembles_with_ptxas(arch, libdevice_bc, tmp_path):
    ptx = llvmplug.compile(KERNEL, flags=[f"-mcpu={arch}", "-O3"], output="asm", link=[libdevice_bc])
    assert f".target {arch}".encode() in ptx
    assert b".visible .entry kernel(" in ptx
    assert b"__nv_expf" not in ptx  # inlined from libdevice: nothing left to resolve
    result = assemble(ptx, arch, tmp_path)
    assert result.returncode == 0, result.stderr
    cubin = (tmp_path / f"kernel_{arch}.cubin").read_bytes()
    assert cubin[:4] == b"\x7fELF" and int.from_bytes(cubin[18:20], "little") == EM_CUDA
    assert b"kernel" in cubin


@needs_ptxas
def test_without_libdevice_ptxas_refuses_the_kernel(tmp_path):
    """The control: the kernel really needs what libdevice provides (and the compile says so)."""
    with pytest.warns(llvmplug.LLVMPlugWarning, match=r"2 functions called but not defined.*"
                      r"__nv_expf, __nv_sinf \(libdevice: link=\[llvmplug.libdevice\(\)\]"):
        ptx = llvmplug.compile(KERNEL, flags=["-mcpu=sm_80", "-O3"], output="asm")
    assert b".extern .func" in ptx and b"__nv_expf" in ptx
    result = assemble(ptx, "sm_80", tmp_path)
    assert result.returncode != 0
    assert "__nv_expf" in result.stderr


@needs_libdevice
def test_libdevice_is_found_for_the_user(libdevice_bc):
    """llvmplug.libdevice() finds nvidia-nvvm's bitcode; linked in, nothing is left undefined."""
    assert llvmplug.libdevice_path() == LIBDEVICE
    assert llvmplug.libdevice() == libdevice_bc
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", llvmplug.LLVMPlugWarning)
        llvmplug.compile(KERNEL, flags=["-mcpu=sm_80"], output="asm", link=[llvmplug.libdevice()])


def test_missing_libdevice_says_how_to_install_it(monkeypatch):
    from llvmplug import gpu

    monkeypatch.setattr(gpu, "_candidates", lambda: [])
    with pytest.raises(llvmplug.LinkError, match="pip install nvidia-nvvm"):
        llvmplug.libdevice()


def test_undefined_functions_are_not_reported_for_bitcode_or_the_host():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error", llvmplug.LLVMPlugWarning)
        llvmplug.compile(KERNEL, flags=["-mcpu=sm_80"], output="bc")
        llvmplug.compile("declare void @g()\ndefine void @f() {\n  call void @g()\n  ret void\n}\n")


@needs_libdevice
def test_only_what_the_kernel_calls_is_linked_and_it_is_internal(libdevice_bc):
    ir = llvmplug.compile(KERNEL, flags=["-mcpu=sm_80", "-passes="], output="ll", link=[libdevice_bc]).decode()
    defined = set(re.findall(r"^define [^@]*@(\w+)\(", ir, re.M))
    assert {"kernel", "__nv_expf", "__nv_sinf"} <= defined
    assert "__nv_cosf" not in ir and "__nv_logf" not in ir  # libdevice has ~500 functions
    for name in ("__nv_expf", "__nv_sinf"):
        assert re.search(rf"^define internal [^@]*@{name}\(", ir, re.M), name
    assert re.search(r"^define ptx_kernel void @kernel\(", ir, re.M)  # the kernel keeps its linkage


def test_march_without_a_triple_compiles_for_nvptx():
    """llc's -march: before, a module without a triple silently compiled for the host."""
    untargeted = KERNEL.replace('target triple = "nvptx64-nvidia-cuda"\n', "")
    ptx = llvmplug.compile(untargeted, flags=["-march=nvptx64", "-mcpu=sm_80"], output="asm")
    assert b"Generated by LLVM NVPTX Back-End" in ptx and b".address_size 64" in ptx
    ptx32 = llvmplug.compile(untargeted.replace("ptx_kernel", ""), flags=["-march=nvptx"], output="asm")
    assert b".address_size 32" in ptx32


def test_march_overrides_the_arch_of_the_module_triple():
    host_module = 'target triple = "x86_64-unknown-linux-gnu"\n' + LOOP
    ptx = llvmplug.compile(host_module, flags=["-march=nvptx64"], output="asm")
    assert b"Generated by LLVM NVPTX Back-End" in ptx


def test_unknown_march_is_a_target_error():
    with pytest.raises(llvmplug.TargetError, match="nvptx65"):
        llvmplug.compile(LOOP, flags=["-march=nvptx65"])


# -- host and GPU side by side --------------------------------------------------------

# GPU-only per-call options: a forced unroll and NVPTX's own scheduling flag.
GPU_FLAGS = ["-O3", "-mcpu=sm_80", "-unroll-count=8", "-unroll-runtime", "-nvptx-sched4reg"]
HOST_FLAGS = ["-O3"]
NVPTX = "nvptx64-nvidia-cuda"


def test_gpu_options_per_call_on_one_thread_do_not_reach_host_compiles_on_another():
    gpu_reference = fresh_process_output(LOOP, NVPTX, GPU_FLAGS)
    host_reference = fresh_process_output(LOOP, None, HOST_FLAGS)
    # The options matter: without them the GPU output differs, and leaked into
    # the host's compile they would change it.
    assert llvmplug.compile(LOOP, NVPTX, ["-O3", "-mcpu=sm_80"], output="asm") != gpu_reference
    assert llvmplug.compile(LOOP, None, HOST_FLAGS + GPU_FLAGS[2:4], output="asm") != host_reference

    results: dict[str, list[bytes]] = {"gpu": [], "host": []}
    failures: list[BaseException] = []
    start = threading.Barrier(2)

    def run(kind: str, target: str | None, flags: list[str]) -> None:
        try:
            start.wait()
            for _ in range(20):
                results[kind].append(llvmplug.compile(LOOP, target, flags, output="asm"))
        except BaseException as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=run, args=("gpu", NVPTX, GPU_FLAGS)),
               threading.Thread(target=run, args=("host", None, HOST_FLAGS))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
    assert set(results["gpu"]) == {gpu_reference}
    assert set(results["host"]) == {host_reference}


def test_sticky_gpu_options_on_one_private_plugin_and_host_options_on_another():
    gpu_sticky = ["-unroll-count=8", "-unroll-runtime", "-nvptx-sched4reg"]
    host_sticky = ["-x86-asm-syntax=intel", "-unroll-count=2", "-unroll-runtime"]
    gpu_reference = fresh_process_output(LOOP, NVPTX, ["-O3", "-mcpu=sm_80"], sticky=gpu_sticky)
    host_reference = fresh_process_output(LOOP, None, ["-O3"], sticky=host_sticky)
    assert b".intel_syntax" in host_reference
    with llvmplug.Plugin(private=True) as gpu, llvmplug.Plugin(private=True) as host:
        gpu.set_options(gpu_sticky)
        host.set_options(host_sticky)
        outputs = []
        for _ in range(3):
            outputs.append((gpu.compile(LOOP, NVPTX, ["-O3", "-mcpu=sm_80"], output="asm"),
                            host.compile(LOOP, None, ["-O3"], output="asm")))
        # The default copy saw neither.
        plain = llvmplug.compile(LOOP, None, ["-O3"], output="asm")
    assert all(g == gpu_reference and h == host_reference for g, h in outputs)
    assert plain == fresh_process_output(LOOP, None, ["-O3"]) and plain != host_reference


@needs_libdevice
@needs_ptxas
def test_example_gpu_and_host_runs():
    import tempfile

    example = Path(__file__).resolve().parents[1] / "examples" / "gpu_and_host.py"
    result = subprocess.run([sys.executable, str(example)], capture_output=True, text=True, timeout=300,
                            cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stderr
    assert "ptxas made a" in result.stdout and "triangle(100) = 4950" in result.stdout


@needs_libdevice
@pytest.mark.parametrize("damage", ["truncated", "garbage after the magic"])
def test_damaged_libdevice_is_a_link_error(damage, libdevice_bc):
    # (Bitcode has no checksum, and it is read lazily: damage inside a function
    # the kernel never calls goes unseen, as in clang.)
    import random

    if damage == "truncated":
        bad = libdevice_bc[: len(libdevice_bc) // 2]
    else:
        bad = libdevice_bc[:4] + random.Random(11).randbytes(len(libdevice_bc) - 4)
    with llvmplug.Plugin(private=True) as plugin:
        with pytest.raises(llvmplug.LinkError, match="link module 1: invalid bitcode"):
            plugin.compile(KERNEL, flags=["-mcpu=sm_80"], output="asm", link=[bad])
        assert not plugin.poisoned
        assert b".target sm_80" in plugin.compile(KERNEL, flags=["-mcpu=sm_80"], output="asm", link=[libdevice_bc])


@needs_libdevice
@needs_ptxas
@pytest.mark.parametrize("level", ["-O0", "-O1", "-passes="])
def test_libdevice_kernel_at_every_level_assembles(level, libdevice_bc, tmp_path):
    """Unoptimised, libdevice's functions stay as internal .func definitions ptxas must accept."""
    ptx = llvmplug.compile(KERNEL, flags=["-mcpu=sm_80", level], output="asm", link=[libdevice_bc])
    if level == "-passes=":
        assert re.search(rb"^\.func .*__nv_expf\(", ptx, re.M) and b".extern" not in ptx and b".visible .func" not in ptx
    result = assemble(ptx, "sm_80", tmp_path)
    assert result.returncode == 0, result.stderr


_DAMAGE = r"""
import collections, json, random, sys
sys.path.insert(0, sys.argv[1])
from gpu_support import KERNEL, libdevice
import llvmplug
original = libdevice().read_bytes()
chance = random.Random(2026)
seen = collections.Counter()
plugin = llvmplug.Plugin(private=True)
for _ in range(int(sys.argv[2])):
    data = bytearray(original)
    kind = chance.randrange(3)
    if kind == 0:
        for _ in range(chance.randrange(1, 8)):
            data[chance.randrange(len(data))] = chance.randrange(256)
    elif kind == 1:
        data = data[: chance.randrange(4, len(data))]
    else:
        at = chance.randrange(len(data))
        data[at:at + 64] = chance.randbytes(64)
    try:
        plugin.compile(KERNEL, flags=["-mcpu=sm_80"], output="asm", link=[bytes(data)])
        seen["ok"] += 1
    except llvmplug.LLVMPlugError as error:
        seen[type(error).__name__] += 1
print(json.dumps(seen))
"""


@needs_libdevice
def test_randomly_damaged_libdevice_never_crashes():
    """200 damaged copies (bytes overwritten, truncated, spliced): each compiles or is a typed error."""
    import json
    import tempfile

    result = subprocess.run([sys.executable, "-c", _DAMAGE, str(Path(__file__).resolve().parent / "support"), "200"],
                            capture_output=True, text=True, timeout=600, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stderr[-3000:]
    seen = json.loads(result.stdout)
    assert seen.get("LinkError", 0) > 0 and sum(seen.values()) == 200
