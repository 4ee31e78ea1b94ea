"""Non-default values for every LLVM option, for the scoping sweep.

Shared by tests/test_scoping_sweep.py (the committed test) and
tests/sweep_options.py (the exploratory sweep under process isolation).
Deterministic: the same options give the same values in the same order.
"""

from __future__ import annotations

from typing import Any

# Edge values by the type LLVM's help prints (see csrc/option_policy.h).
EDGES = {
    "bool": ["true", "false"],
    "int": ["0", "1", "-1", "2", "1000000", "2147483647"],
    "long": ["0", "1", "-1", "1000000", "9223372036854775807"],
    "N": ["0", "1", "-1", "1000000"],
    "uint": ["0", "1", "2", "1000000", "4294967295"],
    "ulong": ["0", "1", "1000000", "18446744073709551615"],
    "number": ["0", "1", "-1", "0.5", "1e9"],
    "x": ["0", "1", "-1", "1e9"],
    "ElementCount": ["0", "1", "4", "16"],
    "seed": ["0", "1", "12345"],
    "char": ["a"],
}
# Strings: names the option may accept, then a name it will not know.
STRINGS = {
    "mcpu": ["x86-64-v3", "generic", "znver3"],
    "mtune": ["znver3", "generic"],
    "mattr": ["+avx2", "-sse4.2", "+avx512f"],
    "march": ["x86"],
    "start-after": ["machine-sink"],
    "stop-after": ["machine-sink"],
    "start-before": ["machine-sink"],
    "stop-before": ["machine-sink"],
}


def values(option: dict[str, Any]) -> list[str]:
    """Values to set `option` to, other than its current default."""
    kind = option["type"]
    if kind == "enum":
        candidates = [v for v in option["values"] if v]
    else:
        candidates = STRINGS.get(option["name"]) or EDGES.get(kind) or ["x", "llvmplug"]
    default = option["default"] if option["default"] is not None else option["value"]
    if kind == "bool":
        default = {"0": "false", "1": "true"}.get(str(default), default)
    return [v for v in candidates if v != default] or candidates[:1]


def flag(option: dict[str, Any], value: str) -> str:
    return f"-{option['name']}={value}"
