"""Plausible IR that crashes or hangs an LLVM 23.1.1 backend, kept in tests/data/backend_crashers/.

Each file's header names the backend, triple, flags and output, says what
LLVM 23.1.1 does with it, and what llvmplug must do (``expect``):

- ``guarded``: csrc/llvm_bugs/backend_guards.cpp recognises it and raises a
  TargetError naming the backend and the LLVM bug, in process and in a child;
  and the module still crashes or hangs the same LLVM without the guard
  (refllc, tests/support/llc), so the guard is still needed.
- ``stripped``: debug info that LLVM's writers (DWARF, CodeView, BTF) read
  with unchecked casts and its verifier passes: csrc/llvm_bugs/debuginfo_writers.cpp
  counts it as broken debug info, which llvmplug strips with LLVM's warning
  "ignoring invalid debug info" (its ``verifier`` line is the report a
  VerifyError carries where the verifier runs alone, tests/test_debuginfo_verify.py);
  the module still crashes refllc.
- ``crash:SIGNAL`` / ``timeout``: no guard; process isolation turns it into
  WorkerCrashedError / CompileTimeoutError. If LLVM stops crashing on it,
  the test fails, so the list stays true.
- ``flaky crash:SIGNAL``: crashes in some runs only (LLVM reads memory it
  does not own); either outcome passes, anything else fails.

tests/campaigns/campaign_backends.py found most of them; docs/targets.md has its counts.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import llvmplug

HERE = Path(__file__).resolve().parent
CRASHERS = HERE / "data" / "backend_crashers"
MARK = "a known LLVM 23.1.1"  # every refusal of csrc/llvm_bugs/backend_guards.cpp says it
HEADER = ("backend", "triple", "flags", "output", "expect", "llvm 23.1.1", "found by")
HANG_TIMEOUT = 5.0  # every module here compiles (or crashes) in well under a second when it does not hang

isolation_only = pytest.mark.skipif(sys.platform == "win32", reason="process isolation is tested on POSIX")


def read(path: Path) -> dict:
    text = path.read_text()
    header = dict(re.findall(r"^; ([a-z0-9. ]+): (.*)$", text, re.M))
    return {"file": path.name, "module": text, **header}


def crashers() -> list[dict]:
    return [read(path) for path in sorted(CRASHERS.glob("*.ll"))]


GUARDED = [c for c in crashers() if c.get("expect") == "guarded"]
STRIPPED = [c for c in crashers() if c.get("expect") == "stripped"]
INVALID_DEBUG_INFO = "warning: ignoring invalid debug info in <module>"


def test_every_crasher_has_its_header():
    assert len(crashers()) >= 20
    for crasher in crashers():
        missing = [field for field in HEADER if field not in crasher]
        assert not missing, f"{crasher['file']}: header lacks {missing}"
        assert crasher["backend"] in llvmplug.info()["backends"], crasher["file"]
        assert re.fullmatch(r"guarded|stripped|timeout|(flaky )?crash:SIG[A-Z]+", crasher["expect"]), crasher["file"]
        assert ("verifier" in crasher) == (crasher["expect"] == "stripped"), crasher["file"]
        assert crasher["output"] in ("obj", "asm"), crasher["file"]


@pytest.fixture(scope="module")
def isolated():
    limit = 2 << 30 if sys.platform == "linux" else None
    with llvmplug.Plugin(isolation="process", memory_limit=limit) as plugin:
        yield plugin


def outcome_under_isolation(plugin: llvmplug.Plugin, crasher: dict) -> tuple[llvmplug.LLVMPlugError | None, list[str]]:
    """The error (or None) and the warnings of one compile."""
    timeout = HANG_TIMEOUT if crasher["expect"] in ("timeout", "guarded", "stripped") else 60.0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", llvmplug.LLVMPlugWarning)
        try:
            plugin.compile(crasher["module"], crasher["triple"], crasher["flags"], output=crasher["output"],
                           timeout=timeout)
        except llvmplug.LLVMPlugError as error:
            return error, []
    return None, [str(w.message).strip() for w in caught if issubclass(w.category, llvmplug.LLVMPlugWarning)]


@isolation_only
@pytest.mark.parametrize("crasher", crashers(), ids=lambda c: c["file"])
def test_crasher_is_a_typed_error_under_process_isolation(crasher, isolated, arith_ir):
    """One child serves every crasher in turn; each crash only replaces it."""
    expect, name = crasher["expect"], crasher["file"]
    error, warned = outcome_under_isolation(isolated, crasher)
    stale = f"{name} no longer does what its header says ({error!r}): update it, docs/targets.md and the README"
    if expect == "stripped":
        assert error is None and warned == [INVALID_DEBUG_INFO], f"{name}: {error!r} {warned}"
    elif expect == "guarded":
        assert isinstance(error, llvmplug.TargetError) and MARK in error.message, f"{name}: not refused: {error!r}"
        assert crasher["backend"] in error.message
    elif expect == "timeout":
        assert isinstance(error, llvmplug.CompileTimeoutError), stale
    elif expect.startswith("flaky ") and error is None:
        pass  # this run did not crash
    else:
        assert isinstance(error, llvmplug.WorkerCrashedError), stale
        assert f"crash:{error.signal}" == expect.split()[-1], stale
    assert isolated.compile(arith_ir) == llvmplug.compile(arith_ir)  # the parent, and the Plugin, go on


# -- in process: the guards, and what they must let through -----------------------------

# (name, module, triple, flags, output) that the backend compiles (checked against
# the shim without guards): each guard's nearest neighbour that it must not refuse.
NEAR_MISSES = [
    ("AVR: unused llvm.frameaddress", "declare ptr @llvm.frameaddress.p0(i32)\ndefine void @f() {\n"
     "  %p = call ptr @llvm.frameaddress.p0(i32 0)\n  ret void\n}\n", "avr-unknown-unknown", "-O0", "obj"),
    ("AMDGPU: llvm.returnaddress", "declare ptr @llvm.returnaddress(i32)\ndefine ptr @f() {\n"
     "  %p = call ptr @llvm.returnaddress(i32 0)\n  ret ptr %p\n}\n", "amdgcn-amd-amdhsa", "-O2", "obj"),
    ("r600: llvm.frameaddress", "declare ptr @llvm.frameaddress.p0(i32)\ndefine ptr @f() {\n"
     "  %p = call ptr @llvm.frameaddress.p0(i32 0)\n  ret ptr %p\n}\n", "r600-unknown-unknown", "-O2", "asm"),
    ("AMDPAL: assembly without an entry point", "@AMDPAL", "amdgcn-amd-amdpal", "-O2 -mcpu=gfx1030", "asm"),
    ("AMDPAL: object with an amdgpu_cs entry point", "@AMDPAL_CS", "amdgcn-amd-amdpal", "-O2 -mcpu=gfx1030", "obj"),
    ("AMDPAL: object with its own PAL metadata", "@AMDPAL_META", "amdgcn-amd-amdpal", "-O2", "obj"),
    ("AIX: DWARF 4", "@AIX4", "powerpc64-ibm-aix", "-O0", "obj"),
    ("AIX: DWARF 5, NoDebug unit", "@AIX5_NODEBUG", "powerpc64-ibm-aix", "-O0", "obj"),
    ("r600: switch at -O1", "@R600", "r600-unknown-unknown", "-O1", "asm"),
    ("r600: -O0 branch to two returns",
     "define i32 @f(i32 %x) {\n  %c = icmp eq i32 %x, 0\n  br i1 %c, label %a, label %b\na:\n  ret i32 1\nb:\n"
     "  ret i32 2\n}\n", "r600-unknown-unknown", "-O0", "asm"),
    ("r600: -O0 switch to one live block",
     "define i32 @f(i32 %x, i32 %y) {\nentry:\n  switch i32 %x, label %u [ i32 3, label %b\n    i32 9, label %b ]\n"
     "b:\n  %v = add i32 %y, 1\n  ret i32 %v\nu:\n  unreachable\n}\n", "r600-unknown-unknown", "-O0", "asm"),
    ("MSP430: landingpad at -O0", "@MSP430", "msp430-unknown-unknown", "-O0", "obj"),
    ("MSP430: catch landingpad only resumed, -O2", "@MSP430_RESUME", "msp430-unknown-unknown", "-O2 -passes=", "asm"),
    ("VE: reduce.add of i8 elements",
     "declare i8 @llvm.vector.reduce.add.v16i8(<16 x i8>)\ndefine i8 @f(<16 x i8> %v) {\n"
     "  %r = call i8 @llvm.vector.reduce.add.v16i8(<16 x i8> %v)\n  ret i8 %r\n}\n", "ve-unknown-linux-gnu", "-O2", "obj"),
    ("VE: reduce.add of one element",
     "declare i32 @llvm.vector.reduce.add.v1i32(<1 x i32>)\ndefine i32 @f(<1 x i32> %v) {\n"
     "  %r = call i32 @llvm.vector.reduce.add.v1i32(<1 x i32> %v)\n  ret i32 %r\n}\n", "ve-unknown-linux-gnu", "-O0", "obj"),
    ("DWARF: FullDebug unit with variables", "@LINES_FULL", "x86_64-unknown-linux-gnu", "-O0", "obj"),
    ("DWARF: LineTablesOnly unit without variables", "@LINES_NOVARS", "x86_64-unknown-linux-gnu", "-O0", "obj"),
    ("DWARF: LineTablesOnly with variables on macOS", "@LINES", "x86_64-apple-macosx", "-O0", "obj"),
    ("CodeView: LineTablesOnly with variables", "@LINES_CODEVIEW", "x86_64-pc-windows-msvc", "-O0", "obj"),
    ("SPARC: vector byte swap on sparcv9",
     "declare <8 x i16> @llvm.bswap.v8i16(<8 x i16>)\ndefine <8 x i16> @f(<8 x i16> %a) {\n"
     "  %r = call <8 x i16> @llvm.bswap.v8i16(<8 x i16> %a)\n  ret <8 x i16> %r\n}\n",
     "sparcv9-unknown-linux-gnu", "-O2", "obj"),
    ("AArch64: ghccc with every GHC register used", "@GHC_FULL", "aarch64-unknown-linux-gnu", "-O2", "obj"),
    ("AArch64: ghccc on Windows with optimisation", "@GHC_SMALL", "aarch64-pc-windows-msvc", "-O2", "obj"),
    ("AArch64: ghccc with a byval parameter at -O0", "@GHC_BYVAL", "aarch64-unknown-linux-gnu", "-O0", "obj"),
    ("SPIR-V: LineTablesOnly with variables", "@LINES", "spirv64-unknown-unknown", "-O0", "obj"),
    ("BPF: 32-bit atomic store for v4",
     "define void @f(ptr %p, i32 %v) {\n  store atomic i32 %v, ptr %p release, align 4\n  ret void\n}\n",
     "bpfel-unknown-none", "-O2 -mcpu=v4", "obj"),
    ("X86: llvm.addressofreturnaddress", "@ADDROFRET", "x86_64-unknown-linux-gnu", "-O2", "obj"),
    ("AArch64: llvm.sponentry", "@SPONENTRY", "aarch64-unknown-linux-gnu", "-O2", "obj"),
    ("X86: unused llvm.sponentry", "declare ptr @llvm.sponentry.p0()\ndefine void @f() {\n"
     "  %p = call ptr @llvm.sponentry.p0()\n  ret void\n}\n", "x86_64-unknown-linux-gnu", "-O0", "obj"),
    ("COFF: cfguard with an escaping function", "@CFGUARD", "x86_64-pc-windows-msvc", "-O2", "obj"),
    ("COFF: cfguard on 32-bit ARM Windows", "@CFGUARD", "thumbv7-pc-windows-msvc", "-O2", "asm"),
    ("ELF: cfguard 0 with an escaping function", "@CFGUARD_0", "i686-unknown-linux-gnu", "-O2", "obj"),
    ("ELF: cfguard, functions only called", "@CFGUARD_CALLED", "x86_64-unknown-linux-gnu", "-O0", "obj"),
    ("ELF: cfguard, an unused alias", "@CFGUARD_ALIAS", "aarch64-unknown-linux-gnu", "-O0", "asm"),
    ("GOFF: cfguard object", "@CFGUARD", "s390x-ibm-zos", "-O2", "obj"),
    ("RISCV: cf-protection-branch with the unlabeled scheme", "@CF_UNLABELED", "riscv64-unknown-linux-gnu", "-O2",
     "obj"),
    ("RISCV: cf-protection-branch 0", "@CF_BRANCH_0", "riscv32-unknown-elf", "-O2", "asm"),
    ("RISCV: cf-protection-return alone", "@CF_RETURN", "riscv64-unknown-linux-gnu", "-O2", "obj"),
    ("ARM: pseudo-probe at -O0", "@PROBE", "armv7-unknown-linux-gnueabihf", "-O0", "obj"),
    ("ARM: pseudo-probe for a MachineScheduler CPU", "@PROBE", "armv7-unknown-linux-gnueabihf",
     "-O2 -mcpu=cortex-a57", "obj"),
    ("ARM: pseudo-probe in a minsize function", "@PROBE_MINSIZE", "thumbv7-pc-windows-msvc", "-O2", "asm"),
    ("ARM: pseudo-probe with soft float", "@PROBE", "armv7-unknown-linux-gnueabihf", "-O2 -mattr=+soft-float", "obj"),
    ("ARM: pseudo-probe in Thumb1", "@PROBE", "thumbv6m-none-eabi", "-O2", "obj"),
    ("ARM: pseudo-probe without VFP", "@PROBE", "armv7-unknown-linux-gnueabihf", "-O2 -mcpu=arm1136j-s", "obj"),
    ("AArch64: pseudo-probe", "@PROBE", "aarch64-unknown-linux-gnu", "-O2", "obj"),
    ("SPIR-V: returns <9 x float>, a machine type", "@SPIRV_RET <9 x float>", "spirv64-unknown-unknown", "-O0", "obj"),
    ("SPIR-V: returns <4 x i1>", "@SPIRV_RET <4 x i1>", "spirv32-unknown-unknown", "-O2", "obj"),
    ("SPIR-V: returns <5 x i8>", "@SPIRV_RET <5 x i8>", "spirv64-unknown-unknown", "-O2", "asm"),
    ("SPIR-V: returns an aggregate holding <4 x i7>", "@SPIRV_RET { <4 x i7>, i32 }", "spirv64-unknown-unknown",
     "-O0", "obj"),
    ("SPIR-V: <4 x i7> only as an argument", "define spir_func void @f(<4 x i7> %x) {\n  ret void\n}\n",
     "spirv64-unknown-unknown", "-O0", "obj"),
]

# More shapes of the guards of one crasher file each (checked against refllc
# when they were written; not all of them crash it in every run): (name,
# module, triple, flags, output, backend).
ALSO_GUARDED = [
    ("cfguard on x86-64 ELF, assembly", "@CFGUARD", "x86_64-unknown-linux-gnu", "-O0", "asm", "X86"),
    ("cfguard on macOS", "@CFGUARD", "arm64-apple-macosx", "-O2", "obj", "AArch64"),
    ("cfguard on AIX", "@CFGUARD", "powerpc64-ibm-aix", "-O2", "obj", "PowerPC"),
    ("cfguard on wasm", "@CFGUARD", "wasm32-unknown-unknown", "-O2", "obj", "WebAssembly"),
    ("cfguard, GOFF assembly", "@CFGUARD", "s390x-ibm-zos", "-O2", "asm", "SystemZ"),
    ("cfguard, function passed to a call", "@CFGUARD_ARG", "riscv64-unknown-linux-gnu", "-O2", "obj", "RISCV"),
    ("cfguard, a personality function", "@CFGUARD_PERSONALITY", "x86_64-unknown-linux-gnu", "-O0", "obj", "X86"),
    # AsmPrinter reads the flag as an integer whatever its kind: it crashes in some runs.
    ("cfguard as a string", "@CFGUARD_STRING", "x86_64-unknown-linux-gnu", "-O2", "obj", "X86"),
    ("cf-protection-branch on riscv32, assembly", "@CF_BRANCH", "riscv32-unknown-elf", "-O0", "asm", "RISCV"),
    ("pseudo-probe, cortex-a9 by attribute", "@PROBE_A9", "armv7-unknown-linux-gnueabihf", "-O2 -mcpu=cortex-a57",
     "obj", "ARM"),
    ("pseudo-probe, ARMv6 with VFP", "@PROBE", "armv7-unknown-linux-gnueabihf", "-O1 -mcpu=arm1176jzf-s", "asm",
     "ARM"),
    ("SPIR-V: returns <7 x double>", "@SPIRV_RET <7 x double>", "spirv-unknown-vulkan", "-O2", "asm", "SPIRV"),
    ("SPIR-V: llvm.fptosi.sat returning <4 x i128> (the campaign's case)",
     "define spir_func <4 x i128> @f(<4 x half> %x) {\n"
     "  %r = call <4 x i128> @llvm.fptosi.sat.v4i128.v4f16(<4 x half> %x)\n  ret <4 x i128> %r\n}\n",
     "spirv64-unknown-unknown", "-O0", "obj", "SPIRV"),
    ("SPIR-V: a call returning <2 x i65>", "declare spir_func <2 x i65> @g()\ndefine spir_func void @f() {\n"
     "  %r = call spir_func <2 x i65> @g()\n  ret void\n}\n", "spirv32-unknown-unknown", "-O0", "obj", "SPIRV"),
    ("SPIR-V: an indirect call returning <4 x i7>", "define spir_func void @f(ptr %g) {\n"
     "  %r = call spir_func <4 x i7> %g()\n  ret void\n}\n", "spirv64-unknown-unknown", "-O0", "obj", "SPIRV"),
]

# The intrinsics guarded on several backends (csrc/llvm_bugs/backend_guards.cpp's table),
# one triple each: every one of them segfaults LLVM 23.1.1.
UNLOWERED = {
    "llvm.sponentry.p0": ["x86_64-unknown-linux-gnu", "i686-unknown-linux-gnu", "avr-unknown-unknown",
                          "lanai-unknown-unknown", "msp430-unknown-unknown", "nvptx64-nvidia-cuda",
                          "powerpc64le-unknown-linux-gnu", "powerpc64-ibm-aix", "sparcv9-unknown-linux-gnu",
                          "s390x-unknown-linux-gnu", "wasm32-unknown-unknown", "xcore-unknown-unknown"],
    "llvm.addressofreturnaddress.p0": ["amdgcn-amd-amdhsa", "avr-unknown-unknown", "lanai-unknown-unknown",
                                       "msp430-unknown-unknown", "nvptx64-nvidia-cuda", "powerpc-unknown-linux-gnu",
                                       "sparc-unknown-linux-gnu", "s390x-unknown-linux-gnu",
                                       "wasm64-unknown-unknown", "xcore-unknown-unknown"],
}


def unlowered_module(intrinsic: str) -> str:
    return f"declare ptr @{intrinsic}()\ndefine ptr @f() {{\n  %p = call ptr @{intrinsic}()\n  ret ptr %p\n}}\n"


def ghc_module(params: str) -> str:
    return f"define ghccc void @callee({params}) {{\n  ret void\n}}\n"


def near_miss_module(name: str) -> str:
    """The modules of NEAR_MISSES spelt "@NAME", made from the crashers they border."""
    lines = {c["file"]: c["module"] for c in crashers()}
    aix = lines["aix-dwarf5.ll"]
    variables = lines["dwarf-line-tables-with-variables.ll"]
    pad = lines["msp430-landingpad.ll"]
    cfguard = lines["x86-i686-cfguard-elf.ll"]
    branch = lines["riscv-cf-protection-branch.ll"]
    probe = lines["arm-pseudoprobe.ll"]
    return {
        "@AMDPAL": lines["amdpal-no-entry-point.ll"],
        "@AMDPAL_CS": lines["amdpal-no-entry-point.ll"] + "define amdgpu_cs void @main() {\n  ret void\n}\n",
        "@AMDPAL_META": lines["amdpal-no-entry-point.ll"] + '!amdgpu.pal.metadata.msgpack = !{!0}\n'
        '!0 = !{!"\\82\\B0amdpal.pipelines\\91\\80\\B0amdpal.version\\92\\02\\03"}\n',
        "@AIX4": aix.replace('"Dwarf Version", i32 5', '"Dwarf Version", i32 4'),
        "@AIX5_NODEBUG": aix.replace("FullDebug", "NoDebug"),
        "@R600": lines["r600-switch-O0.ll"],
        "@MSP430": pad,
        "@MSP430_RESUME": pad.split("  %e = extractvalue")[0] + "  resume { ptr, i32 } %l\n}\n",
        "@LINES": variables,
        "@LINES_FULL": variables.replace("LineTablesOnly", "FullDebug"),
        "@LINES_NOVARS": variables.replace("    #dbg_declare(ptr %a, !20, !DIExpression(), !30)\n", ""),
        "@LINES_CODEVIEW": variables.replace('!{i32 7, !"Dwarf Version", i32 5}', '!{i32 2, !"CodeView", i32 1}'),
        "@ADDROFRET": unlowered_module("llvm.addressofreturnaddress.p0"),
        # X19-X28, S8-S11, D12-D15, Q4-Q5: exactly full.
        "@GHC_FULL": ghc_module(", ".join(["i64"] * 9 + ["ptr"] + ["float"] * 4 + ["double"] * 4 + ["<4 x i32>"] * 2)),
        "@GHC_SMALL": ghc_module("i64 %a, double %b"),
        "@GHC_BYVAL": ghc_module("ptr byval(i64) %a, i64 %b"),
        "@SPONENTRY": unlowered_module("llvm.sponentry.p0"),
        "@CFGUARD": cfguard,
        "@CFGUARD_0": cfguard.replace('"cfguard", i32 2', '"cfguard", i32 0'),
        "@CFGUARD_STRING": cfguard.replace('"cfguard", i32 2', '"cfguard", !"2"'),
        "@CFGUARD_CALLED": cfguard.replace("@p = global ptr @f", "define void @g() {\n  call void @f()\n  ret void\n}"),
        "@CFGUARD_ALIAS": cfguard.replace("@p = global ptr @f", "@a = alias void (), ptr @f"),
        "@CFGUARD_ARG": cfguard.replace("@p = global ptr @f", "declare void @take(ptr)\ndefine void @g() {\n"
                                        "  call void @take(ptr @f)\n  ret void\n}"),
        "@CFGUARD_PERSONALITY": cfguard.replace("define void @f() {", "declare i32 @personality(...)\n"
                                                "define void @f() personality ptr @personality {")
                                       .replace("@p = global ptr @f\n", ""),
        "@CF_BRANCH": branch,
        "@CF_UNLABELED": branch.replace("!{!0}", "!{!0, !1}") + '!1 = !{i32 1, !"cf-branch-label-scheme", !"unlabeled"}\n',
        "@CF_BRANCH_0": branch.replace('"cf-protection-branch", i32 1', '"cf-protection-branch", i32 0'),
        "@CF_RETURN": branch.replace("cf-protection-branch", "cf-protection-return"),
        "@PROBE": probe,
        "@PROBE_MINSIZE": probe.replace("define void @f() {", "define void @f() minsize {"),
        "@PROBE_A9": probe.replace("define void @f() {", 'define void @f() "target-cpu"="cortex-a9" {'),
    }.get(name, spirv_return(name[len("@SPIRV_RET "):]) if name.startswith("@SPIRV_RET ") else name)


def spirv_return(type_: str) -> str:
    return f"define spir_func {type_} @f() {{\n  ret {type_} zeroinitializer\n}}\n"


def in_process_cases() -> list[dict]:
    cases = [{"name": c["file"], "module": c["module"], "triple": c["triple"], "flags": c["flags"],
              "output": c["output"], "expect": c["expect"], "backend": c["backend"]} for c in GUARDED + STRIPPED]
    for intrinsic, triples in UNLOWERED.items():
        cases += [{"name": f"{intrinsic} {triple}", "module": unlowered_module(intrinsic), "triple": triple,
                   "flags": "-O2", "output": "obj" if "nvptx" not in triple and "xcore" not in triple else "asm",
                   "expect": "guarded", "backend": ""} for triple in triples]
    cases += [{"name": name, "module": near_miss_module(module), "triple": triple, "flags": flags,
               "output": output, "expect": "guarded", "backend": backend}
              for name, module, triple, flags, output, backend in ALSO_GUARDED]
    cases += [{"name": name, "module": near_miss_module(module), "triple": triple, "flags": flags,
               "output": output, "expect": "compiles", "backend": ""}
              for name, module, triple, flags, output in NEAR_MISSES]
    return cases


def run_in_process() -> None:
    """Compile every in-process case in this process (a child of the test), one JSON line each.

    The name goes out before the compile: if a guard misses, LLVM kills this
    process, and the test names the case from the last line.
    """
    plugin = llvmplug.Plugin()
    for case in in_process_cases():
        print(json.dumps({"start": case["name"]}), flush=True)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", llvmplug.LLVMPlugWarning)
            try:
                plugin.compile(case["module"], case["triple"], case["flags"], output=case["output"])
                result = {"outcome": "compiles"}
            except llvmplug.LLVMPlugError as error:
                result = {"outcome": type(error).__name__, "message": error.message}
        result["warnings"] = [str(w.message).strip() for w in caught if issubclass(w.category, llvmplug.LLVMPlugWarning)]
        print(json.dumps({"name": case["name"], "poisoned": plugin.poisoned, **result}), flush=True)


def test_guards_refuse_in_process_and_let_the_near_misses_through():
    """In process (a child of pytest, so that a missed guard fails this test instead of killing pytest)."""
    done = subprocess.run([sys.executable, __file__, "--in-process"], capture_output=True, text=True, timeout=300)
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    if done.returncode != 0:
        last = lines[-1].get("start") if lines else None
        pytest.fail(f"in-process compiles died (status {done.returncode}) at {last!r}\n{done.stderr[-2000:]}")
    results = {line["name"]: line for line in lines if "name" in line}
    for case in in_process_cases():
        result = results[case["name"]]
        if case["expect"] == "compiles":
            assert result["outcome"] == "compiles", f"{case['name']}: a false refusal: {result}"
            continue
        if case["expect"] == "stripped":
            assert result["outcome"] == "compiles" and result["warnings"] == [INVALID_DEBUG_INFO], result
            assert not result["poisoned"]
            continue
        assert result["outcome"] == "TargetError" and MARK in result["message"], f"{case['name']}: {result}"
        assert case["backend"] in result["message"]
        assert not result["poisoned"], "a refusal before code generation must not cost the copy of LLVM"


# -- a small campaign --------------------------------------------------------------------

CAMPAIGN = HERE / "campaigns" / "campaign_backends.py"
CAMPAIGN_CASES = 2400  # every backend and category: about 20 s on two shared cores


@isolation_only
@pytest.mark.fuzz
def test_small_campaign_keeps_the_contract_on_every_backend(tmp_path):
    """tests/campaigns/campaign_backends.py, fixed seed and size: every compile is bytes or a typed error."""
    done = subprocess.run([sys.executable, str(CAMPAIGN), "--seed", "2026", "--cases", str(CAMPAIGN_CASES),
                           "--seconds", "600", "--out", str(tmp_path)],
                          capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["cases"] == CAMPAIGN_CASES and not summary["failures"]
    # The generator's IR compiles on every backend (a campaign of parse errors tests nothing),
    # and the guards fire: several known crashes are among the cases.
    assert set(summary["per_backend"]) == set(llvmplug.info()["backends"])
    for backend, outcomes in summary["per_backend"].items():
        assert outcomes.get("ok", 0) >= 10, (backend, outcomes)
    assert sum(o.get("guarded", 0) for o in summary["per_backend"].values()) >= 5
    for found in summary["found"]:  # crashes the guards do not know: worth a file in tests/data/backend_crashers
        print("unguarded:", found)


# -- the guards are still needed --------------------------------------------------------

# The fixture that builds refllc (llc's code generation, without the guards);
# --import-mode=importlib keeps tests/ off sys.path.
sys.path.insert(0, str(HERE))
from test_llc_parity import refllc, refopt  # noqa: E402,F401


@pytest.mark.skipif(sys.platform != "linux", reason="refllc is built and run on Linux")
@pytest.mark.parametrize("crasher", GUARDED + STRIPPED, ids=lambda c: c["file"])
def test_guarded_crasher_still_crashes_llvm_without_its_guard(crasher, refllc, refopt, tmp_path):
    """When LLVM fixes one, this fails: drop the guard or the debug info check (and update
    docs/targets.md and the README). A crash in a pass (flags -passes=...) is opt's, the rest llc's."""
    source = tmp_path / crasher["file"]
    source.write_text(crasher["module"])
    flags = crasher["flags"].split()
    if any(flag.startswith("-passes=") for flag in flags):
        command = [str(refopt), f"-mtriple={crasher['triple']}", *flags, str(source), "-o", str(tmp_path / "out")]
    else:
        command = [str(refllc), f"-mtriple={crasher['triple']}", *flags,
                   f"-filetype={crasher['output']}", str(source), "-o", str(tmp_path / "out")]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=HANG_TIMEOUT)
    except subprocess.TimeoutExpired:
        assert "hang" in crasher["llvm 23.1.1"] or "hangs" in crasher["llvm 23.1.1"], crasher["file"]
        return
    assert done.returncode < 0, (f"{crasher['file']} no longer crashes LLVM (status {done.returncode}): "
                                 f"drop its guard from csrc/llvm_bugs/backend_guards.cpp or csrc/llvm_bugs/debuginfo_writers.cpp"
                                 f"\n{done.stderr[-1000:]}")


if __name__ == "__main__" and sys.argv[1:] == ["--in-process"]:
    run_in_process()
