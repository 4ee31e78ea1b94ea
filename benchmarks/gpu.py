"""GPU compile latency: llvmplug beside libNVVM and llvmlite; what every backend costs.

Self-contained (standard library, llvmplug and the peers only):

    python -m benchmarks.gpu [--quick]             # latency table
    python -m benchmarks.gpu --cost LIB [LIB ...]  # size/load/RSS of shim builds

Latency: the same kernel (``out[i] = sinf(expf(in[i]))``, calling libdevice)
to PTX for sm_80 at -O3, libdevice.10.bc linked in on every call, from input
bytes to PTX text:

- llvmplug: IR text + libdevice bytes, ``compile(..., link=[libdevice])``
  (libdevice is loaded lazily; only what the kernel calls is materialised).
- libNVVM (nvidia-nvvm, ``nvvmCompileProgram`` through ctypes): its IR dialect
  is NVVM IR 2.0, based on LLVM 7: typed pointers (``float addrspace(1)*``)
  and kernels marked in ``!nvvm.annotations`` instead of the ``ptx_kernel``
  calling convention, so it is given the same kernel written in that dialect;
  libdevice goes in with ``nvvmLazyAddModuleToProgram``; ``-arch=compute_80
  -opt=3``.
- llvmlite (its PyPI wheel carries NVPTX): parse both, ``link_in``, internalise
  libdevice's definitions by hand (llvmlite has no link-only-needed), its new
  pass manager at O3, and its NVPTX target machine for sm_80.
"""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any, Callable

KERNEL = """\
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_expf(float)
declare float @__nv_sinf(float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @kernel(ptr addrspace(1) %out, ptr addrspace(1) %in) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %src = getelementptr float, ptr addrspace(1) %in, i64 %idx
  %x = load float, ptr addrspace(1) %src
  %e = call float @__nv_expf(float %x)
  %s = call float @__nv_sinf(float %e)
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %idx
  store float %s, ptr addrspace(1) %dst
  ret void
}
"""

# The same kernel in libNVVM's dialect (NVVM IR 2.0, LLVM 7: typed pointers).
KERNEL_NVVM = """\
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_expf(float)
declare float @__nv_sinf(float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define void @kernel(float addrspace(1)* %out, float addrspace(1)* %in) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %idx = zext i32 %tid to i64
  %src = getelementptr float, float addrspace(1)* %in, i64 %idx
  %x = load float, float addrspace(1)* %src
  %e = call float @__nv_expf(float %x)
  %s = call float @__nv_sinf(float %e)
  %dst = getelementptr float, float addrspace(1)* %out, i64 %idx
  store float %s, float addrspace(1)* %dst
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*, float addrspace(1)*)* @kernel, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
"""

ARCH = "sm_80"


def _nvidia(*patterns: str) -> Path | None:
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        for pattern in patterns:
            for match in sorted(Path(root).glob(pattern), reverse=True):
                return match
    return None


def libdevice_path() -> Path | None:
    return _nvidia("*/nvvm/libdevice/libdevice.10.bc")


def libnvvm_path() -> Path | None:
    return _nvidia("*/lib/libnvvm.so.*", "*/nvvm/lib64/libnvvm.so*")


class Unavailable(Exception):
    """This peer cannot run here; the message says why."""


class LLVMPlug:
    label = "llvmplug"

    def __init__(self, libdevice: bytes) -> None:
        import llvmplug

        self.plugin = llvmplug.Plugin(private=True)
        self.libdevice = libdevice
        self.version = f"LLVM {self.plugin.info()['llvm_version']}"

    def compile(self) -> bytes:
        return self.plugin.compile(KERNEL, flags=["-O3", f"-mcpu={ARCH}"], output="asm", link=[self.libdevice])

    def close(self) -> None:
        self.plugin.unload()


