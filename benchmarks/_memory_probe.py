"""Measure RSS in a fresh interpreter, so nothing else the suite loaded is counted.

Run by path with a JSON argument: {"what": "llvmplug"|"llvmlite", "module": IR,
"instances": N, "cycles": N}. Prints one JSON object.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import rss_bytes  # noqa: E402 - after the path set-up above


def llvmplug_probe(module: str, instances: int, cycles: int) -> dict:
    import llvmplug

    base = rss_bytes()
    loaded, after = [], []
    for _ in range(instances):
        plugin = llvmplug.Plugin(private=True)
        plugin.compile(module)
        loaded.append(plugin)
        after.append(rss_bytes())
    for plugin in loaded:
        plugin.unload()
    after_unload = rss_bytes()

    curves = {}
    for name, plugin in (("shared", llvmplug.Plugin()), ("private", llvmplug.Plugin(private=True))):
        curve = []
        for _ in range(cycles):
            plugin.compile(module)
            plugin.reload()
            curve.append(rss_bytes())
        plugin.unload()
        curves[name] = curve
    return {"base": base, "after_each_instance": after, "after_unload": after_unload, "reload_curves": curves}


def llvmlite_probe(module: str) -> dict:
    base = rss_bytes()
    import llvmlite.binding as llvm

    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    machine = llvm.Target.from_default_triple().create_target_machine(opt=2)
    machine.emit_object(llvm.parse_assembly(module))
    return {"base": base, "loaded": rss_bytes()}


def main() -> None:
    request = json.loads(sys.argv[1])
    if request["what"] == "llvmplug":
        result = llvmplug_probe(request["module"], request["instances"], request["cycles"])
    else:
        result = llvmlite_probe(request["module"])
    print(json.dumps(result))


if __name__ == "__main__":
    main()
