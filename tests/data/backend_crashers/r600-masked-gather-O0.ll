; backend: AMDGPU
; triple: r600-unknown-unknown
; flags: -O0 -mcpu=cypress
; output: obj
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a masked gather at -O0 (scalarised into branches, which R600 at -O0 cannot structurize)
; found by: tests/campaign_backends.py --seed 2026 --case 31403 (intrinsic)
declare <16 x i8> @llvm.masked.gather.v16i8.v16p0(<16 x ptr>, i32, <16 x i1>, <16 x i8>)

define <16 x i8> @f(<16 x ptr> %p, <16 x i1> %m, <16 x i8> %t) {
  %r = call <16 x i8> @llvm.masked.gather.v16i8.v16p0(<16 x ptr> %p, i32 4, <16 x i1> %m, <16 x i8> %t)
  ret <16 x i8> %r
}
