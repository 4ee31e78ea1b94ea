"""Every LLVM backend: cross targets as ELF/wasm, AMDGPU code objects, target info, llc's flags.

The shim is built with every non-experimental backend by default
(LLVMPLUG_TARGETS=all). Objects are read with pyelftools, not with LLVM.
"""

from __future__ import annotations

import io
import re
import shlex
import shutil
from pathlib import Path
import subprocess
import sys

import pytest
from elftools.elf.elffile import ELFFile

import llvmplug

SCALE = """\
define i32 @scale(i32 %x, i32 %y) {
entry:
  %product = mul i32 %x, %y
  %sum = add i32 %product, 7
  ret i32 %sum
}
"""

REQUIRED = {"NVPTX", "AMDGPU", "AArch64", "ARM", "RISCV", "WebAssembly", "X86"}


@pytest.fixture(scope="module")
def backends() -> set[str]:
    return set(llvmplug.info()["backends"])


def needs(backend: str):
    """Skip where the shim was built without `backend` (LLVMPLUG_TARGETS); the default has all."""
    return pytest.mark.skipif(backend not in llvmplug.info()["backends"],
                              reason=f"built without {backend} (LLVMPLUG_TARGETS)")


def elf(obj: bytes) -> ELFFile:
    assert obj[:4] == b"\x7fELF"
    return ELFFile(io.BytesIO(obj))


def symbols(obj: ELFFile) -> dict[str, str]:
    return {s.name: s["st_info"]["type"] for s in obj.get_section_by_name(".symtab").iter_symbols() if s.name}


def test_the_default_build_carries_every_required_backend(backends):
    # LLVMPLUG_TARGETS=all: every backend of the SDK (20 in LLVM 23).
    assert REQUIRED <= backends
    names = {t["name"] for t in llvmplug.info()["targets"]}
    assert {"nvptx64", "amdgcn", "aarch64", "arm", "riscv64", "wasm32", "x86-64"} <= names


# -- cross targets, read as ELF ------------------------------------------------------

@pytest.mark.parametrize("triple, flags, machine, elfclass, flag_bits", [
    pytest.param("aarch64-unknown-linux-gnu", [], "EM_AARCH64", 64, None, marks=needs("AArch64")),
    pytest.param("aarch64_be-unknown-linux-gnu", [], "EM_AARCH64", 64, None, marks=needs("AArch64")),
    # RISC-V: the double-float ABI is recorded in e_flags (EF_RISCV_FLOAT_ABI_DOUBLE = 0x4).
    pytest.param("riscv64-unknown-linux-gnu", ["-mattr=+m,+f,+d", "-target-abi=lp64d"], "EM_RISCV", 64, 0x4,
                 marks=needs("RISCV")),
    pytest.param("riscv32-unknown-elf", ["-mattr=+m"], "EM_RISCV", 32, None, marks=needs("RISCV")),
    # ARM: EABI version 5 in the top byte of e_flags (EF_ARM_EABI_VER5).
    pytest.param("armv7-unknown-linux-gnueabihf", [], "EM_ARM", 32, 0x05000000, marks=needs("ARM")),
])
def test_cross_target_object_is_an_elf_for_that_machine(triple, flags, machine, elfclass, flag_bits):
    obj = elf(llvmplug.compile(SCALE, triple, flags))
    assert obj["e_machine"] == machine
    assert obj.elfclass == elfclass
    assert obj.little_endian == ("_be" not in triple)
    assert obj["e_type"] == "ET_REL"
    assert symbols(obj)["scale"] == "STT_FUNC"
    if flag_bits is not None:
        assert obj["e_flags"] & flag_bits == flag_bits


@needs("WebAssembly")
@pytest.mark.parametrize("triple", ["wasm32-unknown-unknown", "wasm64-unknown-unknown"])
def test_webassembly_object(triple):
    obj = llvmplug.compile(SCALE, triple)
    assert obj[:8] == b"\0asm\x01\0\0\0"
    assert b"scale" in obj and b"linking" in obj  # a relocatable wasm object
    assert b".functype\tscale (i32, i32) -> (i32)" in llvmplug.compile(SCALE, triple, output="asm")


# -- AMDGPU objects and code objects --------------------------------------------------------------

AMD_KERNEL = (Path(__file__).resolve().parent / "data" / "amd-fill.ll").read_text()

# EF_AMDGPU_MACH_* from the AMDGPU ELF spec (the low byte of e_flags).
AMD_MACH = {"gfx900": 0x2C, "gfx90a": 0x3F, "gfx942": 0x4C, "gfx1100": 0x41, "gfx1200": 0x48}
EM_AMDGPU = 224
ELFOSABI_AMDGPU_HSA = 64


