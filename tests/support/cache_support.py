"""Functions that tests/test_cache.py and tests/test_dask.py run in other processes.

They live in an importable module (not in the test files, which
--import-mode=importlib keeps off sys.path) so that a spawned process or a
Dask worker can import them by name.
"""

from __future__ import annotations

import hashlib
import os
import random
from typing import Any


def value_for(key: str) -> bytes:
    """The one right value for ``key``: a few bytes to a few KiB, all derived from the key."""
    seed = hashlib.sha256(key.encode()).digest()
    return seed * (1 + seed[0] % 128)


def hammer(directory: str, max_bytes: int, seed: int, rounds: int) -> dict[str, int]:
    """Put and get keys at random in a shared disk cache; count wrong values read."""
    import llvmplug

    rng = random.Random(seed)
    wrong = hits = 0
    for _ in range(rounds):
        # A fresh Cache each time: answers must come from disk, not memory.
        cache = llvmplug.Cache(directory, max_bytes=max_bytes)
        key = f"key-{rng.randrange(64)}"
        if rng.random() < 0.5:
            cache.put(key, value_for(key))
        else:
            value = cache.get(key)
            if value is not None:
                hits += 1
                wrong += value != value_for(key)
    return {"wrong": wrong, "hits": hits, "pid": os.getpid()}


def worker_identity() -> tuple[int, int, str]:
    """(pid, id of the default Plugin, the file it mapped) in this process."""
    import llvmplug

    plugin = llvmplug.default_plugin()
    return os.getpid(), id(plugin), str(plugin.loaded_path)


def raise_error(name: str, args: tuple[Any, ...]) -> None:
    """Raise llvmplug.<name>(*args) here, as a worker would."""
    import llvmplug

    raise getattr(llvmplug, name)(*args)
