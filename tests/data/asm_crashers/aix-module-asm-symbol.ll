; triple: powerpc64-ibm-aix
; output: obj
; all: crash:SIGSEGV
; found by: tests/test_fresh_state.py (its MODULE_ASM module); issue 25 found 70 more directive/argument pairs on AIX. SIGSEGV in XCOFFWriter::executePostLayoutBinding on a symbol that assembler text declares or defines outside a csect (.globl x, x = 42, even bl foo); the safe policy accepts only empty asm on XCOFF
module asm ".globl modasm"
