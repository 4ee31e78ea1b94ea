"""Helpers every benchmark shares: timing, statistics, RSS, tables, machine facts.

Kept free of llvmplug imports so any benchmark script (and a worker process)
can use it without loading the shim.
"""

from __future__ import annotations

import math
import os
import platform
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any


def timed(function: Callable[[], Any], repeat: int, warmup: int = 1) -> list[float]:
    """Wall-clock seconds of ``repeat`` calls of ``function`` after ``warmup`` untimed ones."""
    for _ in range(warmup):
        function()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The ``fraction`` quantile (0..1) by linear interpolation, like numpy's default."""
    if not samples:
        return math.nan
    ordered = sorted(samples)
    position = (len(ordered) - 1) * fraction
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


def summary(samples: Sequence[float]) -> dict[str, float]:
    """Median, p95, mean, min, max and count of a list of samples."""
    if not samples:
        return {"n": 0, "median": math.nan, "p95": math.nan, "mean": math.nan, "min": math.nan, "max": math.nan}
    return {
        "n": len(samples),
        "median": statistics.median(samples),
        "p95": percentile(samples, 0.95),
        "mean": statistics.fmean(samples),
        "min": min(samples),
        "max": max(samples),
    }


def rss_bytes(pid: int | None = None) -> int | None:
    """Resident set size of a process (default: this one), or None where unknown.

    psutil is the portable way; without it, Linux's /proc answers.
    """
    try:
        import psutil
    except ImportError:
        psutil = None
    if psutil is not None:
        return psutil.Process(pid).memory_info().rss
    statm = Path(f"/proc/{pid or 'self'}/statm")
    if statm.exists():
        return int(statm.read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    return None


def markdown_table(headers: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """A GitHub Markdown table; numbers are expected pre-formatted as text.

    A ``|`` inside a cell (``opt | llc``) is escaped so it does not split the cell.
    """

    def line(cells: Iterable[Any]) -> str:
        return "| " + " | ".join(str(cell).replace("|", "\\|") for cell in cells) + " |"

    lines = [line(headers), "|" + "|".join("---" for _ in headers) + "|"]
    lines += [line(row) for row in rows]
    return "\n".join(lines)


def ms(seconds: float | None) -> str:
    """Seconds as milliseconds with a sensible number of digits."""
    if seconds is None or math.isnan(seconds):
        return "n/a"
    value = seconds * 1e3
    if value >= 100:
        return f"{value:.0f} ms"
    if value >= 10:
        return f"{value:.1f} ms"
    if value >= 0.1:
        return f"{value:.2f} ms"
    return f"{value * 1e3:.1f} µs"


def mib(size: float | None) -> str:
    """Bytes as MiB."""
    if size is None:
        return "n/a"
    return f"{size / 2**20:.1f} MiB"


def ratio(value: float | None, reference: float | None) -> str:
    """``value / reference`` as "3.2x", or n/a."""
    if not value or not reference or math.isnan(value) or math.isnan(reference):
        return "n/a"
    return f"{value / reference:.2f}x"


def machine_info() -> dict[str, Any]:
    """Facts that make numbers comparable: CPU, cores, load, OS, Python."""
    cpu = platform.processor() or ""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    memory = None
    meminfo = Path("/proc/meminfo")
    if meminfo.exists():
        memory = int(meminfo.read_text().split()[1]) * 1024
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "memory_bytes": memory,
        "load_average": list(os.getloadavg()) if hasattr(os, "getloadavg") else None,
        "platform": platform.platform(),
        "python": sys.version.split()[0],
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def throughput(lanes: Sequence[Callable[[str], Any]], workload: Sequence[str], seconds: float) -> dict[str, Any]:
    """Modules per second when every lane (a thread with its compile function)
    compiles the workload's texts round-robin until the deadline.

    Each lane warms up once, untimed, and all start together.
    """
    counts = [0] * len(lanes)
    cpu = [0.0] * len(lanes)
    barrier = threading.Barrier(len(lanes) + 1)
    deadline = math.inf  # set once every lane has warmed up

    def lane(index: int) -> None:
        compile_ = lanes[index]
        compile_(workload[0])  # warm-up, untimed
        barrier.wait()
        position = index
        started = time.thread_time()
        while time.perf_counter() < deadline:
            compile_(workload[position % len(workload)])
            position += 1
            counts[index] += 1
        cpu[index] = time.thread_time() - started

    threads = [threading.Thread(target=lane, args=(i,)) for i in range(len(lanes))]
    for thread in threads:
        thread.start()
    barrier.wait()
    start = time.perf_counter()
    deadline = start + seconds
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    # CPU time of the lanes' own threads over wall time: how many cores the
    # in-process lanes actually got (a loaded machine gives fewer than 2).
    # Meaningless for process lanes, whose work runs in the children.
    return {"lanes": len(lanes), "modules": sum(counts), "seconds": elapsed,
            "per_second": sum(counts) / elapsed, "cores_used": sum(cpu) / elapsed,
            "per_cpu_second": sum(counts) / sum(cpu) if sum(cpu) else None}
