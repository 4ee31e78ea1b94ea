#include "split.h"

#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include "llvm/Transforms/Utils/SplitModule.h"

#include <algorithm>
#include <exception>
#include <memory>

using namespace llvm;

namespace llvmplug {

namespace {

// Code generation recurses over the IR (e.g. SelectionDAG building); give
// each part as much room as the thread LLVM otherwise runs on (see
// llvmplug.h on nesting).
constexpr unsigned PartStackBytes = 32u << 20; // as stack.cpp's

size_t definitions(const Module &module) {
  size_t count = module.alias_size() + module.ifunc_size();
  for (const Function &function : module)
    count += !function.isDeclaration();
  for (const GlobalVariable &global : module.globals())
    count += !global.isDeclaration();
  return count;
}

bool definesAnything(const Module &module) {
  return definitions(module) != 0 || !module.getModuleInlineAsm().empty();
}

} // namespace

std::vector<std::string> splitToBitcode(Module &module, unsigned parts) {
  // More parts than definitions would only be empty; more than MaxParts
  // would clone the module (declarations and all) that many times.
  parts = unsigned(std::min<size_t>({parts, MaxParts, std::max<size_t>(definitions(module), 1)}));
  std::vector<std::string> bitcode;
  SplitModule(module, parts, [&](std::unique_ptr<Module> part) {
    if (!definesAnything(*part))
      return;
    std::string bytes;
    raw_string_ostream os(bytes);
    WriteBitcodeToFile(*part, os);
    os.flush();
    bitcode.push_back(std::move(bytes));
  });
  return bitcode;
}

void runInParallel(size_t count, const std::function<void(size_t)> &work) {
  std::vector<std::exception_ptr> errors(count);
  auto run = [&](size_t index) {
    try {
      work(index);
    } catch (...) {
      errors[index] = std::current_exception();
    }
  };
  std::vector<llvm::thread> threads;
  threads.reserve(count ? count - 1 : 0);
  try {
    for (size_t index = 1; index < count; ++index)
      threads.emplace_back(std::optional<unsigned>(PartStackBytes), run, index);
  } catch (...) {
    // Could not start a thread: run what is left here.
    for (size_t index = threads.size() + 1; index < count; ++index)
      run(index);
  }
  if (count)
    run(0);
  for (llvm::thread &thread : threads)
    thread.join();
  for (std::exception_ptr &error : errors)
    if (error)
      std::rethrow_exception(error);
}

} // namespace llvmplug
