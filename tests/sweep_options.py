"""Exploratory sweep: every allowed option, every value, under process isolation.

Not collected by pytest (slow: minutes). For each value of each option the
safe policy allows, compile tests/data/sweep.ll with it in a child process
with a timeout, then compile without it and compare with a fresh copy's
bytes. Prints one JSON line per finding: a crash, a hang, or a plain compile
that changed. Run: PYTHONPATH=. python tests/sweep_options.py [-O0|-O2] [> findings.jsonl]
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import llvmplug

sys.path.insert(0, str(Path(__file__).resolve().parent))
from option_values import flag, values  # noqa: E402

MODULE = (Path(__file__).resolve().parent / "data" / "sweep.ll").read_text()
TIMEOUT = 20.0


def main() -> None:
    level = sys.argv[1] if len(sys.argv) > 1 else "-O2"
    start = time.monotonic()
    with llvmplug.Plugin(isolation="process") as plugin:
        reference = plugin.compile(MODULE, flags=[level])
        options = [o for o in plugin.options() if o["class"] == "value"]
        tried = 0
        for option in options:
            for value in values(option):
                tried += 1
                line = flag(option, value)
                outcome = "ok"
                try:
                    plugin.compile(MODULE, flags=[level, line], timeout=TIMEOUT)
                except llvmplug.WorkerCrashedError as error:
                    outcome = f"crash: {error.signal or error.returncode}"
                except llvmplug.CompileTimeoutError:
                    outcome = "hang"
                except llvmplug.LLVMPlugError as error:
                    outcome = type(error).__name__
                    if outcome not in ("OptionError", "TargetError"):
                        outcome += ": " + str(error)[:200]
                after = plugin.compile(MODULE, flags=[level], timeout=TIMEOUT)
                changed = after != reference
                if changed or outcome.startswith(("crash", "hang", "FatalError", "InternalError")):
                    print(json.dumps({"flag": line, "outcome": outcome, "changed_next": changed}), flush=True)
    print(json.dumps({"done": tried, "options": len(options), "seconds": round(time.monotonic() - start)}), flush=True)


if __name__ == "__main__":
    main()
