"""Every real-world module of the corpus compiles, to objects and back to IR."""

from __future__ import annotations

import re
from pathlib import Path

import llvmplug

VENDORED = Path(__file__).resolve().parent / "data" / "corpus"


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


def test_vendored_corpus_is_complete_and_documented():
    # SOURCE.md gives each vendored file's provenance: no file without a row,
    # no row without its file, and the sizes it states are the files' own.
    rows = re.findall(r"^\| (\w+\.ll) \| (\d+) \|", (VENDORED / "SOURCE.md").read_text(), flags=re.M)
    assert {name: int(size) for name, size in rows} == {p.name: p.stat().st_size for p in VENDORED.glob("*.ll")}
    assert len(rows) == 40
