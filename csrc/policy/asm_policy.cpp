#include "asm_policy.h"

#include "asm_directives.h"
#include "asm_statements.h"
#include "asm_text.h"
#include "failure.h"
#include "messages.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Mangler.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/MCAsmInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Target/TargetMachine.h"

#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace llvmplug {

namespace {

[[noreturn]] void beyond(const std::string &where, const std::string &what) {
  throw Failure(LLVMPLUG_ERROR_LIMIT, where + ": " + what + " (llvmplug's limit under the safe policy)");
}

bool plainName(StringRef name) {
  return name.empty() ||
         (!isDigit(name.front()) && all_of(name, [](char c) { return isAlnum(c) || c == '_' || c == '$'; }));
}

// Operands AsmPrinter prints by name: globals, also inside constant
// expressions. A name that is not a plain identifier could carry a '.', a
// newline or a quote into the text MC reads (some targets print names
// unquoted).
void checkSymbolOperands(const CallBase &call, const std::string &where) {
  SmallVector<const Constant *, 8> work;
  SmallPtrSet<const Constant *, 8> seen;
  for (const Value *argument : call.args())
    if (auto *constant = dyn_cast<Constant>(argument))
      work.push_back(constant);
  while (!work.empty()) {
    const Constant *constant = work.pop_back_val();
    if (!seen.insert(constant).second)
      continue;
    if (auto *global = dyn_cast<GlobalValue>(constant)) {
      if (!plainName(global->getName()))
        refuseAsm(where, "an inline asm operand naming '" + global->getName().str() +
                             "' (a symbol name that is not a plain identifier is printed into the asm text)");
      continue;
    }
    for (const Value *operand : constant->operands())
      work.push_back(cast<Constant>(operand));
  }
}

// The object formats whose streamers crash on ordinary statements, or whose
// syntax (z/OS HLASM) the reader does not model.
const char *fragileFormat(const Triple &triple) {
  if (triple.isOSBinFormatWasm())
    return "WebAssembly";
  if (triple.isOSBinFormatXCOFF())
    return "XCOFF (AIX)";
  if (triple.isOSBinFormatGOFF())
    return "GOFF (z/OS)";
  return nullptr;
}

// One module's assembler texts (module asm, then each distinct inline asm
// in the order first met), read, then checked together: symbols defined in
// one text are visible to all, since MC assembles them into one context.
class Checker {
public:
  Checker(const Module &module, const AsmRules &rules, bool masmModuleAsm)
      : module(module), machine(*rules.machine), masmModuleAsm(masmModuleAsm) {
    const Triple &triple = machine.getTargetTriple();
    target.info = &machine.getMCAsmInfo();
    target.architecture = asmArchitecture(triple);
    target.format = asmFormat(triple);
    target.alignInBytes = target.info->getAlignmentIsInBytes();
    target.machO = triple.isOSBinFormatMachO();
    target.sizeUnit = triple.isAMDGPU() ? 4 : 1; // asm_directives.def: AMDGPU hangs on partial words
    fragile = fragileFormat(triple);
  }

  void moduleAsm() {
    Blob blob{"module asm", 1, {}};
    AsmTarget text = target;
    text.masmIntegers = masmModuleAsm;
    for (const Module::GlobalAsmFragment &fragment : module.getModuleInlineAsm()) {
      if (fragile) {
        refuseStatements(fragment.Asm, blob.where);
        continue;
      }
      AsmFacts facts = readAsmText(fragment.Asm, text, blob.where);
      append(blob.facts, std::move(facts));
    }
    blobs.push_back(std::move(blob));
    moduleBlobs = 1;
  }

  void function(const Function &function) {
    for (const Instruction &instruction : instructions(function)) {
      auto *call = dyn_cast<CallBase>(&instruction);
      if (!call || !call->isInlineAsm())
        continue;
      auto *code = cast<InlineAsm>(call->getCalledOperand());
      std::string where = "inline asm in function '" + function.getName().str() + "'";
      auto [found, fresh] = index.try_emplace(code, blobs.size());
      if (fresh) {
        if (code->getDialect() == InlineAsm::AD_Intel && !machine.getTargetTriple().isX86())
          refuseAsm(where, "Intel-dialect inline asm for a target that is not x86");
        std::string text = inlineAsmText(*code, machine, module.getDataLayout(), where);
        AsmTarget dialect = target;
        // AsmPrinter::emitInlineAsm lexes Intel inline asm with MASM integers (10h, 1010b).
        dialect.masmIntegers = code->getDialect() == InlineAsm::AD_Intel;
        Blob blob{where, 0, {}};
        if (fragile)
          refuseStatements(text, where);
        else
          blob.facts = readAsmText(text, dialect, where);
        blob.operands = StringRef(text).contains(AsmOperand);
        blobs.push_back(std::move(blob));
      }
      Blob &blob = blobs[found->second];
      blob.copies = SaturatingAdd<std::uint64_t>(blob.copies, 1);
      if (blob.operands)
        checkSymbolOperands(*call, where);
    }
  }

