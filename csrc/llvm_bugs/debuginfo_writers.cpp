#include "debuginfo_writers.h"

#include "references.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/BinaryFormat/Dwarf.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/GlobalValue.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <initializer_list>
#include <optional>
#include <vector>

using namespace llvm;

namespace llvmplug {

namespace {

// Every metadata node the module refers to, each once, without recursion.
class MetadataCollector : public ReferenceVisitor {
public:
  explicit MetadataCollector(Module &module) {
    for (NamedMDNode &named : module.named_metadata())
      for (MDNode *node : named.operands())
        metadata(node);
    for (GlobalValue &global : module.global_values())
      visitReferences(global, *this);
    while (!pending_.empty())
      visitOperands(pending_.pop_back_val(), *this);
  }
  void metadata(Metadata *md) override {
    if (isa<MDNode>(md) && seen_.insert(md).second) {
      nodes_.push_back(cast<MDNode>(md));
      pending_.push_back(md);
    }
  }
  void value(Value *value) override {
    if (auto *wrapped = dyn_cast<MetadataAsValue>(value))
      metadata(wrapped->getMetadata());
  }
  const std::vector<const MDNode *> &nodes() const { return nodes_; }

private:
  SmallPtrSet<const Metadata *, 32> seen_;
  SmallVector<Metadata *, 64> pending_;
  std::vector<const MDNode *> nodes_;
};

// A problem: what the writer assumes, and the node that breaks it.
struct Problem {
  const char *what;
  const Metadata *node;
};

// DwarfUnit::addAnnotation: cast<MDNode> of each operand of the list,
// cast<MDString> of its operand 0, operand 1 read without a size check, and
// as the value an MDString or a constant's getUniqueInteger (which assumes an
// integer). BTFDebug (BPF): cast<MDString> of the value of btf_decl_tag and
// btf_type_tag. clang emits !{!"btf_decl_tag", !"x"} and !{!"btf_type_tag", !"x"}.
bool annotationsValid(const Metadata *raw) {
  if (!raw)
    return true;
  const auto *list = dyn_cast<MDTuple>(raw);
  if (!list)
    return false;
  for (const MDOperand &operand : list->operands()) {
    const auto *annotation = dyn_cast_or_null<MDNode>(operand.get());
    if (!annotation || annotation->getNumOperands() < 2)
      return false;
    const auto *name = dyn_cast_or_null<MDString>(annotation->getOperand(0).get());
    const Metadata *value = annotation->getOperand(1).get();
    if (!name || !value)
      return false;
    bool btf = name->getString() == "btf_decl_tag" || name->getString() == "btf_type_tag";
    if (!isa<MDString>(value) && (btf || !mdconst::hasa<ConstantInt>(value)))
      return false;
  }
  return true;
}

const char *const InvalidAnnotations =
    "invalid annotations: each must be !{!\"name\", a string or an integer} "
    "(DwarfUnit::addAnnotation), a string for btf_decl_tag and btf_type_tag (BTF)";

// DISubrange's and DISubrangeType's bound accessors: cast<ConstantInt> of a
// constant bound. (The verifier checks a bound's kind, not the constant's.)
bool boundValid(const Metadata *bound) {
  const auto *constant = dyn_cast_or_null<ConstantAsMetadata>(bound);
  return !constant || isa<ConstantInt>(constant->getValue());
}

// DwarfUnit::addTemplateParams: dyn_cast of each operand, which must not be
// null. (The verifier checks this for composite types and subprograms, not
// for global variables and template aliases.)
bool templateParamsValid(const Metadata *raw) {
  if (!raw)
    return true;
  const auto *list = dyn_cast<MDTuple>(raw);
  return list && all_of(list->operands(), [](const MDOperand &operand) {
           return isa_and_nonnull<DITemplateParameter>(operand.get());
         });
}

// `type` with derived types of the `tags` looked through, as CodeViewDebug's
// loops do (Ty->getTag() on each base, no null check): null for a chain that
// ends in void, or a cycle (which those loops never leave).
const Metadata *through(const Metadata *type, std::initializer_list<unsigned> tags) {
  SmallPtrSet<const Metadata *, 4> seen;
  while (const auto *derived = dyn_cast_or_null<DIDerivedType>(type)) {
    if (!is_contained(tags, derived->getTag()))
      break;
    if (!seen.insert(derived).second)
      return nullptr;
    type = derived->getRawBaseType();
  }
  return type;
}

std::optional<Problem> derivedType(const DIDerivedType &type, bool codeView) {
  if (!annotationsValid(type.getRawAnnotations()))
    return Problem{InvalidAnnotations, &type};
  switch (type.getTag()) {
  case dwarf::DW_TAG_ptr_to_member_type:
    // DwarfUnit::constructTypeDIE dereferences the class's DIE;
    // CodeViewDebug::lowerTypeMemberPointer reads the base type.
    if (!type.getRawExtraData())
      return Problem{"pointer to member type without a class (extraData)", &type};
    if (codeView && !type.getRawBaseType())
      return Problem{"pointer to member type without a base type (CodeView)", &type};
    break;
  case dwarf::DW_TAG_member:
    // CodeViewDebug::collectMemberInfo: an unnamed member's base type, const
    // and volatile looked through.
    if (codeView && type.getName().empty() &&
        !through(type.getRawBaseType(), {dwarf::DW_TAG_const_type, dwarf::DW_TAG_volatile_type}))
      return Problem{"unnamed member without a base type (CodeView)", &type};
    break;
  case dwarf::DW_TAG_template_alias:
    if (!templateParamsValid(type.getRawExtraData()))
      return Problem{"template alias parameters (extraData) must be a list of template parameters", &type};
    break;
  case dwarf::DW_TAG_friend:
    // DwarfUnit::constructTypeDIE: addType of the friend's base type.
    if (!type.getRawBaseType())
      return Problem{"friend without a base type", &type};
    break;
  default:
    break;
  }
  // DwarfUnit::getOrCreateStaticMemberDIE: addType of the base type.
  if (type.isStaticMember() && !type.getRawBaseType())
    return Problem{"static member without a base type", &type};
  return std::nullopt;
}

std::optional<Problem> compositeType(const DICompositeType &type, bool codeView) {
  if (!annotationsValid(type.getRawAnnotations()))
    return Problem{InvalidAnnotations, &type};
  // DwarfUnit::constructTypeDIE: getOrCreateContextDIE(cast_or_null<DIType>).
  if (type.getRawSpecification() && !isa<DIType>(type.getRawSpecification()))
    return Problem{"composite type specification must be a type", &type};
  // hasVectorBeenPadded: cast<DISubrange>, then cast<ConstantInt *> of its count.
  if (type.isVector()) {
    const auto *elements = dyn_cast_or_null<MDTuple>(type.getRawElements());
    const auto *subrange = elements && elements->getNumOperands() == 1
                               ? dyn_cast_or_null<DISubrange>(elements->getOperand(0))
                               : nullptr;
    const Metadata *count = subrange ? subrange->getRawCountNode() : nullptr;
    if (!subrange || (count && !mdconst::hasa<ConstantInt>(count)))
      return Problem{"vector type must have one subrange with an integer count (hasVectorBeenPadded)", &type};
  }
  // CodeViewDebug::lowerTypeArray: cast<DISubrange> of every element.
  if (codeView && type.getTag() == dwarf::DW_TAG_array_type)
    if (const auto *elements = dyn_cast_or_null<MDTuple>(type.getRawElements()))
      if (!all_of(elements->operands(),
                  [](const MDOperand &e) { return isa_and_nonnull<DISubrange>(e.get()); }))
        return Problem{"array type elements must be subranges (CodeView)", &type};
  // DwarfUnit::constructTypeDIE: DD->isUnsignedDIType of the discriminator's base type.
  if (const auto *discriminator = dyn_cast_or_null<DIDerivedType>(type.getRawDiscriminator()))
    if (!discriminator->getRawBaseType())
      return Problem{"variant part discriminator without a base type", &type};
  return std::nullopt;
}

// DwarfUnit::constructTypeDIE(DIStringType): cast_or_null to DIVariable and
// DIExpression, then read as such.
std::optional<Problem> stringType(const DIStringType &type) {
  const Metadata *length = type.getRawStringLength();
  const Metadata *lengthExpression = type.getRawStringLengthExp();
  const Metadata *location = type.getRawStringLocationExp();
  if ((length && !isa<DIVariable>(length)) || (lengthExpression && !isa<DIExpression>(lengthExpression)) ||
      (location && !isa<DIExpression>(location)))
    return Problem{"string type stringLength must be a variable, stringLengthExpression and "
                   "stringLocationExpression expressions",
                   &type};
  return std::nullopt;
}

// DwarfUnit::constructTemplateValueParameterDIE: addType of the type for a
// value parameter and for an integer value (isUnsignedDIType); otherwise
// cast<MDString> of a template template parameter's value and cast<MDTuple>
// of a parameter pack's.
std::optional<Problem> templateValueParameter(const DITemplateValueParameter &parameter) {
  const Metadata *value = parameter.getValue();
  bool integer = value && mdconst::hasa<ConstantInt>(value);
  if (!parameter.getRawType() && (integer || parameter.getTag() == dwarf::DW_TAG_template_value_parameter))
    return Problem{"template value parameter without a type", &parameter};
  if (!value || integer || mdconst::hasa<GlobalValue>(value))
    return std::nullopt;
  if (parameter.getTag() == dwarf::DW_TAG_GNU_template_template_param && !isa<MDString>(value))
    return Problem{"template template parameter value must be a string", &parameter};
  if (parameter.getTag() == dwarf::DW_TAG_GNU_template_parameter_pack && !templateParamsValid(value))
    return Problem{"template parameter pack value must be a list of template parameters", &parameter};
  return std::nullopt;
}

// DwarfCompileUnit::constructImportedEntityDIE makes the DIE of a namespace,
// module, subprogram, type or global variable; for anything else it takes a
// DIE that may not exist and dereferences it. Its elements are cast<DIImportedEntity>.
std::optional<Problem> importedEntity(const DIImportedEntity &imported) {
  const Metadata *entity = imported.getRawEntity();
  if (!isa_and_nonnull<DINamespace, DIModule, DISubprogram, DIType, DIGlobalVariable>(entity))
    return Problem{"imported entity must be a namespace, module, subprogram, type or global variable",
                   &imported};
  if (const Metadata *raw = imported.getRawElements()) {
    const auto *elements = dyn_cast<MDTuple>(raw);
    if (!elements || !all_of(elements->operands(), [](const MDOperand &operand) {
          return !operand.get() || isa<DIImportedEntity>(operand.get());
        }))
      return Problem{"imported entity elements must be imported entities", &imported};
  }
  return std::nullopt;
}

std::optional<Problem> variable(const DIVariable &variable, const Metadata *annotations, bool codeView) {
  if (!annotationsValid(annotations))
    return Problem{InvalidAnnotations, &variable};
  // DwarfCompileUnit::applyCommonDbgVariableAttributes: addType of the type.
  if (!variable.getRawType())
    return Problem{"variable without a type", &variable};
  // CodeViewDebug::getCompleteTypeIndex: the type with typedefs looked through.
  if (codeView && !through(variable.getRawType(), {dwarf::DW_TAG_typedef}))
    return Problem{"variable of a typedef of void (CodeView)", &variable};
  return std::nullopt;
}

std::optional<Problem> node(const MDNode &node, bool codeView) {
  if (const auto *type = dyn_cast<DIDerivedType>(&node))
    return derivedType(*type, codeView);
  if (const auto *type = dyn_cast<DICompositeType>(&node))
    return compositeType(*type, codeView);
  if (const auto *type = dyn_cast<DIStringType>(&node))
    return stringType(*type);
  if (const auto *parameter = dyn_cast<DITemplateValueParameter>(&node))
    return templateValueParameter(*parameter);
  if (const auto *imported = dyn_cast<DIImportedEntity>(&node))
    return importedEntity(*imported);
  if (const auto *local = dyn_cast<DILocalVariable>(&node))
    return variable(*local, local->getRawAnnotations(), codeView);
  if (const auto *global = dyn_cast<DIGlobalVariable>(&node)) {
    if (!templateParamsValid(global->getRawTemplateParams()))
      return Problem{"global variable template parameters must be a list of template parameters", global};
    return variable(*global, global->getRawAnnotations(), codeView);
  }
  if (const auto *subrange = dyn_cast<DISubrange>(&node))
    if (!boundValid(subrange->getRawCountNode()) || !boundValid(subrange->getRawLowerBound()) ||
        !boundValid(subrange->getRawUpperBound()) || !boundValid(subrange->getRawStride()))
      return Problem{"subrange constant bounds must be integers", subrange};
  if (const auto *subrange = dyn_cast<DISubrangeType>(&node))
    if (!boundValid(subrange->getRawLowerBound()) || !boundValid(subrange->getRawUpperBound()) ||
        !boundValid(subrange->getRawStride()) || !boundValid(subrange->getRawBias()))
      return Problem{"subrange type constant bounds must be integers", subrange};
  if (const auto *subprogram = dyn_cast<DISubprogram>(&node))
    if (!annotationsValid(subprogram->getRawAnnotations()))
      return Problem{InvalidAnnotations, subprogram};
  return std::nullopt;
}

// The variables a local variable's DIE must follow, as DwarfCompileUnit's
// dependencies(): those an array type's bounds, data location, associated
// and allocated refer to.
SmallVector<const DIVariable *, 4> dependencies(const DILocalVariable &variable) {
  SmallVector<const DIVariable *, 4> result;
  const auto *array = dyn_cast_or_null<DICompositeType>(variable.getRawType());
  if (!array || array->getTag() != dwarf::DW_TAG_array_type)
    return result;
  auto add = [&](const Metadata *raw) {
    if (const auto *dependency = dyn_cast_or_null<DIVariable>(raw))
      result.push_back(dependency);
  };
  add(array->getRawDataLocation());
  add(array->getRawAssociated());
  add(array->getRawAllocated());
  if (const auto *elements = dyn_cast_or_null<MDTuple>(array->getRawElements()))
    for (const MDOperand &element : elements->operands()) {
      if (const auto *subrange = dyn_cast_or_null<DISubrange>(element.get())) {
        add(subrange->getRawCountNode());
        add(subrange->getRawLowerBound());
        add(subrange->getRawUpperBound());
        add(subrange->getRawStride());
      } else if (const auto *generic = dyn_cast_or_null<DIGenericSubrange>(element.get())) {
        add(generic->getRawCountNode());
        add(generic->getRawLowerBound());
        add(generic->getRawUpperBound());
        add(generic->getRawStride());
      }
    }
  return result;
}

// DwarfDebug's sortLocalVars gives up on a dependency cycle ("dependency
// cycle in local variables", an assertion) and leaves the variables in it
// without a parent DIE: DwarfDebug::finishEntityDefinitions segfaults. A
// cycle is looked for among all local variables (an iterative depth-first
// search); one that crosses scopes is as meaningless.
const DILocalVariable *dependencyCycle(const std::vector<const MDNode *> &nodes) {
  enum State { Unseen, Open, Done };
  DenseMap<const DILocalVariable *, State> state;
  for (const MDNode *node : nodes) {
    const auto *root = dyn_cast<DILocalVariable>(node);
    if (!root || state.lookup(root) != Unseen)
      continue;
    SmallVector<std::pair<const DILocalVariable *, SmallVector<const DIVariable *, 4>>, 8> stack;
    state[root] = Open;
    stack.push_back({root, dependencies(*root)});
    while (!stack.empty()) {
      auto &[current, next] = stack.back();
      if (next.empty()) {
        state[current] = Done;
        stack.pop_back();
        continue;
      }
      const auto *dependency = dyn_cast<DILocalVariable>(next.pop_back_val());
      if (!dependency)
        continue;
      State seen = state.lookup(dependency);
      if (seen == Open)
        return dependency;
      if (seen == Unseen) {
        state[dependency] = Open;
        stack.push_back({dependency, dependencies(*dependency)});
      }
    }
  }
  return nullptr;
}

// PromoteMem2Reg (mem2reg, SROA, and so every optimising pipeline) deletes
// the dbg_assign records linked to a promoted alloca and again those linked
// to its stores: a DIAssignID attached to the alloca and to another
// instruction erases the same record twice (SIGSEGV in
// DbgRecord::eraseFromParent). Not a writer's assumption but the same kind:
// assignment-tracking metadata the verifier passes and a pass reads
// unchecked. clang gives an alloca an ID of its own.
const DIAssignID *sharedAllocaAssignID(const Module &module) {
  for (const Function &function : module) {
    DenseMap<const MDNode *, std::pair<bool, unsigned>> uses; // ID: (on an alloca, instructions)
    for (const BasicBlock &block : function)
      for (const Instruction &instruction : block)
        if (const MDNode *id = instruction.getMetadata(LLVMContext::MD_DIAssignID)) {
          auto &[onAlloca, count] = uses[id];
          onAlloca |= isa<AllocaInst>(instruction);
          ++count;
        }
    for (const auto &[id, use] : uses)
      if (use.first && use.second > 1)
        if (const auto *assignID = dyn_cast<DIAssignID>(id)) // else the verifier refuses it
          return assignID;
  }
  return nullptr;
}

} // namespace

bool brokenForDebugInfoWriters(Module &module, raw_ostream &os) {
  MetadataCollector collected(module);
  // CodeViewDebug is AsmPrinter's writer when the module asks for it (and the
  // target is Windows): its assumptions count only then.
  bool codeView = module.getCodeViewFlag();
  std::optional<Problem> problem;
  for (const MDNode *each : collected.nodes())
    if ((problem = node(*each, codeView)))
      break;
  if (!problem)
    if (const DILocalVariable *cyclic = dependencyCycle(collected.nodes()))
      problem = Problem{"dependency cycle in local variables (array bounds or locations)", cyclic};
  if (!problem)
    if (const DIAssignID *shared = sharedAllocaAssignID(module))
      problem = Problem{"DIAssignID attached to an alloca and to another instruction", shared};
  if (!problem)
    return false;
  // The node is named, not printed: the printer reads it with the same
  // unchecked casts (a DISubrange's bounds) and can crash on it.
  os << problem->what << ": ";
  problem->node->printAsOperand(os, &module);
  os << '\n';
  return true;
}

bool verifyModuleAndDebugInfo(Module &module, raw_ostream &os, bool *brokenDebugInfo) {
  // Before the verifier, which reads some of these fields with the same
  // casts (a subrange's constant count: Verifier::visitDISubrange) and
  // crashes on them too. The checks read raw operands only, so an
  // unverified module is safe to walk; debug info they reject is stripped
  // before the verifier sees the rest (debuginfo.cpp), or the module refused.
  if (brokenForDebugInfoWriters(module, os)) {
    if (!brokenDebugInfo)
      return true;
    *brokenDebugInfo = true;
    return false;
  }
  return verifyModule(module, &os, brokenDebugInfo);
}

} // namespace llvmplug
