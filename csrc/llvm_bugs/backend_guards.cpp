#include "backend_guards.h"

#include "failure.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/CodeGen/ValueTypes.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Intrinsics.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace llvmplug {

namespace {

// Every refusal says "a known LLVM 23.1.1 crash" (or hang): the tests and
// tests/campaigns/campaign_backends.py tell a guard's refusal from LLVM's errors by it.
[[noreturn]] void refuse(StringRef backend, const Twine &what, StringRef bug, StringRef kind = "crash") {
  throw Failure(LLVMPLUG_ERROR_TARGET, (backend + ": " + what + ": a known LLVM 23.1.1 " + kind + " (" + bug +
                                        "); refused before code generation")
                                           .str());
}

// The first call of the intrinsic `declaration`, or null; with `used`, the
// first whose result is used (instruction selection drops the others).
const CallBase *callOf(const Function &declaration, bool used) {
  for (const User *user : declaration.users())
    if (const auto *call = dyn_cast<CallBase>(user))
      if (call->getCalledFunction() == &declaration && (!used || !call->use_empty()))
        return call;
  return nullptr;
}

[[noreturn]] void refuseCall(StringRef backend, const CallBase &call, StringRef bug,
                             StringRef kind = "crash") {
  refuse(backend,
         "a call of " + call.getCalledFunction()->getName() + " (in @" + call.getFunction()->getName() + ")",
         bug, kind);
}

// The backend as the guards name it: LLVM's backend name, except that the
// AMDGPU backend's two architectures (amdgcn, r600) fail differently.
StringRef backendOf(const Triple &triple) {
  if (triple.isX86())
    return "X86";
  if (triple.isAMDGCN())
    return "AMDGPU";
  if (triple.getArch() == Triple::r600)
    return "AMDGPU (r600)";
  if (triple.isPPC())
    return "PowerPC";
  if (triple.isSPARC())
    return "Sparc";
  if (triple.isBPF())
    return "BPF";
  if (triple.isWasm())
    return "WebAssembly";
  if (triple.isNVPTX())
    return "NVPTX";
  switch (triple.getArch()) {
  case Triple::avr:
    return "AVR";
  case Triple::lanai:
    return "Lanai";
  case Triple::msp430:
    return "MSP430";
  case Triple::systemz:
    return "SystemZ";
  case Triple::ve:
    return "VE";
  case Triple::xcore:
    return "XCore";
  default:
    return "";
  }
}

// Intrinsics that segfault a backend when their result is used (a call
// whose result is unused is dropped before instruction selection). Found by
// tests/campaigns/campaign_backends.py; the other backends lower them or report a
// fatal error, which is already a typed error.
struct UnloweredIntrinsic {
  Intrinsic::ID id;
  const char *backend;
  const char *bug;
};
const char *const NoLowering = "instruction selection has no lowering for it and segfaults";
const UnloweredIntrinsic Unlowered[] = {
    {Intrinsic::frameaddress, "AVR", "AVRMCInstLower dereferences a missing block address"},
    {Intrinsic::returnaddress, "AVR", "AVRMCInstLower dereferences a missing block address"},
    {Intrinsic::frameaddress, "AMDGPU", "SelectionDAGBuilder::visitRet segfaults on its result"},
    {Intrinsic::readcyclecounter, "AVR", NoLowering},
    {Intrinsic::readcyclecounter, "MSP430", NoLowering},
    {Intrinsic::sponentry, "X86", NoLowering},
    {Intrinsic::sponentry, "AVR", NoLowering},
    {Intrinsic::sponentry, "Lanai", NoLowering},
    {Intrinsic::sponentry, "MSP430", NoLowering},
    {Intrinsic::sponentry, "NVPTX", NoLowering},
    {Intrinsic::sponentry, "PowerPC", NoLowering},
    {Intrinsic::sponentry, "Sparc", NoLowering},
    {Intrinsic::sponentry, "SystemZ", NoLowering},
    {Intrinsic::sponentry, "WebAssembly", NoLowering},
    {Intrinsic::sponentry, "XCore", NoLowering},
    {Intrinsic::addressofreturnaddress, "AMDGPU", NoLowering},
    {Intrinsic::addressofreturnaddress, "AVR", NoLowering},
    {Intrinsic::addressofreturnaddress, "Lanai", NoLowering},
    {Intrinsic::addressofreturnaddress, "MSP430", NoLowering},
    {Intrinsic::addressofreturnaddress, "NVPTX", NoLowering},
    {Intrinsic::addressofreturnaddress, "PowerPC", NoLowering},
    {Intrinsic::addressofreturnaddress, "Sparc", NoLowering},
    {Intrinsic::addressofreturnaddress, "SystemZ", NoLowering},
    {Intrinsic::addressofreturnaddress, "WebAssembly", NoLowering},
    {Intrinsic::addressofreturnaddress, "XCore", NoLowering},
};

void unloweredIntrinsics(const Module &module, StringRef backend) {
  for (const Function &declaration : module) {
    Intrinsic::ID id = declaration.getIntrinsicID();
    if (id == Intrinsic::not_intrinsic)
      continue;
    for (const UnloweredIntrinsic &row : Unlowered)
      if (row.id == id && backend == row.backend)
        if (const CallBase *call = callOf(declaration, /*used=*/true))
          refuseCall(backend, *call, row.bug);
  }
}

// An AMDPAL object whose module defines no shader or kernel entry point: the
// PAL metadata note is written without a pipeline and the object writer
// segfaults (assembly output is fine, and so is a module with PAL metadata).
void amdpalObject(const Module &module) {
  if (module.getNamedMetadata("amdgpu.pal.metadata.msgpack") ||
      module.getNamedMetadata("amdgpu.pal.metadata"))
    return; // the module brings its own PAL metadata: no crash
  for (const Function &function : module) {
    if (function.isDeclaration())
      continue;
    switch (function.getCallingConv()) {
    case CallingConv::AMDGPU_VS:
    case CallingConv::AMDGPU_GS:
    case CallingConv::AMDGPU_PS:
    case CallingConv::AMDGPU_CS:
    case CallingConv::AMDGPU_KERNEL:
    case CallingConv::AMDGPU_HS:
    case CallingConv::AMDGPU_LS:
    case CallingConv::AMDGPU_ES:
    case CallingConv::AMDGPU_Gfx:
    case CallingConv::AMDGPU_Gfx_WholeWave:
    case CallingConv::AMDGPU_CS_Chain:
    case CallingConv::AMDGPU_CS_ChainPreserve:
      return;
    default:
      break;
    }
  }
  refuse("AMDGPU",
         "an amdpal object without a shader or kernel entry point (amdgpu_cs, amdgpu_ps, "
         "amdgpu_kernel, amdgpu_gfx, ...)",
         "the PAL metadata writer segfaults; assembly output works");
}

// Whether `function` has debug info that DWARF output emits (its unit is not NoDebug).
const DISubprogram *emittedSubprogram(const Function &function) {
  const DISubprogram *subprogram = function.getSubprogram();
  if (!subprogram || !subprogram->getUnit() ||
      subprogram->getUnit()->getEmissionKind() == DICompileUnit::NoDebug)
    return nullptr;
  return subprogram;
}

// AIX with DWARF 5: DwarfCompileUnit::addAddrTableBase segfaults (the XCOFF
// object file has no .debug_addr section) for any unit that is emitted.
void aixDwarf5(const Module &module, const TargetMachine &machine) {
  unsigned version = machine.Options.MCOptions.DwarfVersion;
  if (version == 0)
    version = module.getDwarfVersion();
  if (version < 5)
    return;
  for (const Function &function : module)
    if (!function.isDeclaration() && emittedSubprogram(function))
      refuse("PowerPC", "DWARF " + Twine(version) + " debug info on AIX (@" + function.getName() + ")",
             "DwarfCompileUnit::addAddrTableBase segfaults; DWARF 3 and 4 work");
}

// R600 at -O0 segfaults on control flow its structurizer has to rewrite: a
// conditional branch or switch to a block that does not end the function,
// or a switch to two or more such ends. Blocks that are only `unreachable`
// are dropped first; a branch to two returning blocks works.
bool onlyUnreachable(const BasicBlock &block) { return isa<UnreachableInst>(block.front()); }

bool endsFunction(const BasicBlock &block) { return isa<ReturnInst, UnreachableInst>(block.getTerminator()); }

void r600NoOpt(const Module &module) {
  for (const Function &function : module)
    for (const BasicBlock &block : function) {
      const Instruction *terminator = block.getTerminator();
      if (!isa<SwitchInst, CondBrInst>(terminator))
        continue;
      SmallPtrSet<const BasicBlock *, 8> live;
      for (const BasicBlock *successor : successors(terminator))
        if (!onlyUnreachable(*successor))
          live.insert(successor);
      bool bad = any_of(live, [](const BasicBlock *successor) { return !endsFunction(*successor); }) ||
                 (isa<SwitchInst>(terminator) && live.size() > 1);
      if (bad)
        refuse("AMDGPU (r600)", "branching control flow at -O0 (@" + function.getName() + ")",
               "R600 code generation without optimisation segfaults; -O1 and above work");
    }
}

// MSP430 has no exception pointer or selector register: with optimisation,
// using a landingpad's value segfaults in LiveVariables. A catch landingpad
// that is only resumed is lowered without it; a cleanup one is not.
void msp430LandingPads(const Module &module) {
  for (const Function &function : module)
    for (const BasicBlock &block : function)
      if (const LandingPadInst *pad = block.getLandingPadInst())
        for (const User *user : pad->users())
          if (!isa<ResumeInst>(user) || pad->isCleanup())
            refuse("MSP430",
                   "a landingpad whose value is used, with optimisation (@" + function.getName() + ")",
                   "LiveVariables segfaults on the missing exception registers; -O0 works");
}

// VE legalises these reductions of i32/i64 vectors (two or more elements)
// forever; the others work or fail with a fatal error.
void veReductions(const Module &module) {
  for (const Function &declaration : module) {
    switch (declaration.getIntrinsicID()) {
    case Intrinsic::vector_reduce_add:
    case Intrinsic::vector_reduce_and:
    case Intrinsic::vector_reduce_or:
    case Intrinsic::vector_reduce_xor:
    case Intrinsic::vector_reduce_smax:
      break;
    default:
      continue;
    }
    Type *element = declaration.getReturnType();
    auto *vector = dyn_cast<FixedVectorType>(declaration.getFunctionType()->getParamType(0));
    if ((!element->isIntegerTy(32) && !element->isIntegerTy(64)) || !vector || vector->getNumElements() < 2)
      continue;
    if (const CallBase *call = callOf(declaration, /*used=*/false))
      refuseCall("VE", *call, "legalising the reduction never ends", "hang");
  }
}

// 32-bit SPARC legalises a byte swap of i16 or i32 vector elements forever
// (64-bit SPARC, i64 elements and scalars work).
void sparcVectorByteSwaps(const Module &module) {
  for (const Function &declaration : module) {
    auto *vector = dyn_cast<FixedVectorType>(declaration.getReturnType());
    if (declaration.getIntrinsicID() != Intrinsic::bswap || !vector ||
        (!vector->getElementType()->isIntegerTy(16) && !vector->getElementType()->isIntegerTy(32)))
      continue;
    if (const CallBase *call = callOf(declaration, /*used=*/false))
      refuseCall("Sparc", *call, "legalising the vector byte swap never ends on 32-bit SPARC", "hang");
  }
}

// AArch64's GHC convention passes arguments in registers only (X19-X28,
// S8-S11, D12-D15, Q4-Q5: CC_AArch64_GHC) and segfaults or aborts when they
// run out. Counts what each argument needs at least; types whose lowering
// is not certain count nothing, so only certain overflows are refused.
struct GhcRegisters {
  unsigned x = 0, s = 0, d = 0, q = 0;
  void add(Type *type) {
    if (type->isPointerTy() || type->isIntegerTy()) {
      x += type->isPointerTy() ? 1 : divideCeil(type->getIntegerBitWidth(), 64);
    } else if (type->isFloatTy()) {
      ++s;
    } else if (type->isDoubleTy()) {
      ++d;
    } else if (type->isFP128Ty()) {
      ++q;
    } else if (auto *vector = dyn_cast<FixedVectorType>(type)) {
      uint64_t bits = vector->getPrimitiveSizeInBits().getFixedValue();
      if (bits == 64)
        ++d; // bit-converted to f64
      else if (bits % 128 == 0)
        q += bits / 128; // v2f64 each
    } else if (auto *structure = dyn_cast<StructType>(type)) {
      for (Type *element : structure->elements())
        add(element);
    } else if (auto *array = dyn_cast<ArrayType>(type)) {
      for (uint64_t i = 0; i < array->getNumElements(); ++i)
        add(array->getElementType());
    }
  }
  bool overflow() const { return x > 10 || s > 4 || d > 4 || q > 2; }
};

bool ghcOverflows(FunctionType *type, AttributeList attributes) {
  GhcRegisters registers;
  for (unsigned i = 0; i < type->getNumParams(); ++i)
    if (!attributes.hasParamAttr(i, Attribute::ByVal)) // passed otherwise: not counted
      registers.add(type->getParamType(i));
  return registers.overflow();
}

// With optimisation, a byval parameter of a ghccc function aborts as well;
// on Windows, without optimisation, any ghccc function segfaults.
void aarch64GhcArguments(const Module &module, const Triple &triple, bool optimised) {
  for (const Function &function : module) {
    if (!optimised && triple.isOSWindows() && !function.isDeclaration() &&
        function.getCallingConv() == CallingConv::GHC)
      refuse("AArch64", "a ghccc function on Windows at -O0 (@" + function.getName() + ")",
             "code generation segfaults; with optimisation it compiles", "crash");
    if (optimised && !function.isDeclaration() && function.getCallingConv() == CallingConv::GHC &&
        any_of(function.args(), [](const Argument &argument) { return argument.hasByValAttr(); }))
      refuse("AArch64",
             "a ghccc function with a byval parameter, with optimisation (@" + function.getName() + ")",
             "the GHC convention cannot pass it and LLVM aborts; -O0 works", "crash");
    if (!function.isDeclaration() && function.getCallingConv() == CallingConv::GHC &&
        ghcOverflows(function.getFunctionType(), function.getAttributes()))
      refuse("AArch64",
             "a ghccc function with more arguments than the GHC convention's registers (@" +
                 function.getName() + ")",
             "argument lowering runs out of registers and segfaults or aborts", "crash");
    for (const Instruction &instruction : instructions(function))
      if (const auto *call = dyn_cast<CallBase>(&instruction))
        if (call->getCallingConv() == CallingConv::GHC &&
            ghcOverflows(call->getFunctionType(), call->getAttributes()))
          refuse("AArch64",
                 "a ghccc call with more arguments than the GHC convention's registers (in @" +
                     function.getName() + ")",
                 "call lowering runs out of registers and segfaults or aborts", "crash");
  }
}

// BPF before v3 (an explicit -mcpu=generic, v1 or v2; the default is v3)
// selects an atomic store of a 32-bit value forever, unless it is seq_cst
// (an error). v3 reports a fatal error, v4 compiles it.
void bpfAtomicStores(const Module &module, const TargetMachine &machine) {
  for (const Function &function : module) {
    Attribute attribute = function.getFnAttribute("target-cpu");
    StringRef cpu = attribute.isValid() ? attribute.getValueAsString() : machine.getTargetCPU();
    if (cpu != "generic" && cpu != "v1" && cpu != "v2")
      continue;
    for (const Instruction &instruction : instructions(function))
      if (const auto *store = dyn_cast<StoreInst>(&instruction))
        if (store->isAtomic() && store->getOrdering() != AtomicOrdering::SequentiallyConsistent &&
            store->getValueOperand()->getType()->getPrimitiveSizeInBits() == 32)
          refuse("BPF", "an atomic store of a 32-bit value for cpu " + cpu + " (@" + function.getName() + ")",
                 "instruction selection never ends; -mcpu=v4 compiles it", "hang");
  }
}

// Every DWARF backend: a line-tables-only unit with local variables (retained
// by its subprograms, or in debug records) segfaults in
// DwarfDebug::finishEntityDefinitions, at every DWARF version. CodeView
// output, Apple targets (their DWARF is emitted differently) and SPIR-V
// (no DWARF) do not crash.
void lineTablesWithVariables(const Module &module, const Triple &triple, StringRef backend) {
  if ((module.getCodeViewFlag() && !module.getDwarfVersion()) || triple.isOSDarwin() || triple.isSPIRV())
    return;
  for (const Function &function : module) {
    const DISubprogram *subprogram = emittedSubprogram(function);
    if (function.isDeclaration() || !subprogram ||
        subprogram->getUnit()->getEmissionKind() != DICompileUnit::LineTablesOnly)
      continue;
    bool variables = any_of(subprogram->getRetainedNodes(),
                            [](const Metadata *node) { return isa<DILocalVariable>(node); });
    for (const Instruction &instruction : instructions(function))
      variables |= !filterDbgVars(instruction.getDbgRecordRange()).empty();
    if (variables)
      refuse(backend,
             "local variable debug info in a LineTablesOnly compile unit (@" + function.getName() + ")",
             "DwarfDebug::finishEntityDefinitions segfaults; FullDebug works");
  }
}

// Whether the module flag `name` is an integer other than 0 (how the
// AsmPrinters below test it).
bool flagSet(const Module &module, StringRef name) {
  const auto *value = mdconst::dyn_extract_or_null<ConstantInt>(module.getModuleFlag(name));
  return value && !value->isZero();
}

// Whether WinCFGuard (which AsmPrinter adds for the "cfguard" flag) lists
// `function` in its .gfids table: its address escapes. The certain escapes
// only: a use by an instruction that is not the callee of a call, by a global
// variable's initialiser or as another function's personality, directly or
// through constant expressions and aliases (blockaddress does not escape).
bool addressEscapes(const Function &function) {
  SmallVector<const Value *, 4> pending{&function};
  SmallPtrSet<const Value *, 8> seen;
  while (!pending.empty()) {
    const Value *value = pending.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    for (const Use &use : value->uses()) {
      const User *user = use.getUser();
      if (isa<BlockAddress>(user))
        continue;
      if (const auto *call = dyn_cast<CallBase>(user)) {
        if (!call->isCallee(&use))
          return true; // an argument or operand bundle: may be called indirectly
      } else if (isa<Instruction>(user)) {
        return true;
      } else if (const auto *variable = dyn_cast<GlobalVariable>(user)) {
        if (variable->getName() != "llvm.arm64ec.symbolmap")
          return true;
      } else if (const auto *other = dyn_cast<Function>(user)) {
        if (other->hasPersonalityFn() && other->getPersonalityFn() == value)
          return true;
      } else if (isa<Constant>(user)) { // a constant expression or an alias
        pending.push_back(user);
      }
    }
  }
  return false;
}

// The "cfguard" module flag (Windows Control Flow Guard) on a target that does
// not write COFF: WinCFGuard::endModule switches to the .gfids section, which
// only COFF has, and MCStreamer::switchSection segfaults on the null section
// as soon as one function's address escapes (object and assembly; GOFF
// objects ignore it). A module without such a function, or with the flag 0,
// compiles. AsmPrinter reads the flag as an integer without checking its
// kind (mdconst::extract_or_null): a flag of another kind is read from the
// wrong object and crashes in some runs, so it counts as set.
void cfguardWithoutCoff(const Module &module, const Triple &triple, StringRef backend, bool object) {
  const Metadata *flag = module.getModuleFlag("cfguard");
  if (triple.isOSBinFormatCOFF() || (object && triple.isOSBinFormatGOFF()) || !flag ||
      (mdconst::hasa<ConstantInt>(flag) && !flagSet(module, "cfguard")))
    return;
  for (const Function &function : module)
    if (addressEscapes(function))
      refuse(backend,
             "the cfguard module flag on a target without COFF sections, with @" + function.getName() +
                 "'s address taken",
             "WinCFGuard::endModule switches to the missing .gfids section and segfaults");
}

// RISC-V: the "cf-protection-branch" flag without "cf-branch-label-scheme":
// RISCVAsmPrinter::emitEndOfAsmFile reads the scheme's string from the
// missing flag and segfaults. A scheme ("unlabeled") compiles; an unknown or
// unimplemented one is a fatal error, already a typed error.
void riscvBranchProtection(const Module &module) {
  if (flagSet(module, "cf-protection-branch") && !module.getModuleFlag("cf-branch-label-scheme"))
    refuse("RISCV", "the cf-protection-branch module flag without a cf-branch-label-scheme flag",
           "RISCVAsmPrinter::emitEndOfAsmFile reads the missing scheme and segfaults");
}

// Whether ARM schedules `cpu` with `features` by latency (ScheduleDAGRRList's
// hybrid scheduler with ARM's ScoreboardHazardRecognizer): it has VFP2, is
// not Thumb1-only or soft-float, its CPU has instruction itineraries and does
// not use the MachineScheduler instead (ARMTargetLowering's scheduling
// preference, SelectionDAGISel::CreateScheduler). Read from a subtarget
// description of its own: the TargetMachine's subtargets are not built here
// (the guards run from several threads).
bool armLatencyScheduled(const TargetMachine &machine, StringRef cpu, StringRef features) {
  std::unique_ptr<MCSubtargetInfo> subtarget(
      machine.getTarget().createMCSubtargetInfo(machine.getTargetTriple(), cpu, features));
  if (!subtarget)
    return false;
  bool thumb1 = subtarget->checkFeatures("+thumb-mode") && !subtarget->checkFeatures("+thumb2");
  return subtarget->checkFeatures("+vfp2sp") && !subtarget->checkFeatures("+soft-float") && !thumb1 &&
         !subtarget->checkFeatures("+use-misched") && !subtarget->getInstrItineraryForCPU(cpu).isEmpty();
}

// ARM: a pseudo-probe (llvm.pseudoprobe, -fpseudo-probe-for-profiling) in an
// optimised function (not optnone, not minsize, not use-soft-float) that is
// scheduled by latency: ScoreboardHazardRecognizer::EmitInstruction segfaults
// on its node. -O0, and CPUs scheduled otherwise, compile it.
void armPseudoProbes(const Module &module, const TargetMachine &machine) {
  const Function *probe = Intrinsic::getDeclarationIfExists(&module, Intrinsic::pseudoprobe);
  if (!probe || machine.getOptLevel() == CodeGenOptLevel::None)
    return;
  SmallPtrSet<const Function *, 8> checked;
  StringMap<bool> latency; // by CPU and features: with profiling, every function has probes
  for (const User *user : probe->users()) {
    const auto *call = dyn_cast<CallBase>(user);
    if (!call || !checked.insert(call->getFunction()).second)
      continue;
    const Function &function = *call->getFunction();
    if (function.hasOptNone() || function.hasMinSize() ||
        function.getFnAttribute("use-soft-float").getValueAsBool())
      continue;
    Attribute cpuAttribute = function.getFnAttribute("target-cpu");
    std::string cpu =
        (cpuAttribute.isValid() ? cpuAttribute.getValueAsString() : machine.getTargetCPU()).str();
    if (cpu.empty())
      cpu = "generic";
    std::string features = machine.getTargetFeatureString().str();
    if (Attribute attribute = function.getFnAttribute("target-features"); attribute.isValid())
      features += (features.empty() ? "" : ",") + attribute.getValueAsString().str();
    auto [entry, added] = latency.try_emplace(cpu + ";" + features, false);
    if (added)
      entry->second = armLatencyScheduled(machine, cpu, features);
    if (entry->second)
      refuseCall("ARM", *call,
                 "ScoreboardHazardRecognizer::EmitInstruction segfaults on the probe when the "
                 "CPU is scheduled with itineraries; -O0 works");
  }
}

// SPIR-V: a function, or a call of one (intrinsics aside), that returns a
// vector with no machine value type (<4 x i7>, <2 x i65>, <3 x i96>,
// <7 x double>): GlobalISel's CallLowering::getReturnInfo has
// SPIRVTargetLowering::getRegisterTypeForCallingConv break the extended type
// down, and EVT::getExtendedSizeInBits segfaults (object and assembly, every
// level). Vectors of a machine type (<4 x i8>, <2 x i128>, <9 x float>),
// such vectors as arguments, in memory or inside a returned aggregate, and
// intrinsics returning them (IRTranslator lowers those itself) get as far as
// LLVM's own errors.
void spirvExtendedVectorReturns(const Module &module) {
  auto extended = [](Type *type) { return type->isVectorTy() && !EVT::getEVT(type).isSimple(); };
  auto typeName = [](Type *type) {
    std::string name;
    raw_string_ostream os(name);
    type->print(os);
    return name;
  };
  static constexpr StringRef Bug =
      "CallLowering::getReturnInfo breaks the vector down and EVT::getExtendedSizeInBits segfaults";
  for (const Function &function : module) {
    if (function.isDeclaration())
      continue;
    if (extended(function.getReturnType()))
      refuse("SPIRV",
             "@" + function.getName() + " returns " + typeName(function.getReturnType()) +
                 ", a vector with no machine value type",
             Bug);
    for (const Instruction &instruction : instructions(function)) {
      const auto *call = dyn_cast<CallBase>(&instruction);
      if (!call || !extended(call->getType()) ||
          (call->getCalledFunction() && call->getCalledFunction()->isIntrinsic()))
        continue;
      refuse("SPIRV",
             "a call in @" + function.getName() + " returns " + typeName(call->getType()) +
                 ", a vector with no machine value type",
             Bug);
    }
  }
}

} // namespace

