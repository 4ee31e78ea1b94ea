"""A grammar-based campaign against the asm allow-list, under process isolation.

Statements are generated from csrc/policy/asm_directives.def (tests/support/asm_table.py):
every row's directive with operands its rule accepts and some it does not
(edge-value literals in every radix the lexer reads, expressions deep, long
and self-referencing, symbols defined before, after, twice or by the module,
strings with escapes, registers and option words of the target), mixed with
labels, assignments, .rept bodies, instructions of the target, comments and
separators, sometimes mutated character by character (a '#', ';', '/*', '"',
'\\', NUL or newline spliced in). The text goes into module asm or an inline
asm call (GCC or Intel dialect, with operands, "$$", "$( $| $)" variants and
${:uid}/${:private}/${:comment}), for a target of every asm parser, compiled
under the default safe policy to an object, assembly or bitcode.

Every compile runs in ``Plugin(isolation="process")`` with a timeout and a
memory limit. The contract: a result within the limits (output no larger than
llvmplug's 64 MiB expansion bound allows) or a typed error; a crash
(``WorkerCrashedError``), a hang (``CompileTimeoutError``), an untyped
exception or an oversized output is a finding, saved as a .ll file with a
header (triple, flags, output, outcome) in --out, ready for
tests/data/asm_crashers/. Deterministic: case N of seed S is the same on
every machine (``--case N --show`` prints it); a time budget decides how many
cases run, round-robin over the targets.

    python tests/campaigns/campaign_asm.py --seconds 600 --seed 1 --out /tmp/asm-campaign
    python tests/campaigns/campaign_asm.py --cases 2000 --seed 7
    python tests/campaigns/campaign_asm.py --seed 1 --case 1234 --show

Prints one JSON summary line (outcome counts, per target and in total); exit
status 1 when a case broke the contract.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import llvmplug

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import asm_table  # noqa: E402

# (triple, flags, architecture and format names of csrc/policy/asm_directives.h)
TARGETS = [
    ("x86_64-unknown-linux-gnu", "", "X86", "ELF"),
    ("i686-unknown-linux-gnu", "", "X86", "ELF"),
    ("x86_64-pc-windows-msvc", "", "X86", "COFF"),
    ("x86_64-apple-macosx", "", "X86", "MachO"),
    ("aarch64-unknown-linux-gnu", "", "AArch64", "ELF"),
    ("arm64-apple-macosx", "", "AArch64", "MachO"),
    ("aarch64-pc-windows-msvc", "", "AArch64", "COFF"),
    ("armv7-unknown-linux-gnueabihf", "", "ARM", "ELF"),
    ("thumbv7-pc-windows-msvc", "", "ARM", "COFF"),
    ("riscv64-unknown-linux-gnu", "-mattr=+m,+a,+c", "RISCV", "ELF"),
    ("riscv32-unknown-elf", "", "RISCV", "ELF"),
    ("powerpc64le-unknown-linux-gnu", "", "PPC", "ELF"),
    ("powerpc64-ibm-aix", "", "PPC", "XCOFF"),
    ("mips64el-unknown-linux-gnuabi64", "", "Mips", "ELF"),
    ("mips-unknown-linux-gnu", "", "Mips", "ELF"),
    ("sparcv9-unknown-linux-gnu", "", "Sparc", "ELF"),
    ("s390x-unknown-linux-gnu", "", "SystemZ", "ELF"),
    ("s390x-ibm-zos", "", "SystemZ", "GOFF"),
    ("wasm32-unknown-unknown", "", "", "Wasm"),
    ("amdgcn-amd-amdhsa", "-mcpu=gfx900", "AMDGPU", "ELF"),
    ("bpfel", "", "BPF", "ELF"),
    ("hexagon-unknown-linux-musl", "", "Hexagon", "ELF"),
    ("lanai-unknown-unknown", "", "Lanai", "ELF"),
    ("loongarch64-unknown-linux-gnu", "", "LoongArch", "ELF"),
    ("msp430-unknown-unknown", "", "MSP430", "ELF"),
    ("avr-unknown-unknown", "-mcpu=atmega328p", "AVR", "ELF"),
    ("ve-unknown-linux-gnu", "", "VE", "ELF"),
]
INSTRUCTIONS = {
    "X86": ["nop", "pause", "mfence", "movl $1, %eax", "leaq 8(%rsp), %rax", "jmp 1f", "1:", "lock; incl (%rsp)",
            "rep movsb", "cpuid", "call f"],
    "AArch64": ["nop", "dmb ish", "mrs x0, cntvct_el0", "add x0, x1, #4", "b 1f", "1:", "ldr x0, =0x1234"],
    "ARM": ["nop", "dsb", "add r0, r0, #1", "mov r1, r2", "b 1f", "1:", "ldr r0, =0x12345678"],
    "RISCV": ["nop", "fence rw, rw", "addi a0, a0, 1", "csrr a0, cycle", "j 1f", "1:", "li a0, 0x12345678"],
    "PPC": ["nop", "sync", "mftb 3", "addi 3, 3, 1", "b 1f", "1:"],
    "Mips": ["nop", "sync", "addiu $2, $2, 1", "move $3, $4", "b 1f", "1:"],
    "Sparc": ["nop", "add %g1, 1, %g1", "ba 1f", "1:"],
    "SystemZ": ["bcr 14, 0", "lghi %r1, 1", "j 1f", "1:"],
    "AMDGPU": ["s_nop 0", "s_waitcnt 0", "v_mov_b32 v0, 1"],
    "BPF": ["r0 = 1", "exit", "r1 += 2"],
    "Hexagon": ["nop", "r0 = add(r1, r2)", "{ nop }"],
    "Lanai": ["nop", "add %r1, 1, %r2"],
    "LoongArch": ["nop", "addi.w $a0, $a0, 1", "dbar 0", "b 1f", "1:"],
    "MSP430": ["nop", "mov r4, r5", "add #1, r4"],
    "AVR": ["nop", "sei", "ldi r16, 1"],
    "VE": ["nop", "or %s0, 1, (0)1"],
    "": ["nop"],
}
REGISTERS = {
    "X86": ["%rbp", "rbp", "%rax", "%rsp", "%eax", "%xmm0"], "AArch64": ["x29", "fp", "lr", "sp", "x0", "w1"],
    "ARM": ["r7", "lr", "sp", "r11"], "RISCV": ["ra", "s0", "sp", "x8"], "PPC": ["r1", "31", "%r3"],
    "Mips": ["$sp", "$31", "$fp"], "Sparc": ["%fp", "%i7"], "SystemZ": ["%r15", "%r14"],
}
WORDS = {
    ".option": ["push", "pop", "rvc", "norvc", "relax", "norelax", "pic", "nopic", "arch, +zbb", "arch, -c",
                "arch, rv64gc", "exact", "bogus"],
    ".syntax": ["unified", "divided", "bogus"], ".code": ["16", "32", "64", "x"],
    ".arch": ["armv7-a", "armv8-a", "armv8.2-a+crc", "x86-64", "i386", "bogus", "armv9-a+sve2"],
    ".arch_extension": ["crc", "crypto", "nocrc", "sve", "bogus"], ".cpu": ["cortex-a53", "generic", "bogus"],
    ".fpu": ["neon", "vfpv4", "neon-vfpv4", "bogus"], ".intel_syntax": ["", "noprefix", "prefix"],
    ".att_syntax": ["", "prefix", "noprefix"], ".cfi_sections": [".eh_frame", ".debug_frame", ".eh_frame, .debug_frame"],
    ".set": ["push", "pop", "noreorder", "reorder", "noat", "at", "mips32r2", "arch=mips64r2", "fp=64", "nomacro",
             "micromips", "mips16", "nomips16", "softfloat", "mips0"],
    ".unreq": ["x", "r0"], ".thumb_func": ["", "f"],
}
NUMBERS = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 32, 63, 64, 255, 256, 4095, 65535, 1 << 20, (64 << 20) - 1, 64 << 20,
           (64 << 20) + 1, 1 << 31, (1 << 32) - 1, 1 << 32, (1 << 63) - 1, 1 << 63, (1 << 64) - 1, 1 << 64, 1 << 100]
SYMBOLS = ["s0", "s1", "s2", "tab", "f", "g", ".Ltmp0", "x@V", "__llvm_sym", "_start"]
STRINGS = ['"a.c"', '"abc"', '"\\n\\t\\101\\x41"', '""', '"' + "x" * 300 + '"', "\"quote\\\"d\"", '"#;"']
SPLICES = ["#", ";", "/*", "*/", '"', "\\", "\x00", "\n", "//", "@", "$", "'", "\r", ",", " ", "{", "}"]
OUTPUTS = ("obj", "obj", "asm", "bc")
LIMIT_BYTES = (64 << 20) + (4 << 20)  # the expansion bound and the module's own code


def number(rng: random.Random) -> str:
    value = rng.choice(NUMBERS) if rng.random() < 0.7 else rng.randrange(0, 5000)
    style = rng.random()
    if style < 0.6 or value == 0:
        return str(value)
    if style < 0.8:
        return hex(value)
    if style < 0.9:
        return "0" + oct(value)[2:]
    if style < 0.95 and value < 256 and 32 < value < 127 and chr(value) not in "'\\":
        return f"'{chr(value)}'"
    return bin(value)


def expression(rng: random.Random, depth: int = 0) -> str:
    roll = rng.random()
    if depth > 3 or roll < 0.35:
        return rng.choice([number(rng), number(rng), rng.choice(SYMBOLS), ".", "1b", "1f", "(.-s0)"])
    if roll < 0.5:
        return rng.choice(["-", "~", "!", "+"]) + expression(rng, depth + 1)
    if roll < 0.6:
        return "(" + expression(rng, depth + 1) + ")"
    if roll < 0.605:  # long or deep
        size = rng.choice([100, 1000, 5000])
        return rng.choice(["+".join(["1"] * size), "(" * size + "1" + ")" * size, "-" * size + "1"])
    op = rng.choice(["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "&&", "||", "==", "!=", "<", ">", "<=",
                     ">=", "<>"])
    return expression(rng, depth + 1) + f" {op} " + expression(rng, depth + 1)


def operands(rng: random.Random, rule: str, name: str, arch: str) -> str:
    registers = REGISTERS.get(arch, ["0", "1"])
    if rule == "None":
        return ""
    if rule == "Words":
        return rng.choice(WORDS.get(name, ["x", "1", "a, b"]))
    if rule in ("Symbols",):
        return ", ".join(rng.choice(SYMBOLS) for _ in range(rng.randint(1, 3)))
    if rule in ("Exprs",):
        return ", ".join(expression(rng) for _ in range(rng.randint(0, 3)))
    if rule == "Reals":
        return ", ".join(rng.choice(["1.5", "-0.0", "inf", "nan", "1e308", "1e-400", "0x1p3", "3", "+2.5e10"])
                         for _ in range(rng.randint(1, 3)))
    if rule == "Strings":
        return ", ".join(rng.choice(STRINGS) for _ in range(rng.randint(1, 2)))
    if rule in ("Space", "Org"):
        return number(rng) + (f", {expression(rng)}" if rng.random() < 0.4 else "")
    if rule == "Fill":
        return ", ".join([number(rng), rng.choice(["1", "2", "4", "8", "9", "16", number(rng)]), expression(rng)]
                         [:rng.randint(1, 3)])
    if rule == "Nops":
        return number(rng) + (f", {rng.choice(['0', '1', '15', number(rng)])}" if rng.random() < 0.5 else "")
    if rule.startswith("Align"):
        parts = [rng.choice(["0", "1", "2", "3", "4", "8", "16", "30", "31", "32", "64", number(rng)])]
        if rng.random() < 0.5:
            parts.append(rng.choice(["", "0x90", "0", expression(rng)]))
            if rng.random() < 0.5:
                parts.append(rng.choice(["", "0", "7", "15", number(rng)]))
        return ", ".join(parts) if rng.random() < 0.9 else ""
    if rule in ("Assign", "MipsSet"):
        if rule == "MipsSet" and rng.random() < 0.5:
            return rng.choice(WORDS[".set"])
        return f"{rng.choice(SYMBOLS)}, {expression(rng)}"
    if rule == "Weakref":
        return f"{rng.choice(SYMBOLS)}, {rng.choice(SYMBOLS)}"
    if rule == "Comm":
        return f"{rng.choice(SYMBOLS)}, {number(rng)}" + (f", {number(rng)}" if rng.random() < 0.5 else "")
    if rule == "Type":
        kinds = ["@function", "@object", "%function", "STT_FUNC", '"object"', "@gnu_indirect_function", "@tls_object",
                 "@notype", "@bogus"]
        return rng.choice(SYMBOLS) + rng.choice([", ", " "]) + rng.choice(kinds)
    if rule == "Size":
        return f"{rng.choice(SYMBOLS)}, {rng.choice(['.-s0', expression(rng), '16'])}"
    if rule == "Symver":
        return f"{rng.choice(SYMBOLS)}, {rng.choice(['s0@V1', 's1@@V2', 'f@@@V3', 'nover'])}" + \
            rng.choice(["", "", ", remove", ", local"])
    if rule == "Section":
        name = rng.choice([".text", ".data", ".rodata.x", ".note.GNU-stack", '".weird name"', ".text.unlikely.f",
                           "__TEXT,__text", "__DATA,__data", "__TEXT,__cstring,cstring_literals", ".drectve",
                           ".debug_info", ".init_array", ".tbss"])
        extra = rng.choice(["", ', "a"', ', "aw", @progbits', ', "ax", %progbits', ', "aM", @progbits, 8',
                            ', "aG", @progbits, grp, comdat', ', "a", @progbits, unique, ' + number(rng),
                            ', "ao", @progbits, s0', ', "?"', ', "aw", @nobits', ', "x"', ", 3", ', "dr"',
                            ", discard, s0", ",regular,pure_instructions", ",symbol_stubs,pure_instructions,6"])
        return name + extra
    if rule == "SectionSwitch":
        return rng.choice(["", "", "1", number(rng)])
    if rule == "Ident":
        return rng.choice(STRINGS)
    if rule == "File":
        return rng.choice(['"a.c"', f'{number(rng)} "a.c"', f'{rng.randint(0, 5)} "dir" "a.c"',
                           f'{rng.randint(0, 5)} "a.c" md5 0x00112233445566778899aabbccddeeff',
                           f'{rng.randint(0, 5)} "a.c" source "int x;"', f'/**/ {number(rng)} "a.c"'])
    if rule == "Loc":
        return f"{rng.randint(0, 6)} {number(rng)} {rng.choice(['', '1', number(rng)])} " + \
            rng.choice(["", "prologue_end", "is_stmt 0", "isa 1", "discriminator 3", "basic_block", "view 0"])
    if rule == "CfiStart":
        return rng.choice(["", "simple", "bogus"])
    if rule == "CfiOffset":
        return rng.choice(["8", "-8", "16", number(rng), "-" + number(rng)])
    if rule == "CfiReg":
        return rng.choice(registers + [number(rng)])
    if rule == "CfiRegOffset":
        return f"{rng.choice(registers + [number(rng)])}, {rng.choice(['8', '-16', number(rng)])}"
    if rule == "CfiRegReg":
        return f"{rng.choice(registers)}, {rng.choice(registers + [number(rng)])}"
    if rule == "CfiEscape":
        return ", ".join(rng.choice(["0x0f", "0x03", "0x77", "0", "255", "256", number(rng)])
                         for _ in range(rng.randint(1, 5)))
    if rule == "Insn":
        return rng.choice(["r 0x33, 0, 0, a0, a1, a2", "4, 0x13", "0x13", "i 0x13, 0, a0, a0, 1", "rr,0x1800,%r1,%r2",
                           "2, 0x0001"])
    return expression(rng)


class Generator:
    def __init__(self, rng: random.Random, arch: str, fmt: str):
        self.rng, self.arch, self.fmt = rng, arch, fmt
        table = asm_table.rows()
        mine = [row for row in table if row.level == "GENERIC" or arch in row.scope or fmt in row.scope]
        # Mostly what the allow-list lets through (the statements that reach MC), some of what it refuses.
        self.allowed = [row for row in mine if row.rule != "Refused"]
        self.refused = [row for row in table if row not in self.allowed]

    def statement(self, depth: int = 0) -> list[str]:
        rng = self.rng
        roll = rng.random()
        if roll < 0.12:
            return [rng.choice(INSTRUCTIONS.get(self.arch, INSTRUCTIONS[""]))]
        if roll < 0.17:
            return [f"{rng.choice(SYMBOLS + ['1', '2'])}:"]
        if roll < 0.22:
            return [f"{rng.choice(SYMBOLS)} = {expression(rng)}"]
        if roll < 0.27 and depth < 3:
            body = [line for _ in range(rng.randint(1, 3)) for line in self.statement(depth + 1)]
            return [f".rept {rng.choice(['0', '1', '2', '3', '100', '1000', number(rng)])}"] + body + [".endr"]
        if roll < 0.33:  # a chain of definitions, maybe doubling, maybe cyclic
            n = rng.randint(2, 70)
            op = rng.choice(["+", "*"])
            lines = [".set c0, 1"] + [f".set c{i}, c{i - 1}{op}c{i - 1}" if rng.random() < 0.5 else f".set c{i}, c{i - 1}"
                                      for i in range(1, n)]
            if rng.random() < 0.3:
                lines.append(f".set c0, c{n - 1}")
            return lines + [f".long c{n - 1}"]
        row = rng.choice(self.allowed if rng.random() < 0.92 else self.refused)
        name = row.name if rng.random() < 0.95 else row.name.upper()
        args = operands(rng, row.rule, row.name, self.arch)
        return [f"{name} {args}".rstrip()]

    def text(self) -> str:
        lines = [line for _ in range(self.rng.randint(1, 4)) for line in self.statement()]
        separator = self.rng.choice(["\n"] * 8 + [" ; ", "\n\n", " # c\n", " /* c */\n"])
        text = separator.join(lines)
        if self.rng.random() < 0.1:  # a character spliced in
            at = self.rng.randrange(len(text) + 1)
            text = text[:at] + self.rng.choice(SPLICES) + text[at:]
        return text


def escape(text: str) -> str:
    out = []
    for ch in text:
        if ch in '"\\' or ord(ch) < 32 or ord(ch) > 126:
            out.append(f"\\{ord(ch):02X}")
        else:
            out.append(ch)
    return "".join(out)


def inline_decorations(rng: random.Random, text: str, intel: bool) -> str:
    """AsmPrinter's escapes, sprinkled in: operands, "$$", variants and specials."""
    pieces = text.split(" ")
    for i in range(len(pieces)):
        roll = rng.random()
        if roll < 0.04:
            pieces[i] += rng.choice(["$0", "${0:c}", "$1", "${1:c}", "${0:n}", "$2"])
        elif roll < 0.07:
            pieces[i] = rng.choice(["$$", "$(", "$|", "$)", "${:uid}", "${:private}", "${:comment}", "${:x}"]) + pieces[i]
        elif roll < 0.09 and "$" not in pieces[i]:
            pieces[i] = pieces[i].replace(".", ".$$", 1) if intel else pieces[i]
    return " ".join(pieces)


