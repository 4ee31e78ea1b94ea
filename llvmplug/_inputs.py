"""What an input that cannot be a module looks like, for errors that say what to do instead.

LLVM's parser reports a file name given as text, C source or an object file
as "expected top-level entity" and prints the offending line back (raw bytes
of a binary file included), and it reads a zero-filled file as an empty
module (NUL is whitespace to its lexer): none of them says what the input
is. Each rule here holds only for input that LLVM would refuse or that is
no module by construction, so it changes the message, never what compiles:
IR text never contains a NUL byte (strings escape it as ``\\00``), its first
token is never ``#``, ``//``, ``/*`` or ``.``, and a token with no space
around it cannot be a whole module that ends in ``.ll``.
"""

from __future__ import annotations

import re

# Bitcode, raw or in its wrapper (0x0B17C0DE, little-endian): LLVM reads it.
_BITCODE = (b"BC\xc0\xde", b"\xde\xc0\x17\x0b")

# File formats by their magic number.
_FORMATS = (
    (b"\x7fELF", "an ELF file (an object, library or executable)"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O file (an object, library or executable)"),
    (b"\xce\xfa\xed\xfe", "a Mach-O file (an object, library or executable)"),
    (b"\xca\xfe\xba\xbe", "a universal Mach-O file (or a Java class file)"),
    (b"MZ", "a Windows executable or DLL"),
    (b"\x64\x86", "a COFF object file (x86-64)"),
    (b"\x64\xaa", "a COFF object file (ARM64)"),
    (b"!<arch>\n", "an ar archive (a static library)"),
    (b"\0asm", "a WebAssembly module"),
    (b"\x03\x02\x23\x07", "a SPIR-V module"),
    (b"\x1f\x8b", "gzip-compressed data"),
    (b"PK\x03\x04", "a zip archive"),
)

_NOT_IR = "is not LLVM IR or bitcode: it "
_MAKE_IR = "a module is LLVM IR text (clang -S -emit-llvm makes it) or bitcode (clang -c -emit-llvm)"

# Source files by how their first line starts: never LLVM IR's first token.
_SOURCE = (
    (re.compile(rb"#\s*(include|define|if|ifdef|ifndef|pragma|import)\b"), "C or C++ source"),
    (re.compile(rb"//|/\*"), "C, C++ or PTX source (LLVM IR's comments start with ';')"),
    (re.compile(rb"\.[A-Za-z_]"), "assembly (it starts with a directive)"),
)

_MAGIC_NUMBERS = tuple(magic for magic, _ in _FORMATS)
_LEADING_SPACE = re.compile(rb"\s*")

# A file's name, as text: one token, and a path or a source or object suffix.
_FILE_NAME = re.compile(
    rb"(?:~?\.{0,2}/|[A-Za-z]:[\\/])[^\s;\"]*|[^\s;\"]+\.(?:ll|bc|c|cc|cpp|cxx|cu|h|hpp|o|obj|s|asm|ir|txt|ptx)",
    re.IGNORECASE,
)


def not_a_module(data: bytes) -> str | None:
    """Why ``data`` is no module, as a phrase that follows its name ("module ..."); None if it may be one."""
    # Called on every module: each test is a prefix or one scan in C.
    if data.startswith(_BITCODE):
        return None
    if data.startswith(_MAGIC_NUMBERS):
        kind = next(kind for magic, kind in _FORMATS if data.startswith(magic))
        return f"{_NOT_IR}is {kind}; {_MAKE_IR}"
    nul = data.find(b"\0")
    if nul >= 0:
        if not data.strip(b"\0"):
            return (
                f"{_NOT_IR}is {len(data)} zero bytes (a zero-filled or truncated file?); a module "
                "is LLVM IR text or bitcode"
            )
        line = data.count(b"\n", 0, nul) + 1
        column = nul - data.rfind(b"\n", 0, nul)
        return (
            f"{_NOT_IR}holds a NUL byte (line {line}, column {column}, offset {nul}), which IR text never "
            f"does, and has no bitcode magic number ('BC' 0xC0DE): binary data? {_MAKE_IR}"
        )
    leading = _LEADING_SPACE.match(data)
    start = leading.end() if leading else 0  # never None: \s* matches the empty string
    if data[start : start + 1] in (b"#", b"/", b"."):
        for pattern, kind in _SOURCE:
            if pattern.match(data, start):
                first = data[start : start + 200].split(b"\n", 1)[0][:60].decode("utf-8", "replace").strip()
                return f"{_NOT_IR}looks like {kind} (it starts with {first!r}); {_MAKE_IR}"
    if len(data) <= 4096 and _FILE_NAME.fullmatch(data.strip()):
        name = data.strip().decode("utf-8", "replace")
        return (
            f"is the text {name!r}, which looks like a file's name, not IR: give the file's contents, "
            f"e.g. Path({name!r}).read_bytes()"
        )
    return None
