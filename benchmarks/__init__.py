"""llvmplug's benchmarks against the alternatives; run ``python -m benchmarks --help``.

``python -m benchmarks`` is run from the checkout, so Python puts the checkout
first on ``sys.path``, and ``import llvmplug`` would then find the source tree
(which has no built shim) instead of the installed package. This package is
already imported by the time this code runs, and its modules are found through
its own ``__path__``, so the checkout can simply be dropped from ``sys.path``:
every ``import llvmplug`` after this line gets the installed copy.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
sys.path[:] = [entry for entry in sys.path if Path(entry or os.curdir).resolve() != _CHECKOUT]
