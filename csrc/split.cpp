#include "split.h"

#include "sandbox.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MD5.h"
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
constexpr unsigned PartStackBytes = 32u << 20; // as threads.h's BigStackBytes

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

// Feeds what is written into an MD5 instead of keeping it.
class HashStream : public raw_ostream {
public:
  explicit HashStream(MD5 &hash) : hash(hash) { SetUnbuffered(); }

private:
  void write_impl(const char *data, size_t size) override {
    hash.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(data), size));
    written += size;
  }
  uint64_t current_pos() const override { return written; }
  MD5 &hash;
  uint64_t written = 0;
};

// SplitModule makes every local symbol a hidden global under its own name so
// that parts can refer to each other. Two modules' parts then collide when
// linked into one program (each file's `static int helper`, its `.str.1`),
// so the locals are renamed first, as ThinLTO's promotion does: with
// ".llvm.<hash>", the hash of the module's bitcode, so the names differ
// between modules and stay the same between compiles of one module. A
// local named in module-level asm keeps its name: the asm is not rewritten.
void giveLocalsUniqueNames(Module &module) {
  std::vector<GlobalValue *> locals;
  for (GlobalValue &value : module.global_values())
    if (value.hasLocalLinkage())
      locals.push_back(&value);
  if (locals.empty())
    return;
  MD5 hash;
  HashStream stream(hash);
  WriteBitcodeToFile(module, stream);
  stream.flush();
  std::string suffix = ".llvm." + utostr(hash.final().low());
  auto inAsm = [&](StringRef name) {
    return any_of(module.getModuleInlineAsm(),
                  [&](const Module::GlobalAsmFragment &fragment) { return StringRef(fragment.Asm).contains(name); });
  };
  for (GlobalValue *value : locals) {
    StringRef name = value->getName();
    if (!name.empty() && inAsm(name))
      continue;
    value->setName((name.empty() ? "__llvmsplit_unnamed" : name.str()) + suffix);
  }
}

} // namespace

std::vector<std::string> splitToBitcode(Module &module, unsigned parts) {
  // More parts than definitions would only be empty; more than MaxParts
  // would clone the module (declarations and all) that many times.
  parts = unsigned(std::min<size_t>({parts, MaxParts, std::max<size_t>(definitions(module), 1)}));
  giveLocalsUniqueNames(module);
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
  Refusals *refusals = currentRefusals(); // the call's, on every thread it runs on (sandbox.h)
  auto run = [&](size_t index) {
    RefusalScope noted(refusals);
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
