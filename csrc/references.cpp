#include "references.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DebugProgramInstruction.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/GlobalAlias.h"
#include "llvm/IR/GlobalIFunc.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"

using namespace llvm;

namespace llvmplug {

namespace {

void metadata(Metadata *md, ReferenceVisitor &visit) {
  if (md)
    visit.metadata(md);
}

template <class T> void attachments(T &holder, ReferenceVisitor &visit) {
  SmallVector<std::pair<unsigned, MDNode *>, 8> attached;
  holder.getAllMetadata(attached); // !dbg of an instruction included
  for (auto &[kind, node] : attached)
    metadata(node, visit);
}

// A debug record is not an instruction and has no operands: what it refers
// to is only here (the walk that missed it was the nesting limit's).
void record(DbgRecord &record, ReferenceVisitor &visit) {
  metadata(record.getDebugLoc().getAsMDNode(), visit);
  if (auto *variable = dyn_cast<DbgVariableRecord>(&record)) {
    metadata(variable->getRawVariable(), visit);
    metadata(variable->getRawExpression(), visit);
    metadata(variable->getRawLocation(), visit);
    if (variable->isDbgAssign()) {
      metadata(variable->getRawAddress(), visit);
      metadata(variable->getRawAssignID(), visit);
      metadata(variable->getRawAddressExpression(), visit);
    }
  } else if (auto *label = dyn_cast<DbgLabelRecord>(&record)) {
    metadata(label->getRawLabel(), visit);
  }
}

void body(Function &function, ReferenceVisitor &visit) {
  visit.type(function.getFunctionType());
  attachments(function, visit);
  if (function.hasPersonalityFn())
    visit.value(function.getPersonalityFn());
  if (function.hasPrefixData())
    visit.value(function.getPrefixData());
  if (function.hasPrologueData())
    visit.value(function.getPrologueData());
  for (Instruction &instruction : instructions(function)) {
    visit.type(instruction.getType());
    if (auto *alloca = dyn_cast<AllocaInst>(&instruction))
      visit.type(alloca->getAllocatedType());
    else if (auto *gep = dyn_cast<GetElementPtrInst>(&instruction))
      visit.type(gep->getSourceElementType());
    else if (auto *call = dyn_cast<CallBase>(&instruction))
      visit.type(call->getFunctionType());
    for (Value *operand : instruction.operands())
      if (operand)
        visit.value(operand);
    attachments(instruction, visit);
    for (DbgRecord &each : instruction.getDbgRecordRange())
      record(each, visit);
  }
}

} // namespace

void visitReferences(GlobalValue &global, ReferenceVisitor &visit) {
  if (auto *function = dyn_cast<Function>(&global))
    return body(*function, visit);
  visit.type(global.getValueType());
  if (auto *variable = dyn_cast<GlobalVariable>(&global)) {
    if (variable->hasInitializer())
      visit.value(variable->getInitializer());
    attachments(*variable, visit);
  } else if (auto *alias = dyn_cast<GlobalAlias>(&global)) {
    if (Constant *aliasee = alias->getAliasee())
      visit.value(aliasee);
  } else if (auto *ifunc = dyn_cast<GlobalIFunc>(&global)) {
    if (Constant *resolver = ifunc->getResolver())
      visit.value(resolver);
  }
}

void visitOperands(Constant *constant, ReferenceVisitor &visit) {
  if (isa<GlobalValue>(constant))
    return;
  for (Value *operand : constant->operands())
    visit.value(operand);
}

void visitOperands(Metadata *md, ReferenceVisitor &visit) {
  if (auto *node = dyn_cast<MDNode>(md)) {
    for (const MDOperand &operand : node->operands())
      metadata(operand.get(), visit);
  } else if (auto *list = dyn_cast<DIArgList>(md)) {
    for (ValueAsMetadata *argument : list->getArgs())
      metadata(argument, visit);
  } else if (auto *wrapped = dyn_cast<ValueAsMetadata>(md)) {
    visit.value(wrapped->getValue());
  }
}

} // namespace llvmplug
