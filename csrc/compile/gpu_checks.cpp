#include "gpu_checks.h"

#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;

namespace llvmplug {

std::string undefinedGpuFunctions(const Module &module, const Triple &triple) {
  if (!triple.isNVPTX() && !triple.isAMDGPU())
    return "";
  std::string names;
  unsigned count = 0;
  for (const Function &function : module) {
    if (!function.isDeclaration() || function.isIntrinsic() || function.use_empty())
      continue;
    if (count++ < 8)
      names += (names.empty() ? "" : ", ") + function.getName().str();
  }
  if (count == 0)
    return "";
  if (count > 8)
    names += " and " + std::to_string(count - 8) + " more";
  std::string hint = triple.isNVPTX() && StringRef(names).contains("__nv_")
                         ? " (libdevice: link=[llvmplug.libdevice()], CLI --libdevice)"
                         : " (link the modules that define them with link=)";
  return "warning: " + std::to_string(count) + " function" + (count == 1 ? "" : "s") +
         " called but not defined, which nothing links in later for " + triple.getArchName().str() + ": " +
         names + hint + "\n";
}

} // namespace llvmplug
