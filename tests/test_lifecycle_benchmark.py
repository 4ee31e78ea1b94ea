"""The lifecycle rows of ``python -m benchmarks --quick``: reset (with standby), memory, private instances.

Nothing here checks speed: the numbers belong in the report. What is checked
is that each lifecycle question has its rows, with numbers, from the one
runner (the report is the session's quick run, see conftest.py).
"""

from __future__ import annotations

import json
from pathlib import Path


def _results(report: Path) -> dict:
    sections = json.loads((report / "benchmarks.json").read_text())["sections"]
    return {name: section["result"] for name, section in sections.items()}


def test_reset_rows_time_every_kind_of_reset_until_the_first_result(benchmark_quick_report):
    reset = _results(benchmark_quick_report)["reset"]
    first = reset["first_result"]
    assert {"llvmplug.reset()", "Plugin(private=True).reload()", "Plugin(private=True, standby=True).reload()",
            'Plugin(isolation="process").reload()', 'Plugin(isolation="process", standby=True).reload()'} < set(first)
    assert any(name.startswith("fresh worker process") for name in first)
    assert all(row["n"] >= 5 and row["median"] > 0 for row in first.values())
    # Ready is a part of the first result, never more than it.
    for name, row in reset["ready"].items():
        assert 0 < row["min"] <= first[name]["max"]
    # The standby's memory cost, from fresh interpreters (Linux).
    assert not reset["rss"] or reset["rss"]["standby"] > reset["rss"]["plain"] > 0


def test_memory_rows_cover_instances_and_cycles_with_the_empty_library_peer(benchmark_quick_report):
    memory = _results(benchmark_quick_report)["memory"]
    instances = memory["instances"]
    assert len(instances["after_each"]) >= 2 and all(rss > instances["base"] for rss in instances["after_each"])
    assert set(memory["cycles"]) == {"shared", "private", "reload-shared", "reload-private", "empty"}
    for kind, cycle in memory["cycles"].items():
        assert cycle["before"] > 0 and all(rss > 0 for rss in cycle["at"].values()), kind
        assert isinstance(cycle["growth_per_cycle"], float), kind
    assert memory["worker_process"] > 0


def test_instance_rows_compare_one_and_two_instances_and_the_pools(benchmark_quick_report):
    instances = _results(benchmark_quick_report)["throughput"]["instances"]
    assert set(instances) == {"corpus modules", "loops-16"}
    for rows in instances.values():
        assert {"1 private instance", "2 private instances", "llvmplug.Pool(2)",
                'llvmplug.Pool(2, isolation="process")'} == set(rows)
        assert all(row["modules"] > 0 and row["per_second"] > 0 for row in rows.values())
    markdown = (benchmark_quick_report / "benchmarks.md").read_text()
    assert "| 2 private instances >= 1.7x the throughput of 1 on 2 cores (corpus modules) |" in markdown
    for heading in ("## Reset cost", "## Memory", "Private instances and Pools, workload: loops-16."):
        assert heading in markdown
