; backend: BPF
; triple: bpfel-unknown-none
; flags: -O2 -mcpu=v2
; output: obj
; expect: guarded
; llvm 23.1.1: hangs selecting an atomic store of a 32-bit value (i32 or float; unordered, monotonic or release) for an explicit -mcpu=generic, v1 or v2; without -mcpu (v3) it is a FatalError, v4 compiles it
; found by: tests/campaign_backends.py --seed 1 --case 34945 (atomic), --seed 2026 --case 7945
define void @f(ptr %p, i32 %v) {
  store atomic i32 %v, ptr %p release, align 4
  ret void
}
