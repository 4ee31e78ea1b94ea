"""Measure which calling conventions each LLVM 23 backend compiles; write csrc/compile/calling_conventions.inc.

A backend meets a calling convention it does not implement in one of two
ways, both found here with refllc (LLVM 23.1.1's llc on the shim's SDK):
AArch64, AMDGPU, ARM, BPF, Lanai, MSP430, RISC-V and XCore stop with a fatal
error ("unsupported calling convention", which poisons an in-process copy)
or crash; X86, NVPTX, SPIR-V, PowerPC, Mips and the others read it as the C
convention and carry on (a ptx_kernel function becomes a host function).
So a convention is allowed on a backend (csrc/compile/target_checks.cpp) when

  - refllc compiled it there (see Shapes) for every triple of the row (a
    row is an architecture, split by OS where the OS may matter), and
  - it is generic (a number below 64) or the backend's own (OWN below): a
    target's convention elsewhere is refused even where it compiles.

Shapes: definitions with and without parameters and a result (and a byval
pointer, which x86_intrcc requires; none, which an MSP430 interrupt
requires), and calls of declarations. A convention counts as implemented
when a shape of each compiles, in one of VARIANTS, and no shape makes the
backend say it does not implement it (a call without arguments may never
ask). What crashes in one corner only (anyregcc returning a value on
i386, ghccc on AArch64 Windows at -O0) is not "not implemented": the
guards of csrc/llvm_bugs/backend_guards.cpp and process isolation are for those. A
shape the verifier rejects (a kernel cannot be called) never reaches the
table's check: the compile reports a VerifyError first.

    python tests/campaigns/calling_conventions.py            # rewrite the table
    python tests/campaigns/calling_conventions.py --check    # exit 1 if it is stale
"""

from __future__ import annotations

import argparse
import concurrent.futures
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from reference_tools import ROOT, reference_tool  # noqa: E402

TABLE = ROOT / "csrc" / "compile" / "calling_conventions.inc"

# LLVM 23's CallingConv.h: every number with a meaning (12, 73, 74, 81 and 82
# are retired), and its spelling in IR for messages.
NAMES = {
    0: "ccc", 8: "fastcc", 9: "coldcc", 10: "ghccc", 11: "cc 11 (HiPE)", 13: "anyregcc",
    14: "preserve_mostcc", 15: "preserve_allcc", 16: "swiftcc", 17: "cxx_fast_tlscc", 18: "tailcc",
    19: "cfguard_checkcc", 20: "swifttailcc", 21: "preserve_nonecc",
    64: "x86_stdcallcc", 65: "x86_fastcallcc", 66: "arm_apcscc", 67: "arm_aapcscc", 68: "arm_aapcs_vfpcc",
    69: "msp430_intrcc", 70: "x86_thiscallcc", 71: "ptx_kernel", 72: "ptx_device", 75: "spir_func",
    76: "spir_kernel", 77: "intel_ocl_bicc", 78: "x86_64_sysvcc", 79: "win64cc", 80: "x86_vectorcallcc",
    83: "x86_intrcc", 84: "avr_intrcc", 85: "avr_signalcc", 86: "cc 86 (AVR_BUILTIN)", 87: "amdgpu_vs",
    88: "amdgpu_gs", 89: "amdgpu_ps", 90: "amdgpu_cs", 91: "amdgpu_kernel", 92: "x86_regcallcc",
    93: "amdgpu_hs", 94: "cc 94 (MSP430_BUILTIN)", 95: "amdgpu_ls", 96: "amdgpu_es",
    97: "aarch64_vector_pcs", 98: "aarch64_sve_vector_pcs", 99: "cc 99 (WASM_EmscriptenInvoke)",
    100: "amdgpu_gfx", 101: "m68k_intrcc",
    102: "aarch64_sme_preservemost_from_x0", 103: "aarch64_sme_preservemost_from_x2",
    104: "amdgpu_cs_chain", 105: "amdgpu_cs_chain_preserve", 106: "m68k_rtdcc", 107: "graalcc",
    108: "cc 108 (ARM64EC_Thunk_X64)", 109: "cc 109 (ARM64EC_Thunk_Native)", 110: "riscv_vector_cc",
    111: "aarch64_sme_preservemost_from_x1",
    **{112 + i: f"riscv_vls_cc({32 << i})" for i in range(12)},
    124: "amdgpu_gfx_whole_wave", 125: "cheriot_compartmentcallcc", 126: "cheriot_compartmentcalleecc",
    127: "cheriot_librarycallcc",
}

