"""Feedback on long work (issue 28, section 4): stage timings, progress, the CLI's --time/--verbose, logging.

Timings come from the shim (llvmplug_result_timings), progress from its list
of calls in progress (llvmplug_progress); both are checked for shape and
consistency only, never against durations (tests must not depend on load).
"""

from __future__ import annotations

import io
import json
import logging
import os
import signal
import subprocess
import tempfile
import sys
import threading
from pathlib import Path

import pytest

import llvmplug
from llvmplug import _abi

HERE = Path(__file__).resolve().parent
# Appended, not first: the installed llvmplug must stay the one imported here and in the
# processes started from here (Dask's workers inherit sys.path).
sys.path.append(str(HERE.parent))
from benchmarks import corpus  # noqa: E402

ADD = "define i32 @add(i32 %a, i32 %b) {\n  %s = add i32 %a, %b\n  ret i32 %s\n}\n"
STAGES = {"wait", "parse", "link", "check", "optimise", "codegen", "write", "split", "summarise", "import",
          "optimise+codegen"}
# Long enough to be watched a few times (seconds on any machine that runs the suite), unlike ADD.
BIG = corpus.loops(600).text


def _consistent(timings: llvmplug.Timings) -> None:
    assert set(timings.stages) <= STAGES and timings.stages
    assert all(seconds >= 0 for seconds in timings.stages.values())
    # The stages are consecutive pieces of the call: they cannot add up to more than it.
    assert sum(timings.stages.values()) <= timings.seconds * 1.001 + 1e-6
    for part in timings.parts:
        assert set(part) <= STAGES and all(seconds >= 0 for seconds in part.values())


# -- timings ----------------------------------------------------------------------

@pytest.mark.parametrize("isolation", ["none", "process"])
def test_a_compile_reports_its_stages(isolation):
    timings = llvmplug.Timings()
    with llvmplug.Plugin(isolation=isolation) as plugin:
        plugin.compile(ADD, timings=timings, cache=None)
    assert timings.call == "compile" and not timings.cached
    assert list(timings.stages)[:2] == ["wait", "parse"]
    assert {"optimise", "codegen"} <= set(timings.stages) and timings.parts == []
    _consistent(timings)
    table = str(timings)
    assert "optimise" in table and "codegen" in table and "in all" in table


def test_ir_output_is_written_not_generated():
    timings = llvmplug.Timings()
    llvmplug.compile(ADD, output="ll", timings=timings, cache=None)
    assert "write" in timings.stages and "codegen" not in timings.stages


def test_linking_is_a_stage_of_its_own():
    timings = llvmplug.Timings()
    main = "declare i32 @add(i32, i32)\ndefine i32 @f() {\n  %r = call i32 @add(i32 1, i32 2)\n  ret i32 %r\n}\n"
    llvmplug.compile(main, link=[ADD], timings=timings, cache=None)
    assert "link" in timings.stages


def test_split_code_generation_reports_each_part():
    timings = llvmplug.Timings()
    objects = llvmplug.compile_parts(BIG, parts=3, timings=timings, cache=None)
    assert len(timings.parts) == len(objects) > 1
    assert {"split", "summarise", "import", "optimise+codegen"} <= set(timings.stages)
    for part in timings.parts:
        assert {"optimise", "codegen"} <= set(part)
    _consistent(timings)
    assert f"{len(objects)} parts in parallel" in str(timings)


def test_split_after_a_given_pipeline_reports_each_parts_codegen():
    timings = llvmplug.Timings()
    objects = llvmplug.compile_parts(BIG, flags="-passes=default<O1>", parts=2, timings=timings, cache=None)
    assert len(timings.parts) == len(objects)
    assert all(set(part) == {"codegen"} for part in timings.parts)
    _consistent(timings)


