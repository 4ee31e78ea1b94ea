"""The one helper set every section uses: timing, statistics, throughput, RSS, tables, machine facts.

Free of llvmplug imports, so the memory probe (run in a fresh interpreter) can
use it without loading the shim.
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

FLAGS = "-O2"


def progress(message: str) -> None:
    """One line of progress on stderr (the report goes to files)."""
    print(f"[{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- timing and statistics ------------------------------------------------------

def children_cpu() -> float:
    """CPU seconds of this process's children that have finished (Unix)."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_and_wall(action: Callable[[], Any], children: bool) -> tuple[float, float]:
    """CPU and wall seconds of one run (the children's CPU for a tool, this process's for llvmplug)."""
    cpu_start = children_cpu() if children else time.process_time()
    start = time.perf_counter()
    action()
    wall = time.perf_counter() - start
    return (children_cpu() if children else time.process_time()) - cpu_start, wall


def in_turn(section: str, steps: Sequence[tuple[str, Callable[[], Any], bool]],
            repeat: int) -> dict[str, dict[str, float]]:
    """Median CPU and wall seconds of each (label, action, runs children) step, the steps taken
    in turn `repeat` times, so that other load on the machine falls on all of them alike."""
    samples: dict[str, list[tuple[float, float]]] = {label: [] for label, _, _ in steps}
    for round_ in range(repeat):
        for label, action, children in steps:
            progress(f"{section}: {label} ({round_ + 1}/{repeat})")
            samples[label].append(cpu_and_wall(action, children))
    return {label: {"cpu": statistics.median(cpu for cpu, _ in runs), "wall": statistics.median(w for _, w in runs),
                    "n": repeat} for label, runs in samples.items()}


def seconds(value: float) -> str:
    return f"{value:.2f} s"



def once(action: Callable[[], Any]) -> float:
    """Wall-clock seconds of one call."""
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def timed(action: Callable[[], Any], repeat: int, batch: int = 1,
          between: Callable[[], Any] | None = None) -> list[float]:
    """Seconds per call of ``repeat`` samples, each the mean of ``batch`` calls,
    after one untimed warm-up call; ``between`` runs untimed before each sample."""
    action()
    samples = []
    for _ in range(repeat):
        if between is not None:
            between()
        start = time.perf_counter()
        for _ in range(batch):
            action()
        samples.append((time.perf_counter() - start) / batch)
    return samples


def summary(samples: Sequence[float]) -> dict[str, float]:
    """Count, median, p95 (linear interpolation, like numpy's default), mean, min and max of a non-empty list."""
    p95 = statistics.quantiles(samples, n=20, method="inclusive")[18] if len(samples) > 1 else samples[0]
    return {"n": len(samples), "median": statistics.median(samples), "p95": p95,
            "mean": statistics.fmean(samples), "min": min(samples), "max": max(samples)}


def throughput(lanes: Sequence[Callable[[str], Any]], workload: Sequence[str], seconds: float) -> dict[str, Any]:
    """Modules per second when every lane (a thread with its compile function)
    compiles the workload round-robin until the deadline; each lane warms up
    once, untimed, and all start together."""
    counts = [0] * len(lanes)
    spent: list[float | None] = [None] * len(lanes)  # each lane's own run and wait-for-CPU seconds
    barrier = threading.Barrier(len(lanes) + 1)
    deadline = math.inf  # set once every lane has warmed up

    def lane(index: int) -> None:
        lanes[index](workload[0])
        barrier.wait()
        before = schedstat(threading.get_native_id())
        while time.perf_counter() < deadline:
            lanes[index](workload[(index + counts[index]) % len(workload)])
            counts[index] += 1
        after = schedstat(threading.get_native_id())
        if before is not None and after is not None:
            spent[index] = after - before

    threads = [threading.Thread(target=lane, args=(i,)) for i in range(len(lanes))]
    for thread in threads:
        thread.start()
    shims_before = llvm_schedstats()
    barrier.wait()
    start, cpu = time.perf_counter(), time.process_time()
    deadline = start + seconds
    for thread in threads:
        thread.join()
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    shims_after = llvm_schedstats()
    # The process's CPU time per wall second: the cores the lanes actually got
    # (a compile runs on a thread of the shim's, so the lanes' own thread
    # times would miss it). Meaningless where the work runs in other processes.
    asleep = None
    if all(value is not None for value in spent):
        # A lane is its Python thread and, while it waits for a compile, the
        # shim's thread doing it: what they ran or waited for a CPU, of the
        # lanes' wall time, leaves the time they slept (on a lock or the GIL).
        busy = sum(value for value in spent if value is not None)
        busy += sum(value - shims_before.get(tid, 0.0) for tid, value in shims_after.items())
        asleep = max(0.0, 1 - busy / (elapsed * len(lanes)))
    return {"modules": sum(counts), "seconds": elapsed, "per_second": sum(counts) / elapsed,
            "cores_used": cpu / elapsed, "per_cpu_second": sum(counts) / cpu if cpu else None,
            "asleep": asleep}


