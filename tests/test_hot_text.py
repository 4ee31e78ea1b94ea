"""The functions a fresh copy runs lie together at the head of its text (cmake/LLVMPlugHotText.cmake).

A child loads a private copy, compiles a small module for the host, and reads
which pages of that copy's text its page tables map (/proc/self/pagemap: a
process may read the present bits of its own pages). With LLVM's functions
where the linker puts them by default, those pages are spread over the whole
of .text (about 70 MiB); with tools/hot-text's list placed first, nearly all
of them lie in its first quarter. A stale list (a new LLVM renamed the
functions) or a linker that did not take the script spreads them again.
Counted in pages, not timed; the share does not depend on how many pages
the kernel maps around each fault.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

elftools = pytest.importorskip("elftools", reason="pyelftools is in the test extra")
from elftools.elf.elffile import ELFFile  # noqa: E402

from llvmplug import _loader  # noqa: E402

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="GNU ld's layout: Linux only")

MODULE = Path(__file__).resolve().parent / "data" / "loop.ll"

# Runs in a fresh interpreter: the offsets (from the copy's base) of the
# pages of the copy's executable mapping that are mapped after a load and one
# -O2 compile.
CHILD = r"""
import json, struct, sys
import llvmplug
plugin = llvmplug.Plugin(path=sys.argv[2], private=True)
plugin.compile(open(sys.argv[1]).read(), flags="-O2")
copy = plugin._backend._owned["library"]  # noqa: SLF001 - the test reads this copy's mappings
base, text = None, None
for line in open("/proc/self/maps"):
    fields = line.split(None, 5)
    if len(fields) < 6 or not fields[5].startswith(str(copy.path)):
        continue
    low, high = (int(x, 16) for x in fields[0].split("-"))
    if int(fields[2], 16) == 0:
        base = low
    if fields[1] == "r-xp":
        text = low, high
with open("/proc/self/pagemap", "rb") as pagemap:
    pagemap.seek(text[0] // 4096 * 8)
    entries = pagemap.read((text[1] - text[0]) // 4096 * 8)
present = [text[0] - base + index * 4096 for index in range(len(entries) // 8)
           if struct.unpack_from("<Q", entries, index * 8)[0] >> 63]
print(json.dumps(present))
"""


def mapped_text_pages(library: Path) -> tuple[list[int], tuple[int, int]]:
    """The mapped pages' offsets after a load and a compile, and .text's range."""
    with open(library, "rb") as stream:
        text = ELFFile(stream).get_section_by_name(".text")
        bounds = text["sh_addr"], text["sh_addr"] + text["sh_size"]
    with tempfile.TemporaryDirectory() as scratch:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(MODULE), str(library)],
            capture_output=True,
            text=True,
            cwd=scratch,
            timeout=120,
        )
    assert done.returncode == 0, done.stderr
    return [page for page in json.loads(done.stdout) if bounds[0] <= page < bounds[1]], bounds


def test_a_load_and_a_compile_map_the_head_of_the_text():
    pages, (start, end) = mapped_text_pages(_loader.library_path())
    head = start + (end - start) // 4
    share = sum(page < head for page in pages) / len(pages)
    # Measured: 0.95 with this LLVM's list; 0.28 without it (LLVM's
    # functions in the linker's order, evenly spread).
    assert share > 0.8, (
        f"{share:.0%} of the {len(pages)} text pages a load and a compile map lie in the first quarter of .text: "
        "the hot list is stale (rerun tools/hot-text, docs/building.md) or the linker did not take "
        "cmake/LLVMPlugHotText.cmake's script"
    )
