"""When the module and the request disagree about the target (issue 28, section 1).

A module is written for one target. Compiled for another it either stops
inside a backend with a fatal error naming neither the function nor the clash
(which poisons the copy), or compiles quietly into something else. These
tests pin what llvmplug says instead: a TargetError naming the function and
what belongs to which target, found before code generation, or a warning
where the result may still work (csrc/compile/target_checks.cpp).
"""

from __future__ import annotations

import io
import re
import subprocess
import sys
import warnings

import pytest
from elftools.elf.elffile import ELFFile

import llvmplug

from test_targets import needs

KERNEL = """\
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @kern(ptr %p) {
  store i32 1, ptr %p
  ret void
}
"""

NVVM_CALL = """\
define i32 @tid() {
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  ret i32 %t
}
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
"""

HOST = """\
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define i32 @scale(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
"""

PLAIN = """\
define i32 @scale(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}
"""


def compile_quietly(*args, **kwargs) -> tuple[bytes, list[str]]:
    """The output and the LLVMPlugWarnings the compile gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        data = llvmplug.compile(*args, **kwargs)
    return data, [str(w.message) for w in caught if issubclass(w.category, llvmplug.LLVMPlugWarning)]


# -- calling conventions and intrinsics of another target -----------------------------

@needs("AArch64")
@pytest.mark.parametrize("how", [("aarch64-linux-gnu", ()), (None, ("-mtriple=aarch64-linux-gnu",))])
def test_a_gpu_kernel_for_aarch64_is_a_target_error_naming_the_function_not_a_fatal_error(how):
    """AArch64 would stop with `FatalError: unsupported calling convention` and poison the copy."""
    target, flags = how
    with llvmplug.Plugin(private=True) as plugin:
        with pytest.raises(llvmplug.TargetError) as raised:
            plugin.compile(KERNEL, target, flags)
        assert not plugin.poisoned
    message = str(raised.value)
    assert "'kern'" in message and "ptx_kernel" in message
    assert "NVPTX" in message and "AArch64" in message and "aarch64-unknown-linux-gnu" in message


def test_a_gpu_kernel_is_not_quietly_made_a_host_function():
    """X86 reads ptx_kernel as the C convention: it compiled, into something the module never meant."""
    with pytest.raises(llvmplug.TargetError, match=r"'kern'.*ptx_kernel.*belongs to NVPTX, not to X86"):
        llvmplug.compile(KERNEL, "x86_64-linux-gnu")


@pytest.mark.parametrize("cc, owner", [("amdgpu_kernel", "AMDGPU"), ("spir_kernel", "SPIRV"),
                                       ("x86_stdcallcc", "X86")])
@needs("NVPTX")
def test_another_targets_calling_convention_names_its_owner(cc, owner):
    module = f"define {cc} void @f(ptr %p) {{\n  ret void\n}}\n"
    with pytest.raises(llvmplug.TargetError, match=rf"'f'.*{cc}.*belongs to [^,]*{owner}"):
        llvmplug.compile(module, "nvptx64-nvidia-cuda", output="asm")


@needs("AMDGPU")
def test_a_convention_a_backend_does_not_implement_is_refused_before_codegen():
    """AMDGPU implements neither swiftcc nor ghccc: it would stop with a fatal error."""
    module = "define swiftcc void @f() {\n  ret void\n}\n"
    with llvmplug.Plugin(private=True) as plugin:
        with pytest.raises(llvmplug.TargetError, match=r"'f'.*swiftcc.*does not implement"):
            plugin.compile(module, "amdgcn-amd-amdhsa")
        assert not plugin.poisoned


def test_a_convention_of_the_backends_own_that_it_cannot_call_is_refused():
    """X86 stops with `LLVM ERROR: X86 interrupts may not be called directly` (a FatalError)."""
    module = ("declare x86_intrcc void @handler(ptr byval(i8))\n"
              "define void @g(ptr %frame) {\n  call x86_intrcc void @handler(ptr byval(i8) %frame)\n  ret void\n}\n")
    with llvmplug.Plugin(private=True) as plugin:
        with pytest.raises(llvmplug.TargetError,
                           match=r"'g' calls 'handler' with the calling convention x86_intrcc, which LLVM's X86 "
                                 r"backend does not implement in a call"):
            plugin.compile(module, "x86_64-linux-gnu")
        assert not plugin.poisoned
        handler = "define x86_intrcc void @handler(ptr byval(i8) %frame) {\n  ret void\n}\n"
        assert plugin.compile(handler, "x86_64-linux-gnu")  # defining one is what it is for


@needs("AArch64")
def test_a_call_with_a_foreign_convention_names_caller_and_callee():
    module = ("declare x86_vectorcallcc void @v()\n"
              "define void @g() {\n  call x86_vectorcallcc void @v()\n  ret void\n}\n")
    with pytest.raises(llvmplug.TargetError, match=r"'g' calls 'v' with the calling convention x86_vectorcallcc"):
        llvmplug.compile(module, "aarch64-linux-gnu")


@pytest.mark.parametrize("module, target", [
    (KERNEL, "nvptx64-nvidia-cuda"),
    ("define amdgpu_kernel void @k() {\n  ret void\n}\n", "amdgcn-amd-amdhsa"),
    ("define spir_kernel void @k() {\n  ret void\n}\n", "spirv64-unknown-unknown"),
    ("define x86_stdcallcc void @k() {\n  ret void\n}\n", "i686-windows-msvc"),
    ("define aarch64_vector_pcs void @k() {\n  ret void\n}\n", "aarch64-linux-gnu"),
    ("define fastcc void @k() {\n  ret void\n}\n", "riscv64-linux-gnu"),
])
def test_a_convention_on_its_own_target_compiles(module, target):
    output = "asm" if target.startswith("nvptx") else "obj"
    assert llvmplug.compile(module, target, output=output)


def test_an_intrinsic_of_another_target_is_a_target_error_naming_the_function():
    """X86 would stop with `FatalError: Cannot select: intrinsic %llvm.nvvm...`."""
    with llvmplug.Plugin(private=True) as plugin:
        with pytest.raises(llvmplug.TargetError) as raised:
            plugin.compile(NVVM_CALL, "x86_64-linux-gnu")
        assert not plugin.poisoned
    message = str(raised.value)
    assert "'tid'" in message and "llvm.nvvm.read.ptx.sreg.tid.x" in message
    assert "llvm.nvvm.*" in message and "llvm.x86.*" in message


@needs("NVPTX")
def test_an_intrinsic_of_its_own_target_compiles():
    assert b"%tid.x" in llvmplug.compile(NVVM_CALL, "nvptx64-nvidia-cuda", output="asm")


def test_ir_output_is_not_refused_it_generates_no_code():
    """The checks guard code generation; bitcode or IR text of the module is still what was asked."""
    text, _ = compile_quietly(KERNEL, "x86_64-linux-gnu", "-passes=", output="ll")
    assert b"ptx_kernel" in text


def test_the_checks_run_on_what_link_modules_bring():
    """libdevice-style: a link module's function may carry another target's intrinsic."""
    main = "declare i32 @helper()\ndefine i32 @f() {\n  %r = call i32 @helper()\n  ret i32 %r\n}\n"
    helper = NVVM_CALL.replace("@tid()", "@helper()")
    with pytest.raises(llvmplug.TargetError, match="'helper' calls llvm.nvvm"):
        llvmplug.compile(main, "x86_64-linux-gnu", link=[helper])


def test_compile_modules_and_parts_check_too():
    with pytest.raises(llvmplug.TargetError, match="'kern'"):
        llvmplug.compile_modules([PLAIN, KERNEL.replace('target triple = "nvptx64-nvidia-cuda"', "")],
                                 "x86_64-linux-gnu")
    with pytest.raises(llvmplug.TargetError, match="'tid'"):
        llvmplug.compile_parts(NVVM_CALL, "x86_64-linux-gnu", parts=2)


# -- the calling-convention table is LLVM's measured behaviour -------------------------------

@pytest.mark.sweep
@pytest.mark.skipif(sys.platform != "linux", reason="refllc is built and run on Linux")
def test_the_calling_convention_table_is_what_refllc_measures():
    """csrc/compile/calling_conventions.inc is regenerated by tests/campaigns/calling_conventions.py (a minute)."""
    from test_llc_parity import ROOT

    result = subprocess.run([sys.executable, str(ROOT / "tests" / "campaigns" / "calling_conventions.py"), "--check"],
                            capture_output=True, text=True, timeout=3600)
    assert result.returncode == 0, result.stderr[-3000:]


# -- one rule for every way of naming the target ---------------------------------------------

@needs("AArch64")
def test_march_that_replaces_the_requested_triples_arch_is_a_conflict():
    """It used to give an AArch64 object silently, while -mtriple in its place was a conflict."""
    with pytest.raises(llvmplug.OptionError, match=r"-march=aarch64 conflicts with target 'x86_64-linux-gnu'"):
        llvmplug.compile(PLAIN, "x86_64-linux-gnu", "-march=aarch64")
    with pytest.raises(llvmplug.OptionError, match=r"-march=aarch64 conflicts"):
        llvmplug.compile(PLAIN, None, "-mtriple=x86_64-linux-gnu -march=aarch64")
    with llvmplug.Plugin(private=True) as plugin:
        plugin.set_options("-march=aarch64")  # sticky: the same rule
        with pytest.raises(llvmplug.OptionError, match=r"-march=aarch64 conflicts"):
            plugin.compile(PLAIN, "x86_64-linux-gnu")


@needs("RISCV")
def test_mtriple_that_names_another_target_is_a_conflict():
    with pytest.raises(llvmplug.OptionError, match=r"-mtriple=riscv64 conflicts with target 'aarch64-linux-gnu'"):
        llvmplug.compile(PLAIN, "aarch64-linux-gnu", "-mtriple=riscv64")


def test_the_same_target_named_twice_in_two_spellings_is_no_conflict():
    """target= and -mtriple= are compared normalised; -march may repeat the triple's architecture."""
    for flags in ("-mtriple=x86_64-unknown-linux-gnu", "-march=x86-64",
                  "-mtriple=x86_64-linux-gnu -march=x86-64"):
        obj = ELFFile(io.BytesIO(llvmplug.compile(PLAIN, "x86_64-linux-gnu", flags)))
        assert obj["e_machine"] == "EM_X86_64"


