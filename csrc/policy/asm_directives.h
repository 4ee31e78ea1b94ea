// asm_directives.h: the reviewed table of assembler directives
// (asm_directives.def), and which row applies to a directive for a target.
//
// Why a table: the safe policy is an allow-list. A directive is assembled
// only if a row names it for the target's parser with a rule other than
// Refused; everything else, known to LLVM or not, is refused. The rows are
// data, one reason each, so that a review reads one file, and a test walks
// the real parsers to find a directive without a row.
#ifndef LLVMPLUG_ASM_DIRECTIVES_H
#define LLVMPLUG_ASM_DIRECTIVES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace llvm {
class Triple;
}

namespace llvmplug {

// How a directive's arguments are checked (asm_statements.cpp says what
// each accepts).
enum class AsmRule {
  Refused,       // never assembled under the safe policy
  None,          // no operands
  Words,         // names and plain numbers (options, CPU names); no expression
  Symbols,       // symbol names
  Exprs,         // expressions (data)
  Values,        // expressions that refer to no symbol (data that needs no relocation)
  Reals,         // floating-point literals (data)
  Strings,       // string literals (data)
  Space,         // a plain-literal size[, fill value]
  Fill,          // plain-literal count[, size[, value]]
  Nops,          // plain-literal size[, plain-literal control]
  Org,           // a plain-literal offset[, fill value]
  AlignBytes,    // [plain-literal alignment in bytes[, fill[, plain-literal max]]]
  AlignPow2,     // the same, alignment 2^N
  AlignTarget,   // the same, bytes or 2^N as the target's MCAsmInfo says
  Repeat,        // .rept N
  EndRepeat,     // .endr
  Assign,        // symbol, expression: a symbol definition
  MipsSet,       // MIPS: an option word, else as Assign
  Weakref,       // alias, target: a symbol definition
  Comm,          // symbol, plain-literal size[, plain-literal alignment]
  Type,          // symbol[,] @type
  Size,          // symbol, expression
  Symver,        // symbol, name@version[, word]
  Section,       // a section name, flags and plain-literal numbers
  SectionSwitch, // [subsection 0]
  Ident,         // one string
  File,          // ["dir"] "name", or a plain-literal number and names
  Loc,           // plain-literal file, line[, column] and options
  CfiStart,      // [simple]
  CfiOffset,     // a plain-literal offset
  CfiReg,        // a register
  CfiRegOffset,  // a register, a plain-literal offset
  CfiRegReg,     // two registers
  CfiEscape,     // plain literals 0..255
  Insn,          // an instruction given by its encoding: checked as an instruction
};

// A parser level's scope: object formats for platform rows, architectures
// for target rows (one bit each; generic rows apply everywhere). In a
// namespace of their own: LLVM has namespaces named ELF, COFF and MachO.
namespace asmscope {
enum : std::uint32_t {
  ELF = 1u << 0,
  COFF = 1u << 1,
  MachO = 1u << 2,
  X86 = 1u << 3,
  ARM = 1u << 4,
  AArch64 = 1u << 5,
  RISCV = 1u << 6,
  Mips = 1u << 7,
  PPC = 1u << 8,
  Sparc = 1u << 9,
  SystemZ = 1u << 10,
  LoongArch = 1u << 11,
  Hexagon = 1u << 12,
  AMDGPU = 1u << 13,
  MSP430 = 1u << 14,
  AVR = 1u << 15,
  VE = 1u << 16,
  BPF = 1u << 17,
  Lanai = 1u << 18,
};
} // namespace asmscope

enum class AsmLevel { Target, Platform, Generic };

struct AsmDirective {
  const char *name; // lower case, with the dot
  AsmLevel level;
  std::uint32_t scope; // asmscope bits (unused for Generic)
  AsmRule rule;
  const char *reason;
};

// The target's architecture bit and object-format bit (asmscope; 0 for a format with
// no parser extension: Wasm, XCOFF, GOFF, SPIR-V).
std::uint32_t asmArchitecture(const llvm::Triple &triple);
std::uint32_t asmFormat(const llvm::Triple &triple);

// The row MC's parsers would consult first for `name` (compared
// case-insensitively) on a target with these bits, or null if none.
const AsmDirective *findAsmDirective(llvm::StringRef name, std::uint32_t architecture, std::uint32_t format);

} // namespace llvmplug

#endif