@needs("AMDGPU")
@pytest.mark.parametrize("gfx", sorted(AMD_MACH))
def test_amdgpu_object(gfx):
    data = llvmplug.compile(AMD_KERNEL, "amdgcn-amd-amdhsa", [f"-mcpu={gfx}", "-O3"])
    obj = elf(data)
    assert obj.header["e_machine"] in ("EM_AMDGPU", EM_AMDGPU)
    assert data[7] == ELFOSABI_AMDGPU_HSA
    assert obj["e_flags"] & 0xFF == AMD_MACH[gfx]
    syms = symbols(obj)
    # The kernel's code and its kernel descriptor, which the runtime launches by.
    assert syms["fill"] == "STT_FUNC" and syms["fill.kd"] == "STT_OBJECT"
    assert obj.get_section_by_name(".rodata")["sh_size"] == 64  # one 64-byte kernel descriptor
    notes = obj.get_section_by_name(".note").data()
    # The code object metadata names the target.
    assert re.search(rb"amdhsa\.target.{1,3}amdgcn-amd-amdhsa-[a-z]*-" + gfx.encode(), notes)


@needs("AMDGPU")
@pytest.mark.parametrize("gfx", ["gfx90a", "gfx1100"])
def test_amdgpu_relocatable_object_links_into_a_loadable_code_object(gfx, tmp_path):
    """llvmplug makes a relocatable object (ET_REL); ``ld.lld -shared`` makes the code object the
    HIP runtime loads (ET_DYN, with a dynamic symbol table naming the kernel and its descriptor)."""
    # LLVM 23 writes code object v6 by default: lld 14 (Debian's "lld") refuses its ABI version.
    lld = next(filter(None, map(shutil.which, [f"ld.lld-{v}" for v in range(30, 18, -1)])), None)
    if lld is None:
        pytest.skip("no ld.lld 19 or newer (Debian's lld-19 package)")
    data = llvmplug.compile(AMD_KERNEL, "amdgcn-amd-amdhsa", [f"-mcpu={gfx}", "-O3"])
    assert elf(data).header["e_type"] == "ET_REL"
    (tmp_path / "fill.o").write_bytes(data)
    subprocess.run([lld, "-shared", "-o", str(tmp_path / "fill.hsaco"), str(tmp_path / "fill.o")], check=True)
    code_object = elf((tmp_path / "fill.hsaco").read_bytes())
    assert code_object.header["e_type"] == "ET_DYN"
    assert code_object.header["e_machine"] in ("EM_AMDGPU", EM_AMDGPU)
    assert code_object["e_flags"] & 0xFF == AMD_MACH[gfx]
    dynamic = {s.name for s in code_object.get_section_by_name(".dynsym").iter_symbols()}
    assert {"fill", "fill.kd"} <= dynamic


# -- target info ----------------------------------------------------------------------

@needs("NVPTX")
def test_target_info_nvptx():
    info = llvmplug.default_plugin().target_info("nvptx64-nvidia-cuda")
    assert info["triple"] == "nvptx64-nvidia-cuda" and info["target"] == "nvptx64"
    assert {"sm_80", "sm_90a", "sm_120"} <= set(info["cpus"])
    assert any(f["name"] == "ptx80" for f in info["features"])


@needs("AMDGPU")
def test_target_info_amdgpu_normalises_the_triple():
    info = llvmplug.default_plugin().target_info("amdgcn--amdhsa")
    assert info["triple"] == "amdgcn-unknown-amdhsa"
    assert {"gfx900", "gfx90a", "gfx1100"} <= set(info["cpus"])
    assert {"wavefrontsize64", "xnack"} <= {f["name"] for f in info["features"]}


def test_target_info_host_by_default():
    plugin = llvmplug.default_plugin()
    info = plugin.target_info()
    assert info["triple"] == plugin.info()["host_triple"]
    assert plugin.info()["host_cpu"] in info["cpus"]


def test_target_info_unknown_triple_is_a_target_error():
    with pytest.raises(llvmplug.TargetError, match="nonsense"):
        llvmplug.default_plugin().target_info("nonsense-unknown-none")


