"""Memory probes, each run in a fresh interpreter so nothing else is counted (see memory.py).

Run by path with a JSON request; prints one JSON object:

- ``{"what": "instances", "module": IR, "count": N}``: RSS (and the memfds'
  bytes, see ``copies``) after loading each private instance and compiling in
  it, and RSS after unloading them all;
- ``{"what": "cycles", "kind": "shared"|"private"|"reload-shared"|"reload-private"|"empty:/lib.so",
  "module": IR, "checkpoints": [...]}``: RSS over load/compile/unload cycles
  (or compile/reload cycles of one Plugin; or dlopen/call/dlclose of an empty
  C library, the peer: what the dynamic loader itself costs per cycle);
- ``{"what": "llvmlite", "module": IR}``: RSS before and after llvmlite compiled it;
- ``{"what": "standby", "module": IR, "standby": bool}``: RSS with one private
  Plugin that compiled, with or without its warmed standby copy;
- ``{"what": "copies", ...}``: the same, as ``{"rss": bytes, "memfd": bytes}``:
  also the shared memory of the memfds the process holds (Linux), each a
  whole shim, of which RSS counts only the pages mapped;
- ``{"what": "floor", "number": N, "repeat": R}``: best mean seconds per
  compile of an empty module (-O2, -O2 -passes=, and -O2 to bitcode), and
  per bare call through the boundary (``llvmplug_set_policy``: the handoff
  to LLVM's thread, the lock, the result) and per one that stays on the
  caller's thread (``llvmplug_set_sandbox``), as this process's environment
  configures the shim (LLVMPLUG_THREAD_PER_CALL);
- ``{"what": "threads", "seconds": S, "rounds": R}``: per backend (x86, AArch64,
  NVPTX, AMDGPU), modules per second of 1 and of 2 threads compiling on one
  private copy, in interleaved rounds, the CPUs the two kept busy, and how
  much of the time a thread slept (on the other's lock: this does not depend
  on the CPUs the machine had to give); as the environment configures the
  shim (LLVMPLUG_PREVIOUS_SHARING).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import rss_bytes, throughput, timed  # noqa: E402 - after the path set-up above


def instances(module: str, count: int) -> dict[str, Any]:
    import llvmplug

    llvmplug.Plugin(private=True).unload()  # cffi and first-load allocations are not an instance's
    base, after, memfds, loaded = rss_bytes(), [], [], []
    for _ in range(count):
        loaded.append(llvmplug.Plugin(private=True))
        loaded[-1].compile(module)
        after.append(rss_bytes())
        memfds.append(memfd_bytes())
    for plugin in loaded:
        plugin.unload()
    return {"base": base, "after_each": after, "memfd_after_each": memfds, "after_unload": rss_bytes()}


def cycles(kind: str, module: str, checkpoints: list[int]) -> dict[str, Any]:
    import ctypes

    import _ctypes
    import llvmplug

    at: dict[int, int | None] = {}
    keep = llvmplug.Plugin(private=kind == "reload-private") if kind.startswith("reload-") else None
    before = rss_bytes()
    for cycle in range(1, max(checkpoints) + 1):
        if kind.startswith("empty:"):
            library = ctypes.CDLL(kind[len("empty:"):])
            library.empty_function()
            _ctypes.dlclose(library._handle)
        elif keep is not None:
            keep.compile(module)
            keep.reload()
        else:
            plugin = llvmplug.Plugin(private=kind == "private")
            plugin.compile(module)
            plugin.unload()
        if cycle in checkpoints:
            at[cycle] = rss_bytes()
    return {"before": before, "at": at}


def llvmlite(module: str) -> dict[str, Any]:
    base = rss_bytes()
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    llvm.Target.from_default_triple().create_target_machine(opt=2).emit_object(llvm.parse_assembly(module))
    return {"base": base, "loaded": rss_bytes()}


def _one_private(module: str, with_standby: bool) -> Any:
    """A private Plugin that compiled, its standby (if any) ready; kept alive by the caller."""
    import llvmplug

    plugin = llvmplug.Plugin(private=True, standby=with_standby)
    plugin.compile(module)
    if with_standby:
        plugin._backend._standby_done.wait()  # noqa: SLF001 - the standby is made off the caller's path
    return plugin


def standby(module: str, standby: bool) -> int | None:
    plugin = _one_private(module, standby)  # noqa: F841 - measured while loaded
    return rss_bytes()


def memfd_bytes() -> int:
    """The bytes of the distinct llvmplug memfds this process holds open (private copies, the template)."""
    sizes = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            if os.readlink(f"/proc/self/fd/{fd}").startswith("/memfd:llvmplug-"):
                status = os.fstat(int(fd))
                sizes[status.st_ino] = status.st_size
        except OSError:
            pass  # the listing's own descriptor, gone by now
    return sum(sizes.values())


def pss_bytes() -> int | None:
    """Proportional set size (Linux): a page mapped twice, as two copies map their shared code, counts once."""
    try:
        with open("/proc/self/smaps_rollup") as rollup:
            return next(int(line.split()[1]) * 1024 for line in rollup if line.startswith("Pss:"))
    except (OSError, StopIteration):
        return None


def copies(module: str, standby: bool) -> dict[str, int | None]:
    plugin = _one_private(module, standby)  # noqa: F841 - measured while loaded
    return {"rss": rss_bytes(), "pss": pss_bytes(), "memfd": memfd_bytes()}


def floor(number: int, repeat: int) -> dict[str, float]:
    import llvmplug

    from llvmplug import _abi

    plugin = llvmplug.Plugin(private=True)
    empty = "; an empty module\n"
    result = {flags: min(timed(lambda f=flags: plugin.compile(empty, flags=f), repeat, number))
              for flags in ("-O2", "-O2 -passes=")}
    result["-O2 bc"] = min(timed(lambda: plugin.compile(empty, flags="-O2", output="bc"), repeat, number))
    lib = plugin._backend._owned["library"].lib  # noqa: SLF001 - the bare C call, past the Python layer
    out = _abi.ffi().new("llvmplug_result **")

    def boundary() -> None:
        lib.llvmplug_set_policy(lib.LLVMPLUG_POLICY_SAFE, out)
        lib.llvmplug_result_free(out[0])

    def on_caller() -> None:  # the same result and checks on the caller's thread: no handoff
        lib.llvmplug_set_sandbox(1, out)
        lib.llvmplug_result_free(out[0])

    result["boundary"] = min(timed(boundary, repeat, number * 10))
    result["caller"] = min(timed(on_caller, repeat, number * 10))
    return result


# Each backend's module: tests/data/sweep.ll (calls, a loop, a switch,
# floating point), plus a kernel for the GPUs; flags as a GPU user gives them.
BACKENDS = {"x86": ("x86_64-unknown-linux-gnu", [], "obj"), "AArch64": ("aarch64-unknown-linux-gnu", [], "obj"),
            "NVPTX": ("nvptx64-nvidia-cuda", ["-mcpu=sm_80"], "asm"),
            "AMDGPU": ("amdgcn-amd-amdhsa", ["-mcpu=gfx90a"], "obj")}


def threads(seconds: float, rounds: int) -> dict[str, Any]:
    import statistics

    import llvmplug

    tests = Path(__file__).resolve().parents[1] / "tests"
    sys.path.insert(0, str(tests / "support"))
    from option_values import module_for

    sweep = (tests / "data" / "sweep.ll").read_text()
    plugin = llvmplug.Plugin(private=True)

    def rate(count: int, module: str, triple: str, flags: list[str], output: str) -> dict[str, Any]:
        def compile_one(_: str) -> None:
            plugin.compile(module, triple, ["-O2", *flags], output=output)

        return throughput([compile_one] * count, [module], seconds)

    result = {}
    for name, (triple, flags, output) in BACKENDS.items():
        module = module_for(triple, sweep)
        rate(1, module, triple, flags, output)  # warm up
        runs = [(rate(1, module, triple, flags, output), rate(2, module, triple, flags, output))
                for _ in range(rounds)]
        result[name] = {"ratio": statistics.median(two["per_second"] / one["per_second"] for one, two in runs),
                        "cpus_busy": statistics.median(two["cores_used"] for _, two in runs),
                        "per_second_one": statistics.median(one["per_second"] for one, _ in runs),
                        "asleep": None if runs[0][1]["asleep"] is None else
                        statistics.median(two["asleep"] for _, two in runs)}
    plugin.unload()
    return result


if __name__ == "__main__":
    request = json.loads(sys.argv[1])
    what = request.pop("what")
    print(json.dumps({"instances": instances, "cycles": cycles, "llvmlite": llvmlite, "standby": standby,
                      "copies": copies, "floor": floor, "threads": threads}[what](**request)))
