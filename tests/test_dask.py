"""llvmplug on Dask distributed: a LocalCluster of two worker processes.

No RPC of llvmplug's own: requests (str/bytes) and results (bytes) pickle,
each worker process loads its own copy of the shim once (the default Plugin
behind llvmplug.compile), and errors raised in a worker arrive typed.
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

import llvmplug
from llvmplug import errors

import cache_support  # noqa: E402

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "dask_cluster.py"


def every_error_class() -> list[type[errors.LLVMPlugError]]:
    found, pending = [], [errors.LLVMPlugError]
    while pending:
        kind = pending.pop()
        found.append(kind)
        pending.extend(kind.__subclasses__())
    return sorted(set(found), key=lambda kind: kind.__name__)


def sample(kind: type[errors.LLVMPlugError]) -> tuple[object, ...]:
    """Constructor arguments of ``kind`` that set every attribute it has."""
    if kind is errors.WorkerCrashedError:
        return ("the child died", -11, "SIGSEGV")
    return (f"a {kind.__name__} message",)


@pytest.mark.parametrize("kind", every_error_class(), ids=lambda kind: kind.__name__)
def test_every_error_pickles_with_its_attributes(kind):
    error = kind(*sample(kind))
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is kind
    assert copy.args == error.args and vars(copy) == vars(error) and str(copy) == str(error)
    assert vars(copy)["message"] == sample(kind)[0]


@pytest.fixture(scope="module")
def client():
    # Only these tests need Dask (the test extra has it); the pickling tests above do not.
    distributed = pytest.importorskip("distributed", reason="dask[distributed] is in the test extra")
    cloudpickle = pytest.importorskip("cloudpickle", reason="distributed depends on it")
    # Workers cannot import tests/support/cache_support.py by name: ship its functions by value.
    cloudpickle.register_pickle_by_value(cache_support)
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                       dashboard_address=None, scheduler_port=0)
    with cluster, distributed.Client(cluster) as client:
        yield client


def test_the_corpus_compiles_byte_identically_on_the_cluster(client, corpus_files):
    modules = [path.read_text() for path in corpus_files]
    for flags, output in (("-O2", "obj"), ("-O3 -mcpu=znver3", "asm")):
        futures = client.map(llvmplug.compile, modules, flags=flags, output=output, pure=False)
        remote = client.gather(futures)
        local = [llvmplug.compile(module, flags=flags, output=output) for module in modules]
        mismatched = [path.name for path, a, b in zip(corpus_files, remote, local) if a != b]
        assert mismatched == [], (flags, output)


def test_each_worker_process_loads_its_own_copy_once(client, corpus_files):
    before = client.run(cache_support.worker_identity)
    assert len(before) == 2
    pids = {pid for pid, _, _ in before.values()}
    assert len(pids) == 2 and os.getpid() not in pids
    # Tasks land on either worker; every one sees its worker's one Plugin.
    module = corpus_files[0].read_text()
    client.gather(client.map(llvmplug.compile, [module] * 20, pure=False))
    seen = client.gather([client.submit(cache_support.worker_identity, pure=False) for _ in range(20)])
    assert set(seen) <= set(before.values())
    assert client.run(cache_support.worker_identity) == before


@pytest.mark.parametrize(
    "module, flags, kind",
    [
        ("this is not IR", "", llvmplug.ParseError),
        ("define i32 @f() {\n  ret i64 0\n}\n", "", llvmplug.ParseError),
        ("define void @f() {\n  ret void\n}\n", "-no-such-option", llvmplug.OptionError),
        ("define void @f() {\n  ret void\n}\n", "-mtriple=nonsense-triple", llvmplug.TargetError),
    ],
)
def test_compile_errors_arrive_typed(client, module, flags, kind):
    with pytest.raises(kind) as caught:
        client.submit(llvmplug.compile, module, flags=flags, pure=False).result()
    with pytest.raises(kind) as local:
        llvmplug.compile(module, flags=flags)
    assert caught.value.message == local.value.message


@pytest.mark.parametrize("kind", every_error_class(), ids=lambda kind: kind.__name__)
def test_every_error_raised_in_a_worker_arrives_typed(client, kind):
    future = client.submit(cache_support.raise_error, kind.__name__, sample(kind), pure=False)
    with pytest.raises(kind) as caught:
        future.result()
    assert type(caught.value) is kind
    assert vars(caught.value) == vars(kind(*sample(kind)))


def test_workers_share_a_disk_cache_with_the_client(client, corpus_files, tmp_path):
    # A Cache pickles as its directory: the workers fill it, the client reads it.
    modules = [path.read_text() for path in corpus_files[:12]]
    cache = llvmplug.Cache(tmp_path)
    remote = client.gather(client.map(llvmplug.compile, modules, cache=cache, pure=False))
    for module, result in zip(modules, remote):
        assert llvmplug.compile(module, cache=cache) == result == llvmplug.compile(module, cache=None)
    assert cache.stats.disk_hits == len(modules) and cache.stats.misses == 0


def test_the_example_runs():
    result = subprocess.run([sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=300,
                            cwd=EXAMPLE.parent)
    assert result.returncode == 0, result.stderr
    assert "2 workers" in result.stdout
    assert "ParseError arrived typed" in result.stdout
    assert "Compute Failed" not in result.stderr  # the example's failure is expected: Dask need not log it
