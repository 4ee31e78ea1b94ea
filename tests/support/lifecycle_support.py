"""Helpers for the lifecycle and private-instance tests.

Scenarios that load several copies of LLVM, unload the shared copy or look at
process-wide state (mappings, threads, signal dispositions) run in a fresh
interpreter through :func:`run_python`, so the pytest process stays clean.
The child imports this module too (its directory is put on ``PYTHONPATH``),
never the source tree: it runs outside the checkout.
"""

from __future__ import annotations

import ctypes
import json
import os
import platform
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def generated_module(functions: int, seed: int = 0) -> str:
    """LLVM IR with `functions` vectorisable loops: compile time grows with it."""
    parts = [f'source_filename = "generated{seed}"']
    for i in range(functions):
        parts.append(
            f"""
define void @kernel{i}(ptr noalias %out, ptr noalias %a, ptr noalias %b, i64 %n) {{
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %x = load float, ptr %pa
  %y = load float, ptr %pb
  %m = fmul fast float %x, %y
  %s = fadd fast float %m, {i + seed}.0e+00
  %po = getelementptr inbounds float, ptr %out, i64 %i
  store float %s, ptr %po
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}}"""
        )
    return "\n".join(parts) + "\n"


def run_python(code: str, *args: str, env: dict[str, str] | None = None, timeout: float = 300) -> Any:
    """Run `code` in a fresh interpreter; return the JSON it prints last.

    The child runs outside the checkout so it imports the installed package.
    """
    child_env = dict(os.environ if env is None else env)
    child_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(HERE), child_env.get("PYTHONPATH")]))
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=tempfile.gettempdir(),
        env=child_env,
    )
    if result.returncode != 0:
        raise AssertionError(
            f"child exited with {result.returncode}\nstdout:\n{result.stdout}\nstderr:\n{result.stderr}"
        )
    lines = result.stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else None


# -- probes of process-wide state (Linux) -----------------------------------


def mapped(path: Path | str) -> bool:
    """Whether a copy of the file at `path` is loaded: its first page (the ELF header) is mapped.

    Only the first page says so: a private copy maps its code from the
    template memfd (llvmplug/_loader.py, _share_code), so the template's
    later pages stay mapped while any copy made from it is loaded.
    """
    return str(path) in loaded_files()


def loaded_files() -> set[str]:
    """The files of which this process maps the first page (offset 0), without " (deleted)"."""
    found = set()
    for line in Path("/proc/self/maps").read_text().splitlines():
        fields = line.split(maxsplit=5)
        if len(fields) == 6 and int(fields[2], 16) == 0:
            found.add(fields[5].removesuffix(" (deleted)"))
    return found


def threads() -> set[str]:
    """Ids of this process's threads, as the kernel sees them."""
    return set(os.listdir("/proc/self/task"))


class _SigAction(ctypes.Structure):
    # glibc's struct sigaction on x86_64 and aarch64 Linux.
    _fields_ = [
        ("handler", ctypes.c_void_p),
        ("mask", ctypes.c_ulong * (128 // ctypes.sizeof(ctypes.c_ulong))),
        ("flags", ctypes.c_int),
        ("restorer", ctypes.c_void_p),
    ]


SIGACTION_SUPPORTED = sys.platform.startswith("linux") and platform.machine() in ("x86_64", "aarch64")


def signal_dispositions() -> dict[int, tuple[int, int, int]]:
    """Every signal's disposition read with sigaction(2): handler, flags, mask.

    This sees handlers installed by C code, which ``signal.getsignal`` does not.
    Only the mask's first word is meaningful: the kernel's mask has 64 bits
    and glibc leaves junk in the rest of its 1024-bit sigset_t.
    """
    libc = ctypes.CDLL(None, use_errno=True)
    libc.sigaction.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_SigAction)]
    dispositions = {}
    for number in range(1, signal.NSIG):
        action = _SigAction()
        if libc.sigaction(number, None, ctypes.byref(action)) == 0:  # glibc refuses its own 32, 33
            dispositions[number] = (action.handler or 0, action.flags, action.mask[0])
    return dispositions


def python_signal_handlers() -> dict[int, str]:
    """What Python believes each signal's handler is."""
    handlers = {}
    for number in range(1, signal.NSIG):
        try:
            handlers[number] = repr(signal.getsignal(number))
        except (ValueError, OSError):
            pass
    return handlers
