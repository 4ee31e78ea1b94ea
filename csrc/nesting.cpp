#include "nesting.h"

#include "failure.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <string>

using namespace llvm;

namespace llvmplug {

namespace {

[[noreturn]] void tooDeep(const char *what) {
  throw Failure(LLVMPLUG_ERROR_LIMIT,
                std::string("the module nests ") + what + " more than " +
                    std::to_string(MaxNestingDepth) + " levels deep (llvmplug's limit)");
}

// The depth of the graph below `root` (a leaf is 1), walked iteratively so
// that the walk itself cannot overflow the stack, and memoised across roots
// so the whole module costs one visit per node. A node met again while its
// own walk is in progress (metadata cycles) counts as a leaf: LLVM's own
// recursive walks keep visited sets for exactly those.
template <class Node, class ChildrenFn>
class DepthWalk {
public:
  DepthWalk(ChildrenFn children, const char *what) : children_(children), what_(what) {}

  void check(Node root) {
    if (done_.count(root))
      return;
    struct Frame {
      Node node;
      SmallVector<Node, 4> children;
      size_t next = 0;
      unsigned deepest = 0;
    };
    SmallVector<Frame, 64> stack;
    auto push = [&](Node node) {
      done_[node] = 0; // in progress
      stack.push_back(Frame{node, children_(node)});
      if (stack.size() > MaxNestingDepth)
        tooDeep(what_);
    };
    push(root);
    while (!stack.empty()) {
      Frame &top = stack.back();
      if (top.next < top.children.size()) {
        Node child = top.children[top.next++];
        auto found = done_.find(child);
        if (found != done_.end())
          top.deepest = std::max(top.deepest, found->second);
        else
          push(child);
        continue;
      }
      unsigned depth = top.deepest + 1;
      done_[top.node] = depth;
      stack.pop_back();
      if (!stack.empty())
        stack.back().deepest = std::max(stack.back().deepest, depth);
    }
  }

private:
  ChildrenFn children_;
  const char *what_;
  DenseMap<Node, unsigned> done_;
};


// The three walks of one module, sharing their memos across its parts.
class ModuleWalk {
public:
  void checkGlobals(Module &module) {
    for (StructType *type : module.getIdentifiedStructTypes())
      types.check(type);
    for (GlobalVariable &global : module.globals()) {
      types.check(global.getValueType());
      if (global.hasInitializer())
        value(global.getInitializer());
      attachedTo(global);
    }
    for (GlobalAlias &alias : module.aliases())
      value(alias.getAliasee());
    for (NamedMDNode &named : module.named_metadata())
      for (MDNode *node : named.operands())
        metadata.check(node);
  }

  void checkFunction(Function &function) {
    types.check(function.getFunctionType());
    attachedTo(function);
    if (function.hasPersonalityFn())
      value(function.getPersonalityFn());
    if (function.hasPrefixData())
      value(function.getPrefixData());
    if (function.hasPrologueData())
      value(function.getPrologueData());
    for (Instruction &instruction : instructions(function)) {
      types.check(instruction.getType());
      if (auto *alloca = dyn_cast<AllocaInst>(&instruction))
        types.check(alloca->getAllocatedType());
      if (auto *gep = dyn_cast<GetElementPtrInst>(&instruction))
        types.check(gep->getSourceElementType());
      for (Value *operand : instruction.operands())
        value(operand);
      attachedTo(instruction);
    }
  }

private:
  template <class T> void attachedTo(T &holder) {
    holder.getAllMetadata(attached);
    for (auto &[kind, node] : attached)
      metadata.check(node);
  }
  void value(Value *v) {
    types.check(v->getType());
    if (auto *constant = dyn_cast<Constant>(v))
      constants.check(constant);
    if (auto *wrapped = dyn_cast<MetadataAsValue>(v))
      metadata.check(wrapped->getMetadata());
  }
  static SmallVector<Type *, 4> typeChildren(Type *type) { return SmallVector<Type *, 4>(type->subtypes()); }
  static SmallVector<Constant *, 4> constantChildren(Constant *constant) {
    SmallVector<Constant *, 4> children;
    if (!isa<GlobalValue>(constant)) // a global is a leaf, its initializer a root
      for (Value *operand : constant->operands())
        children.push_back(cast<Constant>(operand));
    return children;
  }
  static SmallVector<Metadata *, 4> metadataChildren(Metadata *md) {
    SmallVector<Metadata *, 4> children;
    if (auto *node = dyn_cast<MDNode>(md))
      for (const MDOperand &operand : node->operands())
        if (operand)
          children.push_back(operand.get());
    return children;
  }

  DepthWalk<Type *, decltype(&typeChildren)> types{&typeChildren, "types"};
  DepthWalk<Constant *, decltype(&constantChildren)> constants{&constantChildren,
                                                               "constant expressions or aggregates"};
  DepthWalk<Metadata *, decltype(&metadataChildren)> metadata{&metadataChildren, "metadata"};
  SmallVector<std::pair<unsigned, MDNode *>, 8> attached;
};

} // namespace

// Bracket depth of IR text, outside quoted strings and ';' comments. IR
// strings have no escaped quote (a quote is written \22), so a string ends
// at the next '"'.
void checkTextNesting(StringRef text) {
  unsigned depth = 0;
  for (size_t i = 0, n = text.size(); i < n; ++i) {
    char c = text[i];
    if (c == '"') {
      size_t end = text.find('"', i + 1);
      i = end == StringRef::npos ? n : end;
    } else if (c == ';') {
      size_t end = text.find('\n', i + 1);
      i = end == StringRef::npos ? n : end;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > MaxNestingDepth)
        tooDeep("brackets");
    } else if ((c == ')' || c == ']' || c == '}' || c == '>') && depth) {
      --depth;
    }
  }
}

void checkModuleDepth(Module &module) {
  ModuleWalk walk;
  walk.checkGlobals(module);
  for (Function &function : module)
    if (!function.isMaterializable())
      walk.checkFunction(function);
}

void checkFunctionDepth(Function &function) { ModuleWalk().checkFunction(function); }

} // namespace llvmplug