def test_cli_info_target(tmp_path):
    result = subprocess.run([sys.executable, "-m", "llvmplug", "info", "--target", "riscv64", "--json"],
                            capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert '"sifive-u74"' in result.stdout


# -- llc's own flags and RUN lines ----------------------------------------------------

def run_line(line: str) -> list[str]:
    """The llc flags of a RUN line from LLVM's test suite: without llc, <, %s and the pipe."""
    words = shlex.split(line.split("|")[0])
    assert words[0] == "llc"
    flags, skip = [], False
    for word in words[1:]:
        if skip or word in ("<", "%s"):
            skip = False
            continue
        flags.append(word)
    return flags


# RUN lines as LLVM's tests write them (stdin, -o -, -march and llc's own flags),
# each with what must show in the output.
RUN_LINES = [
    pytest.param("llc < %s -march=nvptx64 -mcpu=sm_20 | FileCheck %s", [".target sm_20", ".address_size 64"],
                 marks=needs("NVPTX")),
    pytest.param("llc < %s -march=nvptx -mcpu=sm_70 | FileCheck %s", [".target sm_70", ".address_size 32"],
                 marks=needs("NVPTX")),
    pytest.param("llc -mtriple=riscv32 -mattr=+m -verify-machineinstrs -M no-aliases < %s | FileCheck %s",
                 ["jalr\tzero, 0(ra)"], marks=needs("RISCV")),
    pytest.param("llc -mtriple=x86_64-unknown-unknown -show-mc-encoding < %s | FileCheck %s",
                 ["# encoding: [0x"], marks=needs("X86")),
    pytest.param("llc -mtriple=amdgcn -mcpu=gfx900 -show-mc-encoding -verify-machineinstrs < %s | FileCheck %s",
                 ["; encoding: [0x"], marks=needs("AMDGPU")),
    pytest.param("llc -mtriple=aarch64-linux-gnu -o - %s | FileCheck %s", ["madd\tw0, w1, w0, w8"],
                 marks=needs("AArch64")),
    pytest.param("llc -mtriple=wasm32-unknown-unknown -asm-verbose=false -wasm-keep-registers < %s | FileCheck %s",
                 ["i32.mul"], marks=needs("WebAssembly")),
    pytest.param("llc -mtriple=armv7a-none-eabi -binutils-version=2.39 -preserve-as-comments=false < %s", ["mul\tr0, r1, r0", "Tag_CPU_arch"],
                 marks=needs("ARM")),
]


@pytest.mark.parametrize("line, expected", RUN_LINES)
def test_llc_run_line_works_unchanged(line, expected):
    asm = llvmplug.compile(SCALE, flags=run_line(line), output="asm").decode()
    for text in expected:
        assert text in asm


def test_show_mc_encoding_changes_the_output():
    plain = llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", output="asm")
    encoded = llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", ["-show-mc-encoding"], output="asm")
    assert b"encoding:" not in plain and b"encoding: [" in encoded
    # Per call: the next compile has no encodings again.
    assert llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", output="asm") == plain


@needs("RISCV")
def test_instprinter_option_m():
    aliases = llvmplug.compile(SCALE, "riscv32", output="asm")
    assert b"\tret\n" in aliases
    assert b"\tret\n" not in llvmplug.compile(SCALE, "riscv32", ["-M", "no-aliases"], output="asm")
    assert b"\tret\n" not in llvmplug.compile(SCALE, "riscv32", ["-M=no-aliases"], output="asm")


INLINE_ASM = """\
define void @f() {
  call void asm sideeffect "nop # a comment of the author's", ""()
  ret void
}
"""


def test_preserve_as_comments():
    kept = llvmplug.compile(INLINE_ASM, "x86_64-unknown-linux-gnu", output="asm")
    dropped = llvmplug.compile(INLINE_ASM, "x86_64-unknown-linux-gnu", ["-preserve-as-comments=false"], output="asm")
    assert b"a comment of the author's" in kept and b"a comment of the author's" not in dropped


def test_module_code_model_is_used_unless_code_model_is_given():
    """llc: the module's "Code Model" flag picks the code model when -code-model is absent."""
    module = """\
@big = global [16 x i32] zeroinitializer
define ptr @address() {
  ret ptr @big
}
!llvm.module.flags = !{!0}
!0 = !{i32 1, !"Code Model", i32 4}
"""
    large = llvmplug.compile(module, "x86_64-unknown-linux-gnu", output="asm")
    assert b"movabsq\t$big" in large
    small = llvmplug.compile(module, "x86_64-unknown-linux-gnu", ["-code-model=small"], output="asm")
    assert b"movabsq" not in small


@pytest.mark.parametrize("flags, match", [
    (["-binutils-version=two"], "binutils-version"),
    (["-show-mc-encoding=maybe"], "show-mc-encoding"),
    (["-o", "out.s"], "never written to a file"),
    (["-x", "mir"], "MIR"),
    (["-I", "/tmp"], "reads or writes files"),
    (["-split-dwarf-output=x.dwo"], "reads or writes files"),
    (["-enable-new-pm"], "legacy"),
])
def test_llc_flags_refused_with_a_reason(flags, match):
    with pytest.raises(llvmplug.OptionError, match=match):
        llvmplug.compile(SCALE, flags=flags)


def test_flags_that_cannot_change_the_output_are_accepted():
    plain = llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", output="asm")
    same = llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu",
                            ["-o", "-", "-verify-each", "-compile-twice", "-time-compilations=2", "-x", "ir"],
                            output="asm")
    assert same == plain


