"""The reviewed option and pass rows live in csrc/policy/*.def (issue 29 section 3), one row and one reason each.

These tests read the .def files as a reviewer does and hold them to what the shim says: every row has a
reason, no name is reviewed twice (the first row would win unseen), and what `Plugin.options()` and
`Plugin.passes()` report for a reviewed name is that row's class and reason, so the .def files are the
tables the shim uses, not a copy beside them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import llvmplug

POLICY = Path(__file__).resolve().parents[1] / "csrc" / "policy"
STRING = r'"(?:[^"\\]|\\.)*"'
ROW = re.compile(r"^(REVIEWED_\w+)\((.*)\)$", re.MULTILINE)
DEFINE = re.compile(rf"^#define (PASS_\w+) ({STRING})$", re.MULTILINE)


def _literal(text: str) -> str:
    return re.sub(r"\\(.)", r"\1", text[1:-1])


def _rows(name: str) -> dict[str, list[tuple[str, list[str], str]]]:
    """{macro: [(name, middle fields, reason)]}: each row's quoted name, its other fields, its reason text."""
    text = (POLICY / name).read_text()
    shared = {macro: _literal(value) for macro, value in DEFINE.findall(text)}
    rows: dict[str, list[tuple[str, list[str], str]]] = {}
    for macro, arguments in ROW.findall(text):
        match = re.fullmatch(rf"({STRING}), (.*?),? ?({STRING}|PASS_\w+)", arguments)
        assert match, f"{name}: a row not of the form NAME, ..., REASON: {macro}({arguments})"
        row_name, middle, reason = match.groups()
        fields = [field.strip() for field in middle.split(",") if field.strip()]
        reason = shared[reason] if reason in shared else _literal(reason)
        rows.setdefault(macro, []).append((_literal(row_name), fields, reason))
    return rows


OPTIONS = _rows("option_policy.def")
PASSES = _rows("pass_policy.def")


@pytest.fixture(scope="module")
def plugin():
    with llvmplug.Plugin() as plugin:
        yield plugin


@pytest.mark.parametrize("rows", [OPTIONS, PASSES], ids=["options", "passes"])
def test_every_row_has_a_reason_and_its_own_name(rows):
    assert rows, "no rows read: the .def layout changed under this test"
    for macro, entries in rows.items():
        names = [name for name, _, _ in entries]
        assert len(names) == len(set(names)), f"{macro}: a name reviewed twice"
        assert all(name and reason.strip() for name, _, reason in entries), f"{macro}: a row without a reason"


def test_the_shim_reports_the_reviewed_option_rows(plugin):
    listed = {option["name"]: option for option in plugin.options()}
    rows = OPTIONS["REVIEWED_OPTION"] + [
        (name, ["Value"], reason) for name, _, reason in OPTIONS["REVIEWED_OPTION_RANGE"]
    ]
    checked = 0
    for name, fields, reason in rows:
        if name not in listed:  # a backend's option in a build without that backend
            continue
        assert (listed[name]["class"], listed[name]["reason"]) == (fields[0].lower(), reason), name
        checked += 1
    assert checked > len(rows) // 2


def test_the_shim_reports_the_reviewed_pass_rows(plugin):
    listed = {entry["name"]: entry for entry in plugin.passes()}
    for name, fields, reason in PASSES["REVIEWED_PASS"]:
        if name in listed:
            assert (listed[name]["class"], listed[name]["reason"]) == (fields[0].lower(), reason), name
    parameters = {
        f"{entry['name']}:{parameter['name']}": parameter
        for entry in listed.values()
        for parameter in entry["parameters"]
    }
    for name, fields, reason in PASSES["REVIEWED_PASS_PARAMETER"]:
        assert (parameters[name]["class"], parameters[name]["reason"]) == (fields[0].lower(), reason), name
    for macro in ("REVIEWED_PASS_NUMBER", "REVIEWED_PASS_NUMBER_INDEXED"):
        for name, fields, reason in PASSES[macro]:
            parameter = parameters[name]
            assert parameter["range"] == [float(fields[1]), float(fields[2])], name
            if macro.endswith("INDEXED"):
                assert parameter["index_range"] == [float(fields[4]), float(fields[5])], name
            assert parameter["reason"].startswith(reason), name
