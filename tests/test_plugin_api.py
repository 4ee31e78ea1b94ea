"""The one Plugin API: the same arguments, checks and meanings in both isolations.

The calls that reach the shim (linking, split code generation, target info,
the option policy) are checked in both isolations.
"""

from __future__ import annotations

import ctypes
import inspect
import os
import subprocess
import tempfile
import threading
import sys

import llvmplug
import pytest

from lifecycle_support import run_python

X86 = "x86_64-unknown-linux-gnu"
# An AVX2 intrinsic for baseline x86-64 (no AVX2): instruction selection
# reports it through report_fatal_error, the path that poisons a copy.
# (Another target's intrinsic, the old example, is refused before code
# generation since issue 28: tests/test_target_checks.py.)
FOREIGN_INTRINSIC = """
declare <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16>, <16 x i16>)

define <8 x i32> @pmadd(<16 x i16> %a, <16 x i16> %b) {
  %r = call <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16> %a, <16 x i16> %b)
  ret <8 x i32> %r
}
"""
ISOLATIONS = ["none", "process"]


@pytest.fixture(params=ISOLATIONS)
def plugin(request):
    kwargs = {"private": True} if request.param == "none" else {}
    with llvmplug.Plugin(isolation=request.param, **kwargs) as plugin:
        yield plugin


# -- one vocabulary -----------------------------------------------------------


@pytest.mark.parametrize("isolation", [None, "thread", "Process", "", 0])
def test_isolation_has_one_set_of_names_everywhere(isolation):
    with pytest.raises(llvmplug.ArgumentError, match="isolation must be one of none, process"):
        llvmplug.Plugin(isolation=isolation)
    with pytest.raises(llvmplug.ArgumentError, match="isolation must be one of none, process"):
        llvmplug.Pool(1, isolation=isolation)


def test_one_class_in_both_isolations(plugin):
    assert type(plugin) is llvmplug.Plugin
    assert plugin.isolation in ISOLATIONS
    assert (plugin.worker_pid is None) == (plugin.isolation == "none")
    assert plugin.options_policy == "safe"
    assert f"isolation={plugin.isolation!r}" in repr(plugin)
    assert not hasattr(llvmplug, "ProcessPlugin")


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"policy": "unsafe"}, llvmplug.ArgumentError, "policy must be one of safe, all"),
        ({"policy": None}, llvmplug.ArgumentError, "policy must be one of safe, all"),
        ({"standby": "yes"}, llvmplug.ArgumentTypeError, "standby must be a bool"),
        ({"standby": True}, llvmplug.ArgumentError, "standby needs private=True in process"),
        ({"memory_limit": 1 << 30}, llvmplug.ArgumentError, "memory_limit needs isolation='process'"),
        ({"path": 3}, llvmplug.ArgumentTypeError, "path must be a str or a path"),
        ({"path": "relative/libllvmplug.so"}, llvmplug.ArgumentError, "absolute path"),
        ({"path": "relative/libllvmplug.so", "isolation": "process"}, llvmplug.ArgumentError, "absolute path"),
        ({"memory_limit": 2**63, "isolation": "process"}, llvmplug.ArgumentError, "memory_limit must be between"),
    ],
)
def test_constructor_arguments_are_checked_once_for_both(kwargs, error, words):
    with pytest.raises(error, match=words):
        llvmplug.Plugin(**kwargs)


@pytest.mark.parametrize("timeout", [1, 0.5, float("inf")])
def test_timeout_needs_process_isolation(timeout, arith_ir):
    with pytest.raises(llvmplug.ArgumentError, match="timeout needs Plugin\\(isolation='process'\\)"):
        llvmplug.default_plugin().compile(arith_ir, timeout=timeout)


def test_module_level_compile_with_a_timeout_points_to_process_isolation(arith_ir):
    for call in (llvmplug.compile, llvmplug.compile_parts):
        with pytest.raises(llvmplug.ArgumentError, match="timeout needs Plugin\\(isolation='process'\\)"):
            call(arith_ir, timeout=1)