PRINTF = """\
@.text = private constant [4 x i8] c"hi\\0A\\00"
declare i32 @printf(ptr, ...)
define void @greet() {
  %r = call i32 (ptr, ...) @printf(ptr @.text)
  ret void
}
"""


def test_disable_simplify_libcalls():
    """llc's flag (also applied to the IR pipeline, as opt's of the same name): no library call is rewritten."""
    simplified = llvmplug.compile(PRINTF, "x86_64-unknown-linux-gnu", ["-O2"], output="ll")
    kept = llvmplug.compile(PRINTF, "x86_64-unknown-linux-gnu", ["-O2", "-disable-simplify-libcalls"], output="ll")
    assert b"@puts" in simplified and b"@printf" not in simplified.split(b"define")[1]
    assert b"call i32 (ptr, ...) @printf" in kept and b"@puts" not in kept


def test_bad_instprinter_option_is_an_option_error_and_prints_nothing(capfd):
    """llc reports it as an MC error; without a handler LLVM would print it to stderr."""
    with pytest.raises(llvmplug.OptionError, match="invalid InstPrinter option 'no-aliases' \\(-M\\) for target 'x86_64"):
        llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", ["-M", "no-aliases"], output="asm")
    assert capfd.readouterr().err == ""
    assert llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", output="asm")  # still usable


# -- the build setting ----------------------------------------------------------------

@pytest.mark.slow  # builds the shim (about a minute)
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="builds with the Linux toolchain")
def test_llvmplug_targets_chooses_the_backends(tmp_path):
    import shutil

    root = Path(__file__).resolve().parents[1]
    try:
        import mlc_llvm_static
    except ImportError:
        pytest.fail("the build setting is tested against mlc-llvm-static[all] (in the test extra)")
    if shutil.which("cmake") is None:
        pytest.skip("needs cmake")
    sdk = Path(mlc_llvm_static.get_prefix())
    base = ["cmake", "-S", str(root), f"-DLLVM_DIR={sdk / 'lib' / 'cmake' / 'llvm'}", f"-DCMAKE_PREFIX_PATH={sdk}",
            "-DCMAKE_BUILD_TYPE=Release"]
    refused = subprocess.run(base + ["-B", str(tmp_path / "bad"), "-DLLVMPLUG_TARGETS=X86;Z80"],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "'Z80' is not a backend of this LLVM" in refused.stderr

    build = tmp_path / "two"
    for command in (base + ["-B", str(build), "-DLLVMPLUG_TARGETS=X86,NVPTX"], ["cmake", "--build", str(build)]):
        result = subprocess.run(command, capture_output=True, text=True, timeout=1800)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    library = next(build.glob("libllvmplug.so"))
    with llvmplug.Plugin(path=library, private=True) as two:
        assert two.info()["backends"] == ["X86", "NVPTX"]
        assert b".target sm_80" in two.compile(SCALE, flags=["-march=nvptx64", "-mcpu=sm_80"], output="asm")
        with pytest.raises(llvmplug.TargetError, match="aarch64"):
            two.compile(SCALE, "aarch64-unknown-linux-gnu")


@needs("AArch64")
def test_march_replaces_the_arch_of_the_modules_triple_and_works_sticky():
    """As llc: without a requested triple, -march picks the backend and replaces the module's (or host's) arch.

    With a requested triple it may only repeat its architecture (tests/test_target_checks.py).
    """
    obj = elf(llvmplug.compile(SCALE, None, ["-march=aarch64"]))
    assert obj["e_machine"] == "EM_AARCH64"
    ir = llvmplug.compile(SCALE, None, ["-march=aarch64", "-passes="], output="ll")
    assert b'target triple = "aarch64-' in ir
    assert elf(llvmplug.compile(SCALE, "x86_64-unknown-linux-gnu", ["-march=x86-64"]))["e_machine"] == "EM_X86_64"
    with llvmplug.Plugin(private=True) as plugin:
        plugin.set_options(["-march=aarch64"])
        assert elf(plugin.compile(SCALE))["e_machine"] == "EM_AARCH64"
        plugin.clear_options()
        assert elf(plugin.compile(SCALE))["e_machine"] == "EM_X86_64"
