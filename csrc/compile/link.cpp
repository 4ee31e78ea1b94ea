#include "link.h"

#include "debuginfo_writers.h"
#include "diagnostics.h"
#include "failure.h"
#include "parse.h"
#include "references.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
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

ParseOptions parseOptions(size_t index) {
  ParseOptions options;
  options.name = name(index);
  options.parseStatus = LLVMPLUG_ERROR_LINK;
  options.verifyStatus = LLVMPLUG_ERROR_LINK;
  // Bitcode is loaded lazily: only the functions the module needs are
  // materialised (libdevice has hundreds; a kernel calls a few).
  options.lazy = true;
  return options;
}

// The data layout a link module is parsed with: the module's (as if given
// to llc with the module's triple), once its own triple and layout agree
// with the module's on architecture, byte order and pointer size.
TargetFacts retarget(StringRef theirTriple, StringRef theirLayout, const Module &module,
                     const AsmRules &rules) {
  const Triple &ours = module.getTargetTriple();
  if (!theirTriple.empty() && Triple(theirTriple).getArch() != ours.getArch())
    throw Failure(LLVMPLUG_ERROR_LINK, "it is for '" + theirTriple.str() +
                                           "', but the module is compiled for '" + ours.str() + "'");
  const DataLayout &target = module.getDataLayout();
  if (!theirLayout.empty()) {
    Expected<DataLayout> layout = DataLayout::parse(theirLayout);
    if (!layout)
      throw Failure(LLVMPLUG_ERROR_LINK, "its data layout '" + theirLayout.str() +
                                             "' is invalid: " + toString(layout.takeError()));
    if (layout->isLittleEndian() != target.isLittleEndian() ||
        layout->getPointerSizeInBits(0) != target.getPointerSizeInBits(0))
      throw Failure(LLVMPLUG_ERROR_LINK,
                    "its data layout '" + theirLayout.str() + "' disagrees with the target's '" +
                        target.getStringRepresentation() + "' on byte order or pointer size");
  }
  return {target.getStringRepresentation(), rules};
}

// The appending lists a link module may carry (link.h): what a program
// linker takes from an archive member it pulls in.
bool memberList(StringRef name) {
  return name == "llvm.global_ctors" || name == "llvm.global_dtors" || name == "llvm.used" ||
         name == "llvm.compiler.used";
}

// What a link module may not carry (link.h).
void checkWhatItBrings(const Module &input, size_t index) {
  if (input.hasModuleInlineAsm())
    fail(index, "it has module-level asm, which cannot be told apart by definition (what it defines, "
                "and whether the module needs it, is not known before it is assembled); a link module may "
                "bring in only definitions, with their module's constructors, destructors and used lists");
  for (const GlobalVariable &global : input.globals()) {
    if (!global.hasAppendingLinkage() || !global.hasInitializer() || memberList(global.getName()))
      continue;
    auto *type = dyn_cast<ArrayType>(global.getValueType());
    if (type && type->getNumElements() == 0)
      continue;
    fail(index, "it has '" + global.getName().str() +
                    "', an appending list that is neither constructors, destructors nor a used list; "
                    "a link module may bring in only definitions, with those lists");
  }
}

// A definition that the linker would have to choose against another: not
// weak, linkonce, common, available_externally or appending (lists are
// concatenated), and visible by name.
bool strongDefinition(const GlobalValue &value) {
  return value.hasName() && !value.hasLocalLinkage() && !value.isDeclarationForLinker() &&
         !value.isWeakForLinker() && !value.hasAppendingLinkage();
}

// LinkOnlyNeeded skips a definition the module already has without a word;
// two strong definitions of one name are a conflict, reported as such.
void checkConflicts(const Module &input, size_t index, StringSet<> &defined) {
  for (const GlobalValue &value : input.global_values())
    if (strongDefinition(value) && !defined.insert(value.getName()).second)
      fail(index, "'" + value.getName().str() +
                      "' is defined both here and in the module or an "
                      "earlier link module");
}

// The definitions the module needs from its link modules, to a fixed point,
// as a program linker pulls archive members: starting from the module's
// declarations, the first definition of each name (as the linker takes the
// first), then what those definitions reference, across all link modules in
// any order; a link module from which a definition is taken is pulled, and
// what its constructor, destructor and used lists reference is needed too.
// Each function it reaches is materialised (and so checked by parse.h)
// before anything is linked.
class Needs {
public:
  Needs(Module &module, ArrayRef<std::unique_ptr<Module>> inputs, const AsmRules &rules)
      : module(module), inputs(inputs), rules(rules), pulled(inputs.size()) {
    for (size_t i = 0; i < inputs.size(); ++i) {
      indexOf[inputs[i].get()] = i;
      for (GlobalValue &value : inputs[i]->global_values()) {
        // An available_externally body only stands for a definition elsewhere
        // (an object file has none of it): never linked from a link module.
        if (value.isDeclarationForLinker())
          continue;
        if (value.hasName() && !value.hasLocalLinkage())
          definitions[value.getName()].push_back(&value);
        if (const Comdat *comdat = value.getComdat())
          comdats[comdat].push_back(&value);
      }
    }
  }

