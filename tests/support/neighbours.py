"""One process, llvmplug and its neighbours: run by tests/test_coexistence.py.

    python neighbours.py SCENARIO [ARGS...]

Each scenario runs in a fresh interpreter, loads llvmplug next to other LLVM
users in the order given, and prints one line ``RESULT <json>`` with what
each of them produced; the test compares it with a clean process. Run it
outside the checkout so that ``import llvmplug`` finds the installed package.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

# Plain enough for every LLVM from 14 to 23 to read the same way.
IR = """\
define i32 @scale(i32 %x, i32 %y) {
entry:
  %product = mul i32 %x, %y
  %sum = add i32 %product, 7
  ret i32 %sum
}
"""
INTEL = "-x86-asm-syntax=intel"


def syntax(asm: str) -> str:
    return "intel" if ".intel_syntax" in asm else "att"


# -- llvmplug ------------------------------------------------------------------

def plug_outputs(plugin: Any = None) -> dict[str, Any]:
    """What llvmplug makes of IR: asm text and a digest of the object file."""
    import llvmplug

    compile_ = plugin.compile if plugin is not None else llvmplug.compile
    return {
        "asm": compile_(IR, output="asm"),
        "asm_intel_per_call": compile_(IR, flags=[INTEL], output="asm"),
        "obj_sha256": hashlib.sha256(compile_(IR)).hexdigest(),
    }


def _decode(outputs: dict[str, Any]) -> dict[str, Any]:
    return {key: value.decode() if isinstance(value, bytes) else value for key, value in outputs.items()}


def plug(plugin: Any = None) -> dict[str, Any]:
    return _decode(plug_outputs(plugin))


def plug_with_sticky_intel() -> dict[str, Any]:
    """Set -x86-asm-syntax=intel in llvmplug per call and sticky; return its asm."""
    import llvmplug

    per_call = llvmplug.compile(IR, flags=[INTEL], output="asm").decode()
    llvmplug.default_plugin().set_options([INTEL])
    sticky = llvmplug.compile(IR, output="asm").decode()
    return {"per_call": syntax(per_call), "sticky": syntax(sticky)}


# -- a system libLLVM through its C API -----------------------------------------

class SystemLLVM:
    """A shared libLLVM (e.g. Debian's libLLVM-15.so.1) loaded RTLD_GLOBAL, driven by its C API."""

    def __init__(self, path: str) -> None:
        self.lib = lib = ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
        p, c = ctypes.c_void_p, ctypes.c_char_p
        for name, result, args in [
            ("LLVMParseCommandLineOptions", None, [ctypes.c_int, ctypes.POINTER(c), c]),
            ("LLVMContextCreate", p, []),
            ("LLVMCreateMemoryBufferWithMemoryRangeCopy", p, [c, ctypes.c_size_t, c]),
            ("LLVMParseIRInContext", ctypes.c_int, [p, p, ctypes.POINTER(p), ctypes.POINTER(p)]),
            ("LLVMGetDefaultTargetTriple", p, []),
            ("LLVMGetTargetFromTriple", ctypes.c_int, [p, ctypes.POINTER(p), ctypes.POINTER(p)]),
            ("LLVMCreateTargetMachine", p, [p, p, c, c, ctypes.c_int, ctypes.c_int, ctypes.c_int]),
            ("LLVMTargetMachineEmitToMemoryBuffer", ctypes.c_int,
             [p, p, ctypes.c_int, ctypes.POINTER(p), ctypes.POINTER(p)]),
            ("LLVMGetBufferStart", p, [p]),
            ("LLVMGetBufferSize", ctypes.c_size_t, [p]),
            ("LLVMDisposeMemoryBuffer", None, [p]),
            ("LLVMDisposeTargetMachine", None, [p]),
            ("LLVMDisposeModule", None, [p]),
            ("LLVMContextDispose", None, [p]),
            ("LLVMDisposeMessage", None, [p]),
        ]:
            function = getattr(lib, name)
            function.restype, function.argtypes = result, args
        for part in ("TargetInfo", "Target", "TargetMC", "AsmPrinter"):
            getattr(lib, f"LLVMInitializeX86{part}")()

    def parse_options(self, *options: str) -> None:
        argv = (ctypes.c_char_p * (len(options) + 1))(b"neighbour", *(o.encode() for o in options))
        self.lib.LLVMParseCommandLineOptions(len(argv), argv, None)

    def _message(self, pointer: ctypes.c_void_p) -> str:
        text = ctypes.string_at(pointer.value).decode() if pointer.value else ""
        if pointer.value:
            self.lib.LLVMDisposeMessage(pointer)
        return text

    def emit_asm(self) -> str:
        lib = self.lib
        context = lib.LLVMContextCreate()
        buffer = lib.LLVMCreateMemoryBufferWithMemoryRangeCopy(IR.encode(), len(IR), b"ir")
        module, error = ctypes.c_void_p(), ctypes.c_void_p()
        if lib.LLVMParseIRInContext(context, buffer, ctypes.byref(module), ctypes.byref(error)):
            raise RuntimeError(f"neighbour cannot parse IR: {self._message(error)}")
        triple = lib.LLVMGetDefaultTargetTriple()
        target = ctypes.c_void_p()
        if lib.LLVMGetTargetFromTriple(triple, ctypes.byref(target), ctypes.byref(error)):
            raise RuntimeError(f"neighbour has no target: {self._message(error)}")
        # generic CPU, -O2 (2), default relocation model (0), default code model (0)
        machine = lib.LLVMCreateTargetMachine(target, triple, b"generic", b"", 2, 0, 0)
        out = ctypes.c_void_p()
        if lib.LLVMTargetMachineEmitToMemoryBuffer(machine, module, 0, ctypes.byref(error), ctypes.byref(out)):
            raise RuntimeError(f"neighbour cannot emit: {self._message(error)}")
        asm = ctypes.string_at(lib.LLVMGetBufferStart(out), lib.LLVMGetBufferSize(out)).decode()
        lib.LLVMDisposeMemoryBuffer(out)
        lib.LLVMDisposeTargetMachine(machine)
        lib.LLVMDisposeModule(module)
        lib.LLVMContextDispose(context)
        self._message(ctypes.c_void_p(triple))
        return asm


# -- llvmlite, Numba, PyTorch ------------------------------------------------------

def llvmlite_asm() -> str:
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    module = llvm.parse_assembly(IR)
    module.verify()
    machine = llvm.Target.from_default_triple().create_target_machine(cpu="generic", opt=2)
    return machine.emit_assembly(module)


def llvmlite_version() -> str:
    import llvmlite.binding as llvm

    return ".".join(map(str, llvm.llvm_version_info))


def numba_run() -> dict[str, Any]:
    from numba import njit

    @njit(cache=False)
    def triangle(n):
        total = 0
        for i in range(n):
            total += i * i
        return total

    return {"triangle": triangle(1000), "expected": sum(i * i for i in range(1000))}


def torch_run() -> dict[str, Any]:
    import torch

    a = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    product = (a @ a.T).tolist()
    expected = [[sum(a[i, k].item() * a[j, k].item() for k in range(4)) for j in range(3)] for i in range(3)]
    softmax = torch.softmax(torch.tensor([1.0, 2.0, 3.0]), dim=0).sum().item()
    return {"matmul_ok": product == expected, "softmax_sum": round(softmax, 6), "version": torch.__version__}


# -- libNVVM: NVIDIA's LLVM, from the nvidia-nvvm wheel ---------------------------------

# The kernel in libNVVM's dialect (NVVM IR 2.0, LLVM 7: typed pointers, annotations)
# and in LLVM 23's, both calling libdevice's expf.
NVVM_KERNEL = """\
target datalayout = "e-p:64:64:64-i1:8:8-i8:8:8-i16:16:16-i32:32:32-i64:64:64-i128:128:128-f32:32:32-f64:64:64-v16:16:16-v32:32:32-v64:64:64-v128:128:128-n16:32:64"
target triple = "nvptx64-nvidia-cuda"
declare float @__nv_expf(float)
define void @kernel(float addrspace(1)* %out) {
  %x = load float, float addrspace(1)* %out
  %e = call float @__nv_expf(float %x)
  store float %e, float addrspace(1)* %out
  ret void
}
!nvvm.annotations = !{!0}
!0 = !{void (float addrspace(1)*)* @kernel, !"kernel", i32 1}
!nvvmir.version = !{!1}
!1 = !{i32 2, i32 0}
"""
PLUG_KERNEL = """\
target triple = "nvptx64-nvidia-cuda"
declare float @__nv_expf(float)
define ptx_kernel void @kernel(ptr addrspace(1) %out) {
  %x = load float, ptr addrspace(1) %out
  %e = call float @__nv_expf(float %x)
  store float %e, ptr addrspace(1) %out
  ret void
}
"""


def nvidia_file(pattern: str) -> str:
    import importlib.util
    from pathlib import Path

    spec = importlib.util.find_spec("nvidia")
    for root in spec.submodule_search_locations if spec else []:
        for match in sorted(Path(root).glob(pattern), reverse=True):
            return str(match)
    raise RuntimeError(f"{pattern}: nvidia-nvvm is not installed")


def libdevice() -> bytes:
    with open(nvidia_file("*/nvvm/libdevice/libdevice.10.bc"), "rb") as file:
        return file.read()


class LibNVVM:
    """libnvvm.so (its own LLVM inside) with this file's kernel and libdevice (tests/support/libnvvm.py)."""

    def __init__(self) -> None:
        from libnvvm import LibNVVM as Binding  # beside this file, which runs as a script

        self.binding = Binding(nvidia_file("*/lib/libnvvm.so.*"))

    def compile(self, *options: str) -> str:
        return self.binding.compile(NVVM_KERNEL.encode(), libdevice(), options).decode()


def plug_gpu(plugin: Any = None) -> dict[str, Any]:
    """llvmplug's PTX for the kernel with libdevice, at two sm_ and with a per-call option (flush denormals in libdevice)."""
    import llvmplug

    compile_ = plugin.compile if plugin is not None else llvmplug.compile
    device = libdevice()
    return {
        f"ptx_{arch}": compile_(PLUG_KERNEL, flags=["-O3", f"-mcpu={arch}"], output="asm", link=[device]).decode()
        for arch in ("sm_80", "sm_90")
    } | {"ptx_fast_math": compile_(PLUG_KERNEL, flags=["-O3", "-mcpu=sm_80", "-nvvm-reflect-add=__CUDA_FTZ=1"],
                                   output="asm", link=[device]).decode()}


# -- scenarios ---------------------------------------------------------------------

def scenario_clean() -> dict[str, Any]:
    """llvmplug alone: the reference outputs."""
    return {"plug": plug()}


def scenario_system_clean(path: str) -> dict[str, Any]:
    """The system libLLVM alone: its reference assembly."""
    return {"neighbour_asm": SystemLLVM(path).emit_asm()}


def scenario_system_options(path: str, order: str) -> dict[str, Any]:
    """The system libLLVM loaded RTLD_GLOBAL and given -x86-asm-syntax=intel; llvmplug compiles."""
    result: dict[str, Any] = {}
    if order == "llvmplug-first":
        result["plug_before"] = plug()
    neighbour = SystemLLVM(path)
    neighbour.parse_options(INTEL)
    result["neighbour_before"] = syntax(neighbour.emit_asm())
    result["plug"] = plug()
    result["neighbour_after"] = syntax(neighbour.emit_asm())
    return result


def scenario_plug_options_reach_system(path: str, order: str) -> dict[str, Any]:
    """llvmplug sets -x86-asm-syntax=intel (per call and sticky); the neighbour emits."""
    if order == "neighbour-first":
        neighbour = SystemLLVM(path)
        import llvmplug  # noqa: F401
    else:
        import llvmplug  # noqa: F401
        llvmplug.compile(IR)
        neighbour = SystemLLVM(path)
    result = {"plug_syntax": plug_with_sticky_intel()}
    result["neighbour_asm"] = neighbour.emit_asm()
    return result


def scenario_llvmlite_clean() -> dict[str, Any]:
    """llvmlite alone: its reference assembly."""
    return {"llvmlite_asm": llvmlite_asm(), "llvmlite_version": llvmlite_version()}


def scenario_llvmlite(order: str, setter: str) -> dict[str, Any]:
    """llvmlite and llvmplug compile the same IR; one of them sets -x86-asm-syntax=intel."""
    import llvmlite.binding as llvm

    if order == "llvmlite-first":
        first = llvmlite_asm()
        outputs = plug()
    else:
        outputs = plug()
        first = llvmlite_asm()
    result = {"llvmlite_version": llvmlite_version(), "llvmlite_first": first, "plug_first": outputs}
    if setter == "llvmlite":
        llvm.set_option("neighbour", INTEL)
        result["llvmlite_after"] = llvmlite_asm()
        result["plug_after"] = plug()
    else:
        result["plug_syntax"] = plug_with_sticky_intel()
        result["llvmlite_after"] = llvmlite_asm()
    return result


def scenario_numba(order: str) -> dict[str, Any]:
    """A @njit function compiled and run in the same process as llvmplug compiles."""
    if order == "numba-first":
        numba = numba_run()
        outputs = plug()
    else:
        outputs = plug()
        numba = numba_run()
    return {"numba": numba, "plug": outputs, "plug_again": plug()}


def scenario_torch(order: str) -> dict[str, Any]:
    """PyTorch computes tensors in the same process as llvmplug compiles."""
    if order == "torch-first":
        tensors = torch_run()
        outputs = plug()
    else:
        outputs = plug()
        tensors = torch_run()
    return {"torch": tensors, "plug": outputs, "torch_again": torch_run()}


ORCJIT_KERNELS = Path(__file__).resolve().parents[2] / "examples" / "tvm_ffi_kernels.ll"


def orcjit_run() -> dict[str, Any]:
    """tvm-ffi-orcjit (its own hidden LLVM 23) links an llvmplug object into the process and runs it."""
    import numpy as np
    import tvm_ffi_orcjit

    import llvmplug

    obj = llvmplug.compile(ORCJIT_KERNELS.read_text(), flags="-O3 -relocation-model=pic")
    module = tvm_ffi_orcjit.ExecutionSession().load_module(obj)
    values = np.arange(5, dtype=np.float32)
    module.scale(values, 3.0)
    return {"add_one": module.add_one(41), "scaled": values.tolist(), "object": obj.hex()}


def scenario_orcjit(order: str) -> dict[str, Any]:
    """tvm-ffi-orcjit loads and runs llvmplug's code while llvmplug compiles in the same process."""
    if order == "orcjit-first":
        import tvm_ffi_orcjit

        tvm_ffi_orcjit.ExecutionSession()  # its LLVM is up before llvmplug's
        outputs = plug()
        ran = orcjit_run()
    else:
        outputs = plug()
        ran = orcjit_run()
    return {"orcjit": ran, "plug": outputs, "plug_again": plug()}


def scenario_orcjit_clean() -> dict[str, Any]:
    """The object llvmplug makes of the orcjit kernels in a process of its own."""
    import llvmplug

    return {"object": llvmplug.compile(ORCJIT_KERNELS.read_text(), flags="-O3 -relocation-model=pic").hex()}


def scenario_everything(path: str) -> dict[str, Any]:
    """System libLLVM (intel set) + llvmlite + Numba + PyTorch + two private llvmplugs + the default."""
    import llvmplug

    result: dict[str, Any] = {}
    neighbour = SystemLLVM(path) if path != "-" else None
    if neighbour is not None:
        neighbour.parse_options(INTEL)
    result["torch"] = torch_run()
    result["numba"] = numba_run()
    result["llvmlite_asm"] = llvmlite_asm()
    with llvmplug.Plugin(private=True) as intel, llvmplug.Plugin(private=True) as plain:
        intel.set_options([INTEL])
        result["private_intel_asm"] = intel.compile(IR, output="asm").decode()
        result["private_plain"] = plug(plain)
        result["default"] = plug()
        result["private_intel_again"] = intel.compile(IR, output="asm").decode()
    if neighbour is not None:
        result["neighbour"] = syntax(neighbour.emit_asm())
    result["numba_again"] = numba_run()
    result["torch_again"] = torch_run()
    result["llvmlite_again"] = llvmlite_asm()
    return result


def scenario_nvvm_clean() -> dict[str, Any]:
    """libNVVM alone: its reference PTX."""
    return {"nvvm_ptx": LibNVVM().compile("-arch=compute_80", "-opt=3")}


def scenario_plug_gpu_clean() -> dict[str, Any]:
    """llvmplug alone, host and GPU: the reference outputs."""
    return {"plug": plug(), "gpu": plug_gpu()}


def scenario_nvvm(order: str) -> dict[str, Any]:
    """libNVVM and llvmplug compile the same kernel (and llvmplug host code) in one process."""
    if order == "nvvm-first":
        nvvm = LibNVVM()
        first = nvvm.compile("-arch=compute_80", "-opt=3")
        outputs, gpu = plug(), plug_gpu()
    else:
        outputs, gpu = plug(), plug_gpu()
        nvvm = LibNVVM()
        first = nvvm.compile("-arch=compute_80", "-opt=3")
    return {"nvvm_first": first, "plug": outputs, "gpu": gpu, "gpu_again": plug_gpu(),
            "nvvm_again": nvvm.compile("-arch=compute_80", "-opt=3"),
            # libNVVM's options are per program: a fast-math compile between ours.
            "nvvm_fast": nvvm.compile("-arch=compute_80", "-opt=3", "-ftz=1", "-prec-div=0"),
            "gpu_after_fast": plug_gpu()}


SCENARIOS: dict[str, Callable[..., dict[str, Any]]] = {
    "nvvm-clean": scenario_nvvm_clean,
    "plug-gpu-clean": scenario_plug_gpu_clean,
    "nvvm": scenario_nvvm,
    "clean": scenario_clean,
    "system-clean": scenario_system_clean,
    "system-options": scenario_system_options,
    "plug-options-reach-system": scenario_plug_options_reach_system,
    "llvmlite-clean": scenario_llvmlite_clean,
    "llvmlite": scenario_llvmlite,
    "numba": scenario_numba,
    "torch": scenario_torch,
    "orcjit": scenario_orcjit,
    "orcjit-clean": scenario_orcjit_clean,
    "everything": scenario_everything,
}


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in SCENARIOS:
        print(__doc__, "scenarios:", ", ".join(SCENARIOS), file=sys.stderr)
        return 2
    result = SCENARIOS[argv[0]](*argv[1:])
    print("RESULT " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
