"""From IR to running code: llvmplug + tvm-ffi-orcjit against Numba's ``@njit`` (issue 21).

The same kernel both ways: ``scale(x, factor)`` multiplies a float32 array in
place. llvmplug compiles ``examples/tvm_ffi_kernels.ll`` to an object,
tvm-ffi-orcjit links it into the process, and the first call runs; Numba
compiles a new ``@njit`` function of the same loop on its first call. Rows:
compile + load + first call (a new kernel each sample, nothing cached), then
the steady-state cost of one call on a 1,024-element array.

Not the same work, said plainly: Numba starts from Python source (type
inference, its own IR, then LLVM through llvmlite); llvmplug starts from LLVM
IR that someone (TVM, say) already generated. The row shows what the run
path costs a compiler that already has IR.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._common import markdown_table, ms, summary, timed

KERNELS = Path(__file__).resolve().parent.parent / "examples" / "tvm_ffi_kernels.ll"
FLAGS = "-O3 -relocation-model=pic"
NUMBA_SOURCE = """
def scale(x, factor):
    for i in range(x.shape[0]):
        x[i] *= factor
"""


def run(quick: bool) -> dict[str, Any]:
    try:
        import numba
        import numpy as np
        import tvm_ffi_orcjit
    except ImportError as error:
        return {"unavailable": f"{error.name} is not installed (pip install '.[bench]')"}
    import llvmplug

    ir = KERNELS.read_text()
    samples = 5 if quick else 30
    x = np.ones(1024, dtype=np.float32)

    def plug_first_call() -> None:
        # A Plugin of its own and no cache: each sample compiles for real.
        module = tvm_ffi_orcjit.ExecutionSession().load_module(llvmplug.compile(ir, flags=FLAGS, cache=None))
        module.scale(x, 1.0)

    def numba_first_call() -> None:
        namespace: dict[str, Any] = {}
        exec(NUMBA_SOURCE, namespace)  # a new function object: Numba compiles it again
        numba.njit(namespace["scale"])(x, 1.0)

    plug_module = tvm_ffi_orcjit.ExecutionSession().load_module(llvmplug.compile(ir, flags=FLAGS))
    namespace: dict[str, Any] = {}
    exec(NUMBA_SOURCE, namespace)
    numba_scale = numba.njit(namespace["scale"])
    numba_scale(x, 1.0)
    calls = 200 if quick else 2000
    rows = {
        "llvmplug + tvm-ffi-orcjit: compile + load + first call": timed(plug_first_call, samples),
        "Numba @njit: compile + first call": timed(numba_first_call, samples),
        "llvmplug + tvm-ffi-orcjit: one call": timed(lambda: plug_module.scale(x, 1.0), 20, calls),
        "Numba @njit: one call": timed(lambda: numba_scale(x, 1.0), 20, calls),
    }
    return {"numba": numba.__version__, "orcjit": getattr(tvm_ffi_orcjit, "__version__", "?"),
            "rows": {name: summary(values) for name, values in rows.items()}}


def targets(result: dict[str, Any]) -> list[dict[str, Any]]:
    if "rows" not in result:
        return []
    rows = result["rows"]
    first = rows["Numba @njit: compile + first call"]["median"] / \
        rows["llvmplug + tvm-ffi-orcjit: compile + load + first call"]["median"]
    call = rows["Numba @njit: one call"]["median"] / rows["llvmplug + tvm-ffi-orcjit: one call"]["median"]
    return [{"target": "IR to running code: Numba ÷ llvmplug + tvm-ffi-orcjit (no numeric target)",
             "measured": f"first call {first:.1f}x, steady-state call {call:.2f}x", "met": None,
             "note": "Numba starts from Python source, llvmplug from IR: not the same work"}]


def markdown(result: dict[str, Any]) -> str:
    if "rows" not in result:
        return f"## From IR to running code\n\nUnavailable: {result['unavailable']}\n"
    table = markdown_table(["path", "median", "p95"], [[name, ms(row["median"]), ms(row["p95"])]
                                                       for name, row in result["rows"].items()])
    return "\n".join([
        "## From IR to running code", "",
        f"`scale(x, factor)` over a 1,024-element float32 NumPy array, in place: llvmplug compiles "
        f"`examples/tvm_ffi_kernels.ll` (`{FLAGS}`) and tvm-ffi-orcjit {result['orcjit']} loads the object "
        f"from memory, against Numba {result['numba']} `@njit` of the same loop. Numba starts from Python "
        "source, llvmplug from LLVM IR: the first-call row is what running code costs a compiler that "
        "already has IR.", "", table, ""])