class LibNVVM:
    label = "libNVVM (nvvmCompileProgram)"

    def __init__(self, libdevice: bytes) -> None:
        path = libnvvm_path()
        if path is None:
            raise Unavailable("nvidia-nvvm is not installed")
        self.lib = lib = ctypes.CDLL(str(path))
        p, c, size = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
        for name, args in [("nvvmCreateProgram", [ctypes.POINTER(p)]),
                           ("nvvmAddModuleToProgram", [p, c, size, c]),
                           ("nvvmLazyAddModuleToProgram", [p, c, size, c]),
                           ("nvvmCompileProgram", [p, ctypes.c_int, ctypes.POINTER(c)]),
                           ("nvvmGetCompiledResultSize", [p, ctypes.POINTER(size)]),
                           ("nvvmGetCompiledResult", [p, c]),
                           ("nvvmGetProgramLogSize", [p, ctypes.POINTER(size)]),
                           ("nvvmGetProgramLog", [p, c]),
                           ("nvvmDestroyProgram", [ctypes.POINTER(p)]),
                           ("nvvmVersion", [ctypes.POINTER(ctypes.c_int)] * 2)]:
            getattr(lib, name).argtypes = args
            getattr(lib, name).restype = ctypes.c_int
        major, minor = ctypes.c_int(), ctypes.c_int()
        lib.nvvmVersion(ctypes.byref(major), ctypes.byref(minor))
        self.version = f"libNVVM {major.value}.{minor.value} ({path.name})"
        self.libdevice = libdevice
        self.kernel = KERNEL_NVVM.encode()
        self.options = (c * 2)(f"-arch=compute_{ARCH[3:]}".encode(), b"-opt=3")

    def compile(self) -> bytes:
        lib, program = self.lib, ctypes.c_void_p()
        if lib.nvvmCreateProgram(ctypes.byref(program)):
            raise RuntimeError("nvvmCreateProgram failed")
        try:
            if lib.nvvmAddModuleToProgram(program, self.kernel, len(self.kernel), b"kernel") or \
                    lib.nvvmLazyAddModuleToProgram(program, self.libdevice, len(self.libdevice), b"libdevice"):
                raise RuntimeError("libNVVM refused a module")
            if lib.nvvmCompileProgram(program, 2, self.options):
                size = ctypes.c_size_t()
                lib.nvvmGetProgramLogSize(program, ctypes.byref(size))
                log = ctypes.create_string_buffer(size.value)
                lib.nvvmGetProgramLog(program, log)
                raise RuntimeError(f"libNVVM: {log.value.decode(errors='replace')}")
            size = ctypes.c_size_t()
            lib.nvvmGetCompiledResultSize(program, ctypes.byref(size))
            ptx = ctypes.create_string_buffer(size.value)
            lib.nvvmGetCompiledResult(program, ptx)
            return ptx.value
        finally:
            lib.nvvmDestroyProgram(ctypes.byref(program))

    def close(self) -> None:
        pass


class LLVMLite:
    label = "llvmlite (NVPTX)"

    def __init__(self, libdevice: bytes) -> None:
        try:
            import llvmlite.binding as llvm
        except ImportError as error:
            raise Unavailable(f"llvmlite is not installed ({error})") from None
        llvm.initialize_all_targets()
        llvm.initialize_all_asmprinters()
        try:
            target = llvm.Target.from_triple("nvptx64-nvidia-cuda")
        except RuntimeError as error:
            raise Unavailable(f"this llvmlite has no NVPTX backend ({error})") from None
        self.llvm = llvm
        self.machine = target.create_target_machine(cpu=ARCH, opt=3)
        self.libdevice = libdevice
        self.version = "llvmlite {} (LLVM {})".format(
            __import__("llvmlite").__version__, ".".join(map(str, llvm.llvm_version_info)))

    def compile(self) -> bytes:
        llvm = self.llvm
        module = llvm.parse_assembly(KERNEL)
        library = llvm.parse_bitcode(self.libdevice)
        own = {f.name for f in module.functions if not f.is_declaration}
        module.link_in(library)
        # llvmlite links all of libdevice: internalise it so that O3 drops the unused.
        for function in module.functions:
            if not function.is_declaration and function.name not in own:
                function.linkage = llvm.Linkage.internal
        module.triple = "nvptx64-nvidia-cuda"
        module.data_layout = str(self.machine.target_data)
        builder = llvm.create_pass_builder(self.machine, llvm.PipelineTuningOptions(speed_level=3))
        builder.getModulePassManager().run(module, builder)
        return self.machine.emit_assembly(module).encode()

    def close(self) -> None:
        pass


def _samples(function: Callable[[], Any], repeat: int) -> list[float]:
    function()  # warm-up: first-call initialisation is not a compile
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def run(quick: bool) -> dict[str, Any]:
    """Median/min latency of each peer; a peer that cannot run records why."""
    path = libdevice_path()
    if path is None:
        return {"error": "nvidia-nvvm (libdevice.10.bc) is not installed"}
    libdevice = path.read_bytes()
    repeat = 5 if quick else 40
    rows: list[dict[str, Any]] = []
    for peer in (LLVMPlug, LibNVVM, LLVMLite):
        try:
            backend = peer(libdevice)
        except Unavailable as why:
            rows.append({"peer": peer.label, "unavailable": str(why)})
            continue
        try:
            ptx = backend.compile()
            samples = _samples(backend.compile, repeat)
            rows.append({"peer": peer.label, "version": backend.version, "ptx_bytes": len(ptx),
                         "inlined": b"__nv_expf" not in ptx,
                         "median_ms": statistics.median(samples) * 1e3, "min_ms": min(samples) * 1e3,
                         "samples": len(samples)})
        finally:
            backend.close()
    return {"kernel": "sinf(expf(x)) + libdevice.10.bc, sm_80, -O3, to PTX", "repeat": repeat, "rows": rows}