# The target conventions (64 and up) each backend implements, from its
# sources in LLVM 23 (lib/Target/<T>/*CallingConv.td and *ISelLowering.cpp).
AMDGPU = (76, 87, 88, 89, 90, 91, 93, 95, 96, 100, 104, 105, 124)
OWN = {
    "X86": (64, 65, 70, 77, 78, 79, 80, 83, 92),
    "AArch64": (79, 97, 98, 102, 103, 107, 108, 109, 111),
    "ARM": (66, 67, 68),
    "AMDGPU": AMDGPU,
    "AVR": (84, 85, 86),
    "MSP430": (69, 94),
    "NVPTX": (71, 72),
    "RISCV": (107, 110, *range(112, 124), 125, 126, 127),
    "SPIRV": (75, 76),
    "WebAssembly": (99,),
}

# (backend, Triple::ArchType enumerators, which OS: "any", "windows" or
# "other", the triples measured, extra refllc flags).
ROWS = [
    ("X86", ("x86_64",), "other", ("x86_64-linux-gnu", "x86_64-apple-macosx"), ()),
    ("X86", ("x86_64",), "windows", ("x86_64-windows-msvc", "x86_64-windows-gnu"), ()),
    ("X86", ("x86",), "other", ("i386-linux-gnu",), ()),
    ("X86", ("x86",), "windows", ("i386-windows-msvc", "i686-windows-gnu"), ()),
    ("AArch64", ("aarch64", "aarch64_be", "aarch64_32"), "other",
     ("aarch64-linux-gnu", "aarch64_be-linux-gnu", "arm64-apple-macosx"), ()),
    ("AArch64", ("aarch64", "aarch64_be", "aarch64_32"), "windows", ("aarch64-windows-msvc",), ()),
    ("ARM", ("arm", "armeb"), "any", ("armv7-linux-gnueabihf", "armebv7-linux-gnueabi"), ()),
    ("ARM", ("thumb", "thumbeb"), "any", ("thumbv7em-none-eabi", "thumbv7-windows-msvc"), ()),
    ("AMDGPU", ("amdgpu",), "any", ("amdgcn-amd-amdhsa", "amdgcn-amd-amdpal"), ()),
    ("AMDGPU", ("r600",), "any", ("r600",), ()),
    ("AVR", ("avr",), "any", ("avr",), ("-mcpu=atmega328p",)),
    ("BPF", ("bpfel", "bpfeb"), "any", ("bpfel", "bpfeb"), ()),
    ("Hexagon", ("hexagon",), "any", ("hexagon",), ()),
    ("Lanai", ("lanai",), "any", ("lanai",), ()),
    ("LoongArch", ("loongarch32",), "any", ("loongarch32-unknown-elf",), ()),
    ("LoongArch", ("loongarch64",), "any", ("loongarch64-linux-gnu",), ()),
    ("Mips", ("mips", "mipsel"), "any", ("mips-linux-gnu", "mipsel-linux-gnu"), ()),
    ("Mips", ("mips64", "mips64el"), "any", ("mips64el-linux-gnuabi64", "mips64-linux-gnuabi64"), ()),
    ("MSP430", ("msp430",), "any", ("msp430",), ()),
    ("NVPTX", ("nvptx", "nvptx64"), "any", ("nvptx64-nvidia-cuda", "nvptx-nvidia-cuda"), ()),
    ("PowerPC", ("ppc", "ppcle"), "any", ("powerpc-linux-gnu",), ()),
    ("PowerPC", ("ppc64", "ppc64le"), "any", ("powerpc64le-linux-gnu", "powerpc64-ibm-aix"), ()),
    ("RISCV", ("riscv32",), "any", ("riscv32-unknown-elf",), ()),
    ("RISCV", ("riscv64",), "any", ("riscv64-linux-gnu",), ()),
    ("Sparc", ("sparc", "sparcel"), "any", ("sparc-linux-gnu",), ()),
    ("Sparc", ("sparcv9",), "any", ("sparcv9-linux-gnu",), ()),
    ("SPIRV", ("spirv", "spirv32", "spirv64"), "any", ("spirv64-unknown-unknown", "spirv32-unknown-unknown"), ()),
    ("SystemZ", ("systemz",), "any", ("s390x-linux-gnu",), ()),
    ("VE", ("ve",), "any", ("ve-unknown-linux",), ()),
    ("WebAssembly", ("wasm32", "wasm64"), "any", ("wasm32-unknown-unknown", "wasm64-unknown-unknown"), ()),
    ("XCore", ("xcore",), "any", ("xcore",), ()),
]

DEFINES = (
    "define {cc} void @f() {{\n  ret void\n}}\n",
    "define {cc} void @f(i32 %x) {{\n  ret void\n}}\n",
    "define {cc} i32 @f(i32 %x) {{\n  ret i32 %x\n}}\n",
    "define {cc} void @f(ptr byval(i32) %p) {{\n  ret void\n}}\n",  # x86_intrcc needs it
)
CALLS = tuple(
    shape.replace("define {cc}", "declare {cc}").split(" {{")[0] + "\n" + caller
    for shape, caller in [
        (DEFINES[0], "define void @g() {{\n  call {cc} void @f()\n  ret void\n}}\n"),
        (DEFINES[1], "define void @g() {{\n  call {cc} void @f(i32 1)\n  ret void\n}}\n"),
        (DEFINES[2], "define i32 @g() {{\n  %r = call {cc} i32 @f(i32 1)\n  ret i32 %r\n}}\n"),
    ]
)