def case(seed: int, index: int) -> dict:
    rng = random.Random(f"{seed}:{index}")
    triple, flags, arch, fmt = TARGETS[index % len(TARGETS)]
    text = Generator(rng, arch, fmt).text()
    output = rng.choice(OUTPUTS)
    if rng.random() < 0.45:
        module = f'target triple = "{triple}"\nmodule asm "{escape(text)}"\n' \
                 "@g = global i32 0\ndefine void @f() {\n  ret void\n}\n"
        where = "module"
    else:
        intel = arch == "X86" and rng.random() < 0.3
        text = inline_decorations(rng, text, intel)
        dialect = "inteldialect " if intel else ""
        copies = rng.choice([1, 1, 1, 2, 50])
        calls = "".join(f'  call void asm sideeffect {dialect}"{escape(text)}", "r,i,s,~{{memory}}"'
                        f"(i32 %x, i32 {rng.choice([0, 5, 1 << 30])}, ptr @g)\n" for _ in range(copies))
        module = (f'target triple = "{triple}"\n@g = global i32 0\n'
                  f"define void @f(i32 %x) {{\n{calls}  ret void\n}}\n")
        where = "inline"
    return {"index": index, "triple": triple, "flags": flags, "output": output, "where": where, "module": module}


def outcome(plugin: llvmplug.Plugin, item: dict, timeout: float) -> str:
    try:
        out = plugin.compile(item["module"], item["triple"], item["flags"], output=item["output"], timeout=timeout)
    except llvmplug.WorkerCrashedError as error:
        return f"crash:{getattr(error, 'signal', None) or 'unknown'}"
    except llvmplug.CompileTimeoutError:
        return "timeout"
    except llvmplug.LLVMPlugError as error:
        return type(error).__name__
    except Exception as error:  # noqa: BLE001 - the contract is typed errors only
        return f"untyped:{type(error).__name__}"
    return "ok" if len(out) <= LIMIT_BYTES else "oversized"


