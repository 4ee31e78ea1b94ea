"""A GPU kernel and host code from one process, each with its own LLVM options.

The kernel calls libdevice (NVIDIA's math library, linked in before
optimisation, as nvcc does); its PTX is assembled by NVIDIA's ptxas. The host
function is compiled, linked with the system C compiler and called. The GPU
compile unrolls hard (-unroll-count=4); the host compile, on another
private copy of LLVM, never sees that option.

Needs: pip install nvidia-nvvm nvidia-cuda-nvcc  (libdevice and ptxas; no GPU)
Run:   python examples/gpu_and_host.py
"""

import ctypes
import importlib.util
import subprocess
import tempfile
from pathlib import Path

import llvmplug

KERNEL = """
target triple = "nvptx64-nvidia-cuda"

declare float @__nv_expf(float)
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @softplus(ptr addrspace(1) %out, ptr addrspace(1) %in) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %src = getelementptr float, ptr addrspace(1) %in, i64 %i
  %x = load float, ptr addrspace(1) %src
  %e = call float @__nv_expf(float %x)
  %y = fadd float %e, 1.0
  %dst = getelementptr float, ptr addrspace(1) %out, i64 %i
  store float %y, ptr addrspace(1) %dst
  ret void
}
"""

HOST = """
define i64 @triangle(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i64 %acc, %i
  %next = add i64 %i, 1
  %done = icmp uge i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}
"""


def find_ptxas() -> Path:
    spec = importlib.util.find_spec("nvidia")
    for root in spec.submodule_search_locations if spec else []:
        for match in sorted(Path(root).glob("*/bin/ptxas"), reverse=True):
            return match
    raise SystemExit("ptxas not found: pip install nvidia-cuda-nvcc")


try:
    libdevice = llvmplug.libdevice()  # from nvidia-nvvm, or $CUDA_HOME
except llvmplug.LinkError as error:
    raise SystemExit(str(error)) from None
ptxas = find_ptxas()

with llvmplug.Plugin(private=True) as gpu, llvmplug.Plugin(private=True) as host, \
        tempfile.TemporaryDirectory() as tmp:
    gpu.set_options(["-unroll-count=4"])  # sticky, for this copy only

    # GPU: kernel + libdevice -> PTX -> ptxas -> cubin.
    ptx = gpu.compile(KERNEL, flags=["-O3", "-mcpu=sm_80"], output="asm", link=[libdevice])
    (Path(tmp) / "softplus.ptx").write_bytes(ptx)
    subprocess.run([str(ptxas), "-arch=sm_80", "softplus.ptx", "-o", "softplus.cubin"], cwd=tmp, check=True)
    print(f"PTX: {len(ptx)} bytes, {ptx.count(b'ex2.approx')} ex2.approx from libdevice's expf; "
          f"ptxas made a {(Path(tmp) / 'softplus.cubin').stat().st_size}-byte cubin for sm_80")

    # Host: the same process, another copy of LLVM, its own options.
    obj = host.compile(HOST, flags=["-O2", "-relocation-model=pic"])
    (Path(tmp) / "triangle.o").write_bytes(obj)
    subprocess.run(["cc", "-shared", "-o", "libtriangle.so", "triangle.o"], cwd=tmp, check=True)
    triangle = ctypes.CDLL(str(Path(tmp) / "libtriangle.so")).triangle
    triangle.restype, triangle.argtypes = ctypes.c_int64, [ctypes.c_int64]
    print(f"host: triangle(100) = {triangle(100)}")
