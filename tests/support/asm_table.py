"""csrc/policy/asm_directives.def read as data, for the tests and the asm campaign (tests/campaigns/campaign_asm.py).

Only what the table says (names, levels, scopes, rules); which row applies on
a target is the shim's business (csrc/policy/asm_directives.cpp), and the tests ask
the shim.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

DEF = Path(__file__).resolve().parents[2] / "csrc" / "policy" / "asm_directives.def"

ROW = re.compile(r'^ASM_(GENERIC|PLATFORM|TARGET)\("(\.[^"]+)",\s*(?:([^,]+),\s*)?(\w+),', re.M)


@dataclass(frozen=True)
class Row:
    name: str
    level: str  # GENERIC, PLATFORM or TARGET
    scope: frozenset[str]  # formats or architectures (asmscope names); empty for generic rows
    rule: str


def rows() -> list[Row]:
    text = DEF.read_text()
    macros = dict(re.findall(r"^#define (ASM_\w+_TARGETS) (.+)$", text, re.M))
    found = []
    for level, name, scope, rule in ROW.findall(text):
        scope = macros.get(scope.strip(), scope) if scope else ""
        found.append(Row(name, level, frozenset(part.strip() for part in scope.split("|") if part.strip()), rule))
    return found
