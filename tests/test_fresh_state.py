"""No compile sees the state of an earlier one (issue 18 §1).

LLVM's codegen objects hold per-module state: the AsmPrinter (module flags
it has seen), the MCContext (symbols, sections, CG profile entries), the
object writer (string tables, address-significance lists) and the target's
object-file lowering. A copy that kept any of them from one compile into the
next crashed on the second compile (PGO or pseudo-probe modules) or changed
later outputs. The test is differential: modules that exercise what object
writers and AsmPrinters read are compiled one after another on one copy, and
every output must equal the same module compiled on a fresh copy, for every
backend of the build and every object format it writes.

The copy under test runs in a worker process (isolation="process"), so a
copy that crashes fails these tests instead of killing pytest; the fresh
outputs come from a private in-process copy reloaded before each compile.
"""

from __future__ import annotations

from pathlib import Path

import llvmplug
import pytest

DATA = Path(__file__).resolve().parent / "data"

PLAIN = "define void @f() {\n  ret void\n}\n"
LOOP = (DATA / "loop.ll").read_text()
# Profile data: at -O2 the CGProfile pass turns it into "CG Profile" entries
# for the object writer (issue 18's first reproduction).
PGO = ('declare void @callee()\ndefine void @caller() !prof !0 {\n  call void @callee()\n  ret void\n}\n'
       '!0 = !{!"function_entry_count", i64 1000}\n')
# The same entries written directly, so that -passes= (no IR pipeline) has them too.
CG_PROFILE = """\
declare void @b()
define void @a() {
  call void @b()
  ret void
}
!llvm.module.flags = !{!0}
!0 = !{i32 5, !"CG Profile", !1}
!1 = !{!2}
!2 = !{ptr @a, ptr @b, i64 32}
"""
PSEUDO_PROBE = """\
define void @probed() {
  call void @llvm.pseudoprobe(i64 6699318081062747564, i64 1, i32 0, i64 -1)
  ret void
}
declare void @llvm.pseudoprobe(i64, i64, i32, i64)
!llvm.pseudo_probe_desc = !{!0}
!0 = !{i64 6699318081062747564, i64 4294967295, !"probed"}
"""
DEBUG = (DATA / "dbg.ll").read_text()
# Module flags AsmPrinters and object-file lowerings read (each target reads
# its own), a module-chosen code model, constructors, llvm.used and
# dependent libraries.
FLAGS = """\
@data = global i32 7
@llvm.used = appending global [1 x ptr] [ptr @data], section "llvm.metadata"
@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @init, ptr null }]
define void @init() {
  store i32 8, ptr @data
  ret void
}
!llvm.module.flags = !{!0, !1, !2, !3, !4, !5, !6, !7, !8, !9}
!llvm.dependent-libraries = !{!10}
!0 = !{i32 1, !"import-call-optimization", i32 1}
!1 = !{i32 8, !"cf-protection-branch", i32 1}
!2 = !{i32 8, !"cf-protection-return", i32 1}
!3 = !{i32 8, !"branch-target-enforcement", i32 1}
!4 = !{i32 8, !"sign-return-address", i32 1}
!5 = !{i32 2, !"cfguard", i32 2}
!6 = !{i32 7, !"uwtable", i32 2}
!7 = !{i32 8, !"PIC Level", i32 2}
!8 = !{i32 1, !"Code Model", i32 4}
!9 = !{i32 2, !"ehcontguard", i32 1}
!10 = !{!"foo"}
"""
# Names longer than COFF's 8-byte short names: they go to the string table.
LONG = "@" + "g" * 300 + " = global i32 1\ndefine void @" + "x" * 300 + "() {\n  ret void\n}\n"
EH = """\
declare i32 @__gxx_personality_v0(...)
declare void @may_throw()
define void @catcher() personality ptr @__gxx_personality_v0 {
  invoke void @may_throw() to label %ok unwind label %pad
ok:
  ret void
pad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
"""
TLS = """\
@tls = thread_local global i32 5
@cst = private unnamed_addr constant [4 x i32] [i32 1, i32 2, i32 3, i32 4]
$grouped = comdat any
@grouped = linkonce_odr global i32 3, comdat
define i32 @read() {
  %v = load i32, ptr @tls
  %c = load i32, ptr @cst
  %s = add i32 %v, %c
  ret i32 %s
}
"""
MODULE_ASM = 'module asm ".globl modasm"\nmodule asm "modasm = 42"\ndefine void @g() {\n  ret void\n}\n'

