; backend: Lanai
; triple: lanai-unknown-unknown
; flags: -O2
; output: obj
; expect: crash:SIGSEGV
; llvm 23.1.1: segfaults on a landingpad whose handler invokes again
; found by: tests/campaign_backends.py --seed 1 --case 1047 (eh)
declare void @g()
declare ptr @__cxa_begin_catch(ptr)
declare i32 @__gxx_personality_v0(...)

define void @f() uwtable personality ptr @__gxx_personality_v0 {
entry:
  invoke void @g() to label %ok unwind label %lp
ok:
  ret void
lp:
  %l = landingpad { ptr, i32 } catch ptr null
  %e = extractvalue { ptr, i32 } %l, 0
  %c = call ptr @__cxa_begin_catch(ptr %e)
  invoke void @g() to label %end unwind label %lp2
end:
  ret void
lp2:
  %l2 = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %l2
}