  void collect() {
    for (GlobalValue &value : module.global_values())
      if (value.isDeclarationForLinker() && value.hasName())
        need(value.getName());
    for (bool grew = true; grew;) {
      drain();
      grew = false;
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (pulled[i] || !touched.count(i))
          continue;
        pulled[i] = grew = true;
        for (GlobalVariable &global : inputs[i]->globals())
          if (global.hasAppendingLinkage() && memberList(global.getName()) && global.hasInitializer())
            walk(global.getInitializer());
      }
    }
  }

  // Names the linker must bring in, each with the definition it takes.
  const StringMap<GlobalValue *> &names() const { return needed; }
  // Whether link module `index` is pulled in (a definition is taken from it).
  bool isPulled(size_t index) const { return pulled[index]; }

private:
  void drain() {
    while (!work.empty()) {
      GlobalValue *value = work.pop_back_val();
      if (const Comdat *comdat = value->getComdat())
        for (GlobalValue *member : comdats[comdat])
          queue(member); // the linker takes a comdat whole
      if (auto *function = dyn_cast<Function>(value))
        materialize(*function, rules, parseOptions(indexOf[function->getParent()]));
      Follow follow(*this);
      visitReferences(*value, follow);
    }
  }
  void need(StringRef name) {
    GlobalValue *ours = module.getNamedValue(name);
    if (ours && !ours->isDeclarationForLinker())
      return; // the module's own definition wins
    auto found = definitions.find(name);
    if (found == definitions.end())
      return; // defined nowhere: left to the program's linker
    if (needed.try_emplace(name, found->second.front()).second)
      queue(found->second.front());
  }
  void queue(GlobalValue *value) {
    if (queued.insert(value).second) {
      work.push_back(value);
      touched.insert(indexOf[value->getParent()]);
    }
  }
  void reach(GlobalValue *value) {
    if (!value->isDeclaration() && value->hasLocalLinkage())
      queue(value);
    else if (value->hasName())
      need(value->getName());
  }
  void walk(Value *root) {
    // A constant's operands (references.h) go on `values`.
    struct Operands : ReferenceVisitor {
      SmallVector<Value *, 16> values;
      void value(Value *value) override { values.push_back(value); }
    } operands;
    operands.values.push_back(root);
    while (!operands.values.empty()) {
      Value *value = operands.values.pop_back_val();
      if (auto *global = dyn_cast<GlobalValue>(value)) {
        reach(global);
      } else if (auto *constant = dyn_cast<Constant>(value)) {
        if (seenConstants.insert(constant).second)
          visitOperands(constant, operands);
      } else if (auto *wrapped = dyn_cast<MetadataAsValue>(value)) {
        walkMetadata(wrapped->getMetadata());
      }
    }
  }
  void walkMetadata(Metadata *root) {
    // A node's operands go on `nodes`, the values it wraps to walk().
    struct Operands : ReferenceVisitor {
      Needs &needs;
      SmallVector<Metadata *, 16> nodes;
      explicit Operands(Needs &needs) : needs(needs) {}
      void value(Value *value) override { needs.walk(value); }
      void metadata(Metadata *md) override { nodes.push_back(md); }
    } operands(*this);
    operands.nodes.push_back(root);
    while (!operands.nodes.empty()) {
      Metadata *md = operands.nodes.pop_back_val();
      if (seenMetadata.insert(md).second)
        visitOperands(md, operands);
    }
  }
  // What a definition refers to (references.h): values and metadata.
  struct Follow : ReferenceVisitor {
    Needs &needs;
    explicit Follow(Needs &needs) : needs(needs) {}
    void value(Value *value) override { needs.walk(value); }
    void metadata(Metadata *md) override { needs.walkMetadata(md); }
  };

  Module &module;
  ArrayRef<std::unique_ptr<Module>> inputs;
  const AsmRules &rules;
  std::vector<bool> pulled;
  DenseSet<size_t> touched; // link modules a definition was queued from
  DenseMap<const Module *, size_t> indexOf;
  StringMap<SmallVector<GlobalValue *, 1>> definitions; // by name, across link modules
  DenseMap<const Comdat *, SmallVector<GlobalValue *, 2>> comdats;
  StringMap<GlobalValue *> needed;
  SmallPtrSet<GlobalValue *, 32> queued;
  SmallVector<GlobalValue *, 32> work;
  SmallPtrSet<Constant *, 32> seenConstants;
  SmallPtrSet<Metadata *, 32> seenMetadata;
};