MODULES = {"plain": PLAIN, "loop": LOOP, "pgo": PGO, "cg_profile": CG_PROFILE,
           "pseudo_probe": PSEUDO_PROBE, "debug": DEBUG, "flags": FLAGS, "long": LONG, "eh": EH, "tls": TLS,
           "module_asm": MODULE_ASM}

# (backend, triple, flags, outputs, kernel or None, modules left out and why).
# Left out: what a FRESH copy cannot compile either (the target rejects it,
# or LLVM itself crashes on it: those crashes are not state; each is kept in
# tests/data/backend_crashers/, and refused when a guard recognises it).
NO_TLS = {"tls": "no thread-local storage"}
NO_CG_OBJ = {"pgo": "no relocation for CG profile entries", "cg_profile": "no relocation for CG profile entries"}
TARGETS = [
    ("X86", "x86_64-unknown-linux-gnu", "", ("obj", "asm"), None, {}),
    ("X86", "x86_64-pc-windows-msvc", "", ("obj", "asm"), None, {}),
    ("X86", "x86_64-apple-macosx", "", ("obj", "asm"), None, {}),
    ("X86", "i686-unknown-linux-gnu", "-passes=", ("obj", "asm"), None,
     {"flags": "cfguard with @init's address kept (no IR pipeline): a known LLVM crash, refused "
               "(tests/data/backend_crashers/x86-i686-cfguard-elf.ll)"}),
    ("AArch64", "aarch64-unknown-linux-gnu", "", ("obj", "asm"), None, {}),
    ("AArch64", "arm64-apple-macosx", "", ("obj", "asm"), None, {}),
    ("AArch64", "aarch64-pc-windows-msvc", "", ("obj", "asm"), None, {}),
    ("ARM", "armv7-unknown-linux-gnueabihf", "", ("obj", "asm"), None,
     {"pseudo_probe": "a known LLVM crash, refused (tests/data/backend_crashers/arm-pseudoprobe.ll)"}),
    ("ARM", "thumbv7-pc-windows-msvc", "", ("obj", "asm"), None,
     {"pseudo_probe": "a known LLVM crash, refused (tests/data/backend_crashers/thumbv7-windows-pseudoprobe.ll)"}),
    ("AMDGPU", "amdgcn-amd-amdhsa", "-mcpu=gfx900", ("obj", "asm"), "amd-fill.ll", NO_TLS),
    ("NVPTX", "nvptx64-nvidia-cuda", "-mcpu=sm_80", ("asm",), None, {}),
    # AVR's functions live in address space 1: parsed with AVR's data layout (as llc does), a
    # module that names a function as `ptr` does not parse (the PGO module makes the same CG
    # profile entries through the pipeline, and stays in).
    ("AVR", "avr-unknown-unknown", "", ("obj", "asm"), None,
     {**NO_TLS, **{name: "names a function as ptr, not ptr addrspace(1)" for name in ("cg_profile", "flags", "eh")}}),
    ("BPF", "bpfel", "", ("obj", "asm"), None,
     {**NO_TLS, **NO_CG_OBJ, "module_asm": "no absolute symbols", "loop": "no floating point"}),
    ("Hexagon", "hexagon-unknown-linux-musl", "", ("obj", "asm"), None, {"module_asm": "no absolute symbols"}),
    ("Lanai", "lanai-unknown-unknown", "", ("obj", "asm"), None, {**NO_TLS, **NO_CG_OBJ}),
    ("LoongArch", "loongarch64-unknown-linux-gnu", "", ("obj", "asm"), None, {}),
    ("Mips", "mips64el-unknown-linux-gnuabi64", "", ("obj", "asm"), None, {}),
    ("MSP430", "msp430-unknown-unknown", "", ("obj", "asm"), None, {**NO_TLS, **NO_CG_OBJ}),
    ("PowerPC", "powerpc64le-unknown-linux-gnu", "", ("obj", "asm"), None, {}),
    ("PowerPC", "powerpc64-ibm-aix", "", ("obj", "asm"), None,
     {"module_asm": "a known LLVM crash of the object writer: the safe policy accepts no asm statement on "
                    "XCOFF (tests/data/asm_crashers/aix-module-asm-symbol.ll)"}),
    ("RISCV", "riscv64-unknown-linux-gnu", "", ("obj", "asm"), None,
     {"flags": "cf-protection-branch without a label scheme: a known LLVM crash, refused "
               "(tests/data/backend_crashers/riscv-cf-protection-branch.ll)"}),
    ("Sparc", "sparcv9-unknown-linux-gnu", "", ("obj", "asm"), None, {}),
    ("SPIRV", "spirv64-unknown-unknown", "", ("obj", "asm"), None, {"module_asm": "no module asm in SPIR-V"}),
    ("SystemZ", "s390x-unknown-linux-gnu", "", ("obj", "asm"), None, {}),
    ("SystemZ", "s390x-ibm-zos", "", ("obj", "asm"), None, {"module_asm": "HLASM syntax"}),
    ("VE", "ve-unknown-linux-gnu", "", ("obj", "asm"), None, NO_CG_OBJ),
    ("WebAssembly", "wasm32-unknown-unknown", "", ("obj", "asm"), None, {"module_asm": "no absolute symbols"}),
    ("XCore", "xcore-unknown-unknown", "", ("asm",), None, {}),
]


