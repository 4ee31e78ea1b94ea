// references.h: what an IR object refers to, walked one way for every check.
//
// Why: the nesting limit (nesting.cpp), linking (link.cpp) and splitting
// (split.cpp) all need "everything a function or global refers to": the
// types, constants and metadata LLVM will recurse through, the globals a
// needed definition brings in, the globals a part must copy or reach. Each
// had its own walk, and they drifted: the nesting limit missed metadata
// reached only through debug records (#dbg_value), so a chain of 100,000
// types hanging off a record's variable crashed the code generator (SIGSEGV)
// past the limit. Here is the one list of what refers to what.
//
// How: the visitors are told about direct references only; a check that
// goes deeper asks for the operands of what it was told about, in its own
// order and with its own memo (the nesting limit measures depth, linking
// collects globals), so the walk itself never recurses.
#ifndef LLVMPLUG_REFERENCES_H
#define LLVMPLUG_REFERENCES_H

namespace llvm {
class Constant;
class GlobalValue;
class Metadata;
class Type;
class Value;
} // namespace llvm

namespace llvmplug {

class ReferenceVisitor {
public:
  virtual ~ReferenceVisitor() = default;
  virtual void type(llvm::Type *) {}
  // Operands: constants (globals included), arguments, instructions,
  // basic blocks, inline asm, MetadataAsValue.
  virtual void value(llvm::Value *) {}
  // Metadata nodes, ValueAsMetadata, DIArgList: never null.
  virtual void metadata(llvm::Metadata *) {}
};

// What a global refers to itself:
// - a function: its type, attachments, personality, prefix and prologue data,
//   and for each instruction of its body (if materialised) its type, the
//   types it names (alloca, GEP, call), its operands, its attachments (!dbg
//   included) and its debug records (#dbg_value, #dbg_declare, #dbg_assign:
//   variable, expression, location, address, assign id, DILocation;
//   #dbg_label: label, DILocation);
// - a global variable: its value type, initializer and attachments;
// - an alias or ifunc: its value type and aliasee or resolver.
void visitReferences(llvm::GlobalValue &global, ReferenceVisitor &visit);

// The direct operands of a constant (a global is a leaf: what its definition
// refers to is visitReferences'), as values.
void visitOperands(llvm::Constant *constant, ReferenceVisitor &visit);

// The direct operands of metadata: a node's operands and a DIArgList's
// arguments, as metadata; the value a ValueAsMetadata wraps, as a value.
void visitOperands(llvm::Metadata *metadata, ReferenceVisitor &visit);

} // namespace llvmplug

#endif
