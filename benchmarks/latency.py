"""Compile latency per module (parse + O2 + object) for every backend and module size."""

from __future__ import annotations

import time
from typing import Any

from ._common import summary
from .corpus import Module
from .peers import Backend, is_object


def _sample(backend: Backend, module: Module) -> float:
    start = time.perf_counter()
    data = backend.compile(module)
    elapsed = time.perf_counter() - start
    if not is_object(data):
        raise RuntimeError(f"{backend.key} returned no object file for {module.name}")
    return elapsed


def run(backends: list[Backend], classes: dict[str, list[Module]], rounds: int, spawn_rounds: int,
        repeats: int, spawn_repeats: int, progress: Any) -> dict[str, Any]:
    """Samples and statistics per size class and backend.

    The corpus class holds many modules, each compiled once per round; a
    larger class holds one module, compiled ``repeats`` times. Backends take
    turns round by round, so a change in machine load hits all of them alike.
    """
    result: dict[str, Any] = {}
    for size_class, modules in classes.items():
        single = len(modules) == 1
        samples: dict[str, list[float]] = {backend.key: [] for backend in backends}
        for backend in backends:  # untimed: first-call set-up, page cache
            _sample(backend, modules[0])
        most = max(spawn_repeats, repeats) if single else max(rounds, spawn_rounds)
        for turn in range(most):
            for backend in backends:
                wanted = (spawn_repeats if backend.spawns else repeats) if single else (
                    spawn_rounds if backend.spawns else rounds)
                # A backend with fewer samples takes them spread over all turns,
                # not bunched at the start, so it sees the same machine load.
                if turn * wanted // most != (turn + 1) * wanted // most:
                    samples[backend.key] += [_sample(backend, module) for module in modules]
        progress(f"latency {size_class}: " + ", ".join(
            f"{key} {summary(values)['median'] * 1e3:.1f} ms" for key, values in samples.items()))
        result[size_class] = {
            "modules": len(modules),
            "functions": sum(module.functions for module in modules),
            "ir_bytes": sum(len(module.text) for module in modules),
            "samples": samples,
            "stats": {key: summary(values) for key, values in samples.items()},
        }
    return result
