; backend: AArch64
; triple: aarch64-unknown-linux-gnu
; flags: -O0 -relocation-model=pic
; output: obj
; expect: guarded
; llvm 23.1.1: segfaults when ghccc arguments need more registers than CC_AArch64_GHC has (here three 128-bit vectors for Q4-Q5; likewise 11+ integers, 5+ floats or doubles)
; found by: tests/campaign_backends.py --seed 7 --case 19621 (callconv)
define ghccc { i32, i64 } @callee(i64 %a0, float %a1, <2 x double> %a2, <4 x i32> inreg %a3, ptr %a4, i32 %a5, double %a6, <2 x double> inreg %a7) {
  ret { i32, i64 } zeroinitializer
}

define { i32, i64 } @caller(i64 %x0, float %x1, <2 x double> %x2, <4 x i32> inreg %x3, ptr %x4, i32 %x5, double %x6, <2 x double> inreg %x7) {
  %r = tail call ghccc { i32, i64 } @callee(i64 %x0, float %x1, <2 x double> %x2, <4 x i32> inreg %x3, ptr %x4, i32 %x5, double %x6, <2 x double> inreg %x7)
  ret { i32, i64 } %r
}
