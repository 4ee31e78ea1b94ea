"""csrc/llvm_bugs/README.md indexes every known LLVM 23.1.1 crash (issue 29 section 3).

Every crasher file is named by exactly one row, in the section its header's
``expect`` says (guarded, stripped, or left to process isolation); every file a
row names exists; every guard backend_guards.cpp runs has a row and every row
names a function of the code; every row says which LLVM release fixes it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BUGS = ROOT / "csrc" / "llvm_bugs"
DATA = ROOT / "tests" / "data"
FIXED = re.compile(r"unfixed in 23\.1\.1|fixed in LLVM \d+\.\d+(\.\d+)?")

# The README's sections: their heading's start, the folder their files are in, and what the
# files' "expect" header (tests/test_backend_crashers.py) must say.
SECTIONS = {
    "Guards": ("backend_crashers", re.compile(r"guarded")),
    "Debug info": ("backend_crashers", re.compile(r"stripped")),
    "Known and not guarded": ("backend_crashers", re.compile(r"timeout|(flaky )?crash:SIG[A-Z]+")),
    "Not here: assembler": ("asm_crashers", None),
}


def _rows() -> dict[str, list[list[str]]]:
    """The README's table rows (their cells), by section."""
    rows: dict[str, list[list[str]]] = {}
    section = None
    for line in (BUGS / "README.md").read_text().splitlines():
        if line.startswith("## "):
            section = next((name for name in SECTIONS if line[3:].startswith(name)), line)
            rows.setdefault(section, [])
        elif line.startswith("|") and section and not set(line) <= set("|-") and not line.startswith("| guard")\
                and not line.startswith("| rule") and not line.startswith("| LLVM behaviour"):
            rows[section].append([cell.strip() for cell in line.strip("|").split("|")])
    return rows


def _expect(path: Path) -> str:
    match = re.search(r"^; expect: (.*)$", path.read_text(), re.MULTILINE)
    return match[1].strip() if match else ""


def test_every_section_has_rows():
    rows = _rows()
    assert set(rows) == set(SECTIONS), f"sections: {sorted(rows)}"
    assert all(rows[name] for name in SECTIONS)


@pytest.mark.parametrize("section", SECTIONS)
def test_rows_name_existing_files_in_their_section(section):
    folder, expect = SECTIONS[section]
    for cells in _rows()[section]:
        files = re.findall(r"`([\w.-]+\.ll)`", cells[-2])
        assert files, f"a row names no crasher file: {cells}"
        assert FIXED.fullmatch(cells[-1]), f"say which release fixes it (or 'unfixed in 23.1.1'): {cells}"
        for name in files:
            path = DATA / folder / name
            assert path.is_file(), f"{section}: no {path.relative_to(ROOT)}"
            if expect:
                assert expect.fullmatch(_expect(path)), f"{name} says expect: {_expect(path)}, not for '{section}'"


def test_every_crasher_is_indexed_once():
    named = [(SECTIONS[section][0], name) for section, rows in _rows().items() if section in SECTIONS
             for cells in rows for name in re.findall(r"`([\w.-]+\.ll)`", cells[-2])]
    assert len(named) == len(set(named)), "a crasher named twice"
    present = {(folder, path.name) for folder in ("backend_crashers", "asm_crashers")
               for path in (DATA / folder).glob("*.ll")}
    assert present - set(named) == set(), "crashers csrc/llvm_bugs/README.md does not index"


def test_every_guard_has_a_row():
    source = (BUGS / "backend_guards.cpp").read_text()
    defined = set(re.findall(r"^void (\w+)\(", source, re.MULTILINE))
    body = source[source.index("void refuseKnownBackendCrashes("):]
    run = {name for name in re.findall(r"\b(\w+)\(", body) if name in defined} - {"refuseKnownBackendCrashes"}
    assert len(run) >= 10, run
    indexed = {re.findall(r"`(\w+)`", cells[0])[0] for cells in _rows()["Guards"]}
    assert run == indexed, f"guards without a row: {run - indexed}; rows of no guard: {indexed - run}"


def test_every_stripping_rule_names_a_check_of_the_code():
    source = (BUGS / "debuginfo_writers.cpp").read_text()
    for cells in _rows()["Debug info"]:
        names = re.findall(r"`(\w+)`", cells[0])
        assert names, f"name the check: {cells}"
        for name in names:
            assert re.search(rf"\b{name}\(", source), f"debuginfo_writers.cpp has no {name}"
