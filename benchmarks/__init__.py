"""llvmplug's benchmarks; run ``python -m benchmarks --help``.

Run from the checkout, Python puts the checkout first on ``sys.path``, where
``import llvmplug`` would find the source tree (no built shim). This package
is already imported and finds its modules through ``__path__``, so that entry
is dropped: every later ``import llvmplug`` gets the installed copy. Only the
entry Python added for ``-m`` goes; one put there on purpose (PYTHONPATH) stays.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or os.curdir).resolve() == _CHECKOUT:
    del sys.path[0]
