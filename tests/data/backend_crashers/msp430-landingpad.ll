; backend: MSP430
; triple: msp430-unknown-unknown
; flags: -O2
; output: obj
; expect: guarded
; llvm 23.1.1: SIGSEGV in LiveVariables::HandleVirtRegUse when a landingpad's value is used with optimisation (MSP430 has no exception registers); -O0 works
; found by: issue 18 (its invoke/landingpad), reduced by tests/campaign_backends.py --seed 1 (eh)
@_ZTIi = external constant ptr
declare void @g()
declare ptr @__cxa_begin_catch(ptr)
declare void @__cxa_end_catch()
declare i32 @__gxx_personality_v0(...)

define i32 @f() personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret i32 0
lp:
  %l = landingpad { ptr, i32 } catch ptr @_ZTIi
  %e = extractvalue { ptr, i32 } %l, 0
  %c = call ptr @__cxa_begin_catch(ptr %e)
  call void @__cxa_end_catch()
  ret i32 1
}
