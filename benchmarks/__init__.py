"""llvmplug's benchmarks against the alternatives; run ``python -m benchmarks --help``.

``python -m benchmarks`` is run from the checkout, so Python puts the checkout
first on ``sys.path``, and ``import llvmplug`` would then find the source tree
(which has no built shim) instead of the installed package. This package is
already imported by the time this code runs, and its modules are found through
its own ``__path__``, so that first entry can simply be dropped: every
``import llvmplug`` after this line gets the installed copy. Only the entry
Python added for ``-m`` goes; one put there on purpose (an editable install's
path entry, PYTHONPATH) stays.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

_CHECKOUT = Path(__file__).resolve().parent.parent
if sys.path and Path(sys.path[0] or os.curdir).resolve() == _CHECKOUT:
    del sys.path[0]