def markdown(result: dict[str, Any]) -> str:
    if "error" in result:
        return f"## GPU compile latency\n\nNot measured: {result['error']}\n"
    lines = ["## GPU compile latency", "", f"{result['kernel']} ({result['repeat']} samples each)", "",
             "| peer | version | median | min | PTX bytes | libdevice inlined |",
             "|---|---|---:|---:|---:|---|"]
    llvmplug_median = next((r["median_ms"] for r in result["rows"] if r["peer"] == "llvmplug"), None)
    for row in result["rows"]:
        if "unavailable" in row:
            lines.append(f"| {row['peer']} | unavailable: {row['unavailable']} | | | | |")
            continue
        relative = f" ({row['median_ms'] / llvmplug_median:.1f}x)" if llvmplug_median else ""
        lines.append(f"| {row['peer']} | {row['version']} | {row['median_ms']:.1f} ms{relative} | "
                     f"{row['min_ms']:.1f} ms | {row['ptx_bytes']} | {'yes' if row['inlined'] else 'no'} |")
    return "\n".join(lines) + "\n"


# -- what the backends cost -------------------------------------------------------------

_PROBE = r"""
import json, sys, time
import llvmplug
def rss():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
IR = "define i32 @f(i32 %x) {\n  %y = mul i32 %x, %x\n  ret i32 %y\n}\n"
before = rss()
start = time.perf_counter()
plugin = llvmplug.Plugin(path=sys.argv[1])
loaded = time.perf_counter()
plugin.compile(IR)
compiled = time.perf_counter()
first = rss()
start_reload = time.perf_counter()
plugin.reload()
plugin.compile(IR)
reloaded = time.perf_counter()
after_reload = rss()
start_private = time.perf_counter()
private = llvmplug.Plugin(path=sys.argv[1], private=True)
private.compile(IR)
private_ready = time.perf_counter()
print(json.dumps({"load_s": loaded - start, "first_compile_s": compiled - loaded,
                  "reload_until_compiled_s": reloaded - start_reload,
                  "private_copy_until_compiled_s": private_ready - start_private,
                  "rss_first_copy": first - before, "rss_private_copy": rss() - after_reload}))
"""


def cost(libraries: list[Path], repeat: int = 5) -> list[dict[str, Any]]:
    """Size, deflated size (what a wheel stores), load/reload time and RSS per private copy.

    Each probe runs in a fresh interpreter (Linux: RSS from /proc); medians of ``repeat``.
    """
    rows = []
    for library in libraries:
        data = library.read_bytes()
        runs = [json.loads(subprocess.run([sys.executable, "-c", _PROBE, str(library)], check=True,
                                          capture_output=True, text=True).stdout) for _ in range(repeat)]
        row: dict[str, Any] = {"library": str(library), "size": len(data),
                               "deflated": len(zlib.compress(data, 6))}
        row.update({key: statistics.median(run[key] for run in runs) for key in runs[0]})
        rows.append(row)
    return rows


def cost_markdown(rows: list[dict[str, Any]]) -> str:
    lines = ["| shim | stripped | deflated (wheel) | load | load + first compile | reload until compiled "
             "| private copy until compiled | RSS 1st copy | RSS private copy |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['library']} | {row['size'] / 1e6:.1f} MB | {row['deflated'] / 1e6:.1f} MB | "
                     f"{row['load_s'] * 1e3:.0f} ms | {(row['load_s'] + row['first_compile_s']) * 1e3:.0f} ms | "
                     f"{row['reload_until_compiled_s'] * 1e3:.0f} ms | "
                     f"{row['private_copy_until_compiled_s'] * 1e3:.0f} ms | "
                     f"{row['rss_first_copy'] / 1e6:.0f} MB | {row['rss_private_copy'] / 1e6:.0f} MB |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--cost", nargs="+", type=Path, metavar="LIB", help="measure these shim builds instead")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.cost:
        rows = cost(args.cost, repeat=2 if args.quick else 5)
        print(json.dumps(rows, indent=2) if args.json else cost_markdown(rows))
        return 0
    result = run(args.quick)
    print(json.dumps(result, indent=2) if args.json else markdown(result))
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
