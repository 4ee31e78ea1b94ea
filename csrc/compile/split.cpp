#include "split.h"

#include "diagnostics.h"
#include "references.h"
#include "sandbox.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MD5.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/thread.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/SplitModule.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

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
    return any_of(module.getModuleInlineAsm(), [&](const Module::GlobalAsmFragment &fragment) {
      return StringRef(fragment.Asm).contains(name);
    });
  };
  for (GlobalValue *value : locals) {
    StringRef name = value->getName();
    if (!name.empty() && inAsm(name))
      continue;
    value->setName((name.empty() ? "__llvmsplit_unnamed" : name.str()) + suffix);
  }
}

// A definition an optimiser may delete where its own module no longer uses
// it (linkonce), or a copy of one defined elsewhere (available_externally):
// one that a translation unit holds wherever it is used.
bool copyable(const GlobalValue &value) {
  return value.hasLinkOnceLinkage() || value.hasAvailableExternallyLinkage();
}

// The global values that `value`'s definition refers to, as references.h
// walks it: through its instructions (and the constants they use), its
// personality, prefix and prologue, its initialiser, aliasee or resolver, and
// the values metadata wraps there (a debug record's location or address, a
// debug intrinsic's operand); metadata nodes are not followed. Each
// definition is walked once; what of() returns stays valid until the next
// call.
class References {
public:
  const SmallVector<const GlobalValue *, 8> &of(const GlobalValue &value) {
    auto [it, fresh] = found_.try_emplace(&value);
    if (!fresh)
      return it->second;
    Values values;
    visitReferences(const_cast<GlobalValue &>(value), values); // the walk only reads
    SmallPtrSet<const Value *, 32> seen;
    SmallVector<const GlobalValue *, 8> &out = it->second;
    while (!values.found.empty()) {
      Value *next = values.found.pop_back_val();
      if (!seen.insert(next).second)
        continue;
      if (auto *global = dyn_cast<GlobalValue>(next))
        out.push_back(global);
      else if (auto *constant = dyn_cast<Constant>(next))
        visitOperands(constant, values);
      else if (auto *wrapped = dyn_cast<MetadataAsValue>(next))
        values.metadata(wrapped->getMetadata());
    }
    return out;
  }

private:
  struct Values : ReferenceVisitor {
    SmallVector<Value *, 32> found;
    void value(Value *value) override { found.push_back(value); }
    void metadata(Metadata *md) override {
      if (auto *wrapped = dyn_cast<ValueAsMetadata>(md))
        found.push_back(wrapped->getValue());
      else if (auto *list = dyn_cast<DIArgList>(md))
        for (ValueAsMetadata *argument : list->getArgs())
          found.push_back(argument->getValue());
    }
  };
  DenseMap<const GlobalValue *, SmallVector<const GlobalValue *, 8>> found_;
};

// What must be defined whole in one part (the rules SplitModule partitions
// by): the members of a comdat; an alias or ifunc and the object it
// resolves to; a function and every user of its block addresses.
class Groups {
public:
  explicit Groups(const Module &module) {
    DenseMap<const Comdat *, const GlobalValue *> comdats;
    for (const GlobalValue &value : module.global_values()) {
      if (value.isDeclaration())
        continue;
      classes_.insert(&value);
      if (const Comdat *comdat = value.getComdat()) {
        auto [first, fresh] = comdats.try_emplace(comdat, &value);
        if (!fresh)
          classes_.unionSets(first->second, &value);
      }
      const GlobalObject *root = value.getAliaseeObject();
      if (auto *ifunc = dyn_cast_or_null<GlobalIFunc>(root))
        root = ifunc->getResolverFunction();
      if (root && root != &value && !root->isDeclaration())
        classes_.unionSets(&value, root);
      if (auto *function = dyn_cast<Function>(&value))
        for (const BasicBlock &block : *function)
          if (const BlockAddress *address = BlockAddress::lookup(&block))
            joinUsers(function, address);
    }
  }
  const GlobalValue *leader(const GlobalValue *value) const { return classes_.getLeaderValue(value); }
  auto members(const GlobalValue *value) const { return classes_.members(value); }

private:
  void joinUsers(const Function *function, const Value *address) {
    SmallVector<const User *, 8> users(address->users());
    while (!users.empty()) {
      const User *user = users.pop_back_val();
      if (auto *instruction = dyn_cast<Instruction>(user))
        classes_.unionSets(function, instruction->getFunction());
      else if (auto *global = dyn_cast<GlobalValue>(user))
        classes_.unionSets(function, global);
      else
        users.append(user->user_begin(), user->user_end()); // a constant expression
    }
  }
  EquivalenceClasses<const GlobalValue *> classes_;
};

// Which part defines what (split.h).
struct Plan {
  unsigned parts = 0;
  DenseMap<const GlobalValue *, unsigned> owner;            // every definition's part
  std::vector<SmallPtrSet<const GlobalValue *, 16>> copies; // per part: definitions copied in
  SmallPtrSet<const GlobalValue *, 4> keys;                 // leaders of groups that key a structor
};