def _parameters(function, drop=()):
    # The annotation as written, since that is what help() shows: a copy that spells a type
    # another way has drifted too.
    return [(p.name, p.kind, p.default, p.annotation) for p in inspect.signature(function).parameters.values()
            if p.name not in ("self", *drop)]


def _returns(function):
    return inspect.signature(function).return_annotation


# What watches a call (issue 28 §4) rather than describes the compile: not in the request, nor
# in map (one module's timings or progress, not many).
OBSERVERS = ("timings", "progress")


def test_every_compile_entry_point_takes_the_same_arguments():
    # One request behind all of them: the signatures must not drift apart again.
    compile_ = _parameters(llvmplug.Plugin.compile)
    for function in (llvmplug.compile, llvmplug.Pool.compile, llvmplug.Pool.submit):
        assert _parameters(function) == compile_, function
    parts = _parameters(llvmplug.Plugin.compile_parts)
    for function in (llvmplug.compile_parts, llvmplug.Pool.compile_parts, llvmplug.Pool.submit_parts):
        assert _parameters(function) == parts, function
    described = [parameter for parameter in parts if parameter[0] not in OBSERVERS]
    assert [name for name, *_ in parts][-len(OBSERVERS):] == list(OBSERVERS)
    assert _parameters(llvmplug.Pool.map)[1:] == [p for p in compile_[1:] if p[0] not in OBSERVERS]
    assert {name for name, *_ in _parameters(llvmplug.fingerprint)} == {
        name for name, *_ in described if name not in ("timeout", "cache")} | {"plugin"}
    # ... and each of the others is a field of the one request.
    assert {name for name, *_ in described} == set(llvmplug._args.Request.__slots__)  # noqa: SLF001


# The copies stay spelled out, each with its own signature, for help() and IDEs (a signature
# copied at run time, as functools.wraps or __signature__ would, is invisible to a static
# reader); these tests keep them one signature.
def test_every_compile_entry_point_returns_the_same():
    assert {_returns(f) for f in (llvmplug.compile, llvmplug.Plugin.compile, llvmplug.Pool.compile)} == {"bytes"}
    assert {_returns(f) for f in (llvmplug.compile_parts, llvmplug.Plugin.compile_parts, llvmplug.Pool.compile_parts,
                                  llvmplug.compile_modules, llvmplug.Plugin.compile_modules)} == {"list[bytes]"}
    assert _returns(llvmplug.Pool.submit) == "Future[bytes]" and _returns(llvmplug.Pool.submit_parts) == "Future[list[bytes]]"


def test_compile_parts_is_compile_with_parts():
    compile_ = _parameters(llvmplug.Plugin.compile)
    parts = _parameters(llvmplug.Plugin.compile_parts)
    assert [p for p in parts if p[0] != "parts"] == compile_
    assert parts[3][:2] == ("parts", inspect.Parameter.KEYWORD_ONLY)  # the first keyword


def test_compile_modules_shares_compiles_arguments():
    modules = _parameters(llvmplug.Plugin.compile_modules)
    # The default Plugin runs in this process, where nothing can stop a compile: llvmplug.compile
    # and compile_parts take a timeout only to refuse it, llvmplug.compile_modules takes none.
    assert _parameters(llvmplug.compile_modules) == [p for p in modules if p[0] != "timeout"]
    compile_ = _parameters(llvmplug.Plugin.compile)
    assert modules[1:3] == compile_[1:3]  # target, flags
    shared = ("output", "link", "timeout", "timings", "progress")
    assert [p for p in modules if p[0] in shared] == [p for p in compile_ if p[0] in shared]


def test_both_backends_have_the_protocols_signatures():
    from llvmplug._backend import Backend
    from llvmplug._backend_local import LocalBackend
    from llvmplug._backend_process import ProcessBackend

    members = [name for name in vars(Backend) if not name.startswith("_")]
    assert {"compile", "compile_modules", "info", "loaded"} <= set(members)
    for name in members:
        declared = getattr(Backend, name)
        for backend in (LocalBackend, ProcessBackend):
            actual = getattr(backend, name)
            if isinstance(declared, property):
                if not isinstance(actual, property):  # a constant serves a read-only property
                    assert not callable(actual) and name in vars(backend), (backend, name)
                    continue
                want, got = inspect.signature(declared.fget), inspect.signature(actual.fget)
            else:
                want, got = inspect.signature(declared), inspect.signature(actual)
            # Names, kinds, defaults and annotations, in order, and the result.
            assert got == want, (backend, name)