def test_compile_modules_reports_each_module():
    timings = llvmplug.Timings()
    helper = "define internal i32 @h(i32 %x) {\n  ret i32 %x\n}\n"
    llvmplug.compile_modules([ADD, helper, ADD.replace("@add", "@add2")], timings=timings)
    assert timings.call == "compile_modules" and len(timings.parts) == 3
    assert all("optimise" in part and "codegen" in part for part in timings.parts)
    _consistent(timings)
    assert "3 modules in parallel" in str(timings)


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_a_failed_compile_reports_what_ran_until_it_failed(isolation):
    timings = llvmplug.Timings()
    with llvmplug.Plugin(isolation=isolation) as plugin:
        with pytest.raises(llvmplug.ParseError):
            plugin.compile("define i32 @f( {", timings=timings, cache=None)
    assert timings.call == "compile" and "parse" in timings.stages and "optimise" not in timings.stages


def test_a_cache_hit_says_nothing_was_compiled(tmp_path):
    cache = llvmplug.Cache(tmp_path)
    first, second = llvmplug.Timings(), llvmplug.Timings()
    llvmplug.compile(ADD, cache=cache, timings=first)
    llvmplug.compile(ADD, cache=cache, timings=second)
    assert not first.cached and "codegen" in first.stages
    assert second.cached and second.stages == {} and "cache" in str(second)


def test_timings_must_be_a_timings():
    with pytest.raises(llvmplug.ArgumentTypeError, match="timings must be an llvmplug.Timings"):
        llvmplug.compile(ADD, timings={})


def test_the_abi_gives_no_timings_for_other_results():
    with llvmplug.Plugin(private=True) as plugin:
        lib = plugin._backend._owned["library"].lib  # noqa: SLF001
        ffi = _abi.ffi()
        assert ffi.string(lib.llvmplug_result_timings(ffi.NULL)) == b"{}"
        out = ffi.new("llvmplug_result **")
        lib.llvmplug_info(out)
        try:
            assert ffi.string(lib.llvmplug_result_timings(out[0])) == b"{}"
        finally:
            lib.llvmplug_result_free(out[0])


# -- progress ------------------------------------------------------------------

def _watched(isolation: str, **kwargs) -> list[llvmplug.Progress]:
    seen: list[llvmplug.Progress] = []
    with llvmplug.Plugin(isolation=isolation) as plugin:
        plugin.compile_parts(BIG, parts=3, progress=seen.append, cache=None, **kwargs)
    return seen


@pytest.mark.parametrize("isolation", ["none", "process"])
def test_a_watched_compile_reports_its_progress(isolation):
    seen = _watched(isolation)
    assert seen, "a compile of seconds was never seen in progress"
    for progress in seen:
        assert progress.call == "compile" and progress.stage in STAGES
        assert 0 <= progress.done <= progress.total and progress.seconds >= 0
    assert [p.seconds for p in seen] == sorted(p.seconds for p in seen)
    assert any(p.total == 3 for p in seen if p.stage == "optimise+codegen")


def test_the_shim_lists_only_the_calls_in_progress():
    with llvmplug.Plugin(private=True) as plugin:
        lib = plugin._backend._owned["library"].lib  # noqa: SLF001
        assert json.loads(_abi.call(lib, "llvmplug_progress")[0]) == []
        found: list[dict] = []
        done = threading.Event()

        def compile_() -> None:
            try:
                plugin.compile(BIG, cache=None)
            finally:
                done.set()

        worker = threading.Thread(target=compile_)
        worker.start()
        while not done.wait(0.02) and not found:
            found = json.loads(_abi.call(lib, "llvmplug_progress")[0])
        worker.join()
        assert found and found[0]["call"] == "compile" and found[0]["thread"] == worker.native_id
        assert json.loads(_abi.call(lib, "llvmplug_progress")[0]) == []


def test_a_callback_that_raises_is_logged_and_the_compile_goes_on(caplog):
    calls = []

    def broken(progress: llvmplug.Progress) -> None:
        calls.append(progress)
        raise RuntimeError("display broke")

    with caplog.at_level(logging.ERROR, logger="llvmplug"):
        objects = llvmplug.compile_parts(BIG, parts=2, progress=broken, cache=None)
    assert objects and len(calls) == 1
    assert any("progress callback" in record.getMessage() for record in caplog.records)