# A backend that implements a convention may still crash on it in one
# corner (AArch64 on Windows segfaults on a ghccc function that may unwind,
# at -O0): that is csrc/llvm_bugs/backend_guards.cpp's business. So a shape counts as
# compiled when any of these compiles it.
VARIANTS = (("-O2", ""), ("-O0", ""), ("-O2", " nounwind"), ("-O0", " nounwind"))


# What a backend says when it meets a convention it does not implement (in
# whatever shape: a call without arguments may never ask).
UNSUPPORTED = re.compile(rb"un(supported|implemented) calling convention", re.I)


def compiles(refllc: Path, triple: str, flags: tuple[str, ...], ir: str) -> bool | str | None:
    """True if refllc generates code for ``ir`` in some variant; "unsupported" if the backend says it
    does not implement the convention; None if the verifier rejects it; else (it crashed) False."""
    for level, attributes in VARIANTS:
        shaped = ir.replace(") {\n", ")" + attributes + " {\n")
        result = subprocess.run([str(refllc), f"-mtriple={triple}", "-filetype=asm", "-o", "-", level, *flags],
                                input=shaped.encode(), capture_output=True, timeout=120)
        if result.returncode == 0:
            return True
        if b"does not verify" in result.stderr:
            return None
        if UNSUPPORTED.search(result.stderr):
            return "unsupported"
    return False


def measure(refllc: Path) -> list[tuple[str, tuple[str, ...], str, list[int], list[int]]]:
    """Each row with the conventions it may define and the ones it may call."""
    def shapes(job: tuple[int, str, tuple[str, ...]]) -> tuple[bool, bool]:
        number, triple, flags = job
        cc = f"cc {number}"

        def some(shapes: tuple[str, ...]) -> bool:
            found = [compiles(refllc, triple, flags, shape.format(cc=cc)) for shape in shapes]
            return any(f is True for f in found) and "unsupported" not in found

        return some(DEFINES), some(CALLS)

    rows = []
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        for backend, arches, os, triples, flags in ROWS:
            mine = set(OWN.get(backend, ()))
            numbers = [n for n in NAMES if n < 64 or n in mine]
            jobs = [(n, t, flags) for n in numbers for t in triples]
            results = dict(zip(jobs, pool.map(shapes, jobs)))
            define = [n for n in numbers if all(results[(n, t, flags)][0] for t in triples)]
            call = [n for n in numbers if all(results[(n, t, flags)][1] for t in triples)]
            rows.append((backend, arches, os, define, call))
            print(f"{backend:12} {','.join(arches):28} {os:8} define {len(define):3}  call {len(call):3}",
                  file=sys.stderr)
    return rows


def render(rows: list[tuple[str, tuple[str, ...], str, list[int], list[int]]]) -> str:
    lines = [
        "// Generated by tests/campaigns/calling_conventions.py from refllc (LLVM 23.1.1): do not edit.",
        "// The calling conventions each backend was measured to compile, and the",
        "// names of all of them; read by target_checks.cpp (see the script's docstring).",
        "",
        "// {backend, {arches}, os, {conventions a function may be defined with},",
        "//  {conventions a function may be called with}}",
        "static const ConventionRow ConventionRows[] = {",
    ]
    for backend, arches, os, define, call in rows:
        archs = ", ".join(f"Triple::{a}" for a in arches)
        lines.append(f'    {{"{backend}", {{{archs}}}, RowOS::{os.capitalize()},')
        lines.append(f"     {{{', '.join(map(str, define))}}},")
        lines.append(f"     {{{', '.join(map(str, call))}}}}},")
    lines.append("};")
    lines.append("")
    lines.append("// The spelling of each calling convention in IR.")
    lines.append("static const std::pair<unsigned, const char *> ConventionNames[] = {")
    for number, name in NAMES.items():
        lines.append(f'    {{{number}, "{name}"}},')
    lines.append("};")
    lines.append("")
    lines.append("// The backends each target calling convention (64 and up) belongs to.")
    lines.append("static const std::pair<unsigned, const char *> ConventionOwners[] = {")
    for number in sorted(NAMES):
        owners = [backend for backend, own in OWN.items() if number in own]
        if number >= 64:
            lines.append(f'    {{{number}, "{" or ".join(owners) if owners else ""}"}},')
    lines.append("};")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if csrc/compile/calling_conventions.inc is stale")
    args = parser.parse_args()
    text = render(measure(reference_tool("refllc")))
    if args.check:
        if TABLE.read_text() != text:
            print(f"{TABLE} differs from what refllc measures now", file=sys.stderr)
            return 1
        return 0
    TABLE.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
