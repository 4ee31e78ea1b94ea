"""Per-call overhead of llvmplug's ABI.

Method: during ordinary ``Plugin.compile(text, flags="-O2")`` calls, the
Plugin's cffi library object is swapped for a thin proxy that times the C
function ``llvmplug_compile`` alone. Each call thus yields its total time and
the time spent inside the shim, and their difference is exactly what llvmplug
adds in Python: argument checks and encoding, the flags string, the Plugin's
call bookkeeping, cffi's conversions, copying the object out of the result
and freeing it. Measured within one call, the difference is free of the
call-to-call noise of a long compile. The proxy's own attribute look-ups are
counted in the overhead, so it is slightly overstated.

What that cannot see is the shim's own boundary code inside the C call (the
lock, splitting the flags, looking the options up, copying the output into
the result). It is bounded from above by the C call on an empty module,
which also contains LLVM's own per-compile set-up (an LLVMContext, the
parser, a TargetMachine and a pass pipeline) that every embedding of LLVM
pays; the latency table's "empty" column shows what llvmlite pays for it.
The bare cost of crossing into the library is the cffi call of
``llvmplug_abi_version()``.
"""

from __future__ import annotations

import statistics
import time
from typing import Any

import llvmplug

from ._common import summary
from .corpus import Module


class _TimedLibrary:
    """Forwards to a cffi library object, timing ``llvmplug_compile`` alone."""

    def __init__(self, lib: Any) -> None:
        self._lib = lib
        self.last = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._lib, name)

    def llvmplug_compile(self, *args: Any) -> Any:
        start = time.perf_counter()
        status = self._lib.llvmplug_compile(*args)
        self.last = time.perf_counter() - start
        return status


def _calls(plugin: llvmplug.Plugin, module: Module, count: int) -> dict[str, Any]:
    # Reaches past the public API on purpose: the proxy must sit between the
    # Plugin and its loaded library for the duration of the measurement.
    library = plugin._backend._owned["library"]  # noqa: SLF001
    timed = _TimedLibrary(library.lib)
    full, inner = [], []
    library.lib = timed
    try:
        for _ in range(count + 1):  # the first call warms up
            start = time.perf_counter()
            plugin.compile(module.text, flags="-O2")
            full.append(time.perf_counter() - start)
            inner.append(timed.last)
    finally:
        library.lib = timed._lib  # noqa: SLF001
    full, inner = full[1:], inner[1:]
    overhead = [f - c for f, c in zip(full, inner)]
    return {
        "module": module.name,
        "python_call": summary(full),
        "c_call": summary(inner),
        "overhead": summary(overhead),
        "overhead_fraction": statistics.median(o / f for o, f in zip(overhead, full)),
    }


def _crossing(lib: Any, count: int) -> float:
    function = lib.llvmplug_abi_version
    start = time.perf_counter()
    for _ in range(count):
        function()
    return (time.perf_counter() - start) / count


def _cold_python(plugin: llvmplug.Plugin, module: Module, count: int) -> dict[str, float] | None:
    """The wrapper's own Python work before the C call, timed warm, right after
    a compile of ``module``, and right after a sleep as long as that compile.

    Shows how much of the overhead is the interpreter running cold after the
    thread was away (caches refilled by LLVM or by other processes).
    """
    from llvmplug import _args as wrapper

    try:
        prepare = (wrapper.module_bytes, wrapper.flags_string, plugin._backend._calling)  # noqa: SLF001
    except AttributeError:
        return None  # the wrapper's internals changed; the diagnostic is optional
    module_bytes, flags_string, calling = prepare

    def work() -> float:
        start = time.perf_counter()
        module_bytes(module.text)
        f"-filetype=obj {flags_string('-O2')}".encode()
        with calling():
            pass
        return time.perf_counter() - start

    compile_time = min(_once(lambda: plugin.compile(module.text)) for _ in range(3))
    warm, after_compile, after_sleep = [], [], []
    for _ in range(count):
        work()
        warm.append(work())
        plugin.compile(module.text)
        after_compile.append(work())
        time.sleep(compile_time)
        after_sleep.append(work())
    return {"module": module.name, "warm": statistics.median(warm),
            "after_compile": statistics.median(after_compile), "after_sleep": statistics.median(after_sleep)}


def _once(action: Any) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def run(plugin: llvmplug.Plugin, empty: Module, modules: dict[Module, float], calls: int,
        seconds_per_module: float) -> dict[str, Any]:
    """Overhead on the empty module and on each larger module.

    ``modules`` maps each module to its compile time from the latency run,
    which sets how many calls fit in ``seconds_per_module`` (at least 5).
    """
    with plugin._backend._calling() as lib:  # noqa: SLF001 - the raw library, for the bare crossing
        crossing = _crossing(lib, calls * 10)
    empty_result = _calls(plugin, empty, calls)
    larger = [_calls(plugin, module, max(5, int(seconds_per_module / max(estimate, 1e-3))))
              for module, estimate in modules.items()]
    smallest = min(modules, key=lambda module: modules[module])
    return {
        "method": __doc__,
        "crossing": crossing,
        "empty": empty_result,
        "modules": larger,
        "cold_python": _cold_python(plugin, smallest, max(20, calls // 30)),
    }
