"""NVIDIA's own tools from PyPI (the test extra): libdevice, ptxas and libNVVM.

nvidia-nvvm carries libdevice.10.bc and libnvvm; nvidia-cuda-nvcc carries
ptxas. Both install under the ``nvidia`` namespace package, in a folder per
CUDA major version (``nvidia/cu13/...``), so they are found by glob.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path


def _nvidia_roots() -> list[Path]:
    spec = importlib.util.find_spec("nvidia")
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _find(*patterns: str) -> Path | None:
    for root in _nvidia_roots():
        for pattern in patterns:
            for match in sorted(root.glob(pattern), reverse=True):  # newest CUDA first
                if match.is_file():
                    return match
    return None


def libdevice() -> Path | None:
    """libdevice.10.bc from nvidia-nvvm."""
    return _find("*/nvvm/libdevice/libdevice.10.bc", "cuda_nvcc/nvvm/libdevice/libdevice.10.bc")


def ptxas() -> Path | None:
    """ptxas from nvidia-cuda-nvcc (made executable: wheels may drop the bit)."""
    path = _find("*/bin/ptxas", "cuda_nvcc/bin/ptxas")
    if path is not None and not os.access(path, os.X_OK):
        return None
    return path


def libnvvm() -> Path | None:
    """libnvvm.so from nvidia-nvvm (an LLVM of NVIDIA's own inside)."""
    return _find("*/lib/libnvvm.so.*", "*/nvvm/lib64/libnvvm.so*", "cuda_nvcc/nvvm/lib64/libnvvm.so*")


# A kernel that calls libdevice: out[tid] = sinf(expf(in[tid])).
KERNEL = (Path(__file__).resolve().parents[1] / "data" / "libdevice-kernel.ll").read_text()

# A loop whose unrolling shows whether -unroll-* options reached a compile.
LOOP = (Path(__file__).resolve().parents[1] / "data" / "loop.ll").read_text()

# What a fresh process makes of one compile: the reference for side-by-side runs.
_FRESH = """
import json, sys
from pathlib import Path
import llvmplug
job = json.loads(sys.argv[1])
plugin = llvmplug.Plugin()
if job["sticky"]:
    plugin.set_options(job["sticky"])
link = [Path(p).read_bytes() for p in job["link"]]
data = plugin.compile(job["module"], job["target"], job["flags"], output=job["output"], link=link)
sys.stdout.write(data.hex())
"""


def fresh_process_output(module: str, target: str | None = None, flags: list[str] | None = None, *,
                         output: str = "asm", link: list[Path] | None = None,
                         sticky: list[str] | None = None) -> bytes:
    """Compile in a new interpreter that has done nothing else, and return the output."""
    import json
    import subprocess
    import sys
    import tempfile

    job = {"module": module, "target": target, "flags": flags or [], "output": output,
           "link": [str(p) for p in link or []], "sticky": sticky or []}
    result = subprocess.run([sys.executable, "-c", _FRESH, json.dumps(job)], capture_output=True,
                            text=True, timeout=300, cwd=tempfile.gettempdir())
    assert result.returncode == 0, result.stderr[-3000:]
    return bytes.fromhex(result.stdout)
