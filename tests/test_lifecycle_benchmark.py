"""benchmarks/lifecycle.py runs and reports every section (with tiny counts).

Nothing here checks speed: the numbers belong in the benchmark's tables.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[1]

SMALL_RUN = r"""
import json
import benchmarks.lifecycle as lifecycle  # first: it takes the checkout off sys.path
from benchmarks.corpus import loops
import llvmplug
results = {
    "machine": lifecycle.machine_info(),
    "quick": True,
    "reload": lifecycle.measure_reload(3),
    "fresh process": lifecycle.measure_fresh_process(1),
    "rss cycles": [lifecycle.measure_rss_cycles((2, 4), private=False),
                   lifecycle.measure_rss_cycles((2, 4), private=True),
                   lifecycle.measure_empty_library_rss_cycles((2, 4))],
    "throughput": {"loops-4": lifecycle.measure_throughput([loops(4).text], 0.3)},
    "private copy": lifecycle.measure_private_copy(2),
    "instance rss": lifecycle.measure_instance_rss(2, loops(2).text),
}
print(lifecycle.report(results))
print(json.dumps({"llvmplug": llvmplug.__file__, "results": results}, default=str))
"""


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    # cwd is the checkout, as for `python -m benchmarks.lifecycle`: the
    # benchmarks package must keep the source tree's llvmplug out.
    return subprocess.run([sys.executable, *args], cwd=CHECKOUT, capture_output=True, text=True, timeout=600)


def test_help():
    done = _python("-m", "benchmarks.lifecycle", "--help")
    assert done.returncode == 0, done.stderr
    assert "--quick" in done.stdout and "--only" in done.stdout


def test_every_section_reports_numbers():
    done = _python("-c", SMALL_RUN)
    assert done.returncode == 0, done.stderr
    *table, last = done.stdout.strip().splitlines()
    data = json.loads(last)
    assert not data["llvmplug"].startswith(str(CHECKOUT / "llvmplug"))  # the installed package
    results = data["results"]
    for kind in ("shared", "private"):
        assert results["reload"][kind]["total"]["n"] == 3
        assert results["reload"][kind]["total"]["median"] > 0
    assert results["fresh process"]["median"] > 0
    for rss in results["rss cycles"]:
        if "skipped" in rss:  # the empty-library peer, without a C compiler
            continue
        assert rss["peak loaded"] > rss["before"] > 0
        assert rss["growth per cycle"] is not None
    runs = results["throughput"]["loops-4"]
    assert set(runs) == {"1 instance, 1 thread", "1 instance, 2 threads", "2 private instances, 2 threads"}
    assert all(run["modules"] > 0 for run in runs.values())
    assert results["private copy"]["copy + load"]["median"] > 0
    assert results["instance rss"]["per instance"] > 0
    text = "\n".join(table)
    for heading in ("### Reset", "### RSS over", "### Throughput", "### Cost of a private instance"):
        assert heading in text
    assert "nan" not in text
