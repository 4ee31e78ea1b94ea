"""Vendor GPU libraries found for the user: NVIDIA's libdevice.

libdevice is NVIDIA's math library for NVPTX (``__nv_expf``, ``__nv_sinf``...),
shipped as bitcode. A kernel that calls it compiles without it, but the PTX
then names functions nobody defines and ``ptxas`` fails later; link it in with
``compile(kernel, ..., link=[llvmplug.libdevice()])``. It comes with the
``nvidia-nvvm`` wheel on PyPI (``pip install nvidia-nvvm``), or with a CUDA
toolkit (``$CUDA_HOME/nvvm/libdevice``).
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

from .errors import LinkError

_NAME = "libdevice.10.bc"


def _candidates() -> list[Path]:
    found: list[Path] = []
    spec = importlib.util.find_spec("nvidia")
    if spec is not None and spec.submodule_search_locations:
        for root in spec.submodule_search_locations:
            # nvidia-nvvm installs under nvidia/cu<major>/nvvm/libdevice; newest CUDA first.
            found += sorted(Path(root).glob(f"*/nvvm/libdevice/{_NAME}"), reverse=True)
            found += sorted(Path(root).glob(f"cuda_nvcc/nvvm/libdevice/{_NAME}"), reverse=True)
    for variable in ("CUDA_HOME", "CUDA_PATH"):
        home = os.environ.get(variable)
        if home:
            found.append(Path(home) / "nvvm" / "libdevice" / _NAME)
    return found


def libdevice_path() -> Path:
    """Path of NVIDIA's ``libdevice.10.bc``, from ``nvidia-nvvm`` or ``$CUDA_HOME``.

    Raises :class:`LinkError` saying how to install it when there is none.
    """
    for path in _candidates():
        if path.is_file():
            return path
    raise LinkError(
        f"NVIDIA's libdevice ({_NAME}) was not found: install it with 'pip install nvidia-nvvm' "
        "(or set CUDA_HOME to a CUDA toolkit)"
    )


def libdevice() -> bytes:
    """NVIDIA's libdevice bitcode, ready for ``compile(..., link=[llvmplug.libdevice()])``.

    Raises :class:`LinkError` saying how to install it when there is none.
    """
    return libdevice_path().read_bytes()
