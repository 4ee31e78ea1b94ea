"""How much work each mode does. --quick must finish in under two minutes on 2 cores."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    quick: bool
    corpus_limit: int | None  # corpus modules compiled one by one (None: all)
    concat_sizes: tuple[int, ...]  # corpus modules merged into one larger module
    loop_sizes: tuple[int, ...]  # generated loop functions per module
    rounds: int  # passes over the corpus for backends that stay loaded
    spawn_rounds: int  # ... and for backends that spawn processes per module
    repeats: int  # samples per larger module, backends that stay loaded
    spawn_repeats: int  # ... and backends that spawn processes
    overhead_calls: int  # calls of an empty module for the ABI overhead
    overhead_seconds: float  # time spent on each larger module for the ABI overhead
    resets: int  # reloads and fresh workers timed
    scaling_seconds: float  # how long each throughput configuration runs in all
    scaling_slices: int  # ... in this many turns, configurations alternating
    reload_cycles: int  # reloads for the RSS-over-reloads curve
    instances: int  # private instances loaded for the RSS-per-instance figure
    option_calls: int  # compiles timed per option save/restore variant


QUICK = Settings(
    quick=True, corpus_limit=12, concat_sizes=(8, 96), loop_sizes=(16,), rounds=3, spawn_rounds=1,
    repeats=5, spawn_repeats=2, overhead_calls=300, overhead_seconds=0.5, resets=5,
    scaling_seconds=1.0, scaling_slices=1, reload_cycles=15, instances=2, option_calls=200,
)

FULL = Settings(
    quick=False, corpus_limit=None, concat_sizes=(8, 32, 96, 384), loop_sizes=(16, 64), rounds=10,
    spawn_rounds=1, repeats=15, spawn_repeats=5, overhead_calls=3000, overhead_seconds=4.0, resets=30,
    scaling_seconds=10.0, scaling_slices=5, reload_cycles=100, instances=4, option_calls=2000,
)
