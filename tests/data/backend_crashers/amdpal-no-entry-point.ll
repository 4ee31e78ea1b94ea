; backend: AMDGPU
; triple: amdgcn-amd-amdpal
; flags: -O2 -mcpu=gfx1030
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV writing the object when no function is a shader or kernel entry point (assembly output works; so does an amdgpu_cs/amdgpu_gfx/amdgpu_kernel function, or !amdgpu.pal.metadata.msgpack)
; found by: issue 18; tests/campaign_backends.py --seed 1 reduced 14 more AMDPAL crashers (switch, atomics, i128, debug info, EH) to this
define i32 @helper(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