BROKEN = ("crash:", "timeout", "untyped:", "oversized")


def save(out: Path, seed: int, item: dict, result: str) -> None:
    out.mkdir(parents=True, exist_ok=True)
    header = (f"; triple: {item['triple']}\n; flags: {item['flags']}\n; output: {item['output']}\n"
              f"; outcome: {result}\n; found by: tests/campaigns/campaign_asm.py --seed {seed} --case {item['index']}\n")
    (out / f"asm-{seed}-{item['index']}.ll").write_text(header + item["module"])


def run(seed: int, seconds: float, out: Path | None, timeout: float, start: int = 0,
        cases: int | None = None) -> dict:
    """Cases from `start` on, until `cases` ran or `seconds` passed."""
    counts: Counter = Counter()
    per_target: dict[str, Counter] = defaultdict(Counter)
    broken = []
    deadline = time.monotonic() + seconds
    index = start
    warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)  # MC's warnings are results, not findings
    with llvmplug.Plugin(isolation="process", memory_limit=2 << 30) as plugin:
        while time.monotonic() < deadline and (cases is None or index - start < cases):
            item = case(seed, index)
            result = outcome(plugin, item, timeout)
            counts[result] += 1
            per_target[item["triple"]][result] += 1
            if result.startswith(BROKEN):
                broken.append({"case": index, "triple": item["triple"], "outcome": result})
                if out is not None:
                    save(out, seed, item, result)
            index += 1
    return {"seed": seed, "cases": index - start, "outcomes": dict(counts), "broken": broken,
            "per_target": {triple: dict(c) for triple, c in per_target.items()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--cases", type=int, help="stop after this many cases (with --seconds, whichever first)")
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--case", type=int, help="replay one case")
    parser.add_argument("--show", action="store_true", help="with --case: print the module instead")
    args = parser.parse_args()
    if args.case is not None:
        item = case(args.seed, args.case)
        if args.show:
            print(f"; {item['triple']} {item['flags']} {item['output']}\n{item['module']}")
            return 0
        with llvmplug.Plugin(isolation="process", memory_limit=2 << 30) as plugin:
            print(outcome(plugin, item, args.timeout))
        return 0
    summary = run(args.seed, args.seconds, args.out, args.timeout, cases=args.cases)
    print(json.dumps(summary))
    return 1 if summary["broken"] else 0


if __name__ == "__main__":
    sys.exit(main())
