#include "parse.h"

#include "debuginfo.h"
#include "failure.h"
#include "nesting.h"

#include "llvm/AsmParser/LLParser.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <exception>
#include <optional>

using namespace llvm;

namespace llvmplug {

namespace {

// Runs `body`, prefixing the message of a Failure with the input's name.
template <class Body> auto named(const ParseOptions &options, Body body) {
  try {
    return body();
  } catch (Failure &failure) {
    // The IR parser's own diagnostics already start with the buffer's name
    // ("link module 1:3:7: ..."): name the input once.
    if (!options.name.empty() && !StringRef(failure.message).starts_with(options.name + ":"))
      failure.message = options.name + ": " + failure.message;
    throw;
  }
}

} // namespace

std::unique_ptr<Module> parseModule(StringRef bytes, LLVMContext &context, const ParseOptions &options) {
  return named(options, [&] {
    StringRef bufferName = options.name.empty() ? StringRef("<module>") : StringRef(options.name);
    auto start = reinterpret_cast<const unsigned char *>(bytes.data());
    bool bitcode = isBitcode(start, start + bytes.size());
    if (!bitcode)
      checkTextNesting(bytes);

    // The callback runs inside LLVM's parser, which is built without
    // exceptions: nothing may unwind through it.
    std::optional<TargetFacts> facts;
    std::exception_ptr held;
    auto layoutFor = [&](StringRef triple, StringRef layout) -> std::optional<std::string> {
      if (!options.target)
        return std::nullopt;
      try {
        facts = options.target(triple, layout);
        return facts->dataLayout;
      } catch (...) {
        held = std::current_exception();
        return std::nullopt;
      }
    };

    std::unique_ptr<Module> module;
    std::string error;
    std::unique_ptr<MemoryBuffer> copy;
    if (bitcode) {
      MemoryBufferRef buffer(bytes, bufferName);
      // Lazily even when the whole module is wanted: parseBitcodeFile
      // would finish it at once (materializeAll), and so run LLVM's
      // UpgradeDebugInfo on it (debuginfo.h).
      Expected<std::unique_ptr<Module>> parsed =
          getLazyBitcodeModule(buffer, context, false, false, ParserCallbacks(layoutFor));
      if (parsed)
        module = std::move(*parsed);
      else
        error = "invalid bitcode: " + toString(parsed.takeError());
    } else {
      // The IR lexer relies on a NUL after the last byte; the caller's
      // buffer need not have one, so parse a terminated copy (the module
      // keeps no pointer into it).
      copy = MemoryBuffer::getMemBufferCopy(bytes, bufferName);
      // As parseAssembly, but without LLVM's UpgradeDebugInfo (debuginfo.h).
      SourceMgr sources;
      sources.AddNewSourceBuffer(MemoryBuffer::getMemBuffer(copy->getMemBufferRef()), SMLoc());
      SMDiagnostic diagnostic;
      module = std::make_unique<Module>(bufferName, context);
      if (LLParser(copy->getBuffer(), sources, diagnostic, module.get(), nullptr, context)
              .Run(/*UpgradeDebugInfo=*/false, layoutFor))
        module.reset();
      if (!module) {
        raw_string_ostream os(error);
        diagnostic.print("", os, /*ShowColors=*/false, /*ShowKindLabel=*/false);
        error = StringRef(error).trim().str();
      }
    }
    if (held)
      std::rethrow_exception(held);
    if (!module)
      throw Failure(options.parseStatus, error);
    if (options.target && !facts) { // a reader that never asked
      facts = options.target(module->getTargetTriple().str(), module->getDataLayoutStr());
      module->setDataLayout(facts->dataLayout);
    }
    bool whole = bitcode && !options.lazy;
    if (whole)
      for (Function &function : *module)
        if (Error error = function.materialize())
          throw Failure(options.parseStatus, "invalid bitcode: " + toString(std::move(error)));
    checkModuleDepth(*module); // before the verifier recurses through it
    upgradeDebugInfo(*module, options.verifyStatus);
    // What the reader still does: the intrinsics it upgraded, the module
    // flags, and its own UpgradeDebugInfo, now with nothing left to report.
    if (whole)
      if (Error error = module->materializeAll())
        throw Failure(options.parseStatus, "invalid bitcode: " + toString(std::move(error)));
    if (facts)
      checkModuleAsm(*module, facts->asmRules);
    return module;
  });
}

void materialize(Function &function, const AsmRules &rules, const ParseOptions &options) {
  if (!function.isMaterializable())
    return;
  named(options, [&] {
    if (Error error = function.materialize())
      throw Failure(options.parseStatus, "invalid bitcode: " + toString(std::move(error)));
    checkFunctionDepth(function);
    checkFunctionAsm(function, rules);
  });
}

} // namespace llvmplug
