"""The ``llvmplug`` command: compile IR files and describe the shim."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from . import _args, _guard, errors
from ._version import __version__
from .plugin import OUTPUTS, Plugin
from .progress import Progress, ProgressBar
from .timings import Timings

TYPE_CHECKING = False  # typing only for type checkers: its import slows a fresh process (issue 27)
if TYPE_CHECKING:
    from typing import Any, NoReturn

SUFFIXES = {"obj": ".o", "asm": ".s", "bc": ".bc", "ll": ".ll"}

COMPILE_HELP = """\
Compile LLVM IR text or bitcode with the llvmplug shim.

Every argument that is not one of the options below is passed to LLVM as an
llc-style flag: -O0..-O3 (default -O2), -passes=PIPELINE (-passes= alone skips
IR optimisation), -mcpu=..., -mattr=..., -relocation-model=pic, or any LLVM
option (see 'llvmplug options'); they apply to this compile only.

Assembly (--emit asm) for ELF on x86, PowerPC, SystemZ and LoongArch uses
LLVM 23's .prefalign N, which GNU as and clang before LLVM 23 do not know;
-align-all-functions=N (N at least the .prefalign's: 4 on x86) makes LLVM
write the .p2align N they read instead.
"""

EXIT_STATUS = """\
exit status:
  0    success
  1    the command failed: the input was refused (the error's class says why),
       a file could not be read or written, a check failed, or nothing matched
  2    the command line is wrong, or the command cannot run here (a missing module)
  3    LLVM crashed on the input (the compile ran in a process of its own,
       which died; nothing was written)
  130  interrupted (Ctrl-C)
  141  the reader of the output went away (| head)
"""

EXAMPLES = (
    """\
examples:
  llvmplug --version
  llvmplug compile add.ll -o add.o -O3 -relocation-model=pic
  llvmplug compile add.ll --emit asm -o - -x86-asm-syntax=intel
  llvmplug compile kernel.ll --target nvptx64-nvidia-cuda --libdevice --emit asm
  cat add.bc | llvmplug compile - --emit ll -o add.opt.ll
  llvmplug info
  llvmplug info --target aarch64-linux-gnu
  llvmplug options 'x86-*'
  llvmplug passes 'loop-*'
  llvmplug check

"""
    + EXIT_STATUS
)

# Exit statuses (EXIT_STATUS above, _guard's CRASHED and INTERRUPTED).
FAILED = 1
USAGE = 2
BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a command killed by it

# How the API spells what the command line spells otherwise: messages from
# llvmplug's Python layer use the left column. The shim's policy refusals name
# the policy as the C ABI does ("the \"all\" policy", csrc/messages.h) and
# are printed as they are; one text of the shim still spells an API keyword
# (the sandbox's refusal of a write, csrc/runtime/sandbox.cpp: sandbox=False
# has no neutral name in the C ABI) and is translated here, as are the texts
# of llvmplug's Python layer.
_API_TO_COMMAND_LINE = (
    (errors.SANDBOX_OFF, "--no-sandbox"),
    ('output="asm"', "--emit asm"),
    ('output="obj"', "--emit obj"),
    ('output="bc"', "--emit bc"),
    ('output="ll"', "--emit ll"),
    ("target=TRIPLE", "--target TRIPLE"),
    ("Plugin.passes()", "'llvmplug passes'"),
    ("Plugin.options()", "'llvmplug options'"),
    ("target_info(TRIPLE)", "'llvmplug info --target TRIPLE'"),
    ('Plugin(isolation="process")', "--isolation process"),
)

# clang's spelling that the command line would otherwise hand to LLVM, and
# then read the triple after it as a second input.
_COMPILER_HABITS = {"-target": "--target TRIPLE"}


class UsageError(Exception):
    """A mistake on the command line that argparse never sees (it is not given LLVM's flags)."""


def _json(value: Any) -> str:
    import json  # only for --json: a command's start is what it waits for (issue 27)

    return json.dumps(value, indent=2)


def _compile_options(parser: argparse.ArgumentParser) -> tuple[dict[str, str], set[str]]:
    """The compile command's own options: those that take a value (with its metavar), and those that do not.

    Read from the parser, so that an option added to it (--time, say) is
    split off LLVM's flags without being listed twice.
    """
    commands = next(
        action
        for action in parser._actions  # noqa: SLF001 - argparse keeps no public list
        if isinstance(action, argparse._SubParsersAction)
    )  # noqa: SLF001
    with_value: dict[str, str] = {}
    flags: set[str] = set()
    for action in commands.choices["compile"]._actions:  # noqa: SLF001
        if action.nargs == 0:
            flags.update(action.option_strings)
        else:
            shown = action.metavar or ("{" + ",".join(action.choices) + "}" if action.choices else action.dest.upper())
            with_value.update(dict.fromkeys(action.option_strings, shown))
    return with_value, flags


def _split_llvm_flags(argv: Sequence[str], with_value: dict[str, str], flags: set[str]) -> tuple[list[str], list[str]]:
    """The command's own arguments and LLVM's flags.

    argparse cannot be left to sort them: it would read '-optimize-regalloc'
    as '-o ptimize-regalloc'.
    """
    ours: list[str] = []
    llvm: list[str] = []
    long_options = sorted(name for name in [*with_value, *flags] if name.startswith("--"))
    args = iter(argv)
    for arg in args:
        name, _, attached = arg.partition("=")
        if arg in with_value:
            value = next(args, None)
            if value is None:  # the last argument: argparse would take the next flag or nothing
                raise UsageError(f"{arg} needs a value ({arg} {with_value[arg]})")
            if value == "":
                raise UsageError(f"{arg} needs a value, not an empty string")
            ours += [arg, value]
        elif name in with_value and name.startswith("--"):
            if not attached:
                raise UsageError(f"{name}= needs a value, not an empty string")
            ours.append(arg)
        elif arg in flags or not arg.startswith("-") or arg == "-":
            ours.append(arg)
        elif name in _COMPILER_HABITS:
            raise UsageError(f"{name} is clang's spelling; llvmplug's is {_COMPILER_HABITS[name]}")
        else:
            if name.startswith("--"):
                import difflib  # here only: a command's start is what it waits for (issue 27)

                # LLVM's options are single-dash in llc's spelling; a double-dash
                # near-miss of ours is a typo, not an LLVM option.
                close = difflib.get_close_matches(name, long_options, n=1, cutoff=0.75)
                if close:
                    raise UsageError(f"unknown option {name} (did you mean {close[0]}?)")
            llvm.append(arg)
    return ours, llvm


class _Formatter(argparse.HelpFormatter):
    """argparse's, given the terminal's width: argparse would import shutil for it (and bz2 and
    lzma with shutil) in every run of the command, help or not, a noticeable part of its start-up."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _RawFormatter(_Formatter, argparse.RawDescriptionHelpFormatter):
    """The same, for texts laid out by hand."""


def _columns() -> int:
    """The terminal's width as shutil.get_terminal_size() reads it: $COLUMNS, stdout's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="llvmplug",
        description="LLVM as a compiler library without LLVM's global state.",
        epilog=EXAMPLES,
        formatter_class=_RawFormatter,
    )
    parser.add_argument("--version", action="store_true", help="show llvmplug's and LLVM's versions and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    compile_ = commands.add_parser(
        "compile",
        help="compile an IR or bitcode file",
        description=COMPILE_HELP,
        epilog=EXIT_STATUS,
        formatter_class=_RawFormatter,
        usage="llvmplug compile IN [-o OUT] [--target TRIPLE] [--emit {obj,asm,bc,ll}] "
        "[--link FILE]... [--libdevice] [--isolation {none,process}] [--options {safe,all}] [--no-sandbox] "
        "[--time] [--verbose] [-O0..-O3] [LLVM flags...]",
    )
    compile_.add_argument("input", metavar="IN", help="IR text or bitcode file; '-' reads stdin")
    compile_.add_argument(
        "-o",
        "--output",
        metavar="OUT",
        help="output file; '-' writes stdout (default: IN with the output's suffix, or stdout when IN is '-')",
    )
    compile_.add_argument("--target", metavar="TRIPLE", help="target triple (default: the module's, else the host's)")
    compile_.add_argument("--emit", choices=OUTPUTS, default="obj", help="what to produce (default: obj)")
    compile_.add_argument(
        "--link",
        metavar="FILE",
        action="append",
        default=[],
        help="IR or bitcode to link in before optimisation (repeatable)",
    )
    compile_.add_argument(
        "--libdevice",
        action="store_true",
        help="link NVIDIA's libdevice in (found in the nvidia-nvvm wheel, or $CUDA_HOME)",
    )
    compile_.add_argument(
        "--isolation",
        choices=_args.ISOLATIONS,
        default="none",
        help="'process' compiles in a child process with its own interpreter "
        "(a crash of LLVM is a WorkerCrashedError there); by default the "
        "command compiles in a forked process that reports a crash itself",
    )
    compile_.add_argument(
        "--options",
        choices=_args.POLICIES,
        default="safe",
        help="'all' accepts every LLVM option, including ones that write files "
        "or load code (trusted input only; default: safe)",
    )
    compile_.add_argument(
        "--no-sandbox",
        action="store_true",
        help="run LLVM unconfined by the kernel (Linux: Landlock, seccomp), so that "
        "--options all can reach files (trusted input only)",
    )
    compile_.add_argument(
        "--time",
        action="store_true",
        help="print how long each stage took (parse, link, optimise, codegen...) on stderr",
    )
    compile_.add_argument(
        "--verbose",
        action="store_true",
        help="say what is compiled for which target, each stage as it starts, and --time's "
        "table (on stderr); without it a long compile shows a progress line on a terminal",
    )

    info = commands.add_parser("info", help="show LLVM version, host and targets", formatter_class=_Formatter)
    info.add_argument("--target", metavar="TRIPLE", help="describe one target instead: its CPUs and features")
    info.add_argument("--json", action="store_true", help="print the raw JSON")

    options = commands.add_parser(
        "options",
        formatter_class=_Formatter,
        help="list LLVM options with their values",
        description="List LLVM's options. Exits with 1 if none matches PATTERN.",
    )
    options.add_argument("pattern", nargs="?", help="glob over option names, e.g. 'x86-*'")
    options.add_argument("--json", action="store_true", help="print the raw JSON")

    passes = commands.add_parser(
        "passes",
        formatter_class=_Formatter,
        help="list the passes -passes= can name, with their policy class",
        description="List the passes a -passes= pipeline can name. Exits with 1 if none matches PATTERN.",
    )
    passes.add_argument("pattern", nargs="?", help="glob over pass names, e.g. 'loop-*'")
    passes.add_argument("--json", action="store_true", help="print the raw JSON")

    check = commands.add_parser(
        "check",
        formatter_class=_Formatter,
        help="check that a built shim hides LLVM (Linux; needs pyelftools)",
        description="Read the shim's ELF file and check that it exports only llvmplug's C ABI, "
        "needs only the C library, and can be unloaded (see 'Why hidden symbols' in the README). "
        "Exits with 1 if a check fails, with 2 if pyelftools is missing.",
    )
    check.add_argument("path", nargs="?", help="the shared library to check (default: the installed shim)")
    return parser


def _binary(data: bytes) -> bool:
    return b"\0" in data[:4096] or data[:4] == b"BC\xc0\xde"


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: the same inode if both exist (hard links too), else the same resolved path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def _overwritten_input(output: str, inputs: Sequence[str]) -> str | None:
    """The input that writing ``output`` would destroy, if any."""
    if output == "-":
        return None
    return next((name for name in inputs if name != "-" and _same_file(output, name)), None)


def _source(args: argparse.Namespace) -> str:
    return "<stdin>" if args.input == "-" else args.input


def _name_the_files(message: str, args: argparse.Namespace) -> str:
    """``message`` with the placeholders for the inputs (<module>, link module N, link[N]) replaced by their names."""
    links = list(args.link)
    if args.libdevice:
        links.append("libdevice")
    for number, name in reversed(list(enumerate(links, 1))):  # link module 10 before link module 1
        message = message.replace(f"link module {number}", name).replace(f"link[{number - 1}]", name)
    if message.startswith("<module>"):  # the shim's name for the module: "<module>:2:5: ..."
        return _source(args) + message[len("<module>") :]
    if message.startswith(("module is ", "module must ")):  # _args' checks of the module
        return _source(args) + message[len("module") :]
    return message


def _named_error(error: errors.LLVMPlugError, args: argparse.Namespace) -> errors.LLVMPlugError:
    """``error`` with the files named (a ParseError always names the input)."""
    message = _name_the_files(error.message, args)
    if message == error.message and isinstance(error, errors.ParseError):
        message = f"{_source(args)}: {message}"
    if message == error.message:
        return error
    named = type(error)(message)
    named.__dict__.update({k: v for k, v in error.__dict__.items() if k != "message"})
    return named


def _read_input(name: str) -> bytes:
    if name != "-":
        return Path(name).read_bytes()
    if sys.stdin is None:  # the command was started with its standard input closed
        raise UsageError("IN is '-' but standard input is closed: give a file, or pipe the module in")
    return sys.stdin.buffer.read()


def _write_output(name: str, data: bytes) -> None:
    """Write ``data`` to the file ``name`` whole or not at all.

    A regular file is written beside its final name and renamed over it, so
    that an interrupted or failed write never leaves half an object where a
    build expects a whole one; /dev/null and pipes are written directly.
    """
    path = Path(name)
    if path.exists() and not path.is_file():
        path.write_bytes(data)
        return
    partial = path.with_name(f".{path.name}.llvmplug-{os.getpid()}")
    try:
        partial.write_bytes(data)
        os.replace(partial, path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise


def _compile_inputs(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The output's name and every input's (linked ones and libdevice included), checked against each other."""
    output = args.output
    if output is None:
        output = "-" if args.input == "-" else str(Path(args.input).with_suffix(SUFFIXES[args.emit]))
    inputs = [args.input, *args.link]
    if args.libdevice:
        from .gpu import libdevice_path

        inputs.append(str(libdevice_path()))
    clobbered = _overwritten_input(output, inputs)
    if clobbered is not None:
        raise UsageError(
            f"the output {output} is the input {clobbered}; llvmplug never writes over an input: give another -o OUT"
        )
    return output, inputs


def _compile(args: argparse.Namespace, llvm_flags: list[str]) -> int:
    output, inputs = _compile_inputs(args)
    module = _read_input(args.input)
    link = [Path(name).read_bytes() for name in inputs[1:]]  # the --link files, then libdevice
    timings = Timings() if args.time or args.verbose else None
    shown = _feedback(args, llvm_flags)
    with Plugin(isolation=args.isolation, policy=args.options, sandbox=not args.no_sandbox) as plugin:
        try:
            data = plugin.compile(
                module, args.target, llvm_flags, output=args.emit, link=link, timings=timings, progress=shown
            )
        except errors.LLVMPlugError as error:
            raise _named_error(error, args) from None
        finally:
            if timings is not None and (timings.call or timings.cached):
                print(f"llvmplug: {timings}".replace("\n", "\nllvmplug: "), file=sys.stderr)
    if output == "-":
        if args.output is None and sys.stdout.isatty() and _binary(data):
            print(
                f"llvmplug: not writing {args.emit} output (binary) to the terminal; "
                "give -o FILE, or -o - to write it anyway",
                file=sys.stderr,
            )
            return FAILED
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        _write_output(output, data)
    return 0


class _StageLines:
    """--verbose: a line on stderr as each stage starts (as often as the shim is asked: short ones may pass unseen)."""

    def __init__(self) -> None:
        self._last = ""

    def __call__(self, progress: Progress) -> None:
        if progress.stage and progress.stage != self._last:
            self._last = progress.stage
            count = f" ({progress.done}/{progress.total} parts)" if progress.total > 1 else ""
            print(f"llvmplug: {progress.stage}{count} at {progress.seconds:.1f} s", file=sys.stderr, flush=True)


def _feedback(args: argparse.Namespace, llvm_flags: list[str]) -> Any:
    """The progress display of a compile: stage lines with --verbose, else a bar if stderr is a terminal."""
    if not args.verbose:
        bar = ProgressBar(label="<stdin>" if args.input == "-" else Path(args.input).name)
        return bar if bar.active else None
    target = args.target or "the module's triple (or the host's)"
    print(
        f"llvmplug: compiling {args.input} for {target} to {args.emit}"
        + (f" with {' '.join(llvm_flags)}" if llvm_flags else ""),
        file=sys.stderr,
    )
    for name in args.link:
        print(f"llvmplug: linking in {name}", file=sys.stderr)
    return _StageLines()


def _abi(version: int) -> str:
    """Both forms of the ABI version: "2.1 (abi_version 131073)"."""
    return f"{version >> 16}.{version & 0xFFFF} (abi_version {version})"


def _info(args: argparse.Namespace) -> int:
    if args.target is not None:
        return _target_info(args)
    with Plugin() as plugin:
        info = plugin.info()
    if args.json:
        version = info["abi_version"]
        # The packed number beside the form --version prints (major << 16 | minor).
        shown = {}
        for key, value in info.items():
            shown[key] = value
            if key == "abi_version":
                shown["abi"] = f"{version >> 16}.{version & 0xFFFF}"
        print(_json(shown))
        return 0
    print(f"LLVM {info['llvm_version']} (llvmplug ABI {_abi(info['abi_version'])})")
    print(f"host triple: {info['host_triple']}")
    print(f"host CPU:    {info['host_cpu']}")
    print(f"targets:     {', '.join(t['name'] for t in info['targets'])}")
    enabled = [f[1:] for f in info["host_features"] if f.startswith("+")]
    print(f"features:    {' '.join(enabled)}")
    print(f"sandbox:     {info['sandbox']['threads']['summary']}")
    return 0


def _target_info(args: argparse.Namespace) -> int:
    if not args.target:
        raise UsageError("--target needs a triple, not an empty string")
    with Plugin() as plugin:
        info = plugin.target_info(args.target)
    if args.json:
        print(_json(info))
        return 0
    if info.get("unknown_components"):
        print(
            f"llvmplug: warning: LLVM does not know the {' or '.join(info['unknown_components'])} of "
            f"{args.target!r} and reads it as unknown (a typo?)",
            file=sys.stderr,
        )
    print(f"triple:   {info['triple']} ({info['target']})")
    print(f"CPUs:     {' '.join(info['cpus'])}")
    print("features:")
    for feature in info["features"]:
        print(f"  {feature['name']:<24} {feature.get('description', '')}")
    return 0


def _listing(args: argparse.Namespace, method: str, what: str, example: str) -> list[dict[str, Any]] | None:
    """What ``Plugin.<method>(pattern)`` lists, printed as JSON (and None returned) with --json.

    A pattern that matches nothing is reported, and makes the status FAILED
    (with --json too, which prints an empty list): as grep's.
    """
    with Plugin() as plugin:
        entries: list[dict[str, Any]] = getattr(plugin, method)(args.pattern)
    if args.json:
        print(_json(entries))
    if not entries and args.pattern is not None:
        print(
            f"llvmplug: no {what} matches {args.pattern!r} (a glob over names without the dash, e.g. {example!r})",
            file=sys.stderr,
        )
        raise _NothingMatched
    return None if args.json else entries


class _NothingMatched(Exception):
    """A listing's pattern matched nothing (reported already)."""


def _options(args: argparse.Namespace) -> int:
    for option in _listing(args, "options", "LLVM option", "x86-*") or ():
        value = "" if option["value"] is None else f" = {option['value']}"
        # What the safe policy makes of it: allowed (a value of the compile),
        # or refused, with the class and why (--options all accepts it).
        kind = option.get("class")
        policy = (
            f"[allowed: {kind}]" if kind == "value" else f"[refused by default: {kind}, {option.get('reason', '')}]"
        )
        # On the first line: a description may run over several.
        print(f"-{option['name']} <{option['type']}>{value}  {policy}  {option['description']}")
    return 0


def _passes(args: argparse.Namespace) -> int:
    for entry in _listing(args, "passes", "pass", "loop-*") or ():
        name = f"require<{entry['name']}>" if entry["analysis"] else entry["name"]
        syntax = f"<{entry['syntax']}>" if entry["syntax"] else ""
        kind = entry["class"]
        policy = "" if kind == "value" else f"  [refused by default: {kind}, {entry['reason']}]"
        print(f"{name}{syntax}  ({', '.join(entry['kinds'])}){policy}")
        for parameter in entry["parameters"]:
            if parameter["class"] != "value" and kind == "value":
                print(
                    f"    {parameter['name']}=<{parameter['value']}>  [refused by default: "
                    f"{parameter['class']}, {parameter['reason']}]"
                )
    return 0


def _version() -> int:
    print(f"llvmplug {__version__}")
    with Plugin() as plugin:
        info = plugin.info()
    print(f"LLVM {info['llvm_version']} (llvmplug ABI {_abi(info['abi_version'])}, shim {plugin.path})")
    return 0


def _check(args: argparse.Namespace) -> int:
    try:
        from . import hygiene
    except ImportError as error:
        raise UsageError(f"'check' needs pyelftools ({error}); pip install pyelftools") from None
    findings = hygiene.check(args.path)
    print(f"{args.path or hygiene.library_path()}")
    for finding in findings:
        print(f"  {'ok  ' if finding.ok else 'FAIL'}  {finding.check}: {finding.detail}")
    failed = sum(not finding.ok for finding in findings)
    print(f"{len(findings) - failed} passed, {failed} failed" if failed else "all checks passed")
    return FAILED if failed else 0


def _for_the_command_line(message: str) -> str:
    """A message in the command line's words: its options, not the API's keywords."""
    for api, command_line in _API_TO_COMMAND_LINE:
        message = message.replace(api, command_line)
    return message


def _show_warnings(args: argparse.Namespace | None) -> None:
    """Print warnings as "llvmplug: warning: ...", each once, with the files named.

    LLVM's diagnostics arrive as "warning: ..." or "remark: ..." lines (several
    in one warning when a compile made several): those keep their own kind.
    """
    kinds = ("warning: ", "remark: ", "note: ", "error: ")

    def show(
        message: Warning | str,
        category: type[Warning],
        filename: str,
        lineno: int,
        file: Any = None,
        line: str | None = None,
    ) -> None:
        text = str(message).strip("\n")
        if args is not None and args.command == "compile":
            text = _name_the_files(text, args)
        lines = [f"llvmplug: {piece}" if piece.startswith(kinds) else piece for piece in text.splitlines()]
        if lines and not lines[0].startswith("llvmplug: "):
            lines[0] = f"llvmplug: warning: {lines[0]}"
        print("\n".join(lines), file=sys.stderr if file is None else file)

    warnings.showwarning = show


def _parse(argv: list[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace, list[str]]:
    """The parsed command line and the LLVM flags; UsageError for what argparse does not check."""
    parser = _parser()
    llvm_flags: list[str] = []
    if argv[:1] == ["compile"]:
        ours, llvm_flags = _split_llvm_flags(argv[1:], *_compile_options(parser))
        argv = ["compile", *ours]
    args = parser.parse_args(argv)
    if args.command is None and not args.version:
        parser.error("a command is required")
    if args.command == "compile" and args.target == "":
        raise UsageError("--target needs a triple, not an empty string (leave it out for the module's)")
    return parser, args, llvm_flags


def _run(args: argparse.Namespace, llvm_flags: list[str]) -> int:
    """Run the parsed command; every failure becomes one line on stderr and an exit status."""
    try:
        if args.version:
            return _version()
        if args.command == "compile":
            return _compile(args, llvm_flags)
        if args.command == "info":
            return _info(args)
        if args.command == "check":
            return _check(args)
        if args.command == "passes":
            return _passes(args)
        return _options(args)
    except BrokenPipeError:
        # The reader went away (| head): not an error worth a traceback. Point
        # stdout at /dev/null so that the interpreter's final flush is quiet.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
        return BROKEN_PIPE
    except KeyboardInterrupt:
        _interrupted()
        return _guard.INTERRUPTED
    except _NothingMatched:
        return FAILED
    except UsageError as error:
        print(f"llvmplug {args.command}: error: {error}", file=sys.stderr)
        return USAGE
    except errors.WorkerCrashedError as error:
        # The one-shot command has no next call: say what happened to this one.
        print(f"llvmplug: WorkerCrashedError: {_crash(error.signal, args, ' in its worker process')}", file=sys.stderr)
        return _guard.CRASHED
    except errors.LLVMPlugError as error:
        print(f"llvmplug: {type(error).__name__}: {_for_the_command_line(str(error))}", file=sys.stderr)
        return FAILED
    except OSError as error:
        print(f"llvmplug: {type(error).__name__}: {error}", file=sys.stderr)
        return FAILED


def _crash(signal: str | None, args: argparse.Namespace, where: str = "") -> str:
    """What a compile that died from ``signal`` means, in one sentence (``where``: " in its worker process")."""
    if signal is None or signal == "SIGKILL":  # the kernel's out-of-memory killer sends SIGKILL
        return (
            f"the compile of {_source(args)} was killed{where} ({signal or 'it exited'}: out of memory?); "
            "nothing was written"
        )
    return (
        f"LLVM crashed ({signal}){where} compiling {_source(args)}; nothing was written. The input "
        "reaches a bug in LLVM"
    )


def _interrupted() -> None:
    print("llvmplug: interrupted", file=sys.stderr)


def run() -> NoReturn:
    """The command's entry point (``llvmplug``, ``python -m llvmplug``): exits with main()'s status.

    Where the guard's child did the work, the parent has loaded nothing and holds nothing to
    release, so it leaves without tearing its interpreter down (its streams flushed first):
    on a slow interpreter the teardown of the package's modules took as long as compiling a
    small module (issue 27). Every other way exits as Python does, releasing what it loaded
    (a worker process and its directory, a private copy's file).
    """
    status = main()
    if _guard.waited:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass  # a reader gone away or a closed stream: nothing more can be said
        os._exit(status)
    sys.exit(status)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        parser, args, llvm_flags = _parse(list(sys.argv[1:] if argv is None else argv))
    except UsageError as error:
        print(f"llvmplug compile: error: {error}", file=sys.stderr)
        return USAGE
    except KeyboardInterrupt:
        _interrupted()
        return _guard.INTERRUPTED
    _show_warnings(args)
    if args.command == "compile" and args.isolation == "none" and not args.version:

        def crashed(name: str) -> None:
            print(
                f'llvmplug: {_crash(name, args)}; --isolation process (Plugin(isolation="process") '
                "in Python) contains such crashes in a worker process",
                file=sys.stderr,
            )

        return _guard.run(lambda: _run(args, llvm_flags), crashed, _interrupted)
    return _run(args, llvm_flags)