def test_every_backend_of_the_build_is_covered():
    assert {row[0] for row in TARGETS} >= set(llvmplug.info()["backends"])


@pytest.fixture(scope="module")
def shared():
    """The copy under test: every module of every target goes through it, in turn."""
    with llvmplug.Plugin(isolation="process") as plugin:
        yield plugin


@pytest.fixture(scope="module")
def fresh():
    """fresh(module, triple, flags, output, sticky=""): the output of a freshly loaded copy."""
    with llvmplug.Plugin(private=True) as plugin:
        def compile_fresh(module, triple, flags, output, sticky=""):
            plugin.reload()
            if sticky:
                plugin.set_options(sticky)
            return plugin.compile(module, triple, flags, output=output)
        yield compile_fresh


def _check_sequence(shared, fresh, requests, sticky=""):
    """Compile `requests` twice over on `shared`; every output must be the fresh copy's."""
    expected = {request: fresh(*request, sticky=sticky) for request in requests}
    for round_ in range(2):  # the second round has every module after every other
        for request in requests:
            got = shared.compile(*request[:3], output=request[3])
            assert got == expected[request], f"round {round_ + 1}: {request[1]} {request[2]!r} {request[3]} " \
                                             f"differs from a fresh copy's after {len(requests)} other compiles"


@pytest.mark.parametrize(("backend", "triple", "flags", "outputs", "kernel", "left_out"),
                         [pytest.param(*row, id=row[1]) for row in TARGETS])
def test_outputs_equal_a_fresh_copys(shared, fresh, backend, triple, flags, outputs, kernel, left_out):
    if backend not in llvmplug.info()["backends"]:
        pytest.skip(f"built without {backend} (LLVMPLUG_TARGETS)")
    modules = {name: text for name, text in MODULES.items() if name not in left_out}
    if kernel:
        modules["kernel"] = (DATA / kernel).read_text()
    # Grouped by output: a kept pipeline would serve consecutive compiles of one file type.
    requests = [(text, triple, flags, output) for output in outputs for text in modules.values()]
    _check_sequence(shared, fresh, requests)


# -- the reproductions of issue 18, each on a copy of its own --------------------------------

