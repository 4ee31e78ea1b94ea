"""Reset cost: reloading llvmplug in process vs starting a fresh worker process.

Both sides are timed up to the point where the reset LLVM has compiled a
small module, since that is when a reset is over for the user; the bare
reload is reported too.
"""

from __future__ import annotations

import time
from typing import Any, Callable

import llvmplug

from ._common import summary
from .corpus import Module
from .peers import FLAGS, Worker, process_plugin


def _times(action: Callable[[], Any], count: int) -> list[float]:
    action()  # warm-up
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return samples


def _fresh_workers(small: Module, count: int) -> tuple[list[float], list[float]]:
    """Start to ready, and start to first compile; the worker's exit is not timed."""
    ready, compiled = [], []
    Worker().close()  # warm-up
    for _ in range(count):
        start = time.perf_counter()
        worker = Worker()
        ready.append(time.perf_counter() - start)
        worker.compile(small.text)
        compiled.append(time.perf_counter() - start)
        worker.close()
    return ready, compiled


def run(plugin: llvmplug.Plugin, small: Module, count: int) -> dict[str, Any]:
    def reload_and_compile(target: llvmplug.Plugin) -> Callable[[], Any]:
        def action() -> None:
            target.reload()
            target.compile(small.text, flags=FLAGS)
        return action

    private = llvmplug.Plugin(private=True)
    ready, compiled = _fresh_workers(small, count)
    rows = {
        "reload": _times(plugin.reload, count),
        "reload + first compile": _times(reload_and_compile(plugin), count),
        "private reload": _times(private.reload, count),
        "private reload + first compile": _times(reload_and_compile(private), count),
        "fresh worker process": ready,
        "fresh worker process + first compile": compiled,
    }
    private.unload()
    isolated = process_plugin()
    if isolated is not None:
        # ProcessPlugin.reload() stops the child; the next call starts one.
        rows['Plugin(isolation="process") reload + first compile'] = _times(reload_and_compile(isolated), count)
        isolated.unload()
    return {
        "module": small.name,
        "samples": rows,
        "stats": {name: summary(values) for name, values in rows.items()},
    }