def test_progress_true_draws_nothing_when_stderr_is_not_a_terminal(capfd):
    llvmplug.compile_parts(BIG, parts=2, progress=True, cache=None)
    assert capfd.readouterr().err == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_the_bar_draws_on_a_terminal_and_clears_its_line():
    terminal = _Terminal()
    bar = llvmplug.ProgressBar(terminal, label="big.ll", delay=0)
    bar(llvmplug.Progress("compile", "optimise+codegen", 1, 4, 2.0))
    bar(llvmplug.Progress("compile", "optimise+codegen", 3, 4, 3.0))
    drawn = terminal.getvalue()
    assert "big.ll" in drawn and "1/4 parts" in drawn and "3/4 parts" in drawn and "\n" not in drawn
    bar.close()
    assert terminal.getvalue().endswith("\r")
    quiet = io.StringIO()
    llvmplug.ProgressBar(quiet, delay=0)(llvmplug.Progress("compile", "parse", 0, 0, 1.0))
    assert quiet.getvalue() == ""


def test_a_short_compile_never_shows_the_bar():
    terminal = _Terminal()
    bar = llvmplug.ProgressBar(terminal)  # half a second of delay
    bar(llvmplug.Progress("compile", "parse", 0, 0, 0.1))
    assert terminal.getvalue() == ""


def test_progress_must_be_a_bool_or_a_callable():
    with pytest.raises(llvmplug.ArgumentTypeError, match="progress must be"):
        llvmplug.compile(ADD, progress="yes")


# -- the command line -----------------------------------------------------------------

def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "llvmplug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=300)


