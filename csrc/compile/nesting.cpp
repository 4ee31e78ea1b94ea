#include "nesting.h"

#include "failure.h"
#include "references.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"

#include <string>
#include <type_traits>

using namespace llvm;

namespace llvmplug {

namespace {

[[noreturn]] void tooDeep(const char *what) {
  throw Failure(LLVMPLUG_ERROR_LIMIT, std::string("the module nests ") + what + " more than " +
                                          std::to_string(MaxNestingDepth) +
                                          " levels deep (llvmplug's limit)");
}

// The depth of the graph below `root` (a leaf is 1), walked iteratively so
// that the walk itself cannot overflow the stack, and memoised across roots
// so the whole module costs one visit per node. A node met again while its
// own walk is in progress (metadata cycles) counts as a leaf: LLVM's own
// recursive walks keep visited sets for exactly those.
class ModuleWalk;

template <class Node> class DepthWalk {
public:
  using ChildrenFn = SmallVector<Node, 4> (*)(ModuleWalk &, Node);
  DepthWalk(ModuleWalk &walk, ChildrenFn children, const char *what)
      : walk_(walk), children_(children), what_(what) {}

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
      stack.push_back(Frame{node, children_(walk_, node)});
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
  ModuleWalk &walk_;
  ChildrenFn children_;
  const char *what_;
  DenseMap<Node, unsigned> done_;
};

// The three depth walks of one module (types, constants, metadata), sharing
// their memos across its parts, over what references.h says refers to what.
// A reference that crosses kinds (a constant's type, the constant inside
// ConstantAsMetadata) starts a walk of its own kind there: each kind's depth
// is bounded on its own.
class ModuleWalk : public ReferenceVisitor {
public:
  void checkGlobals(Module &module) {
    for (StructType *type : module.getIdentifiedStructTypes())
      types.check(type);
    for (GlobalValue &global : module.global_values())
      if (!isa<Function>(global))
        visitReferences(global, *this);
    for (NamedMDNode &named : module.named_metadata())
      for (MDNode *node : named.operands())
        metadata(node);
  }

  void checkFunction(Function &function) { visitReferences(function, *this); }

  void type(Type *type) override { types.check(type); }
  void value(Value *v) override {
    types.check(v->getType());
    if (auto *constant = dyn_cast<Constant>(v))
      constants.check(constant);
    if (auto *wrapped = dyn_cast<MetadataAsValue>(v))
      metadata(wrapped->getMetadata());
  }
  void metadata(Metadata *md) override { nodes.check(md); }

private:
  // The children of one kind; references of another kind are checked as
  // roots of their own walk (value() above).
  template <class Node> struct Children : ReferenceVisitor {
    ModuleWalk &walk;
    SmallVector<Node *, 4> found;
    explicit Children(ModuleWalk &walk) : walk(walk) {}
    void type(Type *type) override { walk.type(type); }
    void value(Value *v) override {
      if constexpr (std::is_same_v<Node, Constant>)
        if (auto *constant = dyn_cast<Constant>(v))
          return found.push_back(constant);
      if (!isa<BasicBlock>(v)) // a blockaddress's block: its function is the root
        walk.value(v);
    }
    void metadata(Metadata *md) override {
      if constexpr (std::is_same_v<Node, Metadata>)
        found.push_back(md);
      else
        walk.metadata(md);
    }
  };
  static SmallVector<Type *, 4> typeChildren(ModuleWalk &, Type *type) {
    return SmallVector<Type *, 4>(type->subtypes());
  }
  static SmallVector<Constant *, 4> constantChildren(ModuleWalk &walk, Constant *constant) {
    walk.types.check(constant->getType());
    Children<Constant> children(walk);
    visitOperands(constant, children);
    return std::move(children.found);
  }
  static SmallVector<Metadata *, 4> metadataChildren(ModuleWalk &walk, Metadata *md) {
    Children<Metadata> children(walk);
    visitOperands(md, children);
    return std::move(children.found);
  }

  DepthWalk<Type *> types{*this, &typeChildren, "types"};
  DepthWalk<Constant *> constants{*this, &constantChildren, "constant expressions or aggregates"};
  DepthWalk<Metadata *> nodes{*this, &metadataChildren, "metadata"};
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