  // The checks across texts: symbol definitions, expressions with the
  // symbols they use expanded, and the totals.
  void finish() {
    defineSymbols();
    std::uint64_t expansion = 0, evaluation = 0;
    for (const Blob &blob : blobs) {
      expansion = SaturatingAdd(expansion, SaturatingMultiply(blob.facts.expansion, blob.copies));
      if (expansion > MaxAsmExpansion)
        beyond(blob.where, "the module's assembler text may expand to more than " +
                               std::to_string(MaxAsmExpansion >> 20) +
                               " MiB (.rept repetitions, fill and alignment padding, every inline asm call "
                               "counted)");
      for (const AsmFacts::Use &use : blob.facts.uses) {
        std::uint64_t terms = expanded(use.expression, blob.where);
        evaluation =
            SaturatingAdd(evaluation, SaturatingMultiply(SaturatingMultiply(terms, use.times), blob.copies));
      }
      if (evaluation > MaxAsmEvaluation)
        beyond(blob.where, "MC would evaluate more than " + std::to_string(MaxAsmEvaluation) +
                               " expression terms for the module's assembler text (every use, .rept "
                               "iteration and inline asm call counted)");
    }
  }

private:
  struct Blob {
    std::string where;
    std::uint64_t copies; // inline asm calls of this text (1 for module asm)
    AsmFacts facts;
    bool operands = false;
  };

  struct Symbol {
    size_t blob;
    std::uint64_t terms; // its definition's tokens, the symbols it uses expanded
    unsigned depth;      // 1 + the depth of the deepest symbol it uses
  };

  static void append(AsmFacts &into, AsmFacts from) {
    into.expansion = SaturatingAdd(into.expansion, from.expansion);
    for (AsmDefinition &definition : from.definitions)
      into.definitions.push_back(std::move(definition));
    for (std::string &label : from.labels)
      into.labels.push_back(std::move(label));
    for (AsmFacts::Use &use : from.uses)
      into.uses.push_back(std::move(use));
  }

  void refuseStatements(StringRef text, const std::string &where) const {
    if (!StringRef(text).trim().empty())
      refuseAsm(where, "assembler text on " + std::string(fragile) +
                           " (its streamers crash on ordinary statements such as '.byte x' or '.globl x'; "
                           "only empty asm passes)");
  }

  // The names of the symbols the module itself defines, as MC sees them: a
  // label or variable of the same name in asm text collides with them
  // (AsmPrinter stops with a fatal error on some).
  const StringSet<> &moduleSymbols() {
    if (!irSymbols) {
      irSymbols.emplace();
      Mangler mangler;
      for (const GlobalValue &value : module.global_values()) {
        if (value.isDeclaration() || !value.hasName())
          continue;
        SmallString<64> name;
        mangler.getNameWithPrefix(name, &value, false);
        irSymbols->insert(name);
      }
    }
    return *irSymbols;
  }

