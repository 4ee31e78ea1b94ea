#include "machine.h"

#include "failure.h"
#include "llcflags.h"

#include "llvm/CodeGen/CommandFlags.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace llvmplug {

MachineSpec describeMachine(const Triple &triple, const LlcFlags &llc, CodeGenOptLevel codegenLevel) {
  MachineSpec spec;
  spec.triple = triple;
  spec.cpu = codegen::getCPUStr();
  spec.features = codegen::getFeaturesStr();
  spec.options = codegen::InitTargetOptionsFromCodeGenFlags(triple);
  applyLlcFlags(llc, spec.options);
  spec.relocModel = codegen::getExplicitRelocModel();
  spec.codeModel = codegen::getExplicitCodeModel();
  spec.codegenLevel = codegenLevel;
  return spec;
}

std::unique_ptr<TargetMachine> createMachine(const Target &target, const MachineSpec &spec) {
  std::unique_ptr<TargetMachine> machine(target.createTargetMachine(spec.triple, spec.cpu, spec.features,
                                                                    spec.options, spec.relocModel,
                                                                    spec.codeModel, spec.codegenLevel));
  if (!machine)
    throw Failure(LLVMPLUG_ERROR_TARGET, "could not create a target machine for '" + spec.triple.str() + "'");
  return machine;
}

} // namespace llvmplug
