"""Hostile-input fuzzer for llvmplug.compile: mutated real IR, mutated bitcode, random bytes, random LLVM options.

The contract under test: every case returns bytes or raises a typed
``llvmplug.LLVMPlugError``. Anything else (another exception type, a hang, a
crash of the process) is a failure.

In process (``--mode inprocess``) a crash inside LLVM kills this script, so
the case about to run is always written to ``<crashers>/current.*`` first; the
parent (tests/test_fuzz.py, or you) finds it there. With ``--mode process``
compiles run in ``Plugin(isolation="process")``, a crash is a
``WorkerCrashedError`` (typed, so within the contract) and the case is saved
as a crasher; the campaign goes on.

A plain seeded mutator (no coverage feedback) so that ``--seed`` and a case
number reproduce a case exactly, also across machines:

    python tests/campaigns/fuzz_compile.py --mode process --inputs all --seconds 3600 --seed 7 --crashers /tmp/crashers
    python tests/campaigns/fuzz_compile.py --replay /tmp/crashers/<file>.case --mode process

Prints one JSON summary line on stdout; exit status 0 when the contract held.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pickle
import random
import re
import sys
import time
import traceback
import warnings
from collections import Counter
from pathlib import Path

import llvmplug

# The vendored corpus (tests/data/corpus/SOURCE.md), or a bigger one.
CORPUS = Path(os.environ.get("LLVMPLUG_CORPUS") or Path(__file__).resolve().parents[1] / "data" / "corpus")
INPUTS = ("text", "bitcode", "random", "flags")
OUTPUTS = ("obj", "asm", "bc", "ll")
# Flags that are safe in process: each selects a standard, well-trodden pipeline.
SAFE_FLAGS = ("-O0", "-O0", "-O1", "-O2", "-passes=", "-O0 -relocation-model=pic", "-O2 -mcpu=skylake")
INTERESTING_TOKENS = (
    "i1", "i8", "i64", "i128", "i7", "float", "double", "x86_fp80", "fp128", "half", "bfloat", "ptr", "void",
    "label", "<4 x i32>", "<vscale x 2 x i64>", "[0 x i8]", "{ i32, ptr }", "addrspace(5)", "0", "-1", "1",
    "2147483648", "18446744073709551616", "undef", "poison", "null", "zeroinitializer", "true", "%0", "%x",
    "@f", "!0", "align 4096", "align 1", "nsw", "nuw", "exact", "volatile", "atomic", "seq_cst", "tail",
    "musttail", "{", "}", "(", ")", ",", "=", "*", "...", "\n", "\0",
)
# Options whose effect is output to files or the terminal, a viewer, or a
# deliberate crash: not what a service would let callers set.
UNSAFE_OPTION = re.compile(
    r"print|dump|view|debug|time|stats|output|file|trace|remark|profile|json|dot|info|help|version|crash|"
    r"abort|bisect|sample|instr|pgo|filter|log|write|emit|path|dir|cache|report|stop|start|verify|"
    r"run-pass|pass-name|section|disable|limit"
)


# -- inputs ------------------------------------------------------------------


def load_corpus(plugin: llvmplug.Plugin) -> tuple[list[bytes], list[bytes]]:
    """The corpus as IR text, and as bitcode written by LLVM itself."""
    texts = [path.read_bytes() for path in sorted(CORPUS.glob("*.ll"))]
    if not texts:
        raise SystemExit(f"no IR corpus at {CORPUS} (set LLVMPLUG_CORPUS)")
    bitcode = []
    for text in texts:
        try:
            bitcode.append(plugin.compile(text, "x86_64-unknown-linux-gnu", "-passes=", output="bc"))
        except llvmplug.LLVMPlugError:
            pass
    return texts, bitcode


def mutate_text(rng: random.Random, text: bytes) -> bytes:
    lines = text.split(b"\n")
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(8)
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[j])
        elif op == 2:
            lines[i], lines[j] = lines[j], lines[i]
        elif op in (3, 4):  # swap a token for another one, from the file or the list
            tokens = re.split(rb"(\s+|,|\(|\))", lines[i])
            words = [k for k, t in enumerate(tokens) if t.strip()]
            if words:
                donor = re.split(rb"\s+", lines[j])
                new = rng.choice(donor) if op == 3 and donor else rng.choice(INTERESTING_TOKENS).encode()
                tokens[rng.choice(words)] = new
                lines[i] = b"".join(tokens)
        elif op == 5:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif op == 6 and lines[i]:
            k = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:k] + bytes([rng.randrange(256)]) + lines[i][k + 1 :]
        else:
            lines.insert(i, rng.choice(INTERESTING_TOKENS).encode())
    return b"\n".join(lines)


def mutate_bitcode(rng: random.Random, data: bytes) -> bytes:
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        while len(out) <= 4:
            out += rng.randbytes(4)  # truncated to the magic: give the ops something to work on
        op = rng.randrange(6)
        k = rng.randrange(4, len(out))  # keep the magic, or the input is no longer bitcode
        if op == 0:
            out[k] ^= 1 << rng.randrange(8)
        elif op == 1:
            out[k] = rng.choice((0x00, 0xFF, 0x7F, 0x80, 0x01))
        elif op == 2:
            del out[rng.randrange(4, len(out) + 1) :]
        elif op == 3:
            n = rng.randint(1, 64)
            out[k:k] = out[k : k + n]
        elif op == 4:
            del out[k : k + rng.randint(1, 64)]
        else:
            out[k : k + 4] = rng.randbytes(4)
    return bytes(out)


def random_bytes(rng: random.Random) -> bytes:
    body = rng.randbytes(rng.randint(1, 4096))
    prefix = rng.choice((b"", b"", b"BC\xc0\xde", b"\xde\xc0\x17\x0b\x00\x00\x00\x00\x14\x00\x00\x00", b"define "))
    return prefix + body


def random_options(rng: random.Random, options: list[dict]) -> str:
    flags = [rng.choice(SAFE_FLAGS)]
    for option in rng.sample(options, rng.randint(1, 3)):
        kind, name = option["type"], option["name"]
        if kind == "bool":
            value = rng.choice(("", "=true", "=false", "=0", "=1", "=maybe"))
        elif kind == "enum":
            value = "=" + rng.choice([*option["values"], "bogus"])
        elif kind == "number":
            value = "=" + rng.choice(("0", "0.5", "-1", "1e308", "nan", "x"))
        else:
            value = "=" + str(rng.choice((0, 1, 2, 3, 7, 64, 1000, -1, 2**31, 2**63, 2**64, "x")))
        flags.append(f"-{name}{value}")
    return " ".join(flags)


def make_case(rng: random.Random, kind: str, texts: list[bytes], bitcode: list[bytes], options: list[dict]) -> dict:
    flags, output = rng.choice(SAFE_FLAGS), rng.choice(OUTPUTS)
    if kind == "text":
        module = mutate_text(rng, rng.choice(texts))
    elif kind == "bitcode":
        module = mutate_bitcode(rng, rng.choice(bitcode))
    elif kind == "random":
        module = random_bytes(rng)
    else:
        module, flags = rng.choice(texts), random_options(rng, options)
    return {"kind": kind, "module": module or b"\n", "flags": flags, "output": output}


# -- running -----------------------------------------------------------------


def run_case(plugin: llvmplug.Plugin, case: dict, timeout: float | None) -> str:
    """The outcome's name: "ok" or the typed error's class name. Anything else raises."""
    kwargs = {"output": case["output"]}
    if timeout is not None:
        kwargs["timeout"] = timeout
    try:
        result = plugin.compile(case["module"], "x86_64-unknown-linux-gnu", case["flags"], **kwargs)
    except llvmplug.LLVMPlugError as error:
        if not error.message:
            raise AssertionError(f"{type(error).__name__} without a message") from error
        return type(error).__name__
    if not isinstance(result, bytes) or not result:
        raise AssertionError(f"compile returned {type(result).__name__} of length {len(result)}")
    return "ok"


def save(directory: Path, case: dict, name: str | None = None) -> Path:
    digest = hashlib.sha1(pickle.dumps(case)).hexdigest()[:12]
    path = directory / (name or f"{case['kind']}-{digest}.case")
    path.write_bytes(pickle.dumps(case, protocol=4))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", choices=("inprocess", "process"), default="process")
    parser.add_argument("--inputs", default="all", help=f"comma-separated subset of {','.join(INPUTS)}, or all")
    parser.add_argument("--cases", type=int, default=1000, help="stop after this many cases")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout", type=float, default=20.0, help="per-case timeout (process mode)")
    parser.add_argument("--crashers", type=Path, default=Path("fuzz-crashers"), help="where cases are saved")
    parser.add_argument("--replay", type=Path, help="run one saved case and report its outcome")
    parser.add_argument("--memory-limit", type=int, default=4 << 30,
                        help="address-space limit in bytes (Linux; 0: none) for LLVM: this process in "
                        "inprocess mode, the worker in process mode; some inputs make LLVM ask for GiBs")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore", llvmplug.LLVMPlugWarning)
    args.crashers.mkdir(parents=True, exist_ok=True)
    kinds = INPUTS if args.inputs == "all" else tuple(args.inputs.split(","))
    if not set(kinds) <= set(INPUTS):
        parser.error(f"--inputs: choose from {', '.join(INPUTS)}")

    isolated = args.mode == "process"
    timeout = args.timeout if isolated else None
    limit = args.memory_limit if args.memory_limit and sys.platform == "linux" else None
    if isolated:
        plugin = llvmplug.Plugin(isolation="process", memory_limit=limit)
    else:
        if limit:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        plugin = llvmplug.Plugin(private=True)
    if args.replay:
        case = pickle.loads(args.replay.read_bytes())
        print(json.dumps({"case": str(args.replay), "outcome": run_case(plugin, case, timeout)}))
        return 0

    with llvmplug.Plugin(private=True) as helper:
        texts, bitcode = load_corpus(helper)
        options = [o for o in helper.options() if not UNSAFE_OPTION.search(o["name"])]
    # A fixed compile repeated through the campaign: a case that changed
    # LLVM's state for later calls (an option left set, say) shows as a
    # different result.
    expected = plugin.compile(texts[0], "x86_64-unknown-linux-gnu", "-O2", output="asm")
    rng = random.Random(args.seed)
    outcomes: Counter[str] = Counter()
    crashers: list[str] = []
    failures: list[dict] = []
    started = time.monotonic()
    for number in range(args.cases):
        if args.seconds is not None and time.monotonic() - started > args.seconds:
            break
        case = make_case(rng, kinds[number % len(kinds)], texts, bitcode, options)
        case["seed"], case["number"] = args.seed, number
        if not isolated:
            save(args.crashers, case, "current.case")  # what killed us, if something does
        try:
            outcome = run_case(plugin, case, timeout)
        except Exception as error:  # noqa: BLE001 - outside the contract: record it
            outcome = "untyped"
            failures.append({"case": str(save(args.crashers, case)), "error": traceback.format_exception_only(error)})
        outcomes[f"{case['kind']}:{outcome}"] += 1
        if number % 50 == 49:
            try:
                after = plugin.compile(texts[0], "x86_64-unknown-linux-gnu", "-O2", output="asm")
            except llvmplug.LLVMPlugError as error:
                after = repr(error).encode()
            if after != expected:
                failures.append({"case": str(save(args.crashers, case)), "error": f"later compiles changed: {after[:200]!r}"})
                expected = after
        if outcome in ("WorkerCrashedError", "CompileTimeoutError"):
            crashers.append(str(save(args.crashers, case)))
    if not isolated:
        (args.crashers / "current.case").unlink(missing_ok=True)
    plugin.unload()
    summary = {
        "mode": args.mode,
        "seed": args.seed,
        "cases": sum(outcomes.values()),
        "seconds": round(time.monotonic() - started, 1),
        "outcomes": dict(sorted(outcomes.items())),
        "crashers": crashers,
        "failures": failures,
    }
    print(json.dumps(summary))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