  void defineSymbols() {
    StringSet<> variables; // every name a text makes a variable
    size_t count = 0;
    for (const Blob &blob : blobs)
      for (const AsmDefinition &definition : blob.facts.definitions) {
        variables.insert(definition.name);
        if (++count > MaxAsmSymbols)
          beyond(blob.where, "more than " + std::to_string(MaxAsmSymbols) + " assembler symbol definitions");
      }
    for (size_t b = 0; b < blobs.size(); ++b) {
      const Blob &blob = blobs[b];
      for (const std::string &label : blob.facts.labels)
        if (moduleSymbols().contains(label))
          refuseAsm(blob.where, "the asm label '" + label + "': the module defines a symbol of that name");
      for (const AsmDefinition &definition : blob.facts.definitions) {
        const std::string &name = definition.name;
        if (moduleSymbols().contains(name))
          refuseAsm(blob.where, "the asm symbol '" + name + "': the module defines a symbol of that name");
        auto existing = symbols.find(name);
        if (existing != symbols.end())
          refuseAsm(blob.where, "a second definition of the symbol '" + name +
                                    "' (each asm symbol is defined once, so no definition can form a cycle)");
        std::uint64_t terms = definition.value.terms;
        unsigned depth = 0;
        for (const std::string &used : definition.value.names) {
          auto symbol = symbols.find(used);
          // Visible: defined before, in this text or in module asm (which MC
          // reads before every inline asm).
          bool visible =
              symbol != symbols.end() && (symbol->second.blob == b || symbol->second.blob < moduleBlobs);
          if (!visible) {
            if (variables.contains(used))
              refuseAsm(blob.where, "the definition of '" + name + "', which uses '" + used +
                                        "' before it is defined or from another asm text (a cycle MC "
                                        "cannot evaluate could form)");
            continue;
          }
          terms = SaturatingAdd(terms, symbol->second.terms);
          depth = std::max(depth, symbol->second.depth);
        }
        if (depth + 1 > MaxAsmSymbolDepth)
          beyond(blob.where, "the symbol '" + name + "' depends on a chain of more than " +
                                 std::to_string(MaxAsmSymbolDepth) + " symbol definitions");
        if (terms > MaxAsmExpressionTerms)
          beyond(blob.where, "the symbol '" + name + "' expands to more than " +
                                 std::to_string(MaxAsmExpressionTerms) +
                                 " expression terms through the symbols it uses");
        symbols[name] = Symbol{b, terms, depth + 1};
      }
    }
  }

  // An expression's terms with the symbols it uses expanded to theirs.
  std::uint64_t expanded(const AsmExpression &expression, const std::string &where) const {
    std::uint64_t terms = expression.terms;
    if (symbols.empty())
      return terms;
    for (const std::string &used : expression.names) {
      auto symbol = symbols.find(used);
      if (symbol != symbols.end())
        terms = SaturatingAdd(terms, symbol->second.terms);
    }
    if (terms > MaxAsmExpressionTerms)
      beyond(where, "an assembler expression expands to more than " + std::to_string(MaxAsmExpressionTerms) +
                        " terms through the symbols it uses");
    return terms;
  }

  const Module &module;
  const TargetMachine &machine;
  bool masmModuleAsm;
  AsmTarget target;
  const char *fragile = nullptr;
  std::vector<Blob> blobs;
  size_t moduleBlobs = 0; // blobs[0] is module asm when there is a module check
  DenseMap<const InlineAsm *, size_t> index;
  StringMap<Symbol> symbols;
  std::optional<StringSet<>> irSymbols;
};

// Module asm is lexed with MASM integers when the target's assembler dialect
// is Intel (AsmPrinter::doInitialization; -x86-asm-syntax=intel) and without
// them when ModuleSymbolTable collects its symbols: both are checked.
std::vector<bool> moduleAsmReadings(const TargetMachine &machine) {
  if (machine.getTargetTriple().isX86() &&
      machine.getMCAsmInfo().getAssemblerDialect() == InlineAsm::AD_Intel)
    return {false, true};
  return {false};
}

} // namespace

void refuseAsm(const std::string &where, const std::string &what) {
  throw Failure(LLVMPLUG_ERROR_OPTION, policyRefusal(where + ": " + what, ""));
}

AsmRules asmRulesFor(llvmplug_policy policy, const TargetMachine &machine) {
  AsmRules rules;
  rules.check = policy == LLVMPLUG_POLICY_SAFE && machine.getTarget().hasMCAsmParser();
  rules.machine = &machine;
  return rules;
}

void checkModuleAsm(const Module &module, const AsmRules &rules) {
  if (!rules.check)
    return;
  for (bool masm : moduleAsmReadings(*rules.machine)) {
    Checker checker(module, rules, masm);
    checker.moduleAsm();
    for (const Function &function : module)
      if (!function.isMaterializable())
        checker.function(function);
    checker.finish();
  }
}

void checkFunctionAsm(const Function &function, const AsmRules &rules) {
  if (!rules.check)
    return;
  Checker checker(*function.getParent(), rules, false);
  checker.function(function);
  checker.finish();
}

} // namespace llvmplug
