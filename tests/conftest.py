"""Shared fixtures (real IR, the real shim, the system C compiler) and the headline-skip guard.

The IR corpus is vendored in tests/data/corpus (see its SOURCE.md), so a plain
clone runs every test; ``LLVMPLUG_CORPUS=DIR`` points every consumer at a
bigger corpus instead (the tests that run a corpus consumer in a subprocess
pass the fixture's directory on in that variable).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import llvmplug
import pytest
from _pytest.mark.structures import ParameterSet

DATA = Path(__file__).resolve().parent / "data"
VENDORED_CORPUS = DATA / "corpus"
CORPUS = Path(os.environ.get("LLVMPLUG_CORPUS") or VENDORED_CORPUS)


@pytest.fixture(scope="session")
def arith_ir() -> str:
    return (DATA / "arith.ll").read_text()


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    files = sorted(CORPUS.glob("*.ll"))
    if not files:
        # Never a skip: the vendored corpus is always there, so an empty
        # directory is a broken checkout or a mistyped LLVMPLUG_CORPUS.
        pytest.fail(f"no *.ll files in the IR corpus {CORPUS} "
                    f"(LLVMPLUG_CORPUS={os.environ.get('LLVMPLUG_CORPUS')!r})")
    return files


@pytest.fixture(scope="session")
def benchmark_quick_report(tmp_path_factory: pytest.TempPathFactory, corpus_files: list[Path]) -> Path:
    """``python -m benchmarks --quick`` run once (a minute or two), for the benchmark tests to read."""
    out = tmp_path_factory.mktemp("bench")
    # cwd is the checkout on purpose: that is how `python -m benchmarks` is
    # run, and benchmarks/__init__.py must keep the source tree's llvmplug out.
    done = subprocess.run([sys.executable, "-m", "benchmarks", "--quick", "--out", str(out)],
                          cwd=DATA.parents[1], capture_output=True, text=True, timeout=1200,
                          env={**os.environ, "LLVMPLUG_CORPUS": str(corpus_files[0].parent)})
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def _private_copy() -> Iterator[llvmplug.Plugin]:
    with llvmplug.Plugin(private=True) as copy:
        yield copy


# A private copy of LLVM: what a test sets on it never reaches the default
# Plugin (llvmplug.compile's) that other tests share. ``plugin`` is one per
# test module (a load costs ~0.2 s; a module that defines its own ``plugin``
# fixture overrides it); ``fresh_plugin`` is one per test, for tests whose
# subject is the state a copy keeps (sticky options, reloads).
plugin = pytest.fixture(_private_copy, scope="module", name="plugin")
fresh_plugin = pytest.fixture(_private_copy, name="fresh_plugin")


@pytest.fixture(scope="session")
def cc() -> str:
    compiler = shutil.which(os.environ.get("CC", "cc"))
    if compiler is None:
        pytest.skip("no C compiler to link objects with")
    return compiler


@pytest.fixture
def load_object(tmp_path, cc):
    """Link an object file into a shared library with the system C compiler and load it."""

    def load(obj: bytes, name: str = "mod") -> ctypes.CDLL:
        obj_path = tmp_path / f"{name}.o"
        lib_path = tmp_path / f"lib{name}.so"
        obj_path.write_bytes(obj)
        subprocess.run([cc, "-shared", "-o", str(lib_path), str(obj_path)], check=True)
        return ctypes.CDLL(str(lib_path))

    return load


# -- the headline-skip guard ----------------------------------------------------
#
# The headline tests are the ones whose skipping once left CI green while they
# checked nothing: the corpus, llc parity, the fuzz campaigns and crashers, the
# soak, and concurrency (every test that compiles the corpus, the pools). Under
# CI (CI=true, as GitHub Actions, GitLab and .ci/run set it) a skip of one of
# them is a failure; elsewhere it is only listed in the terminal summary, since
# a developer may lack the test extra's llc. cibuildwheel's wheel test runs
# without CI in its container and without the full test extra, so it keeps its
# skips. Expected failures (xfail) are not skips.
HEADLINE_FILES = {"test_corpus.py", "test_llc_parity.py", "test_fuzz.py", "test_soak.py", "test_pool.py",
                  "test_asm_directives.py", "test_asm_fuzz.py"}
HEADLINE_FIXTURES = {"corpus_files"}
_headline_skips: list[str] = []


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def is_headline(item: pytest.Item) -> bool:
    """Whether a skip of this test would hide one of the suite's main claims."""
    return item.path.name in HEADLINE_FILES or bool(HEADLINE_FIXTURES & set(getattr(item, "fixturenames", ())))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo) -> object:
    outcome = yield
    report = outcome.get_result()
    if report.failed and item.path.name == HABITS_FILE and _in_ci():
        # CI fails in seconds on a lint, format or type violation, not after the whole suite.
        item.session.shouldfail = f"{item.nodeid} failed: fix the habits first (see its output)"
    if not report.skipped or hasattr(report, "wasxfail") or not is_headline(item):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    _headline_skips.append(f"{item.nodeid}: {reason}")
    if _in_ci():
        report.outcome = "failed"
        report.longrepr = f"headline test skipped under CI=true (a skip here hides a main claim): {reason}"


