#include "target_checks.h"

#include "failure.h"
#include "messages.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/AutoUpgrade.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Triple.h"

#include <map>
#include <set>
#include <utility>
#include <vector>

using namespace llvm;

namespace llvmplug {

namespace {

enum class RowOS { Any, Windows, Other };

struct ConventionRow {
  const char *backend;
  std::vector<Triple::ArchType> arches;
  RowOS os;
  std::vector<unsigned> define, call;
};

#include "calling_conventions.inc"

const ConventionRow *rowFor(const Triple &triple) {
  for (const ConventionRow &row : ConventionRows)
    if (is_contained(row.arches, triple.getArch()) &&
        (row.os == RowOS::Any || (row.os == RowOS::Windows) == triple.isOSWindows()))
      return &row;
  return nullptr;
}

std::string conventionName(unsigned number) {
  for (const auto &[known, name] : ConventionNames)
    if (known == number)
      return name;
  return "cc " + std::to_string(number);
}

// "it belongs to NVPTX" for another target's convention; "" for a generic one.
std::string owners(unsigned number) {
  for (const auto &[known, backends] : ConventionOwners)
    if (known == number)
      return *backends ? std::string(backends) : std::string("a backend this build does not carry");
  return number >= CallingConv::FirstTargetCC ? "no backend LLVM 23 has" : "";
}

[[noreturn]] void refuseConvention(const Triple &triple, const ConventionRow *row, unsigned number,
                                   const std::string &what, bool call) {
  std::string backend = row ? row->backend : Triple::getArchTypeName(triple.getArch()).str();
  std::string owner = owners(number);
  if (!owner.empty() && !StringRef(owner).contains(backend))
    throw Failure(LLVMPLUG_ERROR_TARGET, what + " the calling convention " + conventionName(number) +
                                             ", which belongs to " + owner + ", not to " + backend +
                                             ": it cannot be compiled for '" + triple.str() +
                                             "' (compile the module for the target it was written for)");
  throw Failure(LLVMPLUG_ERROR_TARGET,
                what + " the calling convention " + conventionName(number) + ", which LLVM's " + backend +
                    " backend does not implement " + (call ? "in a call" : "in a definition") + " for '" +
                    triple.str() +
                    "' (measured: it stops with a fatal error, crashes or reads it as another "
                    "convention); refused before code generation");
}

// "nvvm" for llvm.nvvm.read.ptx.sreg.tid.x when "nvvm" is some target's
// intrinsic prefix (Triple::getArchTypePrefix: LLVM's own list); "" for a
// generic intrinsic (llvm.memcpy...).
StringRef targetPrefix(StringRef name) {
  static const StringSet<> prefixes = [] {
    StringSet<> all;
    for (int arch = Triple::UnknownArch + 1; arch <= Triple::LastArchType; ++arch) {
      StringRef prefix = Triple::getArchTypePrefix(Triple::ArchType(arch));
      if (!prefix.empty())
        all.insert(prefix);
    }
    return all;
  }();
  if (!name.consume_front("llvm."))
    return "";
  StringRef prefix = name.split('.').first;
  return prefixes.contains(prefix) ? prefix : StringRef();
}

// The architecture(s) whose intrinsics use `prefix`, for messages ("nvptx or nvptx64").
std::string archesOf(StringRef prefix) {
  std::string names;
  for (int arch = Triple::UnknownArch + 1; arch <= Triple::LastArchType; ++arch)
    if (Triple::getArchTypePrefix(Triple::ArchType(arch)) == prefix)
      names += (names.empty() ? "" : " or ") + Triple::getArchTypeName(Triple::ArchType(arch)).str();
  return names;
}

bool ownsPrefix(const Triple &triple, StringRef prefix) {
  if (prefix == Triple::getArchTypePrefix(triple.getArch()))
    return true;
  // One backend (AMDGPU) serves both, and selects the other's intrinsics
  // (Mesa's llvm.r600.read.* on amdgcn).
  return triple.isAMDGPU() && (prefix == "amdgcn" || prefix == "r600");
}

// The address spaces a data layout string names in a pointer spec:
// p[flags][N][(name)]:... (N absent: 0).
std::set<unsigned> namedAddressSpaces(StringRef layout) {
  std::set<unsigned> spaces{0};
  SmallVector<StringRef, 16> specs;
  layout.split(specs, '-');
  for (StringRef spec : specs) {
    if (!spec.consume_front("p"))
      continue;
    spec = spec.ltrim("ue"); // flags: unstable representation, external state
    StringRef digits = spec.take_while(isDigit);
    unsigned space = 0;
    if (digits.empty() || !digits.getAsInteger(10, space))
      spaces.insert(space);
  }
  return spaces;
}

} // namespace

std::string overriddenTriple(StringRef moduleTriple, const Triple &chosen) {
  if (moduleTriple.empty())
    return "";
  Triple module(Triple::normalize(moduleTriple));
  // The vendor alone changes nothing that matters here (pc or unknown), and
  // an OS version is a minimum, not another system.
  if (module.getArch() == chosen.getArch() && module.getSubArch() == chosen.getSubArch() &&
      module.getOS() == chosen.getOS() && module.getEnvironment() == chosen.getEnvironment() &&
      module.getObjectFormat() == chosen.getObjectFormat())
    return "";
  return "warning: the module's target triple is '" + moduleTriple.str() + "' but it is compiled for '" +
         chosen.str() +
         "' as requested: code written for one target need not work on another (a "
         "frontend decides sizes, calling conventions and intrinsics for the triple it writes)\n";
}

std::string checkDataLayout(StringRef moduleLayout, StringRef moduleTriple, const Triple &triple,
                            const DataLayout &target) {
  if (moduleLayout.empty())
    return "";
  // Upgraded for the triple it was written for, as LLVM's reader would.
  std::string upgraded =
      UpgradeDataLayoutString(moduleLayout, moduleTriple.empty() ? triple.str() : moduleTriple);
  if (upgraded == target.getStringRepresentation())
    return "";
  Expected<DataLayout> parsed = DataLayout::parse(upgraded);
  if (!parsed)
    throw Failure(LLVMPLUG_ERROR_PARSE, "the module's target datalayout \"" + moduleLayout.str() +
                                            "\" is malformed: " + toString(parsed.takeError()));
  const DataLayout &module = *parsed;
  std::string quoted = "the module's target datalayout \"" + moduleLayout.str() + "\"";
  std::string theTarget = "target '" + triple.str() + "' (\"" + target.getStringRepresentation() + "\")";
  auto refuse = [&](const std::string &what) {
    throw Failure(
        LLVMPLUG_ERROR_TARGET,
        quoted + " contradicts " + theTarget + ": " + what +
            ". The IR was written for another "
            "target and may have that layout built in (offsets, sizes); compile it for the target it "
            "was written for, or emit it with the target's layout (target_info()['data_layout'])");
  };
  if (module.isBigEndian() != target.isBigEndian())
    refuse(std::string("it is ") + (module.isBigEndian() ? "big" : "little") + "-endian, the target " +
           (target.isBigEndian() ? "big" : "little") + "-endian");
  for (unsigned space : namedAddressSpaces(upgraded)) {
    auto bits = [&](const DataLayout &layout) {
      return std::pair(layout.getPointerSizeInBits(space), layout.getIndexSizeInBits(space));
    };
    auto [size, index] = bits(module);
    auto [targetSize, targetIndex] = bits(target);
    if (size != targetSize || index != targetIndex)
      refuse("pointers in address space " + std::to_string(space) + " are " + std::to_string(size) +
             " bits (indexed with " + std::to_string(index) + ") in it, " + std::to_string(targetSize) +
             " bits (indexed with " + std::to_string(targetIndex) + ") on the target");
  }
  for (auto [what, mine, theirs] :
       {std::tuple{"allocas", module.getAllocaAddrSpace(), target.getAllocaAddrSpace()},
        {"functions", module.getProgramAddressSpace(), target.getProgramAddressSpace()},
        {"globals", module.getDefaultGlobalsAddressSpace(), target.getDefaultGlobalsAddressSpace()}})
    if (mine != theirs)
      refuse(std::string(what) + " live in address space " + std::to_string(mine) + " in it, " +
             std::to_string(theirs) + " on the target");

  // The rest only moves things: the alignment of a type changes the layout
  // of the structs that hold it. A frontend for an older LLVM writes such
  // layouts (LLVM upgrades some itself, above), so this is a warning.
  LLVMContext context;
  std::vector<std::pair<std::string, Type *>> types;
  for (unsigned width : {8, 16, 32, 64, 128})
    types.emplace_back("i" + std::to_string(width), IntegerType::get(context, width));
  for (Type *type : std::initializer_list<Type *>{Type::getHalfTy(context), Type::getFloatTy(context),
                                                  Type::getDoubleTy(context), Type::getX86_FP80Ty(context),
                                                  Type::getFP128Ty(context), PointerType::get(context, 0)}) {
    std::string name;
    raw_string_ostream os(name);
    type->print(os);
    types.emplace_back(name, type);
  }
  std::string moved;
  for (auto &[name, type] : types)
    if (module.getABITypeAlign(type) != target.getABITypeAlign(type))
      moved += (moved.empty() ? "" : ", ") + name + " " +
               std::to_string(module.getABITypeAlign(type).value()) + " not " +
               std::to_string(target.getABITypeAlign(type).value());
  if (moved.empty())
    return "";
  return "warning: " + quoted + " aligns types differently from " + theTarget + " (in bytes: " + moved +
         "); LLVM uses the target's, so a struct layout the frontend computed may differ\n";
}

void checkTargetSpecifics(const Module &module, const Triple &triple) {
  const ConventionRow *row = rowFor(triple);
  static const ConventionRow NoRow{"", {}, RowOS::Any, {CallingConv::C}, {CallingConv::C}};
  const ConventionRow &allowed = row ? *row : NoRow; // an unmeasured backend: C only (fail closed)
  for (const Function &function : module) {
    if (function.isDeclaration()) {
      if (!function.isIntrinsic() || function.use_empty())
        continue;
      StringRef prefix = targetPrefix(function.getName());
      if (prefix.empty() || ownsPrefix(triple, prefix))
        continue;
      StringRef own = Triple::getArchTypePrefix(triple.getArch());
      std::string user;
      for (const User *use : function.users())
        if (const auto *instruction = dyn_cast<Instruction>(use)) {
          user = "function '" + instruction->getFunction()->getName().str() + "' calls ";
          break;
        }
      throw Failure(
          LLVMPLUG_ERROR_TARGET,
          (user.empty() ? "the module uses " : user) + function.getName().str() + ", an intrinsic of " +
              archesOf(prefix) + " (llvm." + prefix.str() + ".*), which the backend for '" + triple.str() +
              "' cannot select (" +
              (own.empty() ? std::string("it has none of its own") : "its own are llvm." + own.str() + ".*") +
              "): compile the module for the target it was written for");
    }
    if (!is_contained(allowed.define, function.getCallingConv()))
      refuseConvention(triple, row, function.getCallingConv(),
                       "function '" + function.getName().str() + "' is defined with", /*call=*/false);
    for (const Instruction &instruction : instructions(function))
      if (const auto *call = dyn_cast<CallBase>(&instruction))
        if (!is_contained(allowed.call, call->getCallingConv())) {
          const Function *callee = call->getCalledFunction();
          refuseConvention(triple, row, call->getCallingConv(),
                           "function '" + function.getName().str() + "' calls " +
                               (callee ? "'" + callee->getName().str() + "'" : std::string("a function")) +
                               " with",
                           /*call=*/true);
        }
  }
}

std::string gpuCpuMismatch(const Module &module, const TargetMachine &machine, StringRef requestedCPU) {
  const Triple &triple = machine.getTargetTriple();
  if (!triple.isNVPTX() && !triple.isAMDGPU())
    return "";
  StringRef cpu = machine.getMCSubtargetInfo().getCPU();
  std::map<std::string, std::vector<std::string>> byCPU; // a function's CPU -> the functions
  for (const Function &function : module) {
    StringRef wanted = function.getFnAttribute("target-cpu").getValueAsString();
    if (!function.isDeclaration() && !wanted.empty() && wanted != cpu)
      byCPU[wanted.str()].push_back(function.getName().str());
  }
  if (byCPU.empty())
    return "";
  std::string named;
  for (const auto &[wanted, functions] : byCPU)
    named += (named.empty() ? "" : "; ") + std::string("\"target-cpu\"=\"") + wanted + "\" on '" +
             functions[0] + "'" +
             (functions.size() > 1 ? " and " + std::to_string(functions.size() - 1) + " more" : "");
  std::string given =
      requestedCPU.empty() ? "the default: no -mcpu was given" : "-mcpu=" + requestedCPU.str();
  std::string marked = triple.isNVPTX() ? "the PTX's .target names" : "the code object's e_flags name";
  std::string advice = byCPU.size() == 1
                           ? "pass -mcpu=" + byCPU.begin()->first
                           : "the functions ask for different CPUs, which one output cannot serve";
  return "warning: the output is for CPU '" + cpu.str() + "' (" + given +
         "), but functions ask for another (" + named + "): " + marked +
         " the target machine's CPU, not the functions', so it may not load or run "
         "where they are meant to: " +
         advice + "\n";
}

void refuseHostFileReads(const Module &module, const Triple &triple) {
  // BTF is written for every module with a compile unit (BPFAsmPrinter).
  if (!triple.isBPF() || module.debug_compile_units().empty())
    return;
  // Every file a line of BTF could name: those of the subprograms, of the
  // scopes instructions' locations name (lexical blocks, inlined callees)
  // and of the compile units. More than BTF reads is fine: refused, not lost.
  DebugInfoFinder finder;
  finder.processModule(module);
  // Each file once: every lexical block names its file again, and each is a stat.
  SetVector<const DIFile *> files;
  for (const DICompileUnit *unit : finder.compile_units())
    files.insert(unit->getFile());
  for (const DISubprogram *subprogram : finder.subprograms())
    files.insert(subprogram->getFile());
  for (const DIScope *scope : finder.scopes())
    files.insert(scope->getFile());
  for (const DIFile *file : files) {
    if (!file || file->getSource())
      continue; // BTF copies an embedded source, never the host's file
    // The path exactly as BTFDebug::populateFileContent forms it.
    StringRef name = file->getFilename(), directory = file->getDirectory();
    std::string path =
        !name.starts_with("/") && !directory.empty() ? (directory + "/" + name).str() : name.str();
    sys::fs::file_status status;
    if (sys::fs::status(path, status))
      continue; // absent (or unreachable): BTF reads nothing and says so
    throw Failure(
        LLVMPLUG_ERROR_OPTION,
        policyRefusal("reading '" + path + "' of this machine, which the module's debug info names",
                      "BPF's BTF writer would copy its lines into the object; embed the source with "
                      "clang -gembed-source, or name a path that does not exist here"));
  }
}

} // namespace llvmplug
