"""Compile LLVM IR with llvmplug, link it with the system C compiler, and call it.

Run: python examples/quickstart.py
"""

import ctypes
import subprocess
import tempfile
from pathlib import Path

import llvmplug

IR = """
define i64 @triangle(i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %acc = phi i64 [ 0, %entry ], [ %acc.next, %loop ]
  %acc.next = add i64 %acc, %i
  %next = add i64 %i, 1
  %done = icmp uge i64 %next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i64 %acc.next
}
"""

info = llvmplug.info()
print(f"LLVM {info['llvm_version']} for {info['host_triple']} ({info['host_cpu']})")

# -O3 and a position-independent object, as for any shared library.
obj = llvmplug.compile(IR, flags="-O3 -relocation-model=pic")
print(f"object file: {len(obj)} bytes")

# The optimiser replaced the loop with a closed form:
print(llvmplug.compile(IR, flags="-O3", output="ll").decode().split("define")[1].split("}")[0])

# Options apply to one call only:
print(llvmplug.compile(IR, flags="-x86-asm-syntax=intel", output="asm").decode().split()[0])
print(llvmplug.compile(IR, output="asm").decode().split()[0])

# Errors are typed and say what was wrong:
try:
    llvmplug.compile(IR, flags="-unroll-max-cnt=4")
except llvmplug.OptionError as error:
    print(f"OptionError: {error}")

with tempfile.TemporaryDirectory() as tmp:
    (Path(tmp) / "triangle.o").write_bytes(obj)
    subprocess.run(["cc", "-shared", "-o", f"{tmp}/libtriangle.so", f"{tmp}/triangle.o"], check=True)
    lib = ctypes.CDLL(f"{tmp}/libtriangle.so")
    lib.triangle.restype = ctypes.c_int64
    lib.triangle.argtypes = [ctypes.c_int64]
    print("triangle(100) =", lib.triangle(100))