// SplitModule's decision, read from the parts it makes (it externalises the
// module's locals on the way, and names its unnamed values).
Plan partition(Module &module, unsigned parts) {
  Plan plan;
  plan.parts = parts;
  unsigned index = 0;
  SplitModule(module, parts, [&](std::unique_ptr<Module> part) {
    for (const GlobalValue &value : part->global_values())
      if (!value.isDeclaration())
        if (const GlobalValue *original = module.getNamedValue(value.getName()))
          plan.owner[original] = index;
    ++index;
  });
  plan.copies.resize(parts);
  return plan;
}

// The comdat keying an llvm.global_ctors or global_dtors entry goes where
// the list is, and is never copied (split.h).
void keepKeysWithTheirLists(const Module &module, const Groups &groups, Plan &plan) {
  for (const char *name : {"llvm.global_ctors", "llvm.global_dtors"}) {
    const GlobalVariable *list = module.getNamedGlobal(name);
    if (!list || !list->hasInitializer() || !plan.owner.count(list))
      continue;
    unsigned part = plan.owner[list];
    auto *entries = dyn_cast<ConstantArray>(list->getInitializer());
    for (unsigned i = 0; entries && i < entries->getNumOperands(); ++i) {
      auto *entry = dyn_cast<ConstantStruct>(entries->getOperand(i));
      auto *key = entry && entry->getNumOperands() == 3
                      ? dyn_cast<GlobalValue>(entry->getOperand(2)->stripPointerCasts())
                      : nullptr;
      if (!key || key->isDeclaration())
        continue;
      plan.keys.insert(groups.leader(key));
      for (const GlobalValue *member : groups.members(key))
        plan.owner[member] = part;
    }
  }
}

// For parts that are optimised on their own (split.h): each part's copies of
// the linkonce and available_externally groups it refers to, and the weak
// linkage of what cannot be copied but is referred to from another part.
void addCopies(Module &module, const Groups &groups, Plan &plan) {
  References references;
  DenseMap<const GlobalValue *, bool> canCopy; // by group leader
  auto groupCopyable = [&](const GlobalValue *value) {
    const GlobalValue *leader = groups.leader(value);
    auto [it, fresh] = canCopy.try_emplace(leader, false);
    if (fresh)
      it->second = !plan.keys.count(leader) && all_of(groups.members(leader), [](const GlobalValue *member) {
        return copyable(*member);
      });
    return it->second;
  };
  SmallPtrSet<const GlobalValue *, 16> promote;
  for (unsigned part = 0; part < plan.parts; ++part) {
    SmallVector<const GlobalValue *, 64> work;
    for (auto &[value, owner] : plan.owner)
      if (owner == part)
        work.push_back(value);
    auto &copies = plan.copies[part];
    while (!work.empty()) {
      const GlobalValue *value = work.pop_back_val();
      for (const GlobalValue *target : references.of(*value)) {
        auto owner = plan.owner.find(target);
        if (owner == plan.owner.end() || owner->second == part || copies.count(target))
          continue; // a declaration, or defined here already
        if (groupCopyable(target)) {
          for (const GlobalValue *member : groups.members(target))
            if (copies.insert(member).second)
              work.push_back(member);
        } else if (target->hasLinkOnceLinkage()) {
          promote.insert(target);
        }
      }
    }
  }
  for (const GlobalValue *value : promote) {
    GlobalValue *kept = module.getNamedValue(value->getName());
    kept->setLinkage(kept->hasLinkOnceODRLinkage() ? GlobalValue::WeakODRLinkage
                                                   : GlobalValue::WeakAnyLinkage);
  }
}

// A part worth generating: it defines something for the linker, or carries
// the module asm.
bool worthKeeping(const Module &module, const Plan &plan, unsigned part) {
  if (part == 0 && !module.getModuleInlineAsm().empty())
    return true;
  for (auto &[value, owner] : plan.owner)
    if (owner == part && !value->hasAvailableExternallyLinkage())
      return true;
  return false;
}

} // namespace

std::vector<std::string> splitToBitcode(Module &module, unsigned parts, SplitFor use) {
  // More parts than definitions would only be empty; more than MaxParts
  // would clone the module (declarations and all) that many times.
  parts = unsigned(std::min<size_t>({parts, MaxParts, std::max<size_t>(definitions(module), 1)}));
  // A module asm that does not assemble is reported while a bitcode symbol
  // table is built; thrown from there, it would strand SplitModule's state.
  HeldErrors held(module.getContext());
  giveLocalsUniqueNames(module);
  held.check();
  Plan plan = partition(module, parts);
  Groups groups(module);
  keepKeysWithTheirLists(module, groups, plan);
  if (use == SplitFor::Optimising)
    addCopies(module, groups, plan);

  std::vector<std::string> bitcode;
  for (unsigned part = 0; part < plan.parts; ++part) {
    if (!worthKeeping(module, plan, part))
      continue;
    ValueToValueMapTy map;
    std::unique_ptr<Module> clone = CloneModule(module, map, [&](const GlobalValue *value) {
      auto owner = plan.owner.find(value);
      return (owner != plan.owner.end() && owner->second == part) || plan.copies[part].count(value);
    });
    if (part != 0)
      clone->removeModuleInlineAsm();
    std::string bytes;
    raw_string_ostream os(bytes);
    WriteBitcodeToFile(*clone, os);
    os.flush();
    held.check();
    bitcode.push_back(std::move(bytes));
  }
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
