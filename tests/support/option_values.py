"""Non-default values for every LLVM option, for the scoping sweep.

Shared by tests/test_scoping_sweep.py (the committed test) and
tests/campaigns/sweep_options.py (the exploratory sweep under process isolation).
Deterministic: the same options give the same values in the same order.
"""

from __future__ import annotations

import re
from typing import Any

# Edge values by the type LLVM's help prints (see csrc/policy/option_policy.h).
EDGES = {
    "bool": ["true", "false"],
    "int": ["0", "1", "-1", "2", "1000000", "2147483647"],
    "long": ["0", "1", "-1", "1000000", "9223372036854775807"],
    "N": ["0", "1", "-1", "1000000"],
    "uint": ["0", "1", "2", "1000000", "4294967295"],
    "ulong": ["0", "1", "1000000", "18446744073709551615"],
    "number": ["0", "1", "-1", "0.5", "1e9"],
    "x": ["0", "1", "-1", "1e9"],
    "ElementCount": ["0", "1", "4", "16"],
    "seed": ["0", "1", "12345"],
    "char": ["a"],
}
# Strings: names the option may accept, then a name it will not know.
STRINGS = {
    "mcpu": ["x86-64-v3", "generic", "znver3"],
    "mtune": ["znver3", "generic"],
    "mattr": ["+avx2", "-sse4.2", "+avx512f"],
    "march": ["x86"],
    "start-after": ["machine-sink"],
    "stop-after": ["machine-sink"],
    "start-before": ["machine-sink"],
    "stop-before": ["machine-sink"],
}


def values(option: dict[str, Any]) -> list[str]:
    """Values to set `option` to, other than its current default."""
    kind = option["type"]
    if kind == "enum":
        candidates = [v for v in option["values"] if v]
    else:
        candidates = STRINGS.get(option["name"]) or EDGES.get(kind) or ["x", "llvmplug"]
    default = option["default"] if option["default"] is not None else option["value"]
    if kind == "bool":
        default = {"0": "false", "1": "true"}.get(str(default), default)
    return [v for v in candidates if v != default] or candidates[:1]


def explicit_default(option: dict[str, Any]) -> list[str]:
    """The option's default, written out: LLVM code that asks whether an
    option was given (getNumOccurrences) takes another path for it, so a
    sweep that only sets other values never tries it (that is how
    -force-target-max-vector-interleave=0 was missed)."""
    default = option["default"] if option["default"] is not None else option["value"]
    if default is None or option["type"] in ("enum", "string"):
        return []
    if option["type"] == "bool":
        default = {"0": "false", "1": "true"}.get(str(default), default)
    return [str(default)]


def flag(option: dict[str, Any], value: str) -> str:
    return f"-{option['name']}={value}"


# The backend an option belongs to, from its name's prefix; options of no
# listed backend are swept on the host. Each backend compiles its own module
# (see module_for) so that its options are exercised by their own code.
BACKENDS: list[tuple[str, str, str, list[str]]] = [
    # (name prefix regex, triple, output, flags every compile for it gets)
    (r"aarch64|sve-|sme-|arm64", "aarch64-unknown-linux-gnu", "obj", ["-mattr=+sve2"]),
    (r"amdgpu|amdgcn|si-|gcn-|r600", "amdgcn-amd-amdhsa", "obj", ["-mcpu=gfx90a"]),
    (r"nvptx|nvvm", "nvptx64-nvidia-cuda", "asm", ["-mcpu=sm_80"]),
    (r"riscv", "riscv64-unknown-linux-gnu", "obj", ["-mattr=+v"]),
    (r"arm-|thumb|mve-", "armv7a-unknown-linux-gnueabihf", "obj", []),
    (r"wasm|webassembly|emscripten", "wasm32-unknown-unknown", "obj", []),
    (r"mips", "mips-unknown-linux-gnu", "obj", []),
    (r"ppc|powerpc", "powerpc64le-unknown-linux-gnu", "obj", []),
    (r"systemz", "s390x-unknown-linux-gnu", "obj", []),
    (r"hexagon|hexbit|hvc-|hsdr", "hexagon-unknown-elf", "obj", []),
    (r"spirv|spv-", "spirv64-unknown-unknown", "obj", []),
    (r"bpf", "bpfel", "obj", []),
    (r"loongarch", "loongarch64-unknown-linux-gnu", "obj", []),
    (r"x86", "x86_64-unknown-linux-gnu", "obj", []),
    (r"sparc", "sparcv9-unknown-linux-gnu", "obj", []),
    (r"avr", "avr", "obj", []),
    (r"msp430", "msp430", "obj", []),
    (r"lanai", "lanai", "obj", []),
    (r"xcore", "xcore", "asm", []),
]
HOST = ("", "", "obj", [])  # the host triple; the default backend

# GPU backends compile kernels; BPF has no floating point.
KERNELS = {
    "amdgcn-amd-amdhsa": """
define amdgpu_kernel void @kernel(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %ok = icmp ult i32 %id, %n
  br i1 %ok, label %body, label %exit
body:
  %pi = getelementptr inbounds float, ptr addrspace(1) %in, i32 %id
  %v = load float, ptr addrspace(1) %pi, align 4
  %m = fmul float %v, 2.0
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i32 %id
  store float %m, ptr addrspace(1) %po, align 4
  br label %exit
exit:
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
""",
    "nvptx64-nvidia-cuda": """
define ptx_kernel void @kernel(ptr addrspace(1) %out, ptr addrspace(1) %in, i32 %n) {
entry:
  %id = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ok = icmp ult i32 %id, %n
  br i1 %ok, label %body, label %exit
body:
  %pi = getelementptr inbounds float, ptr addrspace(1) %in, i32 %id
  %v = load float, ptr addrspace(1) %pi, align 4
  %m = fmul float %v, 2.0
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i32 %id
  store float %m, ptr addrspace(1) %po, align 4
  br label %exit
exit:
  ret void
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
""",
}
INTEGER_MODULE = """
define i64 @sum(ptr %p, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  %pv = getelementptr inbounds i64, ptr %p, i64 %i
  %v = load i64, ptr %pv, align 8
  %x = mul i64 %v, 7
  %acc2 = add i64 %acc, %x
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  %r = phi i64 [ 0, %entry ], [ %acc2, %loop ]
  ret i64 %r
}

define i32 @dispatch(i32 %k, i32 %v) {
entry:
  switch i32 %k, label %other [
    i32 0, label %a
    i32 1, label %b
    i32 7, label %c
  ]
a:
  %ra = shl i32 %v, 3
  ret i32 %ra
b:
  %rb = xor i32 %v, 12345
  ret i32 %rb
c:
  %rc = udiv i32 %v, 3
  ret i32 %rc
other:
  ret i32 %v
}
"""


def backend(name: str) -> tuple[str, str, str, list[str]]:
    """(prefix, triple, output, flags) of the backend option `name` belongs to; HOST if none."""
    for entry in BACKENDS:
        if re.match(entry[0], name):
            return entry
    return HOST


def module_for(triple: str, sweep_module: str) -> str:
    """The module a backend's options are swept on: the sweep module, plus a
    kernel for GPUs; an integer-only module for BPF."""
    if triple.startswith("bpf"):
        return INTEGER_MODULE
    return sweep_module + KERNELS.get(triple, "")