// A declaration in the module for each name it needs that it does not
// declare yet: LinkOnlyNeeded then links a definition from whichever link
// module holds it, whatever the order.
void declare(Module &module, const StringMap<GlobalValue *> &needed) {
  for (const auto &[name, definition] : needed) {
    if (GlobalValue *ours = module.getNamedValue(name)) {
      // An available_externally body (C99 inline, an extern template) gives
      // way to the definition it stands for: the linker links none over it.
      if (auto *function = dyn_cast<Function>(ours); function && function->hasAvailableExternallyLinkage())
        function->deleteBody();
      else if (auto *global = dyn_cast<GlobalVariable>(ours);
               global && global->hasAvailableExternallyLinkage()) {
        global->setInitializer(nullptr);
        global->setLinkage(GlobalValue::ExternalLinkage);
      }
      continue;
    }
    Type *type = definition->getValueType();
    if (auto *function = dyn_cast<FunctionType>(type)) {
      Function::Create(function, GlobalValue::ExternalLinkage, definition->getAddressSpace(), name, &module);
    } else {
      auto *global = dyn_cast<GlobalVariable>(definition);
      new GlobalVariable(module, type, global && global->isConstant(), GlobalValue::ExternalLinkage, nullptr,
                         name, nullptr, definition->getThreadLocalMode(), definition->getAddressSpace());
    }
  }
}

} // namespace

void linkModules(Module &module, ArrayRef<StringRef> links, LLVMContext &context, const AsmRules &rules) {
  if (links.empty())
    return;
  std::vector<std::unique_ptr<Module>> inputs;
  StringSet<> defined;
  for (const GlobalValue &value : module.global_values())
    if (strongDefinition(value))
      defined.insert(value.getName());
  // Every input is checked before any is linked, so a bad one changes nothing.
  for (size_t i = 0; i < links.size(); ++i) {
    ParseOptions options = parseOptions(i);
    auto target = [&](StringRef triple, StringRef layout) { return retarget(triple, layout, module, rules); };
    options.target = target;
    inputs.push_back(parseModule(links[i], context, options));
    inputs.back()->setTargetTriple(module.getTargetTriple());
    checkWhatItBrings(*inputs.back(), i);
    checkConflicts(*inputs.back(), i, defined);
  }
  Needs needs(module, inputs, rules);
  needs.collect();
  declare(module, needs.names());
  // What nothing needs is never loaded: a function left unmaterialised
  // becomes a declaration, so the linker cannot load a body no check saw.
  // An available_externally variable becomes a declaration too: linked and
  // internalised, it would be a private copy of a variable defined elsewhere.
  StringSet<> dropped;
  for (std::unique_ptr<Module> &input : inputs) {
    for (GlobalVariable &global : input->globals())
      if (global.hasAvailableExternallyLinkage()) {
        global.setInitializer(nullptr);
        global.setLinkage(GlobalValue::ExternalLinkage);
      }
    for (Function &function : *input)
      if (function.isMaterializable()) {
        if (!function.hasLocalLinkage() && !function.hasAvailableExternallyLinkage())
          dropped.insert(function.getName());
        function.deleteBody();
        function.setComdat(nullptr);
      }
  }

  // Internalised once all are linked: a definition internalised after its
  // own step could no longer resolve a later link module's reference to it.
  StringSet<> linked;
  {
    // The linker reports its errors as diagnostics; the compile's own handler
    // would throw them through the linker's frames. Held, they make a LINK
    // failure once the linker has returned.
    HeldErrors held(context);
    Linker linker(module);
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!needs.isPulled(i))
        continue; // like an archive member no symbol pulls in: nothing of it
      bool failed = linker.linkInModule(std::move(inputs[i]), Linker::LinkOnlyNeeded,
                                        [&](Module &, const StringSet<> &fromInput) {
                                          for (const auto &entry : fromInput)
                                            linked.insert(entry.getKey());
                                        });
      if (failed || !held.errors().empty())
        fail(i, "the linker refused it: " + held.errors());
    }
  }
  internalizeModule(module, [&](const GlobalValue &value) {
    return !value.hasName() || !linked.contains(value.getName());
  });
  // Every definition needed arrived, and nothing the output uses was left
  // behind: an undefined symbol that a link module defines is an error here,
  // not a surprise at the program's link.
  for (const auto &[name, definition] : needs.names()) {
    GlobalValue *value = module.getNamedValue(name);
    if (!value || value->isDeclaration())
      throw Failure(LLVMPLUG_ERROR_LINK, "'" + name.str() +
                                             "' is needed and defined in a link module, "
                                             "but the linker did not link it");
  }
  for (const Function &function : module)
    if (function.isDeclaration() && !function.use_empty() && dropped.contains(function.getName()))
      throw Failure(LLVMPLUG_ERROR_LINK, "'" + function.getName().str() +
                                             "' is used and defined in a link module, but was not linked");
  std::string problems;
  raw_string_ostream os(problems);
  if (verifyModuleAndDebugInfo(module, os))
    throw Failure(LLVMPLUG_ERROR_LINK,
                  "the module with its link modules fails the verifier: " + StringRef(problems).trim().str());
}

} // namespace llvmplug
