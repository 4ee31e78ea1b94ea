"""From IR to running code with no system toolchain: llvmplug compiles, tvm-ffi-orcjit loads.

llvmplug returns an object file in memory; apache-tvm-ffi-orcjit (its own
LLVM 23, hidden like llvmplug's) links it into this process and hands back
TVM-FFI functions. Two LLVMs, one process, no linker, no files written.

    pip install "llvmplug[run]"     # apache-tvm-ffi-orcjit and NumPy
    python examples/run_with_orcjit.py
"""

from pathlib import Path

import numpy as np
import tvm_ffi_orcjit

import llvmplug

HERE = Path(__file__).resolve().parent


def main() -> None:
    ir = (HERE / "tvm_ffi_kernels.ll").read_text()
    # Position-independent code, as a loader that places code anywhere wants.
    obj = llvmplug.compile(ir, flags="-O3 -relocation-model=pic")
    module = tvm_ffi_orcjit.ExecutionSession().load_module(obj)

    print("add_one(41) =", module.add_one(41))

    x = np.arange(8, dtype=np.float32)
    module.scale(x, 0.5)  # NumPy array in, through DLPack; scaled in place
    print("scale(arange(8), 0.5) =", x)
    assert module.add_one(41) == 42 and np.array_equal(x, np.arange(8, dtype=np.float32) * 0.5)

    try:
        module.scale(np.zeros((2, 2), dtype=np.float32), 2.0)
    except TypeError as error:  # raised by the kernel through TVM-FFI's error API
        print("scale(2-D array) raised TypeError:", str(error).strip())


if __name__ == "__main__":
    main()
