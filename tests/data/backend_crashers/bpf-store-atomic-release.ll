; backend: BPF
; triple: bpfel-unknown-none
; flags: -O2 -mcpu=v2
; output: obj
; expect: timeout
; llvm 23.1.1: hangs selecting a release atomic store for cpu v2
; found by: tests/campaign_backends.py --seed 1 --case 34945 (atomic)
define void @f(ptr %p, i32 %v) {
  store atomic i32 %v, ptr %p release, align 4
  ret void
}