def test_a_pgo_module_does_not_crash_the_next_compile():
    """The CG profile entries of a PGO module pointed into a freed MCContext at the next compile."""
    with llvmplug.Plugin(isolation="process") as plugin:
        expected = plugin.compile(PLAIN)
        for _ in range(3):
            plugin.compile(PGO)
            assert plugin.compile(PLAIN) == expected


def test_import_call_optimization_stays_in_its_module(fresh):
    """The flag's .retplne section appeared in every later object for the triple."""
    triple = "x86_64-pc-windows-msvc"
    flagged = PLAIN.replace("@f", "@g") + \
        '!llvm.module.flags = !{!0}\n!0 = !{i32 1, !"import-call-optimization", i32 1}\n'
    with llvmplug.Plugin(isolation="process") as plugin:
        assert b".retplne" in plugin.compile(flagged, triple)  # control: the flag does something
        assert plugin.compile(PLAIN, triple) == fresh(PLAIN, triple, "", "obj")


def test_long_coff_names_stay_in_their_module(fresh):
    """A module with long names left the next COFF objects with an oversized string table."""
    triple = "x86_64-pc-windows-msvc"
    with llvmplug.Plugin(isolation="process") as plugin:
        plugin.compile(LONG, triple)
        assert plugin.compile(PLAIN, triple) == fresh(PLAIN, triple, "", "obj")


def test_a_swiftasync_function_stays_in_its_module(fresh):
    """With -swift-async-fp=auto, one swiftasync function added a weak symbol to later Mach-O objects."""
    triple, sticky = "x86_64-apple-macosx", "-swift-async-fp=auto"
    swift = 'define swifttailcc void @s(ptr swiftasync %ctx) "frame-pointer"="all" {\n  ret void\n}\n'
    with llvmplug.Plugin(isolation="process") as plugin:
        plugin.set_options(sticky)
        assert b"swift_async_extendedFramePointerFlags" in plugin.compile(swift, triple)  # control
        _check_sequence(plugin, fresh, [(PLAIN, triple, "", "obj"), (swift, triple, "", "obj"),
                                        (PLAIN, triple, "", "asm")], sticky=sticky)


# -- option changes and failures between compiles ----------------------------------------------

# Code whose object depends on options read when a TargetMachine is created
# (CPU, features, code model) and on one read by codegen passes.
SENSITIVE = """\
@counter = global i64 0
define i64 @bits(i64 %x) {
  %n = call i64 @llvm.ctpop.i64(i64 %x)
  %c = load i64, ptr @counter
  %s = add i64 %n, %c
  ret i64 %s
}
declare i64 @llvm.ctpop.i64(i64)
""" + LOOP
CHANGES = ("-mcpu=haswell", "-mattr=+popcnt", "-code-model=large", "-align-loops=64")
X86_64 = "x86_64-unknown-linux-gnu"


@pytest.mark.skipif("X86" not in llvmplug.info()["backends"], reason="built without X86")
def test_options_and_failures_between_compiles_leave_no_trace(fresh):
    plain = fresh(SENSITIVE, X86_64, "", "obj")
    with llvmplug.Plugin(isolation="process") as plugin:
        for change in CHANGES:
            changed = fresh(SENSITIVE, X86_64, change, "obj")
            assert changed != plain  # control: the option does change the object
            assert plugin.compile(SENSITIVE, X86_64) == plain
            assert plugin.compile(SENSITIVE, X86_64, change) == changed  # per call
            assert plugin.compile(SENSITIVE, X86_64) == plain
            plugin.set_options(change)
            assert plugin.compile(SENSITIVE, X86_64) == changed == fresh(SENSITIVE, X86_64, "", "obj", sticky=change)
            plugin.clear_options()
            assert plugin.compile(SENSITIVE, X86_64) == plain
        with pytest.raises(llvmplug.ParseError):
            plugin.compile("define void @f( {", X86_64)
        with pytest.raises(llvmplug.TargetError):
            plugin.compile(SENSITIVE, X86_64, "-mcpu=no-such-cpu")
        assert plugin.compile(SENSITIVE, X86_64) == plain