# -- the module's triple and layout against the request ---------------------------------------

@needs("AArch64")
@pytest.mark.parametrize("target, flags", [("aarch64-linux-gnu", ()), (None, ("-march=aarch64",)),
                                           (None, ("-mtriple=aarch64-linux-gnu",))])
def test_overriding_the_modules_triple_warns_naming_both(target, flags):
    """As clang's -Woverride-module: the compile works, the warning says whose triple won."""
    obj, said = compile_quietly(HOST, target, flags)
    assert ELFFile(io.BytesIO(obj))["e_machine"] == "EM_AARCH64"
    overridden = [m for m in said if "target triple" in m]
    assert len(overridden) == 1
    assert "'x86_64-unknown-linux-gnu'" in overridden[0] and "'aarch64-unknown-linux-gnu'" in overridden[0]


@pytest.mark.parametrize("target", [None, "x86_64-linux-gnu", "x86_64-pc-linux-gnu"])
def test_a_matching_or_missing_triple_gives_no_warning(target):
    """The vendor alone (pc or unknown) is no other target."""
    for module in (HOST, PLAIN):
        _, said = compile_quietly(module, target)
        assert said == []


def test_a_data_layout_that_contradicts_the_target_is_a_target_error():
    """llc replaces the module's layout silently; IR written for 32-bit pointers is wrong with 64."""
    module = HOST.replace(HOST.splitlines()[0], 'target datalayout = "e-p:32:32"')
    with pytest.raises(llvmplug.TargetError) as raised:
        llvmplug.compile(module)
    message = str(raised.value)
    assert '"e-p:32:32"' in message and "x86_64-unknown-linux-gnu" in message
    assert "address space 0 are 32 bits" in message and "64 bits" in message
    big = HOST.replace('datalayout = "e-', 'datalayout = "E-')
    with pytest.raises(llvmplug.TargetError, match="big-endian, the target little-endian"):
        llvmplug.compile(big)


