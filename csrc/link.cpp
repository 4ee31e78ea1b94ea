#include "link.h"

#include "failure.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/AsmParser/Parser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/IPO/Internalize.h"

#include <string>
#include <vector>

using namespace llvm;

namespace llvmplug {

namespace {

std::string name(size_t index) { return "link module " + std::to_string(index + 1); }

[[noreturn]] void fail(size_t index, const std::string &why) {
  throw Failure(LLVMPLUG_ERROR_LINK, name(index) + ": " + why);
}

// Bitcode is loaded lazily: the linker materialises only the functions it
// links (libdevice has hundreds; a kernel calls a few). The buffer outlives
// the module (both live for the call).
std::unique_ptr<Module> parse(StringRef bytes, size_t index, LLVMContext &context,
                              std::vector<std::unique_ptr<MemoryBuffer>> &keep) {
  auto start = reinterpret_cast<const unsigned char *>(bytes.data());
  if (isBitcode(start, start + bytes.size())) {
    Expected<std::unique_ptr<Module>> module =
        getLazyBitcodeModule(MemoryBufferRef(bytes, name(index)), context);
    if (!module)
      fail(index, "invalid bitcode: " + toString(module.takeError()));
    return std::move(*module);
  }
  // The IR lexer needs a NUL after the last byte; the module keeps no
  // pointer into the text once parsed.
  keep.push_back(MemoryBuffer::getMemBufferCopy(bytes, name(index)));
  SMDiagnostic error;
  std::unique_ptr<Module> module = parseAssembly(keep.back()->getMemBufferRef(), error, context);
  if (!module) {
    std::string text;
    raw_string_ostream os(text);
    error.print("", os, /*ShowColors=*/false, /*ShowKindLabel=*/false);
    fail(index, StringRef(text).trim().str());
  }
  return module;
}

void retarget(Module &input, const Module &module, size_t index) {
  const Triple &theirs = input.getTargetTriple();
  const Triple &ours = module.getTargetTriple();
  if (!theirs.empty() && theirs.getArch() != ours.getArch())
    fail(index, "it is for '" + theirs.str() + "', but the module is compiled for '" + ours.str() + "'");
  const DataLayout &layout = input.getDataLayout();
  const DataLayout &target = module.getDataLayout();
  if (!input.getDataLayoutStr().empty() &&
      (layout.isLittleEndian() != target.isLittleEndian() ||
       layout.getPointerSizeInBits(0) != target.getPointerSizeInBits(0)))
    fail(index, "its data layout '" + input.getDataLayoutStr() + "' disagrees with the target's '" +
                    target.getStringRepresentation() + "' on byte order or pointer size");
  input.setTargetTriple(ours);
  input.setDataLayout(target);
}

// A definition that the linker would have to choose against another: not
// weak, linkonce, common or available_externally, and visible by name.
bool strongDefinition(const GlobalValue &value) {
  return value.hasName() && !value.hasLocalLinkage() && !value.isDeclarationForLinker() &&
         !value.isWeakForLinker();
}

// LinkOnlyNeeded skips a definition the module already has without a word;
// two strong definitions of one name are a conflict, reported as such.
void checkConflicts(const Module &input, size_t index, StringSet<> &defined) {
  for (const GlobalValue &value : input.global_values())
    if (strongDefinition(value) && !defined.insert(value.getName()).second)
      fail(index, "'" + value.getName().str() + "' is defined both here and in the module or an "
                                                "earlier link module");
}

// The linker reports its errors as diagnostics; the compile's own handler
// would turn them into a codegen error thrown through the linker's frames.
// While linking, errors are recorded here for a LINK failure once the linker
// has returned; warnings still reach the compile's handler (and the caller).
struct LinkDiagnostics : DiagnosticHandler {
  std::string errors;
  DiagnosticHandler *compile = nullptr;
  bool handleDiagnostics(const DiagnosticInfo &info) override {
    if (info.getSeverity() != DS_Error)
      return compile && compile->handleDiagnostics(info);
    raw_string_ostream os(errors);
    DiagnosticPrinterRawOStream printer(os);
    if (!errors.empty())
      os << "; ";
    info.print(printer);
    return true;
  }
};

class SwapDiagnostics {
public:
  explicit SwapDiagnostics(LLVMContext &context)
      : context(context), saved(context.getDiagnosticHandler()) {
    auto handler = std::make_unique<LinkDiagnostics>();
    handler->compile = saved.get();
    mine = handler.get();
    context.setDiagnosticHandler(std::move(handler));
  }
  ~SwapDiagnostics() { context.setDiagnosticHandler(std::move(saved), /*RespectFilters=*/true); }
  const std::string &errors() const { return mine->errors; }

private:
  LLVMContext &context;
  std::unique_ptr<DiagnosticHandler> saved;
  LinkDiagnostics *mine = nullptr;
};

} // namespace

void linkModules(Module &module, ArrayRef<StringRef> links, LLVMContext &context) {
  if (links.empty())
    return;
  std::vector<std::unique_ptr<MemoryBuffer>> keep;
  std::vector<std::unique_ptr<Module>> inputs;
  StringSet<> defined;
  for (const GlobalValue &value : module.global_values())
    if (strongDefinition(value))
      defined.insert(value.getName());
  // Every input is checked before any is linked, so a bad one changes nothing.
  for (size_t i = 0; i < links.size(); ++i) {
    inputs.push_back(parse(links[i], i, context, keep));
    retarget(*inputs.back(), module, i);
    checkConflicts(*inputs.back(), i, defined);
  }

  SwapDiagnostics swap(context);
  Linker linker(module);
  for (size_t i = 0; i < inputs.size(); ++i) {
    bool failed = linker.linkInModule(
        std::move(inputs[i]), Linker::LinkOnlyNeeded,
        [](Module &linked, const StringSet<> &fromInput) {
          internalizeModule(linked, [&](const GlobalValue &value) {
            return !value.hasName() || !fromInput.count(value.getName());
          });
        });
    if (failed || !swap.errors().empty())
      fail(i, "the linker refused it: " + swap.errors());
  }
  std::string problems;
  raw_string_ostream os(problems);
  if (verifyModule(module, &os))
    throw Failure(LLVMPLUG_ERROR_LINK,
                  "the module with its link modules fails the verifier: " + StringRef(problems).trim().str());
}

} // namespace llvmplug
