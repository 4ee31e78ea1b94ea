"""The negative control: the same shim with LLVM's symbols exported breaks its neighbours.

Builds the shim once with -DLLVMPLUG_EXPORT_LLVM_SYMBOLS=ON (CMake, against the
mlc-llvm-static SDK) and runs examples/why_hidden_symbols.py's scenarios with
it and with the installed (hidden) shim, each in its own process. The hidden
build must pass every scenario; the exported one must fail each in its
specific way, so the coexistence tests are known to be able to fail.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from llvmplug import _loader, hygiene

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "why_hidden_symbols.py"
SDK_REQUIREMENT = "mlc-llvm-static==23.1.1.post0"

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ELF and glibc's loader: Linux only")


def _load_example():
    spec = importlib.util.spec_from_file_location("why_hidden_symbols", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def demo():
    return _load_example()


def _sdk_prefix(scratch: Path) -> Path:
    """The LLVM SDK: LLVMPLUG_LLVM_DIR (as setup.py reads it), the installed package, or a temp install."""
    cmake_dir = os.environ.get("LLVMPLUG_LLVM_DIR")
    if cmake_dir:
        return Path(cmake_dir).resolve().parents[2]
    try:
        import mlc_llvm_static
    except ImportError:
        pass
    else:
        return Path(mlc_llvm_static.get_prefix())
    target = scratch / "sdk"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    SDK_REQUIREMENT], check=True)
    return target / "mlc_llvm_static" / "static"


@pytest.fixture(scope="module")
def exported_shim(demo):
    """The shim built with LLVM's symbols exported (once per session; about a minute)."""
    if not (ROOT / "CMakeLists.txt").exists() or shutil.which("cmake") is None:
        pytest.skip("needs the source tree and cmake to build the negative control")
    scratch = Path(tempfile.mkdtemp(prefix="llvmplug-negative-control-"))
    try:
        yield demo.build_exported_shim(scratch / "build", _sdk_prefix(scratch))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


@pytest.fixture(scope="module")
def neighbour(demo):
    found = demo.find_system_llvm()
    if found is None:
        pytest.skip("no system libLLVM (apt-get install libllvm15)")
    return found


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_the_exported_build_exports_llvm(exported_shim):
    findings = {f.check: f for f in hygiene.check(exported_shim)}
    exports = findings["exports exactly the C ABI"]
    assert not exports.ok and "of them LLVM's" in exports.detail
    assert not findings["no STB_GNU_UNIQUE symbols (dlclose would be a no-op)"].ok
    # Otherwise the same build: the C runtime only, no C++ runtime needs.
    assert findings["needs only the C library family"].ok
    assert findings["no C++ runtime version needs"].ok
    with open(exported_shim, "rb") as stream:
        from elftools.elf.elffile import ELFFile

        exported = hygiene.defined_dynamic_symbols(ELFFile(stream))
    assert "_ZN4llvm2cl6Option11addArgumentEv" in exported  # cl::opt registration itself
    assert len({name for name in exported if name.startswith("_ZN4llvm")}) > 1000


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_check_command_fails_on_the_exported_build(exported_shim):
    result = subprocess.run([sys.executable, "-m", "llvmplug", "check", str(exported_shim)],
                            capture_output=True, text=True, timeout=120, cwd=tempfile.gettempdir())
    assert result.returncode == 1
    assert "FAIL  exports exactly the C ABI" in result.stdout


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_system_llvm_first(demo, exported_shim, neighbour):
    # Debian's libLLVM loaded RTLD_GLOBAL, with an option set: the hidden shim
    # loads and is unaffected; the exported one registers its cl::opts into
    # the other LLVM's registry and LLVM aborts the process.
    assert demo.run_scenario("system-llvm-first", _loader.library_path(), neighbour)[0] == "ok"
    verdict, detail = demo.run_scenario("system-llvm-first", exported_shim, neighbour)
    assert verdict == "CRASHED" and detail.startswith("SIGABRT")
    assert "registered more than once!" in detail
    assert "LLVM ERROR: inconsistency in registered CommandLine options" in detail


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_shim_global_first(demo, exported_shim, neighbour):
    # The shim loaded RTLD_GLOBAL: the exported one's LLVM 23 functions
    # interpose the system LLVM's own calls.
    assert demo.run_scenario("shim-global-first", _loader.library_path(), neighbour)[0] == "ok"
    verdict, detail = demo.run_scenario("shim-global-first", exported_shim, neighbour)
    assert verdict in ("CRASHED", "WRONG"), detail


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_two_private_copies(demo, exported_shim):
    assert demo.run_scenario("two-private-copies", _loader.library_path(), None)[0] == "ok"
    verdict, detail = demo.run_scenario("two-private-copies", exported_shim, None)
    assert verdict in ("CRASHED", "WRONG"), detail


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_unload(demo, exported_shim):
    assert demo.run_scenario("unload", _loader.library_path(), None)[0] == "ok"
    assert demo.run_scenario("unload", exported_shim, None) == (
        "WRONG", "still mapped after dlclose: unloading cannot reset LLVM")


@pytest.mark.slow  # builds the negative control once (about a minute)
def test_demo_script_prints_the_comparison(exported_shim, neighbour):
    result = subprocess.run([sys.executable, str(EXAMPLE), "--exported", str(exported_shim)],
                            capture_output=True, text=True, timeout=600, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stdout + result.stderr
    hidden = [line for line in result.stdout.splitlines() if line.startswith("  hidden")]
    exported = [line for line in result.stdout.splitlines() if line.startswith("  exported")]
    assert len(hidden) == len(exported) == 4
    assert all(line.split()[1] == "ok" for line in hidden)
    assert all(line.split()[1] in ("CRASHED", "WRONG") for line in exported)
    assert "registered more than once" in result.stdout


def test_demo_script_help():
    result = subprocess.run([sys.executable, str(EXAMPLE), "--help"], capture_output=True, text=True,
                            timeout=60, cwd=tempfile.gettempdir())
    assert result.returncode == 0
    assert "--exported PATH" in result.stdout and "LLVMPLUG_EXPORT_LLVM_SYMBOLS" in result.stdout
