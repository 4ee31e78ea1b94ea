; backend: Sparc
; triple: sparc-unknown-linux-gnu
; flags: -O0
; output: obj
; expect: guarded
; llvm 23.1.1: hangs legalising llvm.bswap of a vector of i16 or i32 on 32-bit SPARC, at -O0 and -O2 (sparcv9, i64 elements and scalars work)
; found by: tests/campaign_backends.py --seed 7 --case 12614 (intrinsic)
declare <8 x i16> @llvm.bswap.v8i16(<8 x i16>)

define <8 x i16> @f(<8 x i16> %a) {
  %r = call <8 x i16> @llvm.bswap.v8i16(<8 x i16> %a)
  ret <8 x i16> %r
}