def test_cli_time_prints_each_stage(tmp_path):
    (tmp_path / "add.ll").write_text(ADD)
    done = _cli("compile", "add.ll", "--time", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert all(line.startswith("llvmplug: ") for line in lines)
    assert any("in all" in line for line in lines)
    for stage in ("parse", "optimise", "codegen"):
        assert any(line.split()[1:2] == [stage] for line in lines), stage
    assert (tmp_path / "add.o").exists()


def test_cli_time_reports_a_failed_compile_too(tmp_path):
    (tmp_path / "bad.ll").write_text("define i32 @f( {")
    done = _cli("compile", "bad.ll", "--time", cwd=tmp_path)
    assert done.returncode == 1
    assert "parse" in done.stderr and "ParseError" in done.stderr


def test_cli_verbose_says_what_is_compiled_and_how_long_it_took(tmp_path):
    (tmp_path / "big.ll").write_text(BIG)
    done = _cli("compile", "big.ll", "--verbose", "--target", "x86_64-linux-gnu", "-O1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "compiling big.ll for x86_64-linux-gnu to obj with -O1" in done.stderr
    assert "llvmplug: codegen at " in done.stderr  # a stage seen as it started
    assert "in all" in done.stderr


def test_cli_is_quiet_without_them(tmp_path):
    (tmp_path / "add.ll").write_text(ADD)
    done = _cli("compile", "add.ll", cwd=tmp_path)
    assert done.returncode == 0 and done.stderr == ""


# -- logging for operators ----------------------------------------------------------------

FATAL = """\
declare <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16>, <16 x i16>)
define <8 x i32> @f(<16 x i16> %a, <16 x i16> %b) {
  %r = call <8 x i32> @llvm.x86.avx2.pmadd.wd(<16 x i16> %a, <16 x i16> %b)
  ret <8 x i32> %r
}
"""


def _messages(caplog) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == "llvmplug"]


def test_a_poisoned_copy_and_its_replacement_are_logged(caplog):
    with caplog.at_level(logging.INFO, logger="llvmplug"):
        with llvmplug.Plugin(private=True) as plugin:
            with pytest.raises(llvmplug.FatalError):
                plugin.compile(FATAL, "x86_64-unknown-linux-gnu", cache=None)
            plugin.compile(ADD, cache=None)
    said = _messages(caplog)
    assert any("poisoned by FatalError" in m for m in said)
    assert any("replaced a copy (poisoned)" in m for m in said)
    poisoned = next(r for r in caplog.records if "poisoned by" in r.getMessage())
    assert poisoned.levelno == logging.WARNING


def test_reloads_and_standby_swaps_are_logged(caplog):
    with caplog.at_level(logging.INFO, logger="llvmplug"):
        with llvmplug.Plugin(private=True, standby=True) as plugin:
            plugin.compile(ADD, cache=None)
            plugin.reload()
            plugin.compile(ADD, cache=None)
        with llvmplug.Plugin(private=True) as plain:
            plain.reload()
    said = _messages(caplog)
    assert any("swapped in the warmed standby" in m for m in said)
    assert sum("reloaded:" in m for m in said) >= 1


def test_a_worker_crash_and_its_restart_are_logged(caplog):
    with caplog.at_level(logging.INFO, logger="llvmplug"):
        with llvmplug.Plugin(isolation="process") as plugin:
            plugin.compile(ADD, cache=None)
            first = plugin.worker_pid
            os.kill(first, signal.SIGKILL)
            with pytest.raises(llvmplug.WorkerCrashedError):
                plugin.compile(ADD, cache=None)
            plugin.compile(ADD, cache=None)
            second = plugin.worker_pid
    said = _messages(caplog)
    assert any(f"started worker process pid {first}" in m for m in said)
    assert any(f"pid {first}" in m and "SIGKILL" in m for m in said)
    assert any(f"started worker process pid {second}" in m for m in said)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes to read-only directories")
def test_every_failed_cache_write_is_logged_while_the_warning_comes_once(tmp_path, caplog):
    directory = tmp_path / "cache"
    cache = llvmplug.Cache(directory)
    directory.chmod(0o500)
    try:
        with caplog.at_level(logging.WARNING, logger="llvmplug"), pytest.warns(llvmplug.LLVMPlugWarning) as warned:
            cache.put("k1", b"v1")
            cache.put("k2", b"v2")
    finally:
        directory.chmod(0o700)
    assert len([w for w in warned if "cannot write" in str(w.message)]) == 1
    assert sum("cannot write" in m for m in _messages(caplog)) == 2


def test_every_failed_cache_write_is_logged_as_root_too(tmp_path, caplog, monkeypatch):
    """Root ignores permissions: the write fails where the entry's directory cannot be made."""
    directory = tmp_path / "cache"
    cache = llvmplug.Cache(directory)

    def refuse(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("tempfile.mkstemp", refuse)
    with caplog.at_level(logging.WARNING, logger="llvmplug"), pytest.warns(llvmplug.LLVMPlugWarning) as warned:
        cache.put("k1", b"v1")
        cache.put("k2", b"v2")
    assert len([w for w in warned if "cannot write" in str(w.message)]) == 1
    assert sum("No space left" in m for m in _messages(caplog)) == 2


def test_the_logger_prints_nothing_unless_configured():
    """A NullHandler: Python's last-resort handler would print WARNING records on stderr."""
    code = ("import llvmplug\n"
            f"p = llvmplug.Plugin(private=True)\n"
            "try:\n"
            f"    p.compile({FATAL!r}, 'x86_64-unknown-linux-gnu', cache=None)\n"
            "except llvmplug.FatalError:\n"
            "    pass\n"
            f"p.compile({ADD!r}, cache=None)\n"
            "import logging\n"
            "assert any(isinstance(h, logging.NullHandler) for h in logging.getLogger('llvmplug').handlers)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tempfile.gettempdir(), text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""


def test_importing_llvmplug_does_not_import_logging():
    """logging costs about as much as the rest of `import llvmplug`: it comes with the first record."""
    code = "import sys, llvmplug; print('logging' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, cwd=tempfile.gettempdir(), text=True, timeout=120)
    assert done.stdout.strip() == "False", done.stderr
