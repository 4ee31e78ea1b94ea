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
