"""Plugin: one copy of LLVM, in this process or in a child process, with per-call, sticky and reset options."""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

from . import _args, _cached, _loader, _store, errors
from . import progress as _progress
from . import timings as _timings
from ._args import OUTPUTS, Flags, Module
from ._backend_local import LocalBackend
from ._store import Cache
from .progress import Progress
from .timings import Timings

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any

    from ._backend import Backend

__all__ = ["OUTPUTS", "Flags", "Module", "Plugin"]

# What target_info said about each triple a compile named (see Plugin._warn_about_triple).
_unknown_components: dict[str, tuple[str, ...]] = {}


class Plugin:
    """One copy of LLVM: the llvmplug shim, loaded in this process or in a child.

    Args:
        isolation: ``"none"`` (default): the shim is loaded in this process.
            ``"process"``: a child process holds it; a crash of LLVM (a
            signal, the OOM killer) raises :class:`WorkerCrashedError`,
            ``compile(..., timeout=...)`` works, and the next call starts a
            fresh child.
        private: load a private copy of the shim, whose LLVM options and
            state are independent of every other copy. Without it, the
            package's own file is loaded if no other Plugin holds it (the
            default Plugin behind :func:`llvmplug.compile` is one), else a
            private copy is loaded anyway (see :attr:`loaded_path`): one
            loaded file is one LLVM, and two Plugins sharing it would share
            sticky options and resets.
        path: the shim to load (absolute); default: the package's.
        policy: ``"safe"`` (default): a compile accepts only options that
            are values of the compile; anything that loads code, reads or
            writes files, prints, exits or keeps debugging state past the
            call is an :class:`OptionError`. ``"all"``: every LLVM option, as
            ``llc`` takes it; for trusted callers only (an option can then
            load a library or write files). ``options=`` is its old name,
            still accepted with a DeprecationWarning.
        reload_after_fatal: replace a poisoned copy before the next call
            (see :attr:`poisoned`); ``False`` keeps using it until
            :meth:`reload`.
        memory_limit: bytes of address space for the child (``"process"``
            on Linux; RLIMIT_AS): a runaway allocation becomes
            :class:`InternalError` or :class:`WorkerCrashedError` instead of
            meeting the OOM killer. Leave about 300 MB for the interpreter
            and the shim; 1 GiB or more is sensible.
        standby: keep a second, warmed copy ready (in process it needs
            ``private=True``; with ``"process"`` it is a second child):
            :meth:`reload` (and the replacement of a poisoned copy or of a
            crashed child) swaps it in and retires the old one on a
            background thread, so a reset costs a swap instead of a load.
            Costs the memory of one more copy: in process, the pages of
            the shim it touched (resident) and, on Linux, its memfd (the
            whole shim, in shared memory); docs/benchmarks.md has both.
        cache: an :class:`llvmplug.Cache` that every compile of this Plugin
            uses unless a call passes its own ``cache=`` (``None`` there
            turns it off for that call).
        sandbox: ``True`` (default): on Linux the kernel confines LLVM
            beneath the policy. In process, LLVM runs on threads of the
            shim's that Landlock and seccomp confine (no file read or
            written but /proc/cpuinfo, nothing executed, no socket); with
            ``"process"`` the whole child is confined the same way. An
            option or asm directive that reads or writes a file, loads a
            plugin or runs a program then fails with an error of the call,
            under ``policy="all"`` too. ``False``: no kernel confinement,
            for trusted callers whose options must reach files (e.g.
            ``-load-pass-plugin``, ``-stack-usage-file``). ``info()["sandbox"]``
            says which layers are active, or why only the policy is.

    A Plugin is safe to use from several threads. :meth:`unload` and
    :meth:`reload` wait for calls in progress. With ``isolation="process"``,
    calls on one Plugin run one at a time; use :class:`llvmplug.Pool` for
    parallel children.

    After ``os.fork()`` the child never touches a copy it inherited (a thread
    that does not exist there may hold its locks): an in-process Plugin
    loads a private copy of its own before its next call, with the same
    sticky options, and a process Plugin starts a child of its own.
    """

    def __init__(
        self,
        *,
        isolation: str = "none",
        private: bool = False,
        path: str | os.PathLike[str] | None = None,
        policy: str = "safe",
        reload_after_fatal: bool = True,
        memory_limit: int | None = None,
        standby: bool = False,
        cache: Cache | None = None,
        sandbox: bool = True,
        options: Any = _args.UNSET,
    ) -> None:
        if options is not _args.UNSET:
            # Renamed: Plugin.options() is the method that lists LLVM's options.
            warnings.warn(
                'Plugin(options=...) is deprecated; use Plugin(policy=...) (the same values, "safe" or "all")',
                DeprecationWarning,
                stacklevel=2,
            )
            if policy != "safe":
                raise errors.ArgumentError("give the option policy once: policy= (options= is its old name)")
            policy = _args.choice(options, "options", _args.POLICIES)
        self._cache = _store.check_cache(cache)
        self._isolation = _args.choice(isolation, "isolation", _args.ISOLATIONS)
        self._private = _args.boolean(private, "private")
        _args.boolean(reload_after_fatal, "reload_after_fatal")
        self._policy = _args.choice(policy, "policy", _args.POLICIES)
        _args.boolean(standby, "standby")
        _args.boolean(sandbox, "sandbox")
        limit = _args.memory_limit(memory_limit, self._isolation)
        self._source = _args.shim_path(path)
        if standby and self._isolation == "none" and not private:
            raise errors.ArgumentError(
                "standby needs private=True in process: the standby is a second copy "
                "loaded in this process, and only a private copy can be loaded twice"
            )
        self._backend: Backend
        if self._isolation == "process":
            # Imported on first use: a process that never isolates does not pay for
            # subprocess and the child's protocol on `import llvmplug`.
            from ._backend_process import ProcessBackend

            self._backend = ProcessBackend(
                private=private,
                path=self._source,
                policy=self._policy,
                reload_after_fatal=reload_after_fatal,
                memory_limit=limit,
                standby=standby,
                sandbox=sandbox,
            )
        else:
            self._backend = LocalBackend(
                private=private,
                path=self._source,
                policy=self._policy,
                reload_after_fatal=reload_after_fatal,
                standby=standby,
                sandbox=sandbox,
            )

    # -- lifecycle ---------------------------------------------------------

    def unload(self) -> None:
        """Release this copy of LLVM (shut it down and unmap it, or stop the child). Idempotent.

        Waits for calls in progress on other threads. Afterwards every method
        but :meth:`reload` raises :class:`PluginUnloadedError`.
        """
        self._backend.unload()

    close = unload

    def reload(self) -> None:
        """A fresh copy of LLVM: every option returns to its default, sticky options are dropped.

        With ``standby=True`` the warmed standby is swapped in and the old
        copy retired on a background thread.
        """
        self._backend.reload()

    def __enter__(self) -> Plugin:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.unload()

    def __repr__(self) -> str:
        state = "loaded" if self.loaded else "unloaded"
        kind = "private " if self._private else ""
        pid = f" pid {self.worker_pid}" if self.worker_pid is not None else ""
        return f"<llvmplug.Plugin isolation={self._isolation!r} {kind}{state}{pid} {self.path}>"

    # -- properties ----------------------------------------------------------

    @property
    def isolation(self) -> str:
        """``"none"`` or ``"process"``."""
        return self._isolation

    @property
    def policy(self) -> str:
        """``"safe"`` or ``"all"``: which LLVM options this Plugin accepts."""
        return self._policy

    options_policy = policy  # its name before Plugin(policy=...)

    @property
    def sticky_options(self) -> tuple[str, ...]:
        """The flag lines given to :meth:`set_options` that are in force, oldest first."""
        return self._backend.sticky_options

    @property
    def cache(self) -> Cache | None:
        """The :class:`llvmplug.Cache` every compile of this Plugin uses unless told otherwise."""
        return self._cache

    @property
    def loaded(self) -> bool:
        """Whether the Plugin serves calls (False after :meth:`unload`, until :meth:`reload`)."""
        return self._backend.loaded

    @property
    def poisoned(self) -> bool:
        """Whether the copy that would serve the next call is suspect.

        True from a :class:`FatalError`, :class:`CodegenError` or
        :class:`InternalError` (each unwound through LLVM frames that ran no
        destructors, so that copy's state is not trustworthy) until the copy
        is replaced: before the next call with ``reload_after_fatal=True``
        (the default), by :meth:`reload` otherwise. The same in both
        isolations: with ``"process"`` it is the child's copy that is suspect
        (the child replaces it, not itself); a crashed child is not poisoned,
        it is gone, and the next call starts a fresh one.
        """
        return self._backend.poisoned

    @property
    def private(self) -> bool:
        """Whether this Plugin was asked for a private copy of the shim."""
        return self._private

    @property
    def path(self) -> Path:
        """The file this Plugin loads (for a private Plugin, the original)."""
        return self._source if self._source is not None else _loader.library_path()

    @property
    def loaded_path(self) -> Path | None:
        """The file actually mapped (a private copy's memfd or temporary file), or None."""
        return self._backend.loaded_path

    @property
    def worker_pid(self) -> int | None:
        """The child's process id with ``isolation="process"`` (None before one starts); None in process."""
        return self._backend.worker_pid

    # -- calls -------------------------------------------------------------

    def compile(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> bytes:
        """Compile LLVM IR (text or bitcode) and return the output bytes.

        Args:
            module: LLVM IR text (``str`` or ``bytes``) or bitcode (``bytes``,
                raw or wrapped; detected by its magic number).
            target: a target triple; ``None`` uses the module's own triple, or
                the host's when the module has none.
            flags: llc-style flags, as one string or a sequence of flags:
                ``-O0``..``-O3`` (default ``-O2``), ``-passes=PIPELINE`` (``-passes=``
                skips IR optimisation), ``-mcpu=...``, ``-mattr=...``,
                ``-relocation-model=pic``, or any LLVM option the policy allows,
                which applies to this call only.
            output: ``"obj"`` (object file), ``"asm"``, ``"bc"`` (bitcode) or
                ``"ll"`` (IR text). A ``-filetype=`` in ``flags`` takes precedence.
                x86 assembly uses LLVM 23's ``.prefalign``, which GNU as and
                older clang do not read; ``-align-all-functions=4`` writes the
                ``.p2align 4`` they do (the README has the other targets).
            link: modules (IR text or bitcode, e.g. libdevice or the ROCm
                device libraries) linked into ``module`` before optimisation.
                A link module brings in only the definitions the module needs,
                directly or through other link modules (in any order), and
                they are internalised. Like an archive member: one that a
                definition is taken from also brings its constructors,
                destructors and ``llvm.used``/``llvm.compiler.used`` entries
                (and what they need), its module flags and named metadata
                merged as LLVM's linker merges them; one that nothing is taken
                from brings nothing. A link module with module asm (which
                cannot be told apart by definition) or another non-empty
                appending list is a LinkError. Each is parsed as the module
                is, with the same limits and asm policy.
            timeout: seconds; only ``isolation="process"`` can stop a compile,
                so in process anything but ``None`` is an ArgumentError.
            cache: an :class:`llvmplug.Cache` for this call (``None``: none);
                by default the Plugin's own. Errors are never cached.
            timings: an :class:`llvmplug.Timings` to fill with the seconds
                each stage took (parse, link, optimise, codegen...), also
                when the compile fails. Without it nothing is read: the shim
                records stages anyway, at the cost of a few clock reads.
            progress: ``True`` draws a progress line on stderr while the
                compile runs, if stderr is a terminal (nothing otherwise); a
                callable receives an :class:`llvmplug.Progress` a few times a
                second, from another thread (an exception it raises is
                logged to the ``llvmplug`` logger and it is not called again).

        Raises:
            ArgumentError: bad argument values or types.
            ParseError, VerifyError, TargetError, OptionError, LinkError,
            LimitError, CodegenError, FatalError: what LLVM reported.
            PluginUnloadedError: the Plugin was unloaded.
            WorkerCrashedError, CompileTimeoutError: ``isolation="process"`` only.
        """
        request = _args.Request.make(
            module, target, flags, output=output, link=link, cache=cache, timeout=timeout, isolation=self._isolation
        )
        return self._run(request, timings=_timings.check(timings), progress=progress)[0]

    def compile_parts(
        self,
        module: Module,
        target: str | None = None,
        flags: Flags = (),
        *,
        parts: int | None = None,
        output: str = "obj",
        link: Sequence[Module] = (),
        timeout: float | None = None,
        cache: Cache | None = _store.PLUGIN_CACHE,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> list[bytes]:
        """Split the module and generate code for the parts in parallel.

        Returns at most ``parts`` objects (or assembly files) which, linked
        together, give the same program as :meth:`compile`'s one object.

        Args:
            parts: the most parts to make; ``None``: one per CPU.
            output: ``"obj"`` or ``"asm"``.

        The other arguments and the errors are :meth:`compile`'s; ``timings``
        has one entry per part in ``parts``, and a ``progress`` line counts
        the parts done.
        """
        request = _args.Request.make(
            module,
            target,
            flags,
            output=output,
            link=link,
            split=True,
            parts=parts,
            cache=cache,
            timeout=timeout,
            isolation=self._isolation,
        )
        return self._run(request, timings=_timings.check(timings), progress=progress)

    def compile_modules(
        self,
        modules: Sequence[Module],
        target: str | None = None,
        flags: Flags = (),
        *,
        output: str = "obj",
        link: Sequence[Module] = (),
        threads: int | None = None,
        timeout: float | None = None,
        timings: Timings | None = None,
        progress: bool | Callable[[Progress], None] | None = None,
    ) -> list[bytes]:
        """Compile several modules (translation units) together, ThinLTO's way.

        Each module gets a summary; a serial "thin link" decides which
        functions each imports from the others, so inlining crosses modules;
        then each is optimised and generated on its own thread. Returns one
        output per module, in order, the same whatever ``threads`` is; linked
        together they make the program. A static function called from another
        module is promoted under a unique ``.llvm.<hash>`` name.

        Args:
            modules: the modules, IR text or bitcode. Their symbols resolve
                as a program linker resolves them: two strong definitions of
                one name are a ``LinkError``; tentative (``common``) ones merge
                (the largest, with the largest alignment); weak and linkonce
                ones yield to them.
            output: ``"obj"``, ``"asm"``, or ``"bc"`` to stop before code
                generation and get each module optimised, as bitcode.
            link: modules linked into each module first (libdevice...).
            threads: the most modules worked on at once; ``None``: one per CPU.

        ``flags`` are :meth:`compile`'s except ``-passes`` (ThinLTO runs its
        own pipelines, chosen by ``-O0``..``-O3``). Not cached. The other
        arguments and the errors are :meth:`compile`'s; ``timings`` has one
        entry per module in ``parts``, and a ``progress`` line counts the
        modules done.
        """
        units = _args.module_list(modules)
        # The arguments every compile shares are checked as compile checks them.
        request = _args.Request.make(
            units[0], target, flags, output=output, link=link, cache=None, timeout=timeout, isolation=self._isolation
        )
        _args.choice(output, "output", _args.TOGETHER_OUTPUTS)
        count = _args.count(threads, "threads")
        timings = _timings.check(timings)
        watch = _progress.check(progress)
        if request.target:
            self._warn_about_triple(request.target)
        timed: list[str] | None = [] if timings is not None else None
        try:
            data, messages = self._backend.compile_modules(
                units,
                list(request.link),
                request.triple,
                request.line,
                count,
                request.timeout,
                timed=timed,
                watch=_progress.Guarded(watch) if watch else None,
            )
        finally:
            _progress.finish(watch)
            if timings is not None:
                timings._fill(timed[0] if timed else "{}")  # noqa: SLF001 - the package's own
        for message in messages:
            errors.warn(message)
        return list(data)

    def _run(
        self, request: _args.Request, missed: str | None = None, timings: Timings | None = None, progress: Any = None
    ) -> list[bytes]:
        """Run a checked request (through the cache it names): every compile of every entry point.

        ``missed``: a cache key already looked up in vain (cache.lookup_unloaded).
        ``timings``, ``progress``: as :meth:`compile` takes them (timings checked).
        """
        watch = _progress.check(progress)
        if request.target:
            self._warn_about_triple(request.target)
        chosen = self._cache if request.cache is _store.PLUGIN_CACHE else request.cache
        timed: list[str] | None = [] if timings is not None else None
        ran = []

        def run() -> bytes | list[bytes]:
            ran.append(True)
            try:
                data, messages = self._backend.compile(
                    request.modules,
                    request.triple,
                    request.line,
                    request.parts,
                    request.timeout,
                    timed=timed,
                    watch=_progress.Guarded(watch) if watch else None,
                )
            finally:
                _progress.finish(watch)
            for message in messages:
                errors.warn(message)
            return data if request.parts else data[0]  # the cache stores one output as plain bytes

        try:
            result = _cached.cached(chosen, self, run, request, missed=missed)
        except BaseException:
            if timings is not None:
                timings._fill(timed[0] if timed else "{}")  # noqa: SLF001 - what ran until it failed
            raise
        if timings is not None:
            if ran:
                timings._fill(timed[0] if timed else "{}")  # noqa: SLF001 - the package's own
            else:
                timings._fill_cached()  # noqa: SLF001
        return list(result) if request.parts else [result]

    def _warn_about_triple(self, triple: str) -> None:
        """Warn about a vendor, OS or environment of ``triple`` that LLVM reads as unknown.

        Triple parses a typo (``x86_64-linux-gnuu``) as "unknown" and the
        compile then silently targets a generic system; the shim's
        target_info names such components (asked once per triple).
        """
        unknown = _unknown_components.get(triple)
        if unknown is None:
            try:
                unknown = tuple(self.target_info(triple).get("unknown_components", ()))
            except errors.TargetError:
                return  # an unknown architecture: the compile reports it
            if len(_unknown_components) >= 1024:  # bounded: triples may come from callers
                _unknown_components.clear()
            _unknown_components[triple] = unknown
        if unknown:
            named = " or ".join(part if len(part) <= 80 else part[:76] + "...'" for part in unknown)
            shown = triple if len(triple) <= 80 else triple[:77] + "..."
            errors.warn(f"target triple {shown!r}: LLVM does not know its {named} and reads it as unknown (a typo?)")

    def info(self) -> dict[str, Any]:
        """LLVM version, ABI version, build id, host triple/CPU/features, targets, limits and sandbox.

        ``sandbox["threads"]`` says what confines the threads LLVM runs on
        (``summary``: e.g. "Landlock ABI 7 and seccomp", or "policy only: ..."
        and why); ``sandbox["process"]`` what confines the worker process
        (``isolation="process"``), else None.
        """
        return self._backend.info()

    def target_info(self, triple: str | None = None) -> dict[str, Any]:
        """One target: normalised triple, target name, CPUs and features (``None``: the host)."""
        return self._backend.target_info(_args.target(triple))

    def set_options(self, flags: Flags) -> None:
        """Set LLVM options for every later compile of this copy.

        They stay until set again, :meth:`clear_options` or :meth:`reload`
        (and are re-applied to a copy that replaces a poisoned one, or to a
        new child). Per-call flags override them for one call. All flags are
        checked first: if one is bad, :class:`OptionError` is raised and
        nothing changes.
        """
        self._backend.set_options(_args.flags_string(flags))

    def clear_options(self) -> None:
        """Drop every option set with :meth:`set_options`, without a reload.

        Each returns to LLVM's default. (Setting an option back to its default
        value is not the same: LLVM treats an option given explicitly, with
        any value, differently from one never given.)
        """
        self._backend.clear_options()

    def options(self, pattern: str | None = None) -> list[dict[str, Any]]:
        """LLVM's options: name, type, value, default, description, values, sticky, class, reason.

        Args:
            pattern: a glob over option names (``"x86-*"``); ``None`` lists all.
        """
        return self._backend.options("" if pattern is None else _args.text(pattern, "pattern"))

    def passes(self, pattern: str | None = None) -> list[dict[str, Any]]:
        """The passes a ``-passes=`` pipeline can name, from LLVM's PassBuilder registry.

        Each is a dict: name, kinds (``"function pass"``, ``"module analysis"``...),
        analysis (named ``require<name>`` in a pipeline), syntax (its parameters as
        LLVM spells them), parameters (name, value, class, reason each, and for a
        number the range accepted, ``[min, max]``, and of its indices, or None),
        class and reason. Under ``options="safe"`` a pipeline may name only
        passes and parameters of class ``"value"``, with numbers in range.

        Args:
            pattern: a glob over pass names (``"loop-*"``); ``None`` lists all.
        """
        return self._backend.passes("" if pattern is None else _args.text(pattern, "pattern"))