def pytest_terminal_summary(terminalreporter: object) -> None:
    if _headline_skips and not _in_ci():
        write = terminalreporter.write_line  # type: ignore[attr-defined]
        write(f"HEADLINE TESTS SKIPPED ({len(_headline_skips)}; under CI=true each would fail):", red=True)
        for line in _headline_skips:
            write(f"  {line}")


# -- the quick loop -------------------------------------------------------------
#
# Markers that leave the long runs out of a contributor's inner loop:
#   pytest -m "not slow and not bench and not sweep and not fuzz"
# CI (.ci/run) runs everything. Applied here by file, so that a new test in
# one of these files is marked without anyone remembering to.
FILE_MARKERS = {
    "test_benchmarks.py": "bench",  # python -m benchmarks --quick, a minute or two
    "test_lifecycle_benchmark.py": "bench",
    "test_soak.py": "bench",  # benchmarks/soak.py end to end
    "test_scoping_sweep.py": "sweep",  # every allowed option, per backend
    "test_llc_parity.py": "sweep",  # every backend against llc
    "test_corpus.py": "sweep",  # every module of the IR corpus
    "test_fuzz.py": "fuzz",  # the fuzzer and every crasher
    "test_asm_directives.py": "sweep",  # every directive of every asm parser against the table
    "test_asm_fuzz.py": "fuzz",  # the asm grammar campaign (tests/campaigns/campaign_asm.py) and its crashers
}

# Test ids travel in PYTEST_CURRENT_TEST, into every child process's
# environment: a parametrize value a megabyte long must get a short id (ids=).
# pytest before 9.1 makes the id of a string from the whole string (9.1 and
# later fall back to argname + index), so a long value without ids= is refused
# here whatever pytest shortens it to: on an older pytest its id is too long.
MAX_NODEID = 1000


def _long_values_without_ids(mark: pytest.Mark) -> bool:
    """Whether a parametrize mark has a str/bytes value over MAX_NODEID characters and no id for it."""
    if mark.kwargs.get("ids") is not None or len(mark.args) < 2:
        return False
    names = mark.args[0]
    several = len(names.split(",") if isinstance(names, str) else names) > 1
    for entry in mark.args[1]:
        if isinstance(entry, ParameterSet):
            if entry.id is not None:
                continue
            values = entry.values
        else:
            values = entry if several else (entry,)
        if any(isinstance(value, (str, bytes)) and len(value) > MAX_NODEID for value in values):
            return True
    return False


# The habits (lint, format, types) run first: a violation shows in seconds.
HABITS_FILE = "test_habits.py"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.path.name != HABITS_FILE)  # stable: the rest keep their order
    for item in items:
        marker = FILE_MARKERS.get(item.path.name)
        if marker is not None:
            item.add_marker(getattr(pytest.mark, marker))
    long_ids = [item.nodeid[:200] for item in items if len(item.nodeid) > MAX_NODEID]
    long_ids += sorted({item.nodeid.split("[")[0] for item in items
                        if any(_long_values_without_ids(mark) for mark in item.iter_markers("parametrize"))})
    if long_ids:
        raise pytest.UsageError(f"test ids over {MAX_NODEID} characters (give parametrize ids=): {long_ids}")
