"""Exploratory sweep: every allowed option, every value, under process isolation.

Not collected by pytest (slow: minutes). For each value of each option the
safe policy allows, compile a module with it in a child process with a
timeout, then compile without it and compare with the bytes the same backend
gave before any option was set. A backend's own options (picked by name
prefix, tests/support/option_values.py) are swept while compiling FOR that backend
(a small kernel for the GPUs), the others on the host. Prints one JSON line
per finding: a crash, a hang, or a plain compile that changed.
With --explicit-defaults each option is set to its own default instead
(written out, which code that checks getNumOccurrences() treats differently).
Run: PYTHONPATH=. python tests/campaigns/sweep_options.py [-O0|-O2] [--backends-only] [--explicit-defaults]
     [--from=NAME] [> findings.jsonl]
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

import llvmplug

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
from option_values import BACKENDS, HOST, backend, explicit_default, flag, module_for, values  # noqa: E402

MODULE = (Path(__file__).resolve().parents[1] / "data" / "sweep.ll").read_text()
TIMEOUT = 10.0  # the slowest single value met so far took ~2 s
MEMORY = 4 << 30  # a value that exhausts memory is a finding, not an OOM of the machine


def main() -> None:
    args = sys.argv[1:]
    level = next((a for a in args if a.startswith("-O")), "-O2")
    backends_only = "--backends-only" in args
    choose = explicit_default if "--explicit-defaults" in args else values
    start = time.monotonic()
    with llvmplug.Plugin(isolation="process", memory_limit=MEMORY) as plugin:
        # Each backend's plain compile, before any option has been set.
        reference = {}
        for _, triple, output, extra in [*BACKENDS, HOST]:
            reference[triple] = plugin.compile(module_for(triple, MODULE), triple or None,
                                               flags=[level, *extra], output=output)
        options = [o for o in plugin.options() if o["class"] == "value"]
        if backends_only:
            options = [o for o in options if backend(o["name"]) is not HOST]
        first = next((a.split("=", 1)[1] for a in args if a.startswith("--from=")), "")
        options = [o for o in options if o["name"] >= first]  # resume an interrupted sweep
        tried: Counter[str] = Counter()
        for option in options:
            _, triple, output, extra = backend(option["name"])
            module = module_for(triple, MODULE)
            for value in choose(option):
                tried[triple or "host"] += 1
                line = flag(option, value)
                outcome = "ok"
                try:
                    plugin.compile(module, triple or None, flags=[level, *extra, line], output=output,
                                   timeout=TIMEOUT)
                except llvmplug.WorkerCrashedError as error:
                    outcome = f"crash: {error.signal or error.returncode}"
                except llvmplug.CompileTimeoutError:
                    outcome = "hang"
                except llvmplug.LLVMPlugError as error:
                    outcome = type(error).__name__
                    if outcome not in ("OptionError", "TargetError"):
                        outcome += ": " + str(error)[:200]
                try:
                    after = plugin.compile(module, triple or None, flags=[level, *extra], output=output,
                                           timeout=TIMEOUT)
                except llvmplug.LLVMPlugError as error:  # the plain compile itself fails or hangs
                    after = f"{type(error).__name__}: {str(error)[:200]}"
                    outcome += f"; next plain compile: {after}"
                changed = after != reference[triple]
                if changed or outcome.startswith(("crash", "hang", "FatalError", "InternalError")) or "next" in outcome:
                    print(json.dumps({"flag": line, "backend": triple or "host", "outcome": outcome,
                                      "changed_next": changed}), flush=True)
    print(json.dumps({"done": sum(tried.values()), "options": len(options), "per_backend": tried,
                      "seconds": round(time.monotonic() - start)}), flush=True)


if __name__ == "__main__":
    main()
