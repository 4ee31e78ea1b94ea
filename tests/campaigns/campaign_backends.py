"""A per-backend campaign of small, plausible IR against every LLVM backend, under process isolation.

tests/campaigns/fuzz_compile.py throws hostile bytes at the X86 backend; this throws
*plausible* IR at every backend in ``llvmplug.info()["backends"]``: modules a
frontend could emit (intrinsics, calling conventions, invoke/landingpad, debug
info of every DWARF version, switches, varargs, address spaces, atomics,
wide integers), generated from templates and sometimes mutated (a type
replaced throughout, function attributes added, or fuzz_compile's text
mutator), each compiled at -O0 or -O2 to an object or assembly, sometimes
for a CPU of the target's own list.

Every compile runs in ``Plugin(isolation="process")`` with a timeout and a
memory limit: a crash is a ``WorkerCrashedError``, a hang a
``CompileTimeoutError``, and the campaign goes on. Each is saved as a .ll
file with a header (backend, triple, flags, output, outcome), ready to be
reduced and kept in tests/data/backend_crashers/. A compile refused by one of
the shim's backend guards (csrc/llvm_bugs/backend_guards.cpp) counts as "guarded".

Deterministic: case N of seed S is the same module, target and flags on
every machine (``--case N`` replays one); a time budget only decides how
many cases run. Cases go round-robin over the backends, so each gets an
equal share:

    python tests/campaigns/campaign_backends.py --seconds 600 --seed 1 --out /tmp/campaign
    python tests/campaigns/campaign_backends.py --seed 1 --case 1234 --show

Prints one JSON summary line on stdout (per-backend counts of each outcome);
exit status 1 when a compile broke the contract (an untyped exception), or,
with ``--check-guards``, when a guard refused a case the unguarded shim compiles.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
import warnings
from collections import Counter, defaultdict
from pathlib import Path

import llvmplug

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fuzz_compile import CORPUS, mutate_text  # noqa: E402  (the bitcode fuzzer's text mutator, reused)

# Triples (with flags) per backend; the first is the backend's main one.
TARGETS: dict[str, list[tuple[str, str]]] = {
    "X86": [("x86_64-unknown-linux-gnu", ""), ("i686-unknown-linux-gnu", ""),
            ("x86_64-pc-windows-msvc", ""), ("x86_64-apple-macosx", "")],
    "AArch64": [("aarch64-unknown-linux-gnu", ""), ("arm64-apple-macosx", ""), ("aarch64-pc-windows-msvc", "")],
    "ARM": [("armv7-unknown-linux-gnueabihf", ""), ("thumbv7em-none-eabi", ""), ("thumbv6m-none-eabi", "")],
    "AMDGPU": [("amdgcn-amd-amdhsa", "-mcpu=gfx90a"), ("amdgcn-amd-amdhsa", "-mcpu=gfx1100"),
               ("amdgcn-amd-amdpal", "-mcpu=gfx1030"), ("r600-unknown-unknown", "-mcpu=cypress")],
    "AVR": [("avr-unknown-unknown", "-mcpu=atmega328p")],
    "BPF": [("bpfel-unknown-none", "")],
    "Hexagon": [("hexagon-unknown-linux-musl", "")],
    "Lanai": [("lanai-unknown-unknown", "")],
    "LoongArch": [("loongarch64-unknown-linux-gnu", ""), ("loongarch32-unknown-elf", "")],
    "Mips": [("mips-unknown-linux-gnu", ""), ("mips64el-unknown-linux-gnuabi64", "")],
    "MSP430": [("msp430-unknown-unknown", "")],
    "NVPTX": [("nvptx64-nvidia-cuda", "-mcpu=sm_80")],
    "PowerPC": [("powerpc64le-unknown-linux-gnu", ""), ("powerpc64-ibm-aix", ""), ("powerpc-unknown-linux-gnu", "")],
    "RISCV": [("riscv64-unknown-linux-gnu", "-mattr=+m,+a,+f,+d,+c,+v"), ("riscv32-unknown-elf", "-mattr=+m")],
    "Sparc": [("sparcv9-unknown-linux-gnu", ""), ("sparc-unknown-linux-gnu", "")],
    "SPIRV": [("spirv64-unknown-unknown", "")],
    "SystemZ": [("s390x-unknown-linux-gnu", "")],
    "VE": [("ve-unknown-linux-gnu", "")],
    "WebAssembly": [("wasm32-unknown-unknown", ""), ("wasm64-unknown-unknown", "-mattr=+simd128")],
    "XCore": [("xcore-unknown-unknown", "")],
}
# Backends that write only assembly (an object request is a typed TargetError there).
ASM_ONLY = {"NVPTX", "XCore"}
# Calling conventions a frontend for that backend emits (all of them also take the generic ones).
OWN_CCS = {
    "X86": ["x86_stdcallcc", "x86_fastcallcc", "x86_vectorcallcc", "x86_regcallcc", "x86_thiscallcc", "win64cc",
            "x86_64_sysvcc", "x86_intrcc"],
    "AArch64": ["aarch64_vector_pcs", "aarch64_sve_vector_pcs", "win64cc"],
    "ARM": ["arm_aapcscc", "arm_aapcs_vfpcc", "arm_apcscc"],
    "AMDGPU": ["amdgpu_kernel", "amdgpu_cs", "amdgpu_ps", "amdgpu_vs", "amdgpu_gs", "amdgpu_gfx", "amdgpu_cs_chain"],
    "AVR": ["avr_intrcc", "avr_signalcc"],
    "MSP430": ["msp430_intrcc"],
    "NVPTX": ["ptx_kernel", "ptx_device"],
    "SPIRV": ["spir_func", "spir_kernel"],
    "RISCV": ["riscv_vector_cc"],
}
GENERIC_CCS = ["ccc", "fastcc", "coldcc", "tailcc", "swiftcc", "swifttailcc", "preserve_mostcc", "preserve_allcc",
               "preserve_nonecc", "ghccc", "anyregcc"]
# Address spaces the backend gives a meaning to (0 everywhere).
ADDRSPACES = {"X86": [256, 257, 258, 270, 271, 272], "AMDGPU": [1, 3, 4, 5, 6, 7, 8], "NVPTX": [1, 3, 4, 5, 101],
              "SPIRV": [1, 2, 3, 4, 5, 6], "AVR": [1], "WebAssembly": [1, 10, 20], "BPF": [1]}

INTS = ["i1", "i8", "i16", "i32", "i64", "i128"]
FLOATS = ["half", "bfloat", "float", "double", "fp128"]
INT_VECTORS = ["<2 x i64>", "<4 x i32>", "<8 x i16>", "<16 x i8>", "<16 x i32>", "<8 x i32>", "<3 x i32>",
               "<1 x i64>", "<4 x i1>", "<32 x i8>", "<4 x i64>"]
FP_VECTORS = ["<4 x float>", "<2 x double>", "<8 x float>", "<4 x half>", "<3 x float>"]
LEVELS = ("-O0", "-O2")
# What every refusal of csrc/llvm_bugs/backend_guards.cpp says.
GUARD_MARK = "a known LLVM 23.1.1"
CATEGORIES = ("intrinsic", "callconv", "eh", "debuginfo", "switch", "varargs", "addrspace", "atomic", "wideint",
              "corpus")


def scalar_of(ty: str) -> str:
    return ty.split(" x ")[1].rstrip(">") if ty.startswith("<") else ty


def mangle(ty: str) -> str:
    """The overload suffix of an intrinsic for this type: i32, v4i32, f64..."""
    names = {"half": "f16", "bfloat": "bf16", "float": "f32", "double": "f64", "fp128": "f128", "ptr": "p0"}
    if ty.startswith("<"):
        count, elem = ty[1:-1].split(" x ")
        return f"v{count}{mangle(elem)}"
    return names.get(ty, ty)


def const_of(ty: str, rng: random.Random) -> str:
    base = scalar_of(ty)
    if base in FLOATS:
        value = rng.choice(["1.0", "0.5", "-2.0", "0.0"])
    else:
        value = str(rng.choice([0, 1, -1, 7, 255])) if base != "i1" else rng.choice(["true", "false"])
    return f"splat ({base} {value})" if ty.startswith("<") else value


# -- generators: each returns a module's text (without a target triple) -------


def gen_intrinsic(rng: random.Random, backend: str) -> str:
    kind = rng.choice(["int_unary", "int_binary", "overflow", "fp_unary", "fp_binary", "fp_ternary", "fp_int",
                       "reduce", "memory", "stack", "misc", "masked", "vector_shuffle"])
    if kind in ("int_unary", "int_binary", "overflow"):
        ty = rng.choice(INTS[1:] + INT_VECTORS)
        if kind == "int_unary":
            name, extra = rng.choice([("ctpop", ""), ("bswap", ""), ("bitreverse", ""), ("abs", ", i1 false"),
                                      ("ctlz", ", i1 false"), ("cttz", ", i1 true")])
            if name == "bswap" and scalar_of(ty) == "i8":
                ty = ty.replace("i8", "i16")
            body = f"  %r = call {ty} @llvm.{name}.{mangle(ty)}({ty} %a{extra})\n  ret {ty} %r"
            return (f"declare {ty} @llvm.{name}.{mangle(ty)}({ty}{', i1' if extra else ''})\n"
                    f"define {ty} @f({ty} %a, {ty} %b) {{\n{body}\n}}\n")
        if kind == "int_binary":
            name = rng.choice(["smin", "smax", "umin", "umax", "sadd.sat", "uadd.sat", "ssub.sat", "usub.sat",
                               "ushl.sat", "sshl.sat", "fshl", "fshr", "scmp", "ucmp"])
            three = name in ("fshl", "fshr")
            args = f"{ty} %a, {ty} %b" + (f", {ty} %b" if three else "")
            decl_args = ", ".join([ty] * (3 if three else 2))
            ret = ty
            if name in ("scmp", "ucmp"):
                ret = ty.replace(scalar_of(ty), "i8") if ty.startswith("<") else "i8"
                return (f"declare {ret} @llvm.{name}.{mangle(ret)}.{mangle(ty)}({decl_args})\n"
                        f"define {ret} @f({ty} %a, {ty} %b) {{\n  %r = call {ret} @llvm.{name}.{mangle(ret)}"
                        f".{mangle(ty)}({args})\n  ret {ret} %r\n}}\n")
            return (f"declare {ty} @llvm.{name}.{mangle(ty)}({decl_args})\n"
                    f"define {ty} @f({ty} %a, {ty} %b) {{\n  %r = call {ty} @llvm.{name}.{mangle(ty)}({args})\n"
                    f"  ret {ty} %r\n}}\n")
        name = rng.choice(["sadd", "uadd", "ssub", "usub", "smul", "umul"])
        flag = ty.replace(scalar_of(ty), "i1") if ty.startswith("<") else "i1"
        return (f"declare {{ {ty}, {flag} }} @llvm.{name}.with.overflow.{mangle(ty)}({ty}, {ty})\n"
                f"define {ty} @f({ty} %a, {ty} %b, ptr %o) {{\n"
                f"  %r = call {{ {ty}, {flag} }} @llvm.{name}.with.overflow.{mangle(ty)}({ty} %a, {ty} %b)\n"
                f"  %v = extractvalue {{ {ty}, {flag} }} %r, 0\n  %c = extractvalue {{ {ty}, {flag} }} %r, 1\n"
                f"  store {flag} %c, ptr %o\n  ret {ty} %v\n}}\n")
    if kind in ("fp_unary", "fp_binary", "fp_ternary", "fp_int"):
        ty = rng.choice(FLOATS + FP_VECTORS)
        m = mangle(ty)
        if kind == "fp_unary":
            name = rng.choice(["sqrt", "fabs", "floor", "ceil", "trunc", "rint", "nearbyint", "round", "roundeven",
                               "sin", "cos", "tan", "exp", "exp2", "exp10", "log", "log2", "log10", "canonicalize"])
            return (f"declare {ty} @llvm.{name}.{m}({ty})\ndefine {ty} @f({ty} %a) {{\n"
                    f"  %r = call {ty} @llvm.{name}.{m}({ty} %a)\n  ret {ty} %r\n}}\n")
        if kind == "fp_binary":
            name = rng.choice(["minnum", "maxnum", "minimum", "maximum", "minimumnum", "maximumnum", "copysign",
                               "pow"])
            return (f"declare {ty} @llvm.{name}.{m}({ty}, {ty})\ndefine {ty} @f({ty} %a, {ty} %b) {{\n"
                    f"  %r = call {ty} @llvm.{name}.{m}({ty} %a, {ty} %b)\n  ret {ty} %r\n}}\n")
        if kind == "fp_ternary":
            name = rng.choice(["fma", "fmuladd"])
            return (f"declare {ty} @llvm.{name}.{m}({ty}, {ty}, {ty})\ndefine {ty} @f({ty} %a, {ty} %b) {{\n"
                    f"  %r = call {ty} @llvm.{name}.{m}({ty} %a, {ty} %b, {ty} %a)\n  ret {ty} %r\n}}\n")
        ity = rng.choice(["i8", "i32", "i64", "i128"])
        if ty.startswith("<"):
            ity = ty.replace(scalar_of(ty), ity)
        name = rng.choice(["fptosi.sat", "fptoui.sat", "lrint", "llrint", "lround", "llround"])
        if name in ("lrint", "llrint", "lround", "llround"):
            ity = ty.replace(scalar_of(ty), "i64") if ty.startswith("<") else "i64"
        return (f"declare {ity} @llvm.{name}.{mangle(ity)}.{m}({ty})\ndefine {ity} @f({ty} %a) {{\n"
                f"  %r = call {ity} @llvm.{name}.{mangle(ity)}.{m}({ty} %a)\n  ret {ity} %r\n}}\n")
    if kind == "reduce":
        if rng.random() < 0.7:
            ty = rng.choice(INT_VECTORS)
            name = rng.choice(["add", "mul", "and", "or", "xor", "smax", "smin", "umax", "umin"])
            s = scalar_of(ty)
            return (f"declare {s} @llvm.vector.reduce.{name}.{mangle(ty)}({ty})\ndefine {s} @f({ty} %v) {{\n"
                    f"  %r = call {s} @llvm.vector.reduce.{name}.{mangle(ty)}({ty} %v)\n  ret {s} %r\n}}\n")
        ty = rng.choice(FP_VECTORS)
        s = scalar_of(ty)
        name = rng.choice(["fadd", "fmul", "fmax", "fmin", "fmaximum", "fminimum"])
        if name in ("fadd", "fmul"):
            fast = rng.choice(["", "reassoc "])
            return (f"declare {s} @llvm.vector.reduce.{name}.{mangle(ty)}({s}, {ty})\n"
                    f"define {s} @f({s} %s, {ty} %v) {{\n"
                    f"  %r = call {fast}{s} @llvm.vector.reduce.{name}.{mangle(ty)}({s} %s, {ty} %v)\n"
                    f"  ret {s} %r\n}}\n")
        return (f"declare {s} @llvm.vector.reduce.{name}.{mangle(ty)}({ty})\ndefine {s} @f({ty} %v) {{\n"
                f"  %r = call {s} @llvm.vector.reduce.{name}.{mangle(ty)}({ty} %v)\n  ret {s} %r\n}}\n")
    if kind == "memory":
        name = rng.choice(["memcpy", "memmove", "memset", "memcpy.inline", "memset.inline"])
        length = rng.choice(["i64 0", "i64 1", "i64 7", "i64 16", "i64 33", "i64 256", "i64 4096", "i64 %n"])
        if name.endswith("inline") and length == "i64 %n":
            length = "i64 64"
        volatile = rng.choice(["false", "true"])
        align = rng.choice(["", "align 1 ", "align 16 "])
        if name.startswith("memset"):
            decl = f"declare void @llvm.{name}.p0.i64(ptr, i8, i64, i1)"
            call = f"call void @llvm.{name}.p0.i64(ptr {align}%d, i8 %c, {length}, i1 {volatile})"
        else:
            decl = f"declare void @llvm.{name}.p0.p0.i64(ptr, ptr, i64, i1)"
            call = f"call void @llvm.{name}.p0.p0.i64(ptr {align}%d, ptr {align}%s, {length}, i1 {volatile})"
        return f"{decl}\ndefine void @f(ptr %d, ptr %s, i8 %c, i64 %n) {{\n  {call}\n  ret void\n}}\n"
    if kind == "stack":
        depth = rng.choice([0, 0, 1])
        name = rng.choice(["frameaddress", "returnaddress", "addressofreturnaddress", "stacksave", "sponentry"])
        if name == "stacksave":
            return ("declare ptr @llvm.stacksave.p0()\ndeclare void @llvm.stackrestore.p0(ptr)\n"
                    "declare void @use(ptr)\ndefine void @f(i64 %n) {\n  %s = call ptr @llvm.stacksave.p0()\n"
                    "  %a = alloca i8, i64 %n, align 16\n  call void @use(ptr %a)\n"
                    "  call void @llvm.stackrestore.p0(ptr %s)\n  ret void\n}\n")
        if name in ("frameaddress", "returnaddress"):
            suffix = ".p0" if name == "frameaddress" else ""
            return (f"declare ptr @llvm.{name}{suffix}(i32)\ndefine ptr @f() {{\n"
                    f"  %p = call ptr @llvm.{name}{suffix}(i32 {depth})\n  ret ptr %p\n}}\n")
        mangled = ".p0" if name == "addressofreturnaddress" else ""
        return (f"declare ptr @llvm.{name}{mangled}()\ndefine ptr @f() {{\n  %p = call ptr @llvm.{name}{mangled}()\n"
                "  ret ptr %p\n}\n")
    if kind == "misc":
        body = rng.choice([
            "declare void @llvm.trap()\ndefine void @f() {\n  call void @llvm.trap()\n  unreachable\n}\n",
            "declare void @llvm.debugtrap()\ndefine void @f() {\n  call void @llvm.debugtrap()\n  ret void\n}\n",
            "declare void @llvm.ubsantrap(i8)\ndefine void @f() {\n  call void @llvm.ubsantrap(i8 3)\n  unreachable\n}\n",
            "declare void @llvm.prefetch.p0(ptr, i32, i32, i32)\ndefine void @f(ptr %p) {\n"
            "  call void @llvm.prefetch.p0(ptr %p, i32 0, i32 3, i32 1)\n  ret void\n}\n",
            "declare i64 @llvm.readcyclecounter()\ndefine i64 @f() {\n  %c = call i64 @llvm.readcyclecounter()\n"
            "  ret i64 %c\n}\n",
            "declare ptr @llvm.thread.pointer.p0()\ndefine ptr @f() {\n  %p = call ptr @llvm.thread.pointer.p0()\n"
            "  ret ptr %p\n}\n",
            "declare i32 @llvm.get.rounding()\ndefine i32 @f() {\n  %r = call i32 @llvm.get.rounding()\n  ret i32 %r\n}\n",
            "declare void @llvm.set.rounding(i32)\ndefine void @f(i32 %m) {\n  call void @llvm.set.rounding(i32 %m)\n"
            "  ret void\n}\n",
            "declare ptr @llvm.ptrmask.p0.i64(ptr, i64)\ndefine ptr @f(ptr %p) {\n"
            "  %q = call ptr @llvm.ptrmask.p0.i64(ptr %p, i64 -16)\n  ret ptr %q\n}\n",
            "declare i64 @llvm.objectsize.i64.p0(ptr, i1, i1, i1)\ndefine i64 @f(ptr %p) {\n"
            "  %s = call i64 @llvm.objectsize.i64.p0(ptr %p, i1 false, i1 true, i1 true)\n  ret i64 %s\n}\n",
            "declare void @llvm.clear_cache(ptr, ptr)\ndefine void @f(ptr %a, ptr %b) {\n"
            "  call void @llvm.clear_cache(ptr %a, ptr %b)\n  ret void\n}\n",
            "@t = thread_local global i32 0\ndefine i32 @f() {\n  %v = load i32, ptr @t\n  ret i32 %v\n}\n",
            "define i32 @f(i32 %x) {\nentry:\n  %t = select i1 true, ptr blockaddress(@f, %a), ptr blockaddress(@f, %b)\n"
            "  indirectbr ptr %t, [label %a, label %b]\na:\n  ret i32 1\nb:\n  ret i32 %x\n}\n",
            "declare i1 @llvm.is.fpclass.f64(double, i32)\ndefine i1 @f(double %x) {\n"
            "  %r = call i1 @llvm.is.fpclass.f64(double %x, i32 3)\n  ret i1 %r\n}\n",
            "declare void @use(ptr)\ndefine void @f(i64 %n) {\n  %a = alloca i8, i64 %n, align 64\n"
            "  call void @use(ptr %a)\n  ret void\n}\n",
        ])
        return body
    if kind == "masked":
        ty = rng.choice(["<4 x i32>", "<8 x float>", "<2 x i64>", "<16 x i8>"])
        n = ty[1:].split(" ")[0]
        mask = f"<{n} x i1>"
        m = mangle(ty)
        return rng.choice([
            f"declare {ty} @llvm.masked.load.{m}.p0(ptr, i32, {mask}, {ty})\n"
            f"define {ty} @f(ptr %p, {mask} %m, {ty} %t) {{\n"
            f"  %r = call {ty} @llvm.masked.load.{m}.p0(ptr %p, i32 4, {mask} %m, {ty} %t)\n  ret {ty} %r\n}}\n",
            f"declare void @llvm.masked.store.{m}.p0({ty}, ptr, i32, {mask})\n"
            f"define void @f(ptr %p, {mask} %m, {ty} %v) {{\n"
            f"  call void @llvm.masked.store.{m}.p0({ty} %v, ptr %p, i32 4, {mask} %m)\n  ret void\n}}\n",
            f"declare {ty} @llvm.masked.gather.{m}.v{n}p0(<{n} x ptr>, i32, {mask}, {ty})\n"
            f"define {ty} @f(<{n} x ptr> %p, {mask} %m, {ty} %t) {{\n"
            f"  %r = call {ty} @llvm.masked.gather.{m}.v{n}p0(<{n} x ptr> %p, i32 4, {mask} %m, {ty} %t)\n"
            f"  ret {ty} %r\n}}\n",
            f"declare {mask} @llvm.get.active.lane.mask.v{n}i1.i64(i64, i64)\n"
            f"define {mask} @f(i64 %a, i64 %b) {{\n"
            f"  %r = call {mask} @llvm.get.active.lane.mask.v{n}i1.i64(i64 %a, i64 %b)\n  ret {mask} %r\n}}\n",
        ])
    ty = rng.choice(INT_VECTORS[:6] + FP_VECTORS[:2])
    m = mangle(ty)
    return rng.choice([
        f"declare {ty} @llvm.vector.reverse.{m}({ty})\ndefine {ty} @f({ty} %a) {{\n"
        f"  %r = call {ty} @llvm.vector.reverse.{m}({ty} %a)\n  ret {ty} %r\n}}\n",
        f"declare {ty} @llvm.vector.splice.{m}({ty}, {ty}, i32)\ndefine {ty} @f({ty} %a, {ty} %b) {{\n"
        f"  %r = call {ty} @llvm.vector.splice.{m}({ty} %a, {ty} %b, i32 1)\n  ret {ty} %r\n}}\n",
        f"define {ty} @f({ty} %a, {ty} %b) {{\n  %r = shufflevector {ty} %a, {ty} %b, "
        f"<{ty[1:].split(' ')[0]} x i32> zeroinitializer\n  ret {ty} %r\n}}\n",
    ])


def gen_callconv(rng: random.Random, backend: str) -> str:
    cc = rng.choice(GENERIC_CCS + OWN_CCS.get(backend, []) * 2)
    types = INTS[1:] + ["float", "double", "ptr", "<4 x i32>", "{ i32, i64 }", "[2 x i64]", "<2 x double>"]
    nargs = rng.randint(0, 12)
    args = [rng.choice(types) for _ in range(nargs)]
    ret = rng.choice(["void", "void"] + types)
    kernel = cc in ("amdgpu_kernel", "ptx_kernel", "spir_kernel", "amdgpu_cs_chain", "avr_intrcc", "avr_signalcc",
                    "msp430_intrcc", "x86_intrcc")
    if kernel:
        ret = "void"
        if cc == "x86_intrcc":
            args = ["ptr byval(i64)"]
        elif cc in ("avr_intrcc", "avr_signalcc", "msp430_intrcc"):
            args = []
    attrs = []
    for a in args:
        extra = ""
        if a in ("i8", "i16", "i1") and rng.random() < 0.5:
            extra = rng.choice([" zeroext", " signext"])
        elif a == "ptr" and rng.random() < 0.3:
            extra = rng.choice([" byval(i64)", " noalias", " nonnull", " inreg", " byval({ i32, i64 })"])
        elif a not in ("{ i32, i64 }", "[2 x i64]") and rng.random() < 0.1:
            extra = " inreg"
        attrs.append(a + extra)
    sret = ret == "void" and not kernel and rng.random() < 0.2
    if sret:
        attrs.insert(0, "ptr sret({ i64, i64, i64 }) align 8")
    params = ", ".join(f"{a} %a{i}" for i, a in enumerate(attrs))
    body_ret = "ret void" if ret == "void" else f"ret {ret} {'zeroinitializer' if ret[0] in '{[<' else ('null' if ret == 'ptr' else ('0.0' if ret in ('float', 'double') else ('false' if ret == 'i1' else '1')))}"
    if args and ret == args[-1] and rng.random() < 0.6:
        body_ret = f"ret {ret} %a{len(attrs) - 1}"
    callee = f"define {cc} {ret} @callee({params}) {{\n  {body_ret}\n}}\n"
    if kernel:
        return callee
    call_args = ", ".join(f"{a} {'%x' + str(i)}" for i, a in enumerate(attrs))
    tail = rng.choice(["", "tail ", "musttail " if cc in ("tailcc", "swifttailcc", "ccc", "fastcc") else ""])
    caller_cc = cc if tail == "musttail " else rng.choice(["", cc])
    caller_ret = ret if tail == "musttail " else ret
    callret = "" if ret == "void" else "%r = "
    tail_ret = "ret void" if ret == "void" else f"ret {ret} %r"
    return (callee + f"define {caller_cc} {caller_ret} @caller({params.replace('%a', '%x')}) {{\n"
            f"  {callret}{tail}call {cc} {ret} @callee({call_args})\n  {tail_ret}\n}}\n")


def gen_eh(rng: random.Random, backend: str, triple: str) -> str:
    ret = rng.choice(["void", "i32", "i64", "double"])
    value = {"void": "", "i32": " 0", "i64": " 1", "double": " 0.0"}[ret]
    ret_ok = f"ret {ret}{value}".replace("ret void ", "ret void")
    if "windows-msvc" in triple and rng.random() < 0.7:
        return (f"declare void @g()\ndeclare i32 @__CxxFrameHandler3(...)\n"
                f"define {ret} @f() personality ptr @__CxxFrameHandler3 {{\nentry:\n"
                f"  invoke void @g() to label %ok unwind label %dispatch\nok:\n  {ret_ok}\n"
                f"dispatch:\n  %cs = catchswitch within none [label %handler] unwind to caller\n"
                f"handler:\n  %cp = catchpad within %cs [ptr null, i32 64, ptr null]\n"
                f"  catchret from %cp to label %ok\n}}\n")
    clause = rng.choice(["cleanup", "catch ptr @_ZTIi", "catch ptr null", "filter [1 x ptr] [ptr @_ZTIi]",
                         "cleanup\n    catch ptr @_ZTIi"])
    handler = rng.choice(["resume", "catch", "catch", "rethrow_call"])
    invoked = rng.choice(["void @g()", "i32 @h(i32 7)"])
    result = "" if invoked.startswith("void") else "%v = "
    lines = [
        "@_ZTIi = external constant ptr",
        "declare void @g()",
        "declare i32 @h(i32)",
        "declare ptr @__cxa_begin_catch(ptr)",
        "declare void @__cxa_end_catch()",
        "declare i32 @__gxx_personality_v0(...)",
        f"define {ret} @f() {rng.choice(['', 'uwtable ', 'nounwind '])}personality ptr @__gxx_personality_v0 {{",
        "entry:",
        f"  {result}invoke {invoked} to label %ok unwind label %lp",
        "ok:",
    ]
    if rng.random() < 0.3:  # a second invoke on the normal path
        lines += ["  invoke void @g() to label %ok2 unwind label %lp", "ok2:"]
    lines += [f"  {ret_ok}", "lp:", f"  %l = landingpad {{ ptr, i32 }} {clause}"]
    if handler == "resume" or "catch" not in clause:
        lines += ["  resume { ptr, i32 } %l"]
    else:
        lines += ["  %e = extractvalue { ptr, i32 } %l, 0", "  %c = call ptr @__cxa_begin_catch(ptr %e)"]
        if handler == "rethrow_call":
            lines += ["  invoke void @g() to label %end unwind label %lp2", "end:"]
        lines += ["  call void @__cxa_end_catch()", f"  {ret_ok}"]
        if handler == "rethrow_call":
            lines += ["lp2:", "  %l2 = landingpad { ptr, i32 } cleanup", "  resume { ptr, i32 } %l2"]
    lines.append("}")
    return "\n".join(lines) + "\n"


def gen_debuginfo(rng: random.Random, backend: str, triple: str) -> str:
    version = rng.choice([2, 3, 4, 5, 5])
    flag = f'!{{i32 7, !"Dwarf Version", i32 {version}}}'
    if "windows-msvc" in triple and rng.random() < 0.5:
        flag = '!{i32 2, !"CodeView", i32 1}'
    emission = rng.choice(["FullDebug", "FullDebug", "LineTablesOnly", "NoDebug"])
    ty = rng.choice(["i32", "i64", "double", "i8"])
    encoding = {"i32": "DW_ATE_signed", "i64": "DW_ATE_signed", "double": "DW_ATE_float", "i8": "DW_ATE_unsigned_char"}
    bits = {"i32": 32, "i64": 64, "double": 64, "i8": 8}[ty]
    extra_flags = []
    if rng.random() < 0.2:
        extra_flags.append('!{i32 7, !"DWARF64", i32 1}')
    record = rng.choice(["declare", "value", "both"])
    body = [f"define {ty} @f({ty} %x) !dbg !10 {{", f"  %a = alloca {ty}, align 8"]
    if record in ("declare", "both"):
        body.append("    #dbg_declare(ptr %a, !20, !DIExpression(), !30)")
    body.append(f"  store {ty} %x, ptr %a, align 8, !dbg !30")
    if record in ("value", "both"):
        body.append(f"    #dbg_value({ty} %x, !21, !DIExpression(), !30)")
    body += [f"  %v = load {ty}, ptr %a, align 8, !dbg !31", f"  %r = call {ty} @g({ty} %v), !dbg !32",
             f"  ret {ty} %r, !dbg !31", "}"]
    inline = rng.random() < 0.5
    module_flags = ["!2", "!3"] + [f"!{40 + i}" for i in range(len(extra_flags))]
    meta = [
        f"@gv = global {ty} {'0.0' if ty == 'double' else '0'}, !dbg !50",
        f"define internal {ty} @g({ty} %y) {'alwaysinline ' if inline else ''}!dbg !11 {{",
        f"  ret {ty} %y, !dbg !33",
        "}",
        *body,
        "!llvm.dbg.cu = !{!0}",
        f"!llvm.module.flags = !{{{', '.join(module_flags)}}}",
        '!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "campaign", isOptimized: true, '
        f"runtimeVersion: 0, emissionKind: {emission}, globals: !52{', splitDebugInlining: false' if rng.random() < .3 else ''}"
        f"{', nameTableKind: None' if rng.random() < .3 else ''})",
        '!1 = !DIFile(filename: "campaign.c", directory: "/tmp")',
        f"!2 = {flag}",
        '!3 = !{i32 2, !"Debug Info Version", i32 3}',
        *[f"!{40 + i} = {f}" for i, f in enumerate(extra_flags)],
        '!10 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !12, scopeLine: 3, '
        "flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !14)",
        '!11 = distinct !DISubprogram(name: "g", scope: !1, file: !1, line: 1, type: !12, scopeLine: 1, '
        "spFlags: DISPFlagLocalToUnit | DISPFlagDefinition, unit: !0)",
        "!12 = !DISubroutineType(types: !13)",
        "!13 = !{!15, !15}",
        "!14 = !{!20, !21}",
        f'!15 = !DIBasicType(name: "t", size: {bits}, encoding: {encoding[ty]})',
        '!20 = !DILocalVariable(name: "a", scope: !10, file: !1, line: 4, type: !15)',
        '!21 = !DILocalVariable(name: "x", arg: 1, scope: !10, file: !1, line: 3, type: !15)',
        "!30 = !DILocation(line: 4, column: 3, scope: !10)",
        "!31 = !DILocation(line: 5, column: 10, scope: !10)",
        "!32 = !DILocation(line: 5, column: 3, scope: !10)",
        "!33 = !DILocation(line: 1, column: 30, scope: !11)",
        "!50 = !DIGlobalVariableExpression(var: !51, expr: !DIExpression())",
        '!51 = distinct !DIGlobalVariable(name: "gv", scope: !0, file: !1, line: 1, type: !15, isLocal: false, '
        "isDefinition: true)",
        "!52 = !{!50}",
    ]
    return "\n".join(meta) + "\n"


def gen_switch(rng: random.Random, backend: str) -> str:
    ty = rng.choice(["i8", "i16", "i32", "i32", "i64", "i128"])
    bits = int(ty[1:])
    n = rng.choice([1, 2, 3, 4, 8, 17, 64, 200])
    shape = rng.choice(["dense", "sparse", "random"])
    values: list[int] = []
    for k in range(n):
        v = k if shape == "dense" else (k * 1000 + 3 if shape == "sparse" else rng.randrange(-(1 << 20), 1 << 20))
        values.append(v)
    limit = 1 << (bits - 1)
    values = sorted({v for v in values if -limit <= v < limit}) or [0]
    targets = rng.randint(1, min(len(values), 9))
    default = rng.choice(["%d", "%d", "%u"])
    use_phi = rng.random() < 0.5
    lines = [f"define i32 @f({ty} %x, i32 %y) {{", "entry:", f"  switch {ty} %x, label {default} ["]
    lines += [f"    {ty} {v}, label %b{i % targets}" for i, v in enumerate(values)]
    lines.append("  ]")
    for t in range(targets):
        lines += [f"b{t}:", f"  %v{t} = add i32 %y, {t * 7 + 1}", "  br label %join" if use_phi else f"  ret i32 %v{t}"]
    lines += ["d:", "  br label %join" if use_phi else "  ret i32 -1"]
    lines += ["u:", "  unreachable"]
    if use_phi:
        incoming = ", ".join(f"[ %v{t}, %b{t} ]" for t in range(targets))
        lines += ["join:", f"  %p = phi i32 {incoming}, [ -1, %d ]", "  ret i32 %p"]
    lines.append("}")
    return "\n".join(lines) + "\n"


def gen_varargs(rng: random.Random, backend: str) -> str:
    ty = rng.choice(["i32", "i64", "double", "ptr", "i8", "float", "i128", "fp128", "<4 x float>"])
    call_types = [rng.choice(["i32", "i64", "double", "ptr", "i128", "fp128", "<4 x float>", "float"])
                  for _ in range(rng.randint(0, 9))]
    call_args = ", ".join(f"{t} {'null' if t == 'ptr' else ('0.0' if t in ('double', 'float', 'fp128') else ('zeroinitializer' if t[0] == '<' else '1'))}"
                          for t in call_types)
    copy = rng.random() < 0.4
    lines = [
        "declare void @llvm.va_start.p0(ptr)",
        "declare void @llvm.va_end.p0(ptr)",
        "declare void @llvm.va_copy.p0(ptr, ptr)",
        f"define {ty} @v(i32 %n, ...) {{",
        "  %ap = alloca [32 x i8], align 16",
        "  %ap2 = alloca [32 x i8], align 16",
        "  call void @llvm.va_start.p0(ptr %ap)",
    ]
    if copy:
        lines.append("  call void @llvm.va_copy.p0(ptr %ap2, ptr %ap)")
    lines += [f"  %x = va_arg ptr %{'ap2' if copy else 'ap'}, {ty}", "  call void @llvm.va_end.p0(ptr %ap)",
              f"  ret {ty} %x", "}",
              "declare i32 @printf(ptr, ...)",
              f"define {ty} @caller() {{",
              f"  %r = call {ty} (i32, ...) @v(i32 1{', ' + call_args if call_args else ''})",
              f"  %p = call i32 (ptr, ...) @printf(ptr null{', ' + call_args if call_args else ''})",
              f"  ret {ty} %r", "}"]
    return "\n".join(lines) + "\n"


def gen_addrspace(rng: random.Random, backend: str) -> str:
    spaces = [0] + ADDRSPACES.get(backend, [1, 2])
    a, b = rng.sample(spaces, 2)
    ty = rng.choice(["i8", "i32", "i64", "float", "<4 x i32>", "double"])
    op = rng.choice(["load", "store", "cast", "global", "atomic", "memcpy", "gep"])
    pa, pb = f"ptr addrspace({a})", f"ptr addrspace({b})"
    if op == "load":
        return f"define {ty} @f({pa} %p) {{\n  %v = load {ty}, {pa} %p, align 4\n  ret {ty} %v\n}}\n"
    if op == "store":
        return f"define void @f({pa} %p, {ty} %v) {{\n  store volatile {ty} %v, {pa} %p, align 4\n  ret void\n}}\n"
    if op == "cast":
        return (f"define {ty} @f({pa} %p) {{\n  %q = addrspacecast {pa} %p to {pb}\n"
                f"  %v = load {ty}, {pb} %q, align 4\n  ret {ty} %v\n}}\n")
    if op == "global":
        return (f"@g = addrspace({a}) global [16 x {ty}] zeroinitializer, align 16\n"
                f"define {ty} @f(i32 %i) {{\n  %p = getelementptr [16 x {ty}], {pa} @g, i32 0, i32 %i\n"
                f"  %v = load {ty}, {pa} %p, align 4\n  store {ty} %v, {pa} @g\n  ret {ty} %v\n}}\n")
    if op == "atomic":
        return (f"define i32 @f({pa} %p) {{\n  %v = atomicrmw add {pa} %p, i32 1 seq_cst, align 4\n"
                f"  ret i32 %v\n}}\n")
    if op == "memcpy":
        return (f"declare void @llvm.memcpy.p{a}.p{b}.i64({pa}, {pb}, i64, i1)\n"
                f"define void @f({pa} %d, {pb} %s) {{\n"
                f"  call void @llvm.memcpy.p{a}.p{b}.i64({pa} %d, {pb} %s, i64 64, i1 false)\n  ret void\n}}\n")
    return (f"define {pa} @f({pa} %p, i64 %i) {{\n  %q = getelementptr inbounds {ty}, {pa} %p, i64 %i\n"
            f"  ret {pa} %q\n}}\n")


def gen_atomic(rng: random.Random, backend: str) -> str:
    ty = rng.choice(["i8", "i16", "i32", "i64", "i128", "float", "double", "ptr"])
    order = rng.choice(["monotonic", "acquire", "release", "acq_rel", "seq_cst"])
    scope = rng.choice(["", "", ' syncscope("singlethread")'])
    size = {"i8": 1, "i16": 2, "i32": 4, "i64": 8, "i128": 16, "float": 4, "double": 8, "ptr": 8}[ty]
    op = rng.choice(["rmw", "rmw", "cmpxchg", "load", "store", "fence"])
    if op == "fence":
        fence_order = order if order != "monotonic" else "seq_cst"
        return f"define void @f() {{\n  fence{scope} {fence_order}\n  ret void\n}}\n"
    if op == "load":
        load_order = order.replace("release", "acquire").replace("acq_rel", "acquire")
        return (f"define {ty} @f(ptr %p) {{\n  %v = load atomic {ty}, ptr %p{scope} {load_order}, align {size}\n"
                f"  ret {ty} %v\n}}\n")
    if op == "store":
        store_order = order.replace("acquire", "release").replace("acq_rel", "release")
        return (f"define void @f(ptr %p, {ty} %v) {{\n  store atomic {ty} %v, ptr %p{scope} {store_order}, align {size}\n"
                f"  ret void\n}}\n")
    if op == "cmpxchg" and ty in ("float", "double"):
        ty = "i64"
    if op == "cmpxchg":
        fail = rng.choice(["monotonic", "acquire", "seq_cst"])
        weak = rng.choice(["", "weak "])
        return (f"define {ty} @f(ptr %p, {ty} %a, {ty} %b) {{\n"
                f"  %r = cmpxchg {weak}ptr %p, {ty} %a, {ty} %b{scope} {order} {fail}\n"
                f"  %v = extractvalue {{ {ty}, i1 }} %r, 0\n  ret {ty} %v\n}}\n")
    if ty in ("float", "double"):
        name = rng.choice(["fadd", "fsub", "fmax", "fmin", "xchg", "fmaximum", "fminimum"])
    elif ty == "ptr":
        name = "xchg"
    else:
        name = rng.choice(["xchg", "add", "sub", "and", "nand", "or", "xor", "max", "min", "umax", "umin",
                           "uinc_wrap", "udec_wrap", "usub_cond", "usub_sat"])
    return (f"define {ty} @f(ptr %p, {ty} %v) {{\n  %r = atomicrmw {name} ptr %p, {ty} %v{scope} {order}, align {size}\n"
            f"  ret {ty} %r\n}}\n")


def gen_wideint(rng: random.Random, backend: str) -> str:
    ty = rng.choice(["i128", "i256", "i65", "i33", "i17", "i7", "i512"])
    op = rng.choice(["sdiv", "udiv", "srem", "urem", "mul", "shl", "lshr", "ashr", "add", "sitofp", "uitofp",
                     "fptosi", "fptoui", "icmp"])
    fp = rng.choice(["float", "double", "half", "fp128"])
    if op in ("sitofp", "uitofp"):
        return f"define {fp} @f({ty} %a) {{\n  %r = {op} {ty} %a to {fp}\n  ret {fp} %r\n}}\n"
    if op in ("fptosi", "fptoui"):
        return f"define {ty} @f({fp} %a) {{\n  %r = {op} {fp} %a to {ty}\n  ret {ty} %r\n}}\n"
    if op == "icmp":
        return (f"define i1 @f({ty} %a, {ty} %b) {{\n  %r = icmp {rng.choice(['slt', 'ult', 'eq'])} {ty} %a, %b\n"
                f"  ret i1 %r\n}}\n")
    return f"define {ty} @f({ty} %a, {ty} %b) {{\n  %r = {op} {ty} %a, %b\n  ret {ty} %r\n}}\n"


_corpus_cache: list[bytes] = []


def gen_corpus(rng: random.Random, backend: str) -> str:
    if not _corpus_cache:
        _corpus_cache.extend(path.read_bytes() for path in sorted(CORPUS.glob("*.ll")))
    return rng.choice(_corpus_cache).decode()


GENERATORS = {"intrinsic": gen_intrinsic, "callconv": gen_callconv, "switch": gen_switch, "varargs": gen_varargs,
              "addrspace": gen_addrspace, "atomic": gen_atomic, "wideint": gen_wideint, "corpus": gen_corpus}

# -- mutations of a generated module ------------------------------------------

TYPE_SWAPS = [("i32", "i64"), ("i64", "i32"), ("i32", "i16"), ("i32", "i8"), ("i64", "i128"), ("double", "float"),
              ("float", "half"), ("double", "fp128"), ("<4 x i32>", "<8 x i32>"), ("<4 x float>", "<2 x double>")]
FUNCTION_ATTRS = ["noinline optnone", "minsize optsize", '"frame-pointer"="all"', "uwtable", "nounwind",
                  "sspreq", "alignstack(32)", "noredzone", '"patchable-function-entry"="2"', "naked",
                  "nocf_check", "returns_twice", "cold", "hot", "noimplicitfloat", "strictfp"]


def params_end(define: str) -> int:
    """Where a define's parameter list ends: function attributes go there (before personality, !dbg)."""
    depth = 0
    for i in range(define.index("@"), len(define)):
        depth += {"(": 1, ")": -1}.get(define[i], 0)
        if define[i] == ")" and depth == 0:
            return i + 1
    raise ValueError(define)


