; backend: PowerPC
; triple: powerpc64-ibm-aix
; flags: -O2
; output: obj
; expect: crash:SIGSEGV
; llvm 23.1.1: SIGSEGV in XCOFFWriter::executePostLayoutBinding on a symbol that assembler text (module asm or inline asm) declares or defines outside a csect (.globl x, x = 42); assembly output, .extern and labels in a csect work
; found by: tests/test_fresh_state.py (its MODULE_ASM module)
module asm ".globl modasm"