@needs("AMDGPU")
def test_a_layout_that_puts_allocas_elsewhere_is_a_target_error():
    info = llvmplug.target_info("amdgcn-amd-amdhsa")
    layout = info["data_layout"].replace("-A5", "")
    module = f'target datalayout = "{layout}"\ndefine void @f() {{\n  ret void\n}}\n'
    with pytest.raises(llvmplug.TargetError, match="allocas live in address space 0 in it, 5 on the target"):
        llvmplug.compile(module, "amdgcn-amd-amdhsa")


def test_a_layout_that_only_aligns_differently_warns():
    module = HOST.replace("-i64:64-", "-i64:32-")
    _, said = compile_quietly(module)
    assert any("aligns types differently" in m and "i64 4 not 8" in m for m in said)


def test_an_older_layout_llvm_upgrades_itself_is_accepted_quietly():
    """clang 17 wrote x86-64 layouts without i128:128; LLVM's reader upgrades them."""
    module = HOST.replace("-i128:128", "")
    _, said = compile_quietly(module)
    assert said == []


def test_a_malformed_data_layout_is_a_parse_error():
    module = HOST.replace(HOST.splitlines()[0], 'target datalayout = "e-p:bogus"')
    with pytest.raises(llvmplug.ParseError, match="datalayout"):
        llvmplug.compile(module)


# -- a GPU's CPU in the functions, not in the request -------------------------------------------

AMD_KERNEL = """\
target triple = "amdgcn-amd-amdhsa"

define amdgpu_kernel void @k(ptr addrspace(1) %p) #0 {
  store i32 1, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="gfx942" }
"""