void refuseKnownBackendCrashes(const Module &module, const TargetMachine &machine, bool object) {
  const Triple &triple = machine.getTargetTriple();
  StringRef backend = backendOf(triple);
  if (!backend.empty())
    unloweredIntrinsics(module, backend);
  switch (triple.getArch()) {
  case Triple::r600:
    if (machine.getOptLevel() == CodeGenOptLevel::None)
      r600NoOpt(module);
    break;
  case Triple::msp430:
    if (machine.getOptLevel() != CodeGenOptLevel::None)
      msp430LandingPads(module);
    break;
  case Triple::ve:
    veReductions(module);
    break;
  case Triple::sparc:
    sparcVectorByteSwaps(module);
    break;
  case Triple::aarch64:
  case Triple::aarch64_be:
    aarch64GhcArguments(module, triple, machine.getOptLevel() != CodeGenOptLevel::None);
    break;
  case Triple::bpfel:
  case Triple::bpfeb:
    bpfAtomicStores(module, machine);
    break;
  case Triple::arm:
  case Triple::armeb:
  case Triple::thumb:
  case Triple::thumbeb:
    armPseudoProbes(module, machine);
    break;
  case Triple::riscv32:
  case Triple::riscv64:
  case Triple::riscv32be:
  case Triple::riscv64be:
    riscvBranchProtection(module);
    break;
  case Triple::spirv:
  case Triple::spirv32:
  case Triple::spirv64:
    spirvExtendedVectorReturns(module);
    break;
  default:
    break;
  }
  if (object && triple.isAMDGCN() && triple.getOS() == Triple::AMDPAL)
    amdpalObject(module);
  if (triple.isOSAIX())
    aixDwarf5(module, machine);
  if (!module.debug_compile_units().empty())
    lineTablesWithVariables(module, triple, machine.getTarget().getBackendName());
  cfguardWithoutCoff(module, triple,
                     backend.empty() ? StringRef(machine.getTarget().getBackendName()) : backend, object);
}

} // namespace llvmplug
