; backend: SPIRV
; triple: spirv64-unknown-unknown
; flags: -O0
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in EVT::getExtendedSizeInBits (SPIRVTargetLowering::getRegisterTypeForCallingConv from CallLowering::getReturnInfo) when a function, or a non-intrinsic call, returns a vector with no machine value type (<4 x i7>, <2 x i65>, <4 x i128>, <7 x double>), at every level, object and assembly; vectors of a machine type, such vectors as arguments or in memory, and aggregates holding them compile
; found by: tests/campaign_backends.py (seed 23, case 3015: llvm.fptosi.sat.v4i128.v4f16 at -O0)
define spir_func <4 x i7> @f(<4 x i7> %x) {
  %r = add <4 x i7> %x, %x
  ret <4 x i7> %r
}