def schedstat(tid: int) -> float | None:
    """Seconds a thread of this process has run on a CPU or waited for one (Linux), else None.

    What is left of the wall time is sleep: waiting on a lock or the GIL,
    which another lane can cause, unlike the wait for a CPU that other work
    on the machine causes.
    """
    try:
        fields = Path(f"/proc/self/task/{tid}/schedstat").read_text().split()
        return (int(fields[0]) + int(fields[1])) / 1e9
    except (OSError, ValueError, IndexError):
        return None


def llvm_schedstats() -> dict[int, float]:
    """schedstat() of each of the shim's LLVM threads (named llvmplug-llvm), by thread id."""
    result = {}
    try:
        tasks = os.listdir("/proc/self/task")
    except OSError:
        return result
    for tid in tasks:
        try:
            if Path(f"/proc/self/task/{tid}/comm").read_text().strip() != "llvmplug-llvm":
                continue
        except OSError:
            continue  # a thread that ended meanwhile
        value = schedstat(int(tid))
        if value is not None:
            result[int(tid)] = value
    return result


def probe(request: dict[str, Any], env: dict[str, str] | None = None) -> Any:
    """benchmarks/_probe.py in a fresh interpreter, by path and outside the
    checkout (so it imports the installed llvmplug); its JSON answer."""
    done = subprocess.run([sys.executable, str(Path(__file__).with_name("_probe.py")), json.dumps(request)],
                          capture_output=True, text=True, cwd=tempfile.gettempdir(), timeout=900,
                          env=None if env is None else {**os.environ, **env})
    if done.returncode:
        raise RuntimeError(f"probe {request.get('what')} failed: {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


# -- memory -------------------------------------------------------------------------


def rss_bytes(pid: int | None = None) -> int | None:
    """Resident set size of a process (default: this one): psutil, else Linux's /proc, else None."""
    try:
        import psutil
    except ImportError:
        statm = Path(f"/proc/{pid or 'self'}/statm")
        return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") if statm.exists() else None
    return psutil.Process(pid).memory_info().rss


# -- report ---------------------------------------------------------------------------


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub Markdown table of pre-formatted cells (a ``|`` in a cell is escaped)."""

    def line(cells: Iterable[Any]) -> str:
        return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"

    return "\n".join([line(headers), "|" + "|".join("---" for _ in headers) + "|", *map(line, rows)])


def ms(seconds: float | None) -> str:
    """Seconds as milliseconds (or microseconds) with a sensible number of digits."""
    if seconds is None or math.isnan(seconds):
        return "n/a"
    value = seconds * 1e3
    if abs(value) >= 100:
        return f"{value:.0f} ms"
    if abs(value) >= 10:
        return f"{value:.1f} ms"
    if abs(value) >= 0.1:
        return f"{value:.2f} ms"
    return f"{value * 1e3:.1f} µs"


def mib(size: float | None) -> str:
    return "n/a" if size is None else f"{size / 2**20:,.1f} MiB"


def ratio(value: float | None, reference: float | None) -> str:
    """``value / reference`` as "3.20x", or n/a."""
    if not value or not reference or math.isnan(value) or math.isnan(reference):
        return "n/a"
    return f"{value / reference:.2f}x"


def machine_info() -> dict[str, Any]:
    """Facts that make numbers comparable: CPU, cores, memory, load, OS, Python."""
    cpu, memory = platform.processor() or "", None
    if Path("/proc/cpuinfo").exists():
        models = [line for line in Path("/proc/cpuinfo").read_text().splitlines() if line.startswith("model name")]
        cpu = models[0].split(":", 1)[1].strip() if models else cpu
        memory = int(Path("/proc/meminfo").read_text().split()[1]) * 1024
    return {"cpu": cpu, "cores": os.cpu_count(), "memory_bytes": memory, "load_average": load_average(),
            "platform": platform.platform(), "python": sys.version.split()[0],
            "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def load_average() -> list[float] | None:
    return [round(x, 2) for x in os.getloadavg()] if hasattr(os, "getloadavg") else None
