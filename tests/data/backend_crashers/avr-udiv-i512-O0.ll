; backend: AVR
; triple: avr-unknown-unknown
; flags: -O0 -mcpu=atmega328p
; output: obj
; expect: crash:SIGABRT
; llvm 23.1.1: aborts (no libcall for a 512-bit division on a 16-bit target)
; found by: tests/campaign_backends.py --seed 1 --case 4764 (wideint)
define i512 @f(i512 %a, i512 %b) {
  %r = udiv i512 %a, %b
  ret i512 %r
}
