; backend: AArch64
; triple: aarch64-pc-windows-msvc
; flags: -O0
; output: obj
; expect: guarded
; llvm 23.1.1: segfaults on any ghccc function on Windows at -O0 (with optimisation it compiles)
; found by: tests/campaign_backends.py --seed 1 --case 8821 (callconv)
define ghccc <4 x i32> @callee(double inreg %a0, { i32, i64 } %a1, <4 x i32> %a2, double %a3, <2 x double> %a4) {
  ret <4 x i32> zeroinitializer
}

define <4 x i32> @caller(double inreg %x0, { i32, i64 } %x1, <4 x i32> %x2, double %x3, <2 x double> %x4) {
  %r = call ghccc <4 x i32> @callee(double inreg %x0, { i32, i64 } %x1, <4 x i32> %x2, double %x3, <2 x double> %x4)
  ret <4 x i32> %r
}
