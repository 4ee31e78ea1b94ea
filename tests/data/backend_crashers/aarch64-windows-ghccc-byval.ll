; backend: AArch64
; triple: aarch64-pc-windows-msvc
; flags: -O2
; output: asm
; expect: guarded
; llvm 23.1.1: aborts on a ghccc function with a byval parameter, with optimisation, on every OS (the GHC convention passes arguments in registers only)
; found by: tests/campaign_backends.py --seed 1 --case 20221 (callconv)
define ghccc double @callee(double %a0, <4 x i32> %a1, ptr byval(i64) %a2, i32 %a3, <2 x double> %a4, i64 %a5) {
  ret double 0.0
}

define double @caller(double %x0, <4 x i32> %x1, ptr byval(i64) %x2, i32 %x3, <2 x double> %x4, i64 %x5) {
  %r = call ghccc double @callee(double %x0, <4 x i32> %x1, ptr byval(i64) %x2, i32 %x3, <2 x double> %x4, i64 %x5)
  ret double %r
}