def test_policy_keyword_and_its_deprecated_old_name(arith_ir):
    with llvmplug.Plugin(private=True, policy="all") as trusted:
        assert trusted.policy == trusted.options_policy == "all"
        assert isinstance(trusted.options("x86-asm-syntax"), list)  # the method keeps its name
    with pytest.warns(DeprecationWarning, match="use Plugin\\(policy=...\\)"):
        old = llvmplug.Plugin(private=True, options="all")
    with old:
        assert old.policy == "all"
    with pytest.warns(DeprecationWarning), pytest.raises(llvmplug.ArgumentError, match="give the option policy once"):
        llvmplug.Plugin(private=True, policy="all", options="safe")


def test_refusals_name_the_policy(plugin, arith_ir):
    with pytest.raises(llvmplug.OptionError, match='allowed only with the "all" policy'):
        plugin.compile(arith_ir, flags="-stack-usage-file=x")


def test_unknown_cpu_suggests_the_closest(plugin, arith_ir):
    with pytest.raises(llvmplug.TargetError, match="unknown CPU 'skylakee' .*; did you mean skylake\\?"):
        plugin.compile(arith_ir, flags="-mcpu=skylakee")
    with pytest.raises(llvmplug.TargetError) as caught:
        plugin.compile(arith_ir, flags="-mcpu=qqqqqqqqqqqq")
    assert "did you mean" not in caught.value.message


def test_unknown_triple_has_no_llc_hint(plugin, arith_ir):
    with pytest.raises(llvmplug.TargetError) as caught:
        plugin.compile(arith_ir, target="m68k-unknown-linux-gnu")
    assert caught.value.message.endswith("unable to get target for 'm68k-unknown-linux-gnu'")
    assert "--version" not in caught.value.message and "--triple" not in caught.value.message


@pytest.mark.parametrize(
    ("triple", "unknown"),
    [("x86_64-linux-gnuu", "environment 'gnuu'"), ("x86_64-unknwn-linux-gnu", "vendor 'unknwn'"),
     ("x86_64-unknown-linx-gnu", "OS 'linx'")],
)
def test_a_typo_in_a_triple_is_a_warning(plugin, arith_ir, triple, unknown):
    with pytest.warns(llvmplug.LLVMPlugWarning, match=f"target triple '{triple}': LLVM does not know its {unknown}"):
        plugin.compile(arith_ir, target=triple)
    assert unknown in plugin.target_info(triple)["unknown_components"]


@pytest.mark.parametrize("triple", ["x86_64-unknown-linux-gnu", "x86_64-w64-mingw32", "riscv32-unknown-none-elf",
                                    "aarch64-apple-macos11", "armv7-unknown-linux-gnueabihf", "nvptx64-nvidia-cuda",
                                    "i686-pc-windows-msvc19.33.0", "aarch64-linux-android21"])
def test_real_triples_are_not_warned_about(arith_ir, triple):
    assert llvmplug.target_info(triple)["unknown_components"] == []


# -- compile, compile_parts, link: arguments -------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"link": "define void @g() { ret void }"}, llvmplug.ArgumentTypeError, "link must be a sequence of modules"),
        ({"link": [b""]}, llvmplug.ArgumentError, r"link\[0\] is empty"),
        ({"link": [3]}, llvmplug.ArgumentTypeError, r"link\[0\] must be IR text"),
        ({"link": None}, llvmplug.ArgumentTypeError, "link must be a sequence"),
    ],
)
def test_link_arguments(plugin, arith_ir, kwargs, error, words):
    with pytest.raises(error, match=words):
        plugin.compile(arith_ir, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"parts": 0}, llvmplug.ArgumentError, "parts must be between 1 and"),
        ({"parts": -2}, llvmplug.ArgumentError, "parts must be between 1 and"),
        ({"parts": 2**32}, llvmplug.ArgumentError, "parts must be between 1 and"),
        ({"parts": True}, llvmplug.ArgumentTypeError, "parts must be an int or None"),
        ({"parts": "2"}, llvmplug.ArgumentTypeError, "parts must be an int or None"),
        ({"output": "bc"}, llvmplug.ArgumentError, "output must be one of obj, asm, not 'bc'"),
        ({"output": "ll"}, llvmplug.ArgumentError, "output must be one of obj, asm"),
    ],
)
def test_compile_parts_arguments(plugin, arith_ir, kwargs, error, words):
    with pytest.raises(error, match=words):
        plugin.compile_parts(arith_ir, **kwargs)


