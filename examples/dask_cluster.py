"""Compile on a Dask cluster: every worker process loads its own llvmplug once.

An autotuner's sweep (flag variants of one kernel) spread over worker
processes. Requests and results are plain str/bytes, so Dask ships them as
is; errors raised on a worker arrive as the same llvmplug exception; a disk
Cache given to the tasks is shared by every worker on the machine (and by
the client), so repeated variants compile once.

Run: python examples/dask_cluster.py   (needs: pip install "llvmplug[dask]")
For a real cluster, replace LocalCluster with the scheduler's address:
Client("tcp://scheduler:8786").
"""

import itertools
import logging
import tempfile

from dask.distributed import Client, LocalCluster

import llvmplug

IR = """
define void @saxpy(ptr noalias %y, ptr noalias %x, float %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %vx = load float, ptr %px
  %vy = load float, ptr %py
  %m = fmul float %a, %vx
  %s = fadd float %m, %vy
  store float %s, ptr %py
  %next = add i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"""

def expect_failed_tasks() -> None:
    """On a worker: do not log the tasks this example fails on purpose.

    Dask logs every task that raises, with its traceback ("Compute Failed"),
    at the worker, while the client gets the exception itself.
    """
    logging.getLogger("distributed.worker").addFilter(
        lambda record: "ParseError" not in str(getattr(record, "args", "")))


if __name__ == "__main__":  # worker processes are spawned: keep the cluster out of their import
    with tempfile.TemporaryDirectory() as directory, \
            LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        print(f"{len(client.scheduler_info()['workers'])} workers")
        cache = llvmplug.Cache(directory)  # pickles as its directory: shared by the workers
        variants = [" ".join(flags) for flags in itertools.product(
            ["-O1", "-O2", "-O3"], ["-mcpu=x86-64", "-mcpu=x86-64-v3", "-mcpu=x86-64-v4"])]
        # map() maps positional arguments (module, target, flags) and passes keywords to every task.
        modules, targets = [IR] * len(variants), [None] * len(variants)
        futures = client.map(llvmplug.compile, modules, targets, variants, output="asm", cache=cache, pure=False)
        for flags, asm in zip(variants, client.gather(futures)):
            instructions = [line for line in asm.decode().splitlines() if line.startswith("\t") and
                            not line.startswith("\t.")]
            print(f"{flags:<24} {len(instructions):3} instructions")
        # Asked again, every variant is a hit in the shared directory.
        before = llvmplug.Cache(directory)
        again = client.gather(client.map(llvmplug.compile, modules, targets, variants, output="asm",
                                         cache=cache, pure=False))
        answered = sum(before.get(llvmplug.fingerprint(IR, None, flags, output="asm")) == asm
                       for flags, asm in zip(variants, again))
        print(f"second sweep: {answered} of {len(again)} results identical to the entries in {directory}")
        client.run(expect_failed_tasks)
        try:
            client.submit(llvmplug.compile, "not IR", pure=False).result()
        except llvmplug.ParseError as error:
            print(f"ParseError arrived typed: {error.message.splitlines()[0]}")
