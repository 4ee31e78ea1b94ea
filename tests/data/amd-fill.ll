define amdgpu_kernel void @fill(ptr addrspace(1) %out, i32 %value) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %slot = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %value, ptr addrspace(1) %slot
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