def test_compile_parts_links_into_a_working_program(plugin, arith_ir, load_object, tmp_path, cc):
    module = arith_ir + "".join(
        f"define i64 @extra{i}(i64 %x) {{\n  %y = mul i64 %x, {i + 3}\n  ret i64 %y\n}}\n" for i in range(40)
    )
    parts = plugin.compile_parts(module, flags="-relocation-model=pic", parts=2)
    assert 1 <= len(parts) <= 2 and all(part[:4] == b"\x7fELF" for part in parts)
    objects = []
    for i, part in enumerate(parts):
        objects.append(tmp_path / f"part{i}.o")
        objects[-1].write_bytes(part)
    library = tmp_path / "libparts.so"
    subprocess.run([cc, "-shared", "-o", str(library), *map(str, objects)], check=True)
    loaded = ctypes.CDLL(str(library))
    loaded.extra7.restype = ctypes.c_int64
    loaded.extra7.argtypes = [ctypes.c_int64]
    assert loaded.extra7(5) == 50


def test_compile_parts_default_is_one_part_per_cpu_at_most(arith_ir):
    parts = llvmplug.compile_parts(arith_ir)
    assert 1 <= len(parts) <= (os.cpu_count() or 1)


def test_link_brings_in_what_the_module_calls(plugin, load_object):
    main = "declare i64 @helper(i64)\ndefine i64 @entry(i64 %x) {\n  %y = call i64 @helper(i64 %x)\n  ret i64 %y\n}\n"
    library = "define i64 @helper(i64 %x) {\n  %y = add i64 %x, 41\n  ret i64 %y\n}\n"
    obj = plugin.compile(main, flags="-relocation-model=pic", link=[library])
    loaded = load_object(obj, "linked")
    loaded.entry.restype = ctypes.c_int64
    loaded.entry.argtypes = [ctypes.c_int64]
    assert loaded.entry(1) == 42


def test_target_info(plugin):
    info = plugin.target_info(X86)
    assert info["triple"] == X86 and info["target"] == "x86-64"
    assert "skylake" in info["cpus"]
    assert any(feature["name"] == "avx2" for feature in info["features"])
    assert llvmplug.target_info()["triple"] == llvmplug.info()["process_triple"]


def test_target_info_argument_checks(plugin):
    with pytest.raises(llvmplug.ArgumentTypeError, match="target must be a str"):
        plugin.target_info(3)
    with pytest.raises(llvmplug.ArgumentError, match="NUL"):
        plugin.target_info("x86_64\0")


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_the_option_policy_is_applied_to_every_copy(isolation, tmp_path):
    kwargs = {"private": True} if isolation == "none" else {}
    with llvmplug.Plugin(isolation=isolation, **kwargs) as safe:
        assert safe.options("stack-usage-file")[0]["class"] == "file"
        module = "define void @f() { ret void }"
        target = tmp_path / "usage.su"
        for _ in range(2):  # the fresh copy after a reload gets the policy too
            with pytest.raises(llvmplug.OptionError, match="stack-usage-file"):
                safe.compile(module, flags=f"-stack-usage-file={target}")
            with pytest.raises(llvmplug.OptionError, match="stack-usage-file"):
                safe.set_options(f"-stack-usage-file={target}")
            safe.reload()
    assert not target.exists()
    with llvmplug.Plugin(isolation=isolation, policy="all", sandbox=False, **kwargs) as trusted:
        assert trusted.policy == trusted.options_policy == "all"
        trusted.compile(module, flags=f"-stack-usage-file={target}")  # (with the sandbox: test_sandbox.py)
    assert target.exists()


