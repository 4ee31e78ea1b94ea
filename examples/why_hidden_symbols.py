"""Why llvmplug hides LLVM's symbols: the same shim with them exported breaks its neighbours.

Runs four scenarios, each in a fresh Python process, once with the installed
llvmplug shim (every LLVM and C++ runtime symbol hidden) and once with the
same source built with -DLLVMPLUG_EXPORT_LLVM_SYMBOLS=ON (the usual way to
link LLVM into a shared library):

  1. a system libLLVM (Debian's libLLVM-15/14) is loaded RTLD_GLOBAL and given
     -x86-asm-syntax=intel, then the shim is loaded and compiles;
  2. the shim is loaded RTLD_GLOBAL (as some hosts load plugins), then the
     system libLLVM prints a module;
  3. two private copies of the shim, one with -x86-asm-syntax=intel, compile;
  4. a private copy is unloaded: is it gone from the process?

Linux only. Needs a system libLLVM for 1 and 2 (apt-get install libllvm15).
Without --exported it builds the exported variant first (about a minute):
that needs CMake, a C++ compiler, this source tree and the LLVM SDK
(pip install mlc-llvm-static==23.1.1.post0, or --sdk PREFIX).

Run: python examples/why_hidden_symbols.py [--exported PATH] [--neighbour LIB]
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE_TREE = Path(__file__).resolve().parents[1]

IR = """\
define i32 @scale(i32 %x, i32 %y) {
entry:
  %product = mul i32 %x, %y
  %sum = add i32 %product, 7
  ret i32 %sum
}
"""


# -- the scenarios (each runs in its own process: a crash ends only that one) --

def load_system_llvm(path: str) -> ctypes.CDLL:
    print(f"loading {path} RTLD_GLOBAL", flush=True)
    return ctypes.CDLL(path, mode=os.RTLD_NOW | os.RTLD_GLOBAL)


def asm_syntax(plugin) -> str:
    asm = plugin.compile(IR, output="asm").decode()
    return "Intel" if ".intel_syntax" in asm else "AT&T"


def scenario_system_llvm_first(shim: str, neighbour: str) -> str:
    import llvmplug

    system = load_system_llvm(neighbour)
    argv = (ctypes.c_char_p * 2)(b"neighbour", b"-x86-asm-syntax=intel")
    system.LLVMParseCommandLineOptions(2, argv, None)
    print("system LLVM now has -x86-asm-syntax=intel; loading the shim", flush=True)
    with llvmplug.Plugin(path=shim) as plugin:
        syntax = asm_syntax(plugin)
    if syntax != "AT&T":
        raise SystemExit(f"the shim picked up the system LLVM's option: it prints {syntax} assembly")
    return "the shim compiled; its assembly is AT&T as in a clean process"


def scenario_shim_global_first(shim: str, neighbour: str) -> str:
    print(f"loading the shim {shim} RTLD_GLOBAL", flush=True)
    ctypes.CDLL(shim, mode=os.RTLD_NOW | os.RTLD_GLOBAL)
    system = load_system_llvm(neighbour)
    system.LLVMContextCreate.restype = ctypes.c_void_p
    system.LLVMModuleCreateWithNameInContext.restype = ctypes.c_void_p
    system.LLVMPrintModuleToString.restype = ctypes.c_char_p
    context = ctypes.c_void_p(system.LLVMContextCreate())
    module = ctypes.c_void_p(system.LLVMModuleCreateWithNameInContext(b"hello", context))
    print("system LLVM prints an empty module", flush=True)
    text = system.LLVMPrintModuleToString(module).decode()
    if "ModuleID = 'hello'" not in text:
        raise SystemExit(f"the system LLVM printed garbage: {text!r}")
    return "the system LLVM printed its module"


def scenario_two_private_copies(shim: str, neighbour: str) -> str:
    import llvmplug

    first = llvmplug.Plugin(path=shim, private=True)
    second = llvmplug.Plugin(path=shim, private=True)
    print("two private copies loaded; the first gets -x86-asm-syntax=intel", flush=True)
    first.set_options(["-x86-asm-syntax=intel"])
    syntaxes = asm_syntax(first), asm_syntax(second)
    if syntaxes != ("Intel", "AT&T"):
        raise SystemExit(f"the copies share state: they print {syntaxes[0]} and {syntaxes[1]} assembly")
    return "the copies print Intel and AT&T assembly: independent"


def scenario_unload(shim: str, neighbour: str) -> str:
    import llvmplug

    plugin = llvmplug.Plugin(path=shim, private=True)
    mapped = str(plugin.loaded_path)
    plugin.compile(IR)
    plugin.unload()
    with open("/proc/self/maps") as maps:
        if any(mapped in line for line in maps):
            raise SystemExit("still mapped after dlclose: unloading cannot reset LLVM")
    return "unmapped after dlclose: a reload starts a fresh LLVM"


SCENARIOS = {
    "system-llvm-first": ("system libLLVM RTLD_GLOBAL (intel syntax set), then the shim",
                          scenario_system_llvm_first),
    "shim-global-first": ("the shim RTLD_GLOBAL, then the system libLLVM prints a module",
                          scenario_shim_global_first),
    "two-private-copies": ("two private copies with different options", scenario_two_private_copies),
    "unload": ("unload a private copy", scenario_unload),
}
NEEDS_NEIGHBOUR = {"system-llvm-first", "shim-global-first"}


# -- running them -------------------------------------------------------------------

def run_scenario(name: str, shim: Path, neighbour: str | None) -> tuple[str, str]:
    """Run one scenario in a fresh process: ("ok" | "WRONG" | "CRASHED" | "skipped", what happened)."""
    if name in NEEDS_NEIGHBOUR and neighbour is None:
        return "skipped", "no system libLLVM (apt-get install libllvm15)"
    result = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--scenario", name, "--shim", str(shim),
         "--neighbour", neighbour or ""],
        capture_output=True, text=True, timeout=600, cwd=tempfile.gettempdir(),
    )
    if result.returncode < 0:
        # What LLVM said before it died, if anything.
        said = [line for line in result.stderr.splitlines() if "LLVM" in line or "Error" in line]
        name_ = signal.Signals(-result.returncode).name
        return "CRASHED", f"{name_}" + (": " + " / ".join(said) if said else "")
    last = (result.stdout.strip().splitlines() or [""])[-1]
    if result.returncode == 0:
        return "ok", last
    return "WRONG", (result.stderr.strip().splitlines() or ["exit status %d" % result.returncode])[-1]


def find_system_llvm() -> str | None:
    for version in (15, 14, 16, 17, 18, 19):
        name = ctypes.util.find_library(f"LLVM-{version}")
        if name:
            return name
    return None


def sdk_prefix(given: str | None) -> Path:
    if given:
        sdk = Path(given)
    else:
        try:
            import mlc_llvm_static
        except ImportError:
            raise SystemExit("the LLVM SDK is needed to build the exported variant: "
                             "pip install mlc-llvm-static==23.1.1.post0, or pass --sdk PREFIX") from None
        sdk = Path(mlc_llvm_static.get_prefix())
    if not (sdk / "lib" / "cmake" / "llvm").is_dir():
        raise SystemExit(f"{sdk} is no LLVM SDK (it has no lib/cmake/llvm)")
    return sdk


def check_can_build() -> None:
    """Everything a build needs, checked before it is announced."""
    if not (SOURCE_TREE / "CMakeLists.txt").exists():
        raise SystemExit(f"building needs llvmplug's source tree; {SOURCE_TREE} is not one "
                         "(or pass --exported PATH)")
    if shutil.which("cmake") is None:
        raise SystemExit("building needs cmake on PATH (or pass --exported PATH)")


def build_exported_shim(build_dir: Path, sdk: Path) -> Path:
    """Build the shim with LLVM's symbols exported (CMake option LLVMPLUG_EXPORT_LLVM_SYMBOLS)."""
    configure = ["cmake", "-S", str(SOURCE_TREE), "-B", str(build_dir),
                 f"-DLLVM_DIR={sdk / 'lib' / 'cmake' / 'llvm'}", f"-DCMAKE_PREFIX_PATH={sdk}",
                 "-DCMAKE_BUILD_TYPE=Release", "-DLLVMPLUG_EXPORT_LLVM_SYMBOLS=ON",
                 # The host's backend is all the scenarios use (and needs no extra-targets wheel).
                 "-DLLVMPLUG_TARGETS=host"]
    if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
        configure += ["-G", "Ninja"]
    for command in (configure, ["cmake", "--build", str(build_dir), "--parallel", str(os.cpu_count() or 2)]):
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return build_dir / "libllvmplug.so"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[1].rsplit("\n\nRun:", 1)[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--exported", metavar="PATH",
                        help="a shim built with -DLLVMPLUG_EXPORT_LLVM_SYMBOLS=ON (default: build one)")
    parser.add_argument("--build-dir", metavar="DIR",
                        help="where to build the exported variant (default: a temporary directory)")
    parser.add_argument("--sdk", metavar="PREFIX",
                        help="LLVM SDK prefix (default: the mlc_llvm_static package's)")
    parser.add_argument("--neighbour", metavar="LIB",
                        help="the system libLLVM to load (default: libLLVM-15/14 found by ldconfig)")
    parser.add_argument("--scenario", choices=SCENARIOS, help=argparse.SUPPRESS)
    parser.add_argument("--shim", help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.scenario:  # one scenario, inside its own process
        print(SCENARIOS[args.scenario][1](args.shim, args.neighbour))
        return 0
    if not sys.platform.startswith("linux"):
        print("this demonstration uses Linux's dynamic loader; nothing to show here")
        return 0

    import llvmplug._loader

    hidden = llvmplug._loader.library_path()
    neighbour = args.neighbour or find_system_llvm()
    with tempfile.TemporaryDirectory(prefix="llvmplug-exported-") as scratch:
        if args.exported:
            exported = Path(args.exported)
        else:
            build_dir = Path(args.build_dir or scratch)
            check_can_build()
            sdk = sdk_prefix(args.sdk)
            print(f"building the shim with LLVM's symbols exported in {build_dir} (about a minute)...")
            exported = build_exported_shim(build_dir, sdk)

        print(f"system LLVM: {neighbour or 'none found'}")
        print(f"hidden:   {hidden}  (the installed llvmplug)")
        print(f"exported: {exported}  (LLVMPLUG_EXPORT_LLVM_SYMBOLS=ON)\n")
        failures = 0
        for name, (title, _) in SCENARIOS.items():
            print(f"{title}")
            for label, shim in (("hidden", hidden), ("exported", exported)):
                verdict, detail = run_scenario(name, shim, neighbour)
                print(f"  {label:<9}{verdict:<9}{detail}")
                failures += label == "hidden" and verdict not in ("ok", "skipped")
            print()
    print("With LLVM's symbols exported, the dynamic loader binds one LLVM's code and data to the\n"
          "other's: cl::opt options register twice and abort, calls land in the wrong LLVM version,\n"
          "and STB_GNU_UNIQUE symbols merge private copies and make dlclose a no-op. llvmplug's\n"
          "build hides them all; 'llvmplug check' verifies a build.")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
