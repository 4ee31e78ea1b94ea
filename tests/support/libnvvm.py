"""libNVVM's C API (nvidia-nvvm's libnvvm.so, NVIDIA's own LLVM inside) through ctypes.

The one binding that the coexistence test (tests/support/neighbours.py: libNVVM
and llvmplug in one process) and the GPU benchmark (benchmarks/gpu.py: libNVVM
as a peer) drive it through.
"""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from pathlib import Path


class LibNVVM:
    """One loaded libnvvm.so; :meth:`compile` makes PTX of NVVM IR modules."""

    def __init__(self, path: str | Path) -> None:
        self.lib = lib = ctypes.CDLL(str(path))
        p, c, size = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
        for name, args in [
            ("nvvmCreateProgram", [ctypes.POINTER(p)]),
            ("nvvmAddModuleToProgram", [p, c, size, c]),
            ("nvvmLazyAddModuleToProgram", [p, c, size, c]),
            ("nvvmCompileProgram", [p, ctypes.c_int, ctypes.POINTER(c)]),
            ("nvvmGetCompiledResultSize", [p, ctypes.POINTER(size)]),
            ("nvvmGetCompiledResult", [p, c]),
            ("nvvmGetProgramLogSize", [p, ctypes.POINTER(size)]),
            ("nvvmGetProgramLog", [p, c]),
            ("nvvmDestroyProgram", [ctypes.POINTER(p)]),
            ("nvvmVersion", [ctypes.POINTER(ctypes.c_int)] * 2),
        ]:
            getattr(lib, name).argtypes, getattr(lib, name).restype = args, ctypes.c_int
        major, minor = ctypes.c_int(), ctypes.c_int()
        lib.nvvmVersion(ctypes.byref(major), ctypes.byref(minor))
        self.version = f"libNVVM {major.value}.{minor.value} ({Path(path).name})"

    @staticmethod
    def _read(program: ctypes.c_void_p, get_size: object, get: object) -> bytes:
        size = ctypes.c_size_t()
        get_size(program, ctypes.byref(size))  # type: ignore[operator]
        buffer = ctypes.create_string_buffer(size.value)
        get(program, buffer)  # type: ignore[operator]
        return buffer.value

    def compile(self, kernel: bytes, libdevice: bytes, options: Sequence[str]) -> bytes:
        """PTX of `kernel` with `libdevice` added lazily (what it uses of it), under libNVVM's `options`."""
        lib, program = self.lib, ctypes.c_void_p()
        if lib.nvvmCreateProgram(ctypes.byref(program)):
            raise RuntimeError("nvvmCreateProgram failed")
        try:
            if lib.nvvmAddModuleToProgram(program, kernel, len(kernel), b"kernel") or lib.nvvmLazyAddModuleToProgram(
                program, libdevice, len(libdevice), b"libdevice"
            ):
                raise RuntimeError("libNVVM refused a module")
            argv = (ctypes.c_char_p * len(options))(*(option.encode() for option in options))
            if lib.nvvmCompileProgram(program, len(options), argv):
                log = self._read(program, lib.nvvmGetProgramLogSize, lib.nvvmGetProgramLog)
                raise RuntimeError(f"libNVVM could not compile the kernel: {log.decode(errors='replace')}")
            return self._read(program, lib.nvvmGetCompiledResultSize, lib.nvvmGetCompiledResult)
        finally:
            lib.nvvmDestroyProgram(ctypes.byref(program))