# -- state: sticky options, poisoned -------------------------------------------------


def test_sticky_options_are_the_lines_in_force(plugin, arith_ir):
    assert plugin.sticky_options == ()
    plugin.set_options("-x86-asm-syntax=intel")
    plugin.set_options(["-align-loops=32"])
    assert plugin.sticky_options == ("-x86-asm-syntax=intel", "-align-loops=32")
    with pytest.raises(llvmplug.OptionError):
        plugin.set_options("-no-such-option")
    assert plugin.sticky_options == ("-x86-asm-syntax=intel", "-align-loops=32")  # a refused line is not in force
    plugin.clear_options()
    assert plugin.sticky_options == ()
    plugin.set_options("-x86-asm-syntax=intel")
    plugin.reload()
    assert plugin.sticky_options == ()


@pytest.mark.parametrize("isolation", ISOLATIONS)
@pytest.mark.parametrize("reload_after_fatal", [True, False])
def test_poisoned_means_the_same_in_both_isolations(isolation, reload_after_fatal, arith_ir):
    kwargs = {"private": True} if isolation == "none" else {}
    with llvmplug.Plugin(isolation=isolation, reload_after_fatal=reload_after_fatal, **kwargs) as plugin:
        assert not plugin.poisoned
        pid = plugin.worker_pid
        with pytest.raises(llvmplug.FatalError):
            plugin.compile(FOREIGN_INTRINSIC, X86)
        assert plugin.poisoned  # the copy that would serve the next call is suspect
        plugin.compile(arith_ir, X86)
        assert plugin.poisoned is not reload_after_fatal  # replaced before that call, or kept as asked
        plugin.reload()
        assert not plugin.poisoned
        if isolation == "process" and reload_after_fatal:
            assert pid is not None


def test_warnings_arrive_the_same_way_in_both(plugin):
    with pytest.warns(llvmplug.LLVMPlugWarning, match="remark"):
        plugin.compile("define void @f() {\n  ret void\n}\n", flags="-pass-remarks-analysis=asm-printer")


def test_module_level_functions():
    for name in ("compile", "compile_parts", "info", "target_info", "reset", "default_plugin"):
        assert callable(getattr(llvmplug, name)) and name in llvmplug.__all__


# -- standby ---------------------------------------------------------------------


def test_standby_reload_swaps_in_a_warmed_copy_that_behaves_as_a_fresh_one(arith_ir):
    fresh = subprocess.run(
        [sys.executable, "-c", "import sys, llvmplug; sys.stdout.buffer.write(llvmplug.compile(sys.stdin.read(), output='asm'))"],
        input=arith_ir.encode(), capture_output=True, check=True, timeout=120, cwd=tempfile.gettempdir(),
    ).stdout
    with llvmplug.Plugin(private=True, standby=True) as plugin:
        copies = {plugin.loaded_path}
        for _ in range(3):
            plugin.set_options("-x86-asm-syntax=intel")
            assert plugin.compile(arith_ir, output="asm") != fresh
            plugin.reload()
            assert plugin.sticky_options == ()
            assert plugin.compile(arith_ir, output="asm") == fresh
            copies.add(plugin.loaded_path)
        assert len(copies) >= 2  # the standby took over (copies' memfds are reused in turn)
        # A poisoned copy is replaced by the standby too.
        with pytest.raises(llvmplug.FatalError):
            plugin.compile(FOREIGN_INTRINSIC, X86)
        assert plugin.compile(arith_ir, output="asm") == fresh


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/maps")
def test_standby_retires_the_old_copy_in_the_background():
    result = run_python(
        r"""
import json, time
import llvmplug
from lifecycle_support import loaded_files

def copies():
    return sum(name.startswith("/memfd:llvmplug-") for name in loaded_files())

plugin = llvmplug.Plugin(private=True, standby=True)
plugin.compile("define i32 @f() { ret i32 1 }")
counts = []
for _ in range(5):
    plugin.reload()
    plugin.compile("define i32 @f() { ret i32 1 }")
    # Count once the background work of this reset (retire the old copy,
    # prepare the next standby) is over: in between the count passes through
    # 1 and 3, and reading it twice would race with that work.
    plugin._backend._standby_done.wait(60)  # noqa: SLF001
    counts.append(copies())
plugin.unload()
print(json.dumps({"counts": counts, "after unload": copies()}))
"""
    )
    assert result == {"counts": [2] * 5, "after unload": 0}  # the copy in use and its standby, never more