@needs("AMDGPU")
def test_amdgpu_functions_for_a_cpu_without_mcpu_warn_what_to_pass():
    """The code object is marked for the default CPU (gfx700's e_flags) whatever the functions say."""
    obj, said = compile_quietly(AMD_KERNEL)
    assert ELFFile(io.BytesIO(obj))["e_flags"] & 0xFF == 0x22  # EF_AMDGPU_MACH_AMDGCN_GFX700
    assert len(said) == 1
    assert '"target-cpu"="gfx942"' in said[0] and "'k'" in said[0] and "pass -mcpu=gfx942" in said[0]
    assert "no -mcpu" in said[0]
    obj, said = compile_quietly(AMD_KERNEL, flags="-mcpu=gfx90a")
    assert "-mcpu=gfx90a" in said[0] and "pass -mcpu=gfx942" in said[0]
    obj, said = compile_quietly(AMD_KERNEL, flags="-mcpu=gfx942")
    assert said == []
    assert ELFFile(io.BytesIO(obj))["e_flags"] & 0xFF == 0x4C  # EF_AMDGPU_MACH_AMDGCN_GFX942


@needs("NVPTX")
def test_nvptx_functions_for_a_cpu_without_mcpu_warn_too():
    module = KERNEL.replace("define ptx_kernel void @kern(ptr %p) {", 'define ptx_kernel void @kern(ptr %p) #0 {')
    module += 'attributes #0 = { "target-cpu"="sm_80" }\n'
    asm, said = compile_quietly(module, output="asm")
    assert re.search(rb"^\.target sm_75", asm, re.M)
    assert len(said) == 1 and "pass -mcpu=sm_80" in said[0] and "PTX's .target" in said[0]


# -- target_info: the data layout a frontend writes --------------------------------------------

def _layout_of_a_compile(triple: str, flags: str = "") -> str:
    text = llvmplug.compile("define void @f() {\n  ret void\n}\n", triple, f"-passes= {flags}", output="ll")
    return re.search(rb'^target datalayout = "([^"]*)"', text, re.M).group(1).decode()


@pytest.mark.parametrize("triple, bits, endianness", [
    ("x86_64-linux-gnu", 64, "little"), ("i686-linux-gnu", 32, "little"),
    pytest.param("aarch64-linux-gnu", 64, "little", marks=needs("AArch64")),
    pytest.param("armv7-linux-gnueabihf", 32, "little", marks=needs("ARM")),
    pytest.param("nvptx64-nvidia-cuda", 64, "little", marks=needs("NVPTX")),
    pytest.param("amdgcn-amd-amdhsa", 64, "little", marks=needs("AMDGPU")),
    pytest.param("s390x-linux-gnu", 64, "big", marks=needs("SystemZ")),
    pytest.param("mips-linux-gnu", 32, "big", marks=needs("Mips")),
    pytest.param("wasm32-unknown-unknown", 32, "little", marks=needs("WebAssembly")),
    pytest.param("avr", 16, "little", marks=needs("AVR")),
])
def test_target_info_gives_the_data_layout_a_compile_uses(triple, bits, endianness):
    info = llvmplug.target_info(triple)
    assert info["data_layout"] == _layout_of_a_compile(triple)
    assert info["pointer_bits"] == bits
    assert info["endianness"] == endianness


@pytest.mark.parametrize("triple, flag", [
    pytest.param("mips64el-linux-gnuabi64", "-target-abi=n32", marks=needs("Mips")),
    pytest.param("riscv64-linux-gnu", "-target-abi=lp64e", marks=needs("RISCV")),
    pytest.param("armv7-linux-gnueabihf", "-target-abi=apcs-gnu", marks=needs("ARM")),
    pytest.param("nvptx64-nvidia-cuda", "-nvptx-short-ptr", marks=needs("NVPTX")),
])
def test_target_info_lists_the_flags_that_change_the_layout(triple, flag):
    others = {entry["flag"]: entry for entry in llvmplug.target_info(triple)["other_data_layouts"]}
    assert others[flag]["data_layout"] == _layout_of_a_compile(triple, flag)
    assert others[flag]["data_layout"] != llvmplug.target_info(triple)["data_layout"]
    if flag == "-target-abi=n32":
        assert others[flag]["pointer_bits"] == 32


@pytest.mark.parametrize("triple", [
    "x86_64-linux-gnu",
    pytest.param("aarch64-linux-gnu", marks=needs("AArch64")),
    pytest.param("armv7-apple-ios", marks=needs("ARM")),
    pytest.param("riscv64-linux-gnu", marks=needs("RISCV")),
    pytest.param("nvptx64-nvidia-cuda", marks=needs("NVPTX")),
])
def test_no_cpu_changes_the_data_layout(triple):
    """LLVM 23 computes it from the triple and ABI (Triple::computeDataLayout); measured for every CPU."""
    info = llvmplug.target_info(triple)
    with llvmplug.Plugin(private=True) as plugin:
        for cpu in info["cpus"]:
            text = plugin.compile("define void @f() {\n  ret void\n}\n", triple, f"-passes= -mcpu={cpu}", output="ll")
            assert f'target datalayout = "{info["data_layout"]}"'.encode() in text, cpu
