"""The ``llvmplug`` command: compile IR files and describe the shim."""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from . import _args, errors
from .gpu import libdevice
from .plugin import OUTPUTS, Plugin

SUFFIXES = {"obj": ".o", "asm": ".s", "bc": ".bc", "ll": ".ll"}

COMPILE_HELP = """\
Compile LLVM IR text or bitcode with the llvmplug shim.

Every argument that is not one of the options below is passed to LLVM as an
llc-style flag: -O0..-O3 (default -O2), -passes=PIPELINE (-passes= alone skips
IR optimisation), -mcpu=..., -mattr=..., -relocation-model=pic, or any LLVM
option (see 'llvmplug options'); they apply to this compile only.
"""

EXAMPLES = """\
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

# Our own options; every other argument is an LLVM flag. argparse cannot be
# left to sort them: it would read '-optimize-regalloc' as '-o ptimize-regalloc'.
_OURS_WITH_VALUE = ("-o", "--output", "--target", "--emit", "--link", "--isolation", "--options")
_OUR_FLAGS = ("--libdevice",)
_OUR_LONG_OPTIONS = (*_OURS_WITH_VALUE[1:], *_OUR_FLAGS, "--help")


class UsageError(Exception):
    """A mistake on the command line that argparse never sees (it is not given LLVM's flags)."""


def _json(value: Any) -> str:
    import json  # only for --json: a command's start is what it waits for (issue 27)

    return json.dumps(value, indent=2)


def _split_llvm_flags(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    ours: list[str] = []
    llvm: list[str] = []
    args = iter(argv)
    for arg in args:
        name = arg.split("=", 1)[0]
        if arg in _OURS_WITH_VALUE:
            ours += [arg, next(args, "")]
        elif (name in _OURS_WITH_VALUE[1:] or arg in ("-h", "--help", *_OUR_FLAGS) or not arg.startswith("-")
              or arg == "-"):
            ours.append(arg)
        else:
            if name.startswith("--"):
                import difflib  # here only: a command's start is what it waits for (issue 27)

                # LLVM's options are single-dash in llc's spelling; a double-dash
                # near-miss of ours is a typo, not an LLVM option.
                close = difflib.get_close_matches(name, _OUR_LONG_OPTIONS, n=1, cutoff=0.75)
                if close:
                    raise UsageError(f"unknown option {name} (did you mean {close[0]}?)")
            llvm.append(arg)
    return ours, llvm


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="llvmplug",
        description="LLVM as a compiler library without LLVM's global state.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="show llvmplug's and LLVM's versions and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    compile_ = commands.add_parser(
        "compile",
        help="compile an IR or bitcode file",
        description=COMPILE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="llvmplug compile IN [-o OUT] [--target TRIPLE] [--emit {obj,asm,bc,ll}] "
        "[--link FILE]... [--libdevice] [--isolation {none,process}] [--options {safe,all}] [-O0..-O3] [LLVM flags...]",
    )
    compile_.add_argument("input", metavar="IN", help="IR text or bitcode file; '-' reads stdin")
    compile_.add_argument(
        "-o", "--output", metavar="OUT",
        help="output file; '-' writes stdout (default: IN with the output's suffix, "
        "or stdout when IN is '-')",
    )
    compile_.add_argument("--target", metavar="TRIPLE", help="target triple (default: the module's, else the host's)")
    compile_.add_argument("--emit", choices=OUTPUTS, default="obj", help="what to produce (default: obj)")
    compile_.add_argument("--link", metavar="FILE", action="append", default=[],
                          help="IR or bitcode to link in before optimisation (repeatable)")
    compile_.add_argument("--libdevice", action="store_true",
                          help="link NVIDIA's libdevice in (found in the nvidia-nvvm wheel, or $CUDA_HOME)")
    compile_.add_argument("--isolation", choices=_args.ISOLATIONS, default="none",
                          help="'process' compiles in a child process (a crash of LLVM is contained)")
    compile_.add_argument("--options", choices=_args.POLICIES, default="safe",
                          help="'all' accepts every LLVM option, including ones that write files "
                          "or load code (trusted input only; default: safe)")

    info = commands.add_parser("info", help="show LLVM version, host and targets")
    info.add_argument("--target", metavar="TRIPLE", help="describe one target instead: its CPUs and features")
    info.add_argument("--json", action="store_true", help="print the raw JSON")

    options = commands.add_parser("options", help="list LLVM options with their values")
    options.add_argument("pattern", nargs="?", help="glob over option names, e.g. 'x86-*'")
    options.add_argument("--json", action="store_true", help="print the raw JSON")

    passes = commands.add_parser("passes", help="list the passes -passes= can name, with their policy class")
    passes.add_argument("pattern", nargs="?", help="glob over pass names, e.g. 'loop-*'")
    passes.add_argument("--json", action="store_true", help="print the raw JSON")

    check = commands.add_parser(
        "check", help="check that a built shim hides LLVM (Linux; needs pyelftools)",
        description="Read the shim's ELF file and check that it exports only llvmplug's C ABI, "
        "needs only the C library, and can be unloaded (see 'Why hidden symbols' in the README). "
        "Exits with 1 if any check fails.",
    )
    check.add_argument("path", nargs="?", help="the shared library to check (default: the installed shim)")
    return parser


def _binary(data: bytes) -> bool:
    return b"\0" in data[:4096] or data[:4] == b"BC\xc0\xde"


def _same_file(a: str, b: str) -> bool:
    """Whether two paths name one file: the same inode if both exist, else the same resolved path."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return Path(a).resolve() == Path(b).resolve()


def _overwritten_input(output: str, inputs: Sequence[str]) -> str | None:
    """The input that writing ``output`` would destroy, if any."""
    if output == "-":
        return None
    return next((name for name in inputs if name != "-" and _same_file(output, name)), None)


def _name_the_files(error: errors.LLVMPlugError, args: argparse.Namespace) -> errors.LLVMPlugError:
    """``error`` with the shim's placeholders (<module>, link module N) replaced by the files' names."""
    message = error.message
    source = "<stdin>" if args.input == "-" else args.input
    for number, name in reversed(list(enumerate(args.link, 1))):  # link module 10 before link module 1
        message = message.replace(f"link module {number}", name)
    if message.startswith("<module>"):
        message = source + message[len("<module>"):]
    elif isinstance(error, errors.ParseError):
        message = f"{source}: {message}"
    if message == error.message:
        return error
    named = type(error)(message)
    named.__dict__.update({k: v for k, v in error.__dict__.items() if k != "message"})
    return named


def _compile(args: argparse.Namespace, llvm_flags: list[str]) -> int:
    output = args.output
    if output is None:
        output = "-" if args.input == "-" else str(Path(args.input).with_suffix(SUFFIXES[args.emit]))
    clobbered = _overwritten_input(output, [args.input, *args.link])
    if clobbered is not None:
        raise UsageError(f"the output {output} is the input {clobbered}; "
                         "llvmplug never writes over an input: give another -o OUT")
    if args.input == "-":
        module = sys.stdin.buffer.read()
    else:
        module = Path(args.input).read_bytes()
    link = [Path(name).read_bytes() for name in args.link]
    if args.libdevice:
        link.append(libdevice())
    with Plugin(isolation=args.isolation, policy=args.options) as plugin:
        try:
            data = plugin.compile(module, args.target, llvm_flags, output=args.emit, link=link)
        except errors.LLVMPlugError as error:
            raise _name_the_files(error, args) from None
    if output == "-":
        if args.output is None and sys.stdout.isatty() and _binary(data):
            print(f"llvmplug: not writing {args.emit} output (binary) to the terminal; "
                  "give -o FILE, or -o - to write it anyway", file=sys.stderr)
            return 1
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        Path(output).write_bytes(data)
    return 0


def _info(args: argparse.Namespace) -> int:
    if args.target is not None:
        return _target_info(args)
    with Plugin() as plugin:
        info = plugin.info()
    if args.json:
        print(_json(info))
        return 0
    print(f"LLVM {info['llvm_version']} (llvmplug ABI {info['abi_version'] >> 16}.{info['abi_version'] & 0xFFFF})")
    print(f"host triple: {info['host_triple']}")
    print(f"host CPU:    {info['host_cpu']}")
    print(f"targets:     {', '.join(t['name'] for t in info['targets'])}")
    enabled = [f[1:] for f in info["host_features"] if f.startswith("+")]
    print(f"features:    {' '.join(enabled)}")
    return 0


def _target_info(args: argparse.Namespace) -> int:
    with Plugin() as plugin:
        info = plugin.target_info(args.target)
    if args.json:
        print(_json(info))
        return 0
    if info.get("unknown_components"):
        print(f"llvmplug: warning: LLVM does not know the {' or '.join(info['unknown_components'])} of "
              f"{args.target!r} and reads it as unknown (a typo?)", file=sys.stderr)
    print(f"triple:   {info['triple']} ({info['target']})")
    print(f"CPUs:     {' '.join(info['cpus'])}")
    print("features:")
    for feature in info["features"]:
        print(f"  {feature['name']:<24} {feature.get('description', '')}")
    return 0


def _listing(args: argparse.Namespace, method: str) -> list[dict[str, Any]] | None:
    """What ``Plugin.<method>(pattern)`` lists; printed as JSON (and None returned) with --json."""
    with Plugin() as plugin:
        entries: list[dict[str, Any]] = getattr(plugin, method)(args.pattern)
    if args.json:
        print(_json(entries))
        return None
    return entries


def _options(args: argparse.Namespace) -> int:
    options = _listing(args, "options")
    if options is None:
        return 0
    for option in options:
        value = "" if option["value"] is None else f" = {option['value']}"
        # What the safe policy makes of it: allowed (a value of the compile),
        # or refused, with the class and why (--options all accepts it).
        kind = option.get("class")
        policy = (f"[allowed: {kind}]" if kind == "value"
                  else f"[refused by default: {kind}, {option.get('reason', '')}]")
        # On the first line: a description may run over several.
        print(f"-{option['name']} <{option['type']}>{value}  {policy}  {option['description']}")
    if not options and args.pattern is not None:
        print(f"llvmplug: no LLVM option matches {args.pattern!r} (a glob over names without the dash, "
              "e.g. 'x86-*')", file=sys.stderr)
        return 1
    return 0


def _passes(args: argparse.Namespace) -> int:
    for entry in _listing(args, "passes") or ():
        name = f"require<{entry['name']}>" if entry["analysis"] else entry["name"]
        syntax = f"<{entry['syntax']}>" if entry["syntax"] else ""
        kind = entry["class"]
        policy = "" if kind == "value" else f"  [refused by default: {kind}, {entry['reason']}]"
        print(f"{name}{syntax}  ({', '.join(entry['kinds'])}){policy}")
        for parameter in entry["parameters"]:
            if parameter["class"] != "value" and kind == "value":
                print(f"    {parameter['name']}=<{parameter['value']}>  [refused by default: "
                      f"{parameter['class']}, {parameter['reason']}]")
    return 0



def _version() -> int:
    from . import __version__

    print(f"llvmplug {__version__}")
    with Plugin() as plugin:
        info = plugin.info()
    print(f"LLVM {info['llvm_version']} (llvmplug ABI {info['abi_version'] >> 16}.{info['abi_version'] & 0xFFFF}, "
          f"shim {plugin.path})")
    return 0


def _show_warning(message: Warning | str, category: type[Warning], filename: str, lineno: int,
                  file: Any = None, line: str | None = None) -> None:
    # A command's user reads "llvmplug: warning: ...", not a Python source location.
    print(f"llvmplug: warning: {message}", file=sys.stderr if file is None else file)


def _for_the_command_line(message: str) -> str:
    """An error message in the CLI's words: its option names the policy, not the API's keyword."""
    return message.replace(errors.POLICY_ALL, "--options all")


def _check(args: argparse.Namespace) -> int:
    try:
        from . import hygiene
    except ImportError as error:
        print(f"llvmplug: 'check' needs pyelftools ({error}); pip install pyelftools", file=sys.stderr)
        return 1
    findings = hygiene.check(args.path)
    print(f"{args.path or hygiene.library_path()}")
    for finding in findings:
        print(f"  {'ok  ' if finding.ok else 'FAIL'}  {finding.check}: {finding.detail}")
    failed = sum(not finding.ok for finding in findings)
    print(f"{len(findings) - failed} passed, {failed} failed" if failed else "all checks passed")
    return 1 if failed else 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if argv[:1] == ["compile"]:
        try:
            ours, llvm_flags = _split_llvm_flags(argv[1:])
        except UsageError as error:
            print(f"{parser.prog} compile: error: {error}", file=sys.stderr)
            return 2
        argv = ["compile", *ours]
    else:
        llvm_flags = []
    args = parser.parse_args(argv)
    if args.command is None and not args.version:
        parser.error("a command is required")
    warnings.showwarning = _show_warning
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
        return 141  # 128 + SIGPIPE, as a shell reports a command killed by it
    except UsageError as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        return 2
    except errors.LLVMPlugError as error:
        print(f"llvmplug: {type(error).__name__}: {_for_the_command_line(str(error))}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"llvmplug: {type(error).__name__}: {error}", file=sys.stderr)
        return 1