@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; kills with POSIX signals")
def test_process_standby_swaps_in_a_started_child(arith_ir):
    import signal

    expected = llvmplug.Plugin(private=True).compile(arith_ir, output="asm")
    with llvmplug.Plugin(isolation="process", standby=True) as plugin:
        plugin.compile(arith_ir)
        for _ in range(2):
            plugin._backend._spare_done.wait(120)  # noqa: SLF001 - the spare is ready
            spare = plugin._backend._spare.pid  # noqa: SLF001
            old = plugin.worker_pid
            plugin.set_options("-x86-asm-syntax=intel")
            plugin.reload()
            assert plugin.worker_pid == spare  # the started child took over
            assert plugin.sticky_options == ()
            assert plugin.compile(arith_ir, output="asm") == expected
            plugin._backend._spare_done.wait(120)  # noqa: SLF001 - the old child was stopped meanwhile
            assert not os.path.exists(f"/proc/{old}")
        # A crashed child is replaced by the spare too, with the sticky options re-applied.
        plugin.set_options("-x86-asm-syntax=intel")
        intel = plugin.compile(arith_ir, output="asm")
        spare = plugin._backend._spare.pid  # noqa: SLF001
        os.kill(plugin.worker_pid, signal.SIGKILL)
        with pytest.raises(llvmplug.WorkerCrashedError):
            plugin.compile(arith_ir)
        assert plugin.compile(arith_ir, output="asm") == intel
        assert plugin.worker_pid == spare
        pids = [plugin.worker_pid]
    assert not any(os.path.exists(f"/proc/{pid}") for pid in pids)


# -- the background job thread ---------------------------------------------------


def _bounded(call, seconds=120.0):
    """``call()``'s result or exception, failing the test if it has not returned within ``seconds``."""
    outcome = []

    def run():
        try:
            outcome.append(call())
        except BaseException as error:  # noqa: BLE001 - handed to the test
            outcome.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"{call} hung for {seconds} s"
    return outcome[0]


def test_a_failing_job_does_not_end_the_job_thread():
    from llvmplug import _jobs

    jobs = _jobs.Jobs("llvmplug-test")
    ran = []
    failed = jobs.submit(lambda: 1 / 0)
    later = jobs.submit(ran.append, "ran")
    assert later.wait(60) and failed.wait(0)
    assert ran == ["ran"]  # the thread outlived the failure
    assert isinstance(failed.error, llvmplug.InternalError)
    assert "ZeroDivisionError" in failed.error.message
    with pytest.raises(llvmplug.InternalError, match="ZeroDivisionError"):
        failed.check()
    later.check()
    jobs.stop()


@pytest.mark.parametrize("isolation", ISOLATIONS)
def test_a_failing_standby_job_is_an_error_never_a_hang(isolation, arith_ir):
    kwargs = {"private": True} if isolation == "none" else {}

    def scenario():  # bounded as a whole: before the fix even unload() waited forever
        with llvmplug.Plugin(isolation=isolation, standby=True, **kwargs) as plugin:
            expected = plugin.compile(arith_ir, output="asm")
            backend = plugin._backend  # noqa: SLF001 - the failure is injected into the job itself
            job = "_make_standby" if isolation == "none" else "_make_spare"

            def broken(*args):
                raise RuntimeError("injected failure")

            setattr(backend, job, broken)
            plugin.reload()  # swaps the warmed standby in; preparing the next one fails
            with pytest.raises(llvmplug.InternalError, match="RuntimeError: injected failure"):
                plugin.reload()
            delattr(backend, job)
            for _ in range(3):  # the Plugin and its job thread keep working
                plugin.set_options("-x86-asm-syntax=intel")
                plugin.reload()
                assert plugin.sticky_options == ()
                assert plugin.compile(arith_ir, output="asm") == expected

    failure = _bounded(scenario, 300)
    if failure is not None:
        raise failure
