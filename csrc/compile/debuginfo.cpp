#include "debuginfo.h"

#include "debuginfo_writers.h"
#include "failure.h"
#include "option_registry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instruction.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace llvmplug {

namespace {

// The "Debug Info Version" module flag, read as UpgradeDebugInfo reads it:
// the module is not verified yet, so nothing is assumed of the flags' shape
// (Module::getModuleFlag assumes more).
unsigned debugInfoVersion(const Module &module) {
  const NamedMDNode *flags = module.getModuleFlagsMetadata();
  if (!flags)
    return 0;
  for (const MDNode *flag : flags->operands()) {
    if (flag->getNumOperands() < 3)
      continue;
    auto *key = dyn_cast_or_null<MDString>(flag->getOperand(1));
    if (!key || key->getString() != "Debug Info Version")
      continue;
    auto *value = mdconst::dyn_extract_or_null<ConstantInt>(flag->getOperand(2));
    return value ? unsigned(value->getZExtValue()) : 0;
  }
  return 0;
}

// The verifier's check of intrinsics' uses, which it makes only once the
// module is materialised (Verifier::visitFunction): a lazily loaded module
// still has its materializer when it is checked here, and the reader's own
// check comes after (materializeModule), printed and fatal.
bool intrinsicAddressTaken(const Module &module, raw_ostream &os) {
  for (const Function &function : module) {
    const User *user = nullptr;
    if (!function.isIntrinsic() ||
        !function.hasAddressTaken(&user, /*IgnoreCallbackUses=*/false, /*IgnoreAssumeLikeCalls=*/true,
                                  /*IngoreLLVMUsed=*/false, /*IgnoreARCAttachedCall=*/true))
      continue;
    os << "Invalid user of intrinsic instruction!\n";
    if (isa<Instruction>(user))
      user->print(os);
    else
      user->printAsOperand(os, true, &module);
    os << '\n';
    return true;
  }
  return false;
}

} // namespace

void upgradeDebugInfo(Module &module, llvmplug_status status) {
  if (debugInfoUpgradeDisabled())
    return;
  unsigned version = debugInfoVersion(module);
  if (version == DEBUG_METADATA_VERSION) {
    if (any_of(module, [](const Function &function) { return function.isMaterializable(); }))
      return; // a link module, verified as far as it is loaded once linked
    std::string problems;
    raw_string_ostream os(problems);
    bool brokenDebugInfo = false;
    if (verifyModuleAndDebugInfo(module, os, &brokenDebugInfo) ||
        (!module.isMaterialized() && intrinsicAddressTaken(module, os)))
      throw Failure(status, StringRef(problems).trim().str());
    if (!brokenDebugInfo)
      return;
    module.getContext().diagnose(DiagnosticInfoIgnoringInvalidDebugMetadata(module));
  }
  if (StripDebugInfo(module) && version != DEBUG_METADATA_VERSION)
    module.getContext().diagnose(DiagnosticInfoDebugMetadataVersion(module, version));
}

} // namespace llvmplug