def mutate(rng: random.Random, text: str) -> tuple[str, str]:
    """A plausible variation of `text`, and what was done (for the report)."""
    choice = rng.random()
    if choice < 0.35:
        old, new = rng.choice(TYPE_SWAPS)
        if old in text:
            return text.replace(old, new), f"type {old}->{new}"
    if choice < 0.85:
        attrs = rng.choice(FUNCTION_ATTRS)
        lines = text.split("\n")
        defines = [i for i, line in enumerate(lines) if line.startswith("define ") and line.endswith("{")]
        if defines:
            i = rng.choice(defines)
            end = params_end(lines[i])
            lines[i] = f"{lines[i][:end]} {attrs}{lines[i][end:]}"
            return "\n".join(lines), f"attrs {attrs}"
    mutated = mutate_text(rng, text.encode()).decode("utf-8", "replace")
    return mutated, "text"


# -- a case -------------------------------------------------------------------


def make_case(seed: int, number: int, backends: list[str], cpus: dict[str, list[str]]) -> dict:
    """Case `number` of `seed`: the same on every machine (its own Random, seeded by both)."""
    rng = random.Random(f"{seed}:{number}")
    backend = backends[number % len(backends)]
    triple, base_flags = rng.choice(TARGETS[backend])
    category = CATEGORIES[(number // len(backends)) % len(CATEGORIES)]
    if category == "eh":
        text = gen_eh(rng, backend, triple)
    elif category == "debuginfo":
        text = gen_debuginfo(rng, backend, triple)
    else:
        text = GENERATORS[category](rng, backend)
    mutation = ""
    if category == "corpus" or rng.random() < 0.3:
        text, mutation = mutate(rng, text)
    flags = [rng.choice(LEVELS)]
    if base_flags:
        flags.append(base_flags)
    if rng.random() < 0.2 and cpus.get(triple):
        flags = [f for f in flags if not f.startswith("-mcpu")] + [f"-mcpu={rng.choice(cpus[triple])}"]
    if rng.random() < 0.1:
        flags.append("-relocation-model=pic")
    output = "asm" if backend in ASM_ONLY else rng.choice(["obj", "asm"])
    return {"seed": seed, "number": number, "backend": backend, "triple": triple, "category": category,
            "mutation": mutation, "flags": " ".join(flags), "output": output, "module": text}


def run(plugin: llvmplug.Plugin, case: dict, timeout: float) -> str:
    """The outcome: ok, guarded, the typed error's name, or crash:SIGNAL / timeout."""
    try:
        plugin.compile(case["module"], case["triple"], case["flags"], output=case["output"], timeout=timeout)
    except llvmplug.WorkerCrashedError as error:
        return f"crash:{error.signal}"
    except llvmplug.CompileTimeoutError:
        return "timeout"
    except llvmplug.LLVMPlugError as error:
        if isinstance(error, llvmplug.TargetError) and GUARD_MARK in error.message:
            return "guarded"
        return type(error).__name__
    return "ok"


def header(case: dict, outcome: str) -> str:
    return (f"; backend: {case['backend']}\n; triple: {case['triple']}\n; flags: {case['flags']}\n"
            f"; output: {case['output']}\n; outcome: {outcome}\n"
            f"; found by: tests/campaigns/campaign_backends.py --seed {case['seed']} --case {case['number']} "
            f"({case['category']}{', mutation: ' + case['mutation'] if case['mutation'] else ''})\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--seconds", type=float, default=60.0, help="time budget (cases started after it: none)")
    parser.add_argument("--cases", type=int, default=None, help="stop after this many cases")
    parser.add_argument("--case", type=int, default=None, help="run only this case number")
    parser.add_argument("--show", action="store_true", help="with --case: print the case instead of running it")
    parser.add_argument("--backends", default="all", help="comma-separated subset of the build's backends")
    parser.add_argument("--timeout", type=float, default=10.0, help="per-compile timeout, seconds")
    parser.add_argument("--memory-limit", type=int, default=2 << 30, help="the worker's address space (Linux)")
    parser.add_argument("--out", type=Path, default=None, help="where crashers and hangs are written as .ll")
    parser.add_argument("--keep", type=int, default=3, help="crashers kept per (backend, category, outcome)")
    parser.add_argument("--log", type=Path, default=None, help="write each case's outcome here, one JSON line each")
    parser.add_argument("--check-guards", type=Path, default=None, metavar="SHIM",
                        help="compile every guarded case again with this shim built without the guards (an "
                        "older checkout's llvmplug/_lib/libllvmplug.so): a guard is narrow only if each "
                        "still crashes or hangs there")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)

    built = llvmplug.info()["backends"]
    backends = [b for b in TARGETS if b in built] if args.backends == "all" else args.backends.split(",")
    unknown = [b for b in backends if b not in built or b not in TARGETS]
    if unknown:
        parser.error(f"--backends: not built in or without triples here: {', '.join(unknown)}")
    untargeted = sorted(set(built) - set(TARGETS))
    if untargeted:  # a new LLVM backend: give it triples above
        parser.error(f"no triples for backends {', '.join(untargeted)}: add them to TARGETS")
    with llvmplug.Plugin(private=True) as helper:
        cpus = {t: sorted(helper.target_info(t)["cpus"]) for b in backends for t, _ in TARGETS[b]}

    numbers = [args.case] if args.case is not None else range(args.cases if args.cases is not None else 1 << 62)
    if args.show:
        case = make_case(args.seed, args.case or 0, backends, cpus)
        print(header(case, "not run") + case["module"])
        return 0
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
    limit = args.memory_limit if sys.platform == "linux" and args.memory_limit else None
    outcomes: dict[str, Counter[str]] = defaultdict(Counter)
    by_category: dict[str, Counter[str]] = defaultdict(Counter)
    kept: Counter[tuple] = Counter()
    found: list[dict] = []
    failures: list[str] = []
    guard_checks: Counter[str] = Counter()
    unguarded = llvmplug.Plugin(isolation="process", memory_limit=limit, path=args.check_guards.resolve()) \
        if args.check_guards else None
    log = args.log.open("w") if args.log else None
    started = time.monotonic()
    with llvmplug.Plugin(isolation="process", memory_limit=limit) as plugin:
        for number in numbers:
            if args.case is None and time.monotonic() - started > args.seconds:
                break
            case = make_case(args.seed, number, backends, cpus)
            try:
                outcome = run(plugin, case, args.timeout)
            except Exception as error:  # noqa: BLE001 - outside the contract: record it
                outcome = "untyped"
                failures.append(f"case {number}: {type(error).__name__}: {error}")
            if outcome == "guarded" and unguarded is not None:
                # Without the guard: a crash or hang (the guard is right), another
                # typed error LLVM meets first (harmless), or a result (a false refusal).
                without = run(unguarded, case, args.timeout)
                guard_checks[without if without.startswith("crash") or without == "timeout"
                             else "false refusal" if without == "ok" else "typed error first"] += 1
                if without == "ok":
                    failures.append(f"case {number}: guarded, but compiles without the guards")
            if log:
                log.write(json.dumps({"number": number, "backend": case["backend"], "category": case["category"],
                                      "outcome": outcome}) + "\n")
            outcomes[case["backend"]][outcome] += 1
            by_category[case["category"]][outcome] += 1
            if outcome.startswith("crash") or outcome == "timeout":
                key = (case["backend"], case["category"], outcome)
                kept[key] += 1
                entry = {k: case[k] for k in ("number", "backend", "triple", "category", "mutation", "flags",
                                              "output")} | {"outcome": outcome}
                if args.out and kept[key] <= args.keep:
                    digest = hashlib.sha1(case["module"].encode()).hexdigest()[:8]
                    path = args.out / f"{case['backend']}-{case['category']}-{number}-{digest}.ll"
                    path.write_text(header(case, outcome) + case["module"])
                    entry["file"] = str(path)
                found.append(entry)
    if unguarded is not None:
        unguarded.unload()
    if log:
        log.close()
    summary = {
        "seed": args.seed,
        "cases": sum(sum(c.values()) for c in outcomes.values()),
        "seconds": round(time.monotonic() - started, 1),
        "per_backend": {b: dict(sorted(outcomes[b].items())) for b in backends if outcomes[b]},
        "per_category": {c: dict(sorted(by_category[c].items())) for c in CATEGORIES if by_category[c]},
        "guards_checked": dict(guard_checks),
        "found": found,
        "failures": failures,
    }
    print(json.dumps(summary))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
