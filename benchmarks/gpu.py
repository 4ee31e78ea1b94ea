"""GPU compile latency: llvmplug beside libNVVM and llvmlite.

The same kernel (``out[i] = sinf(expf(in[i]))``, calling libdevice) to PTX
for sm_80 at -O3, libdevice.10.bc linked in on every call, from input bytes
to PTX text:

- llvmplug: IR text + libdevice bytes, ``compile(..., link=[libdevice])``
  (libdevice is loaded lazily; only what the kernel calls is materialised).
- libNVVM (nvidia-nvvm, ``nvvmCompileProgram`` through ctypes): its IR dialect
  is NVVM IR 2.0, based on LLVM 7 (typed pointers, kernels marked in
  ``!nvvm.annotations``), so it is given the same kernel in that dialect;
  libdevice goes in with ``nvvmLazyAddModuleToProgram``; ``-arch=compute_80
  -opt=3``. Not like for like: a different IR and a different LLVM.
- llvmlite (its PyPI wheel carries NVPTX): parse both, ``link_in``,
  internalise libdevice's definitions by hand (llvmlite has no
  link-only-needed), its new pass manager at O3, its NVPTX target machine.
  Not like for like either: LLVM 22, built with assertions.

There is no numeric target: the report gives the ratios.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from ._common import markdown_table, ms, ratio, summary, timed
from .peers import Unavailable

# A kernel calling libdevice, shared with the tests: out[tid] = sinf(expf(in[tid])).
KERNEL = (Path(__file__).resolve().parents[1] / "tests" / "data" / "libdevice-kernel.ll").read_text()

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
    """The newest file matching a pattern in the nvidia-* wheels (nvidia-nvvm: libdevice, libNVVM)."""
    spec = importlib.util.find_spec("nvidia")
    for root in (spec.submodule_search_locations or []) if spec else []:
        for pattern in patterns:
            for match in sorted(Path(root).glob(pattern), reverse=True):
                return match
    return None


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
        path = _nvidia("*/lib/libnvvm.so.*", "*/nvvm/lib64/libnvvm.so*")
        if path is None:
            raise Unavailable("nvidia-nvvm is not installed")
        # The checkout's one binding of libNVVM's C API, shared with the coexistence test.
        support = Path(__file__).resolve().parents[1] / "tests" / "support"
        if not (support / "libnvvm.py").exists():
            raise Unavailable(f"the libNVVM binding comes from the checkout's tests/support/, not in {support}")
        sys.path.insert(0, str(support))
        from libnvvm import LibNVVM as Binding

        self.binding = Binding(path)
        self.version = self.binding.version
        self.libdevice = libdevice
        self.kernel = KERNEL_NVVM.encode()
        self.options = (f"-arch=compute_{ARCH[3:]}", "-opt=3")

    def compile(self) -> bytes:
        return self.binding.compile(self.kernel, self.libdevice, self.options)


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


# Why a peer is not like for like, in every table and verdict that shows it.
NOT_COMPARABLE = {"libNVVM": "takes a different IR dialect (NVVM IR 2.0, LLVM 7) and is a different LLVM",
                  "llvmlite": "LLVM 22, not 23, built with assertions"}


def run(quick: bool) -> dict[str, Any]:
    """Latency of each peer; a peer that cannot run records why."""
    path = _nvidia("*/nvvm/libdevice/libdevice.10.bc")
    if path is None:
        return {"unavailable": "nvidia-nvvm (libdevice.10.bc) is not installed"}
    libdevice = path.read_bytes()
    rows: dict[str, dict[str, Any]] = {}
    for peer in (LLVMPlug, LibNVVM, LLVMLite):
        try:
            backend = peer(libdevice)
        except Unavailable as why:
            rows[peer.label] = {"unavailable": str(why)}
            continue
        try:
            ptx = backend.compile()
            rows[peer.label] = {"version": backend.version, "ptx_bytes": len(ptx), "inlined": b"__nv_expf" not in ptx,
                                **summary(timed(backend.compile, 5 if quick else 40))}
        finally:
            getattr(backend, "close", lambda: None)()
    return {"kernel": "sinf(expf(x)) + libdevice.10.bc, sm_80, -O3, to PTX", "rows": rows}


def _label(peer: str) -> str:
    why = next((why for name, why in NOT_COMPARABLE.items() if peer.startswith(name)), None)
    return f"{peer} (**not comparable**: {why})" if why else peer


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    rows = result.get("rows", {})
    ours, nvvm = rows.get(LLVMPlug.label, {}), rows.get(LibNVVM.label, {})
    if "median" not in ours or "median" not in nvvm:
        return []
    return [{"target": "GPU: llvmplug vs libNVVM latency (no numeric target)", "met": None,
             "measured": f"libNVVM/llvmplug {nvvm['median'] / ours['median']:.2f}x ({ms(nvvm['median'])} vs "
                         f"{ms(ours['median'])})",
             "note": f"libNVVM is not comparable: it {NOT_COMPARABLE['libNVVM']}."}]


def markdown(result: dict[str, Any]) -> str:
    if "unavailable" in result:
        return f"## GPU compile latency\n\nNot measured: {result['unavailable']}\n"
    ours = result["rows"][LLVMPlug.label].get("median")
    rows = [[_label(peer), f"unavailable: {row['unavailable']}", "", "", "", ""] if "unavailable" in row else
            [_label(peer), row["version"], f"{ms(row['median'])} ({ratio(row['median'], ours)})", ms(row["min"]),
             row["ptx_bytes"], "yes" if row["inlined"] else "no"] for peer, row in result["rows"].items()]
    return "\n".join(["## GPU compile latency", "", f"{result['kernel']}; median and min, ratio to llvmplug.", "",
                      markdown_table(["peer", "version", "median", "min", "PTX bytes", "libdevice inlined"], rows),
                      ""])
