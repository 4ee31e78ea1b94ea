#include "asm_directives.h"

#include "llvm/TargetParser/Triple.h"

#include <string>

namespace llvmplug {

namespace {

// No `using namespace llvm` here: the rows name formats ELF, COFF and MachO,
// which are namespaces in LLVM.
using namespace asmscope;

#define ASM_GENERIC(NAME, RULE, REASON) {NAME, AsmLevel::Generic, 0, AsmRule::RULE, REASON},
#define ASM_PLATFORM(NAME, FORMATS, RULE, REASON) {NAME, AsmLevel::Platform, FORMATS, AsmRule::RULE, REASON},
#define ASM_TARGET(NAME, ARCHS, RULE, REASON) {NAME, AsmLevel::Target, ARCHS, AsmRule::RULE, REASON},
const AsmDirective Directives[] = {
#include "asm_directives.def"
};

const AsmDirective *find(llvm::StringRef lower, AsmLevel level, std::uint32_t bits) {
  for (const AsmDirective &row : Directives)
    if (row.level == level && lower == row.name && (level == AsmLevel::Generic || (row.scope & bits)))
      return &row;
  return nullptr;
}

} // namespace

std::uint32_t asmArchitecture(const llvm::Triple &triple) {
  using llvm::Triple;
  switch (triple.getArch()) {
  case Triple::x86:
  case Triple::x86_64:
    return X86;
  case Triple::arm:
  case Triple::armeb:
  case Triple::thumb:
  case Triple::thumbeb:
    return ARM;
  case Triple::aarch64:
  case Triple::aarch64_be:
  case Triple::aarch64_32:
    return AArch64;
  case Triple::riscv32:
  case Triple::riscv64:
  case Triple::riscv32be:
  case Triple::riscv64be:
    return RISCV;
  case Triple::mips:
  case Triple::mipsel:
  case Triple::mips64:
  case Triple::mips64el:
    return Mips;
  case Triple::ppc:
  case Triple::ppcle:
  case Triple::ppc64:
  case Triple::ppc64le:
    return PPC;
  case Triple::sparc:
  case Triple::sparcv9:
  case Triple::sparcel:
    return Sparc;
  case Triple::systemz:
    return SystemZ;
  case Triple::loongarch32:
  case Triple::loongarch64:
    return LoongArch;
  case Triple::hexagon:
    return Hexagon;
  case Triple::amdgpu:
  case Triple::r600:
    return AMDGPU;
  case Triple::msp430:
    return MSP430;
  case Triple::avr:
    return AVR;
  case Triple::ve:
    return VE;
  case Triple::bpfel:
  case Triple::bpfeb:
    return BPF;
  case Triple::lanai:
    return Lanai;
  default:
    return 0; // no target rows: generic and platform rows only
  }
}

std::uint32_t asmFormat(const llvm::Triple &triple) {
  switch (triple.getObjectFormat()) {
  case llvm::Triple::ELF:
    return ELF;
  case llvm::Triple::COFF:
    return COFF;
  case llvm::Triple::MachO:
    return MachO;
  default:
    return 0;
  }
}

const AsmDirective *findAsmDirective(llvm::StringRef name, std::uint32_t architecture, std::uint32_t format) {
  std::string lower = name.lower();
  if (const AsmDirective *row = find(lower, AsmLevel::Target, architecture))
    return row;
  if (const AsmDirective *row = find(lower, AsmLevel::Platform, format))
    return row;
  return find(lower, AsmLevel::Generic, 0);
}

} // namespace llvmplug
