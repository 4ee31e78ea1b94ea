"""Scoping holds for every option the safe policy allows.

Each allowed option is set, per call, to values other than its default (every
enum value, edge numbers, true/false); the next plain compile must give the
same bytes as a fresh copy. A backend's own options (picked by name prefix,
tests/support/option_values.py) are set while compiling for that backend (a small
kernel for the GPUs), and its next plain compile is compared with that
backend's bytes. The compiles run under process isolation with a
timeout so that a value which crashes or hangs LLVM fails this test instead
of the test run; tests/campaigns/sweep_options.py is the slower exploratory version (one
value per call) that found the options classified "unsafe".

To stay inside CI's budget the values are applied in batches (one value per
option per batch); a batch after which the plain compile differs is retried
flag by flag to name the culprit.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import llvmplug

from option_values import BACKENDS, HOST, backend, flag, module_for, values  # noqa: E402

MODULE = (Path(__file__).resolve().parent / "data" / "sweep.ll").read_text()
BATCH = 24
TIMEOUT = 10.0  # the slowest single value the exploratory sweep met took ~2 s


def accepted_values(plugin: llvmplug.Plugin) -> dict[str, list[list[str]]]:
    """Per backend (its triple, "" for the host), per allowed option, the flags
    its parser accepts (checked on unparsable input, so LLVM only applies and
    restores them)."""
    per_backend: dict[str, list[list[str]]] = {}
    for option in plugin.options():
        if option["class"] != "value":
            continue
        flags = []
        for value in values(option):
            line = flag(option, value)
            try:
                plugin.compile("not IR", flags=[line])
            except llvmplug.ParseError:
                flags.append(line)  # the value was applied, then the parse failed
            except (llvmplug.OptionError, llvmplug.TargetError, llvmplug.FatalError):
                pass  # a value the option (or the target, or a check while parsing) refuses
        per_backend.setdefault(backend(option["name"])[1], []).append(flags)
    return per_backend


def rounds(per_option: list[list[str]]) -> list[list[str]]:
    """Batches: round r holds the r-th accepted value of every option."""
    batches = []
    for r in range(max(map(len, per_option))):
        row = [flags[r] for flags in per_option if len(flags) > r]
        batches += [row[i : i + BATCH] for i in range(0, len(row), BATCH)]
    return batches


class Backend:
    """Compiles for one backend: its module, triple, output and flags."""

    def __init__(self, plugin: llvmplug.Plugin, triple: str) -> None:
        _, _, self.output, self.extra = next((b for b in BACKENDS if b[1] == triple), HOST)
        self.plugin, self.target = plugin, triple or None
        self.module = module_for(triple, MODULE)

    def compile(self, flags: list[str] = []) -> bytes:  # noqa: B006 - never mutated
        return self.plugin.compile(self.module, self.target, flags=[*self.extra, *flags],
                                   output=self.output, timeout=TIMEOUT)

    def run(self, flags: list[str]) -> str | None:
        """Compile with `flags`; the name of a crash or hang, else None."""
        try:
            self.compile(flags)
        except (llvmplug.WorkerCrashedError, llvmplug.CompileTimeoutError) as error:
            return f"{type(error).__name__}: {error}"
        except llvmplug.LLVMPlugError:
            pass  # a typed error is a fine outcome; scoping is what is checked
        return None


def test_every_allowed_option_is_restored_after_the_call():
    with llvmplug.Plugin(private=True) as checker:
        per_backend = accepted_values(checker)
    per_option = [flags for options in per_backend.values() for flags in options]
    assert sum(1 for flags in per_option if flags) > 0.9 * len(per_option)
    # Options of other backends are most of a few hundred: each is swept on
    # its own backend, not on the host.
    assert sum(len(options) for triple, options in per_backend.items() if triple) > 400
    with llvmplug.Plugin(isolation="process") as plugin:
        backends = {triple: Backend(plugin, triple) for triple in per_backend}
        # Every backend's plain compile before any caller's option reaches the copy.
        reference = {triple: b.compile() for triple, b in backends.items()}
        crashed, changed = [], []
        for triple, options in per_backend.items():
            target = backends[triple]
            for batch in rounds(options):
                # A batch can crash or hang where each of its values alone
                # does not (tuning values combine: a divisor of 0 that only
                # matters with a pass enabled). The policy cannot vet
                # combinations of 2,000 options; process isolation with a
                # timeout contains them. Retry such a batch flag by flag, so
                # scoping is still checked, and report the combination.
                failure = target.run(batch)
                if failure is not None:
                    warnings.warn(f"a combination of allowed values fails: {failure}: {batch}", stacklevel=1)
                if failure is None and target.compile() == reference[triple]:
                    continue
                for line in batch:
                    failure = target.run([line])
                    if failure is not None:
                        crashed.append(([line], triple, failure))
                    if target.compile() != reference[triple]:
                        changed.append((line, triple))
                        plugin.reload()
        assert changed == [], f"options that outlive the call: {changed}"
        assert crashed == [], f"allowed values that crash or hang LLVM on their own: {crashed}"


def test_first_use_latches_are_neutralised():
    # -regalloc is read once, by the first codegen of a copy, and kept as the
    # register allocator's default; the shim warms every copy with a default
    # compile first. Without that, -O0 would then fail ("Must use fast
    # register allocator") and -O2 would use the basic allocator.
    with llvmplug.Plugin(private=True) as fresh:
        reference = {level: fresh.compile(MODULE, flags=[level]) for level in ("-O0", "-O2")}
    with llvmplug.Plugin(private=True) as plugin:
        for _ in range(2):  # a fresh load, then a reload
            plugin.compile(MODULE, flags=["-O2", "-regalloc=basic"])
            assert {level: plugin.compile(MODULE, flags=[level]) for level in reference} == reference
            plugin.reload()


def test_no_allowed_option_latches_on_a_copys_first_compile():
    # What a copy sets up in its first compile, it may keep for its life,
    # from the options in force then (-regalloc's default, above). Each copy
    # latches LLVM's defaults when it starts (csrc/runtime/runtime.cpp); nothing else
    # may latch: a fresh copy whose first compile sets allowed values must
    # then compile as a fresh copy does. On the host, whose code paths (and
    # the target-independent ones) the warm-up compile of earlier designs ran;
    # each batch in a fresh child, retried flag by flag if the plain compile
    # after it differs.
    with llvmplug.Plugin(private=True) as checker:
        options = accepted_values(checker)[""]
    with llvmplug.Plugin(isolation="process") as plugin:
        host = Backend(plugin, "")
        reference = host.compile()
        latched = []
        for batch in rounds(options):
            plugin.reload()
            if host.run(batch) is None and host.compile() == reference:
                continue
            for line in batch:
                plugin.reload()
                # A value that crashes or hangs is test_every_allowed_option_is_restored_after_the_call's.
                if host.run([line]) is None and host.compile() != reference:
                    latched.append(line)
        assert latched == [], f"values that a copy's first compile keeps: {latched}"


def test_a_backend_does_not_change_another_backends_next_compile():
    # PowerPC lowering assigns the global -min-jump-table-entries (64) while
    # it compiles; without the shim restoring it after every call, x86's
    # switch lowering in the same copy changed from a jump table to compares.
    x86, ppc = "x86_64-unknown-linux-gnu", "powerpc64le-unknown-linux-gnu"
    with llvmplug.Plugin(private=True) as plugin:
        before = plugin.compile(MODULE, x86, flags=["-O2"])
        plugin.compile(MODULE, ppc, flags=["-O2"])
        assert plugin.compile(MODULE, x86, flags=["-O2"]) == before
        # A caller's own setting of the option still reaches the compile.
        assert plugin.compile(MODULE, x86, flags=["-O2", "-min-jump-table-entries=64"]) != before
