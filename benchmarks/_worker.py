"""A minimal compile worker: the "fresh Python process that imports llvmplug" baseline.

Used for the spawn-a-worker reset cost, and for the process-isolated rows
when the installed llvmplug has no ``Plugin(isolation="process")``. Run it by
path (``python .../benchmarks/_worker.py``), never with ``-m`` from the
checkout, so that ``import llvmplug`` finds the installed package.

Protocol: pickles over stdin/stdout. The worker sends ``("ready", pid)``
once llvmplug is loaded, then answers each ``(module_bytes, flags)`` with
``("ok", object_bytes)`` or ``("error", text)``; EOF ends it.
"""

from __future__ import annotations

import os
import pickle
import sys


def main() -> None:
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything LLVM prints must not corrupt the reply stream
    import llvmplug

    plugin = llvmplug.Plugin()
    pickle.dump(("ready", os.getpid()), replies)
    replies.flush()
    while True:
        try:
            module, flags = pickle.load(requests)
        except EOFError:
            break
        try:
            reply = ("ok", plugin.compile(module, flags=flags))
        except llvmplug.LLVMPlugError as error:
            reply = ("error", f"{type(error).__name__}: {error}")
        pickle.dump(reply, replies)
        replies.flush()
    plugin.unload()


if __name__ == "__main__":
    sys.exit(main())
