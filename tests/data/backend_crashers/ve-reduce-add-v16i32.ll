; backend: VE
; triple: ve-unknown-linux-gnu
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: hangs legalising the reduction (add, and, or, xor, smax of 2+ i32/i64 elements; i8/i16 elements work, mul/umin/smin/umax are a FatalError)
; found by: issue 18
declare i32 @llvm.vector.reduce.add.v16i32(<16 x i32>)

define i32 @f(<16 x i32> %v) {
  %r = call i32 @llvm.vector.reduce.add.v16i32(<16 x i32> %v)
  ret i32 %r
}
