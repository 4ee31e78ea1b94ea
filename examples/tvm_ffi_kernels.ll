; Two functions in TVM-FFI's calling convention (tvm/ffi/c_api.h,
; TVMFFISafeCallType): i32 f(ptr self, ptr args, i32 num_args, ptr result),
; exported as __tvm_ffi_<name>; 0 means success, -1 an error raised with
; TVMFFIErrorSetRaisedFromCStr (resolved from the process by the loader).
; TVMFFIAny is { i32 type_index, i32 zero_padding, i64 value } (16 bytes).
; examples/run_with_orcjit.py loads them with tvm_ffi_orcjit.

@type_error = private unnamed_addr constant [10 x i8] c"TypeError\00"
@add_one_usage = private unnamed_addr constant [29 x i8] c"add_one(x) takes one integer\00"
@scale_usage = private unnamed_addr constant [67 x i8] c"scale(x, factor) takes a contiguous 1-D float32 tensor and a float\00"

declare void @TVMFFIErrorSetRaisedFromCStr(ptr, ptr)

; add_one(x: int) -> int
define i32 @__tvm_ffi_add_one(ptr %self, ptr %args, i32 %num_args, ptr %result) {
entry:
  %one = icmp eq i32 %num_args, 1
  %tag = load i32, ptr %args
  %is_int = icmp eq i32 %tag, 1                      ; type index 1: int
  %ok = and i1 %one, %is_int
  br i1 %ok, label %add, label %bad
add:
  %slot = getelementptr inbounds i8, ptr %args, i64 8
  %x = load i64, ptr %slot
  %y = add i64 %x, 1
  store i32 1, ptr %result
  %padding = getelementptr inbounds i8, ptr %result, i64 4
  store i32 0, ptr %padding
  %value = getelementptr inbounds i8, ptr %result, i64 8
  store i64 %y, ptr %value
  ret i32 0
bad:
  call void @TVMFFIErrorSetRaisedFromCStr(ptr @type_error, ptr @add_one_usage)
  ret i32 -1
}

; scale(x: tensor, factor: float) -> None: x[i] *= factor, in place, for a
; contiguous 1-D float32 tensor (a NumPy array passed through DLPack).
; args[0] is a Tensor object (type index 70: a 24-byte TVMFFIObject header,
; then a DLTensor) or a raw DLTensor* (type index 7); args[1] a float (3).
; DLTensor (dlpack.h) = { ptr data, { i32, i32 } device, i32 ndim,
;   { i8 code, i8 bits, i16 lanes } dtype, ptr shape, ptr strides, i64 byte_offset }
define i32 @__tvm_ffi_scale(ptr %self, ptr %args, i32 %num_args, ptr %result) {
entry:
  %two = icmp eq i32 %num_args, 2
  br i1 %two, label %tags, label %bad
tags:
  %tag = load i32, ptr %args
  %is_object = icmp eq i32 %tag, 70
  %is_pointer = icmp eq i32 %tag, 7
  %is_tensor = or i1 %is_object, %is_pointer
  %factor_any = getelementptr inbounds i8, ptr %args, i64 16
  %factor_tag = load i32, ptr %factor_any
  %is_float = icmp eq i32 %factor_tag, 3
  %tags_ok = and i1 %is_tensor, %is_float
  br i1 %tags_ok, label %tensor, label %bad
tensor:
  %slot = getelementptr inbounds i8, ptr %args, i64 8
  %handle = load ptr, ptr %slot
  %in_object = getelementptr inbounds i8, ptr %handle, i64 24
  %dl = select i1 %is_object, ptr %in_object, ptr %handle
  %ndim_at = getelementptr inbounds i8, ptr %dl, i64 16
  %ndim = load i32, ptr %ndim_at
  %dtype_at = getelementptr inbounds i8, ptr %dl, i64 20
  %dtype = load i32, ptr %dtype_at                   ; code 2 (float), 32 bits, 1 lane
  %strides_at = getelementptr inbounds i8, ptr %dl, i64 32
  %strides = load ptr, ptr %strides_at
  %is_1d = icmp eq i32 %ndim, 1
  %is_f32 = icmp eq i32 %dtype, 73730                ; 2 | 32 << 8 | 1 << 16
  %shape_ok = and i1 %is_1d, %is_f32
  br i1 %shape_ok, label %strided, label %bad
strided:
  %dense = icmp eq ptr %strides, null
  br i1 %dense, label %run, label %stride_one
stride_one:
  %stride = load i64, ptr %strides
  %unit = icmp eq i64 %stride, 1
  br i1 %unit, label %run, label %bad
run:
  %data = load ptr, ptr %dl
  %shape_at = getelementptr inbounds i8, ptr %dl, i64 24
  %shape = load ptr, ptr %shape_at
  %length = load i64, ptr %shape
  %offset_at = getelementptr inbounds i8, ptr %dl, i64 40
  %offset = load i64, ptr %offset_at
  %base = getelementptr inbounds i8, ptr %data, i64 %offset
  %factor_at = getelementptr inbounds i8, ptr %args, i64 24
  %factor64 = load double, ptr %factor_at
  %factor = fptrunc double %factor64 to float
  %empty = icmp sle i64 %length, 0
  br i1 %empty, label %done, label %loop
loop:
  %i = phi i64 [ 0, %run ], [ %next, %loop ]
  %at = getelementptr inbounds float, ptr %base, i64 %i
  %x = load float, ptr %at
  %y = fmul float %x, %factor
  store float %y, ptr %at
  %next = add nuw nsw i64 %i, 1
  %more = icmp slt i64 %next, %length
  br i1 %more, label %loop, label %done
done:
  store i32 0, ptr %result                           ; type index 0: None
  %padding = getelementptr inbounds i8, ptr %result, i64 4
  store i32 0, ptr %padding
  ret i32 0
bad:
  call void @TVMFFIErrorSetRaisedFromCStr(ptr @type_error, ptr @scale_usage)
  ret i32 -1
}
