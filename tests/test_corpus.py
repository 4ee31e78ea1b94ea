"""Every real-world module of the shared corpus compiles, to objects and back to IR."""

from __future__ import annotations

import llvmplug


def test_every_corpus_module_compiles(corpus_files):
    failures = {}
    for path in corpus_files:
        ir = path.read_text()
        try:
            obj = llvmplug.compile(ir)
            assert obj[:4] == b"\x7fELF"
            # The optimised module round-trips through bitcode.
            bitcode = llvmplug.compile(ir, output="bc")
            assert llvmplug.compile(bitcode, flags="-passes=")[:4] == b"\x7fELF"
        except llvmplug.LLVMPlugError as error:
            failures[path.name] = str(error)[:200]
    assert not failures, failures
    assert len(corpus_files) >= 90
