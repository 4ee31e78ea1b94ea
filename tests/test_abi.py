"""The C ABI itself, called through cffi exactly as a C caller would."""

from __future__ import annotations

import re

import pytest

from llvmplug import _abi, _loader, errors


@pytest.fixture(scope="module")
def lib():
    library = _loader.Library(private=True)
    yield library.lib
    library.close()


@pytest.fixture(scope="module")
def ffi():
    return _abi.ffi()


def call(lib, ffi, function, *args):
    out = ffi.new("llvmplug_result **")
    status = getattr(lib, function)(*args, out)
    result = out[0]
    assert result != ffi.NULL
    try:
        assert lib.llvmplug_result_status(result) == status
        message = ffi.string(lib.llvmplug_result_message(result)).decode()
        # A failed result has no parts, so its data is NULL.
        assert (lib.llvmplug_result_part_count(result) > 0) == (status == lib.LLVMPLUG_OK)
        pointer = lib.llvmplug_result_data(result)
        data = b"" if pointer == ffi.NULL else ffi.unpack(pointer, lib.llvmplug_result_size(result))
    finally:
        lib.llvmplug_result_free(result)
    return status, data, message


IR = b"define i32 @f() {\n  ret i32 7\n}\n"


def compile_call(lib, ffi, module, size, target, flags, parts=0):
    """llvmplug_compile on one module given as (pointer-or-None, size)."""
    array = ffi.new("llvmplug_buffer[]", 1)
    keep = ffi.NULL if module is None else ffi.from_buffer(module)
    array[0].data = keep
    array[0].size = size
    return call(lib, ffi, "llvmplug_compile", array, 1, target, flags, parts)


def test_abi_version(lib):
    assert lib.llvmplug_abi_version() == lib.LLVMPLUG_ABI_VERSION


def test_compile_ok(lib, ffi):
    status, data, message = compile_call(lib, ffi, IR, len(IR), ffi.NULL, ffi.NULL)
    assert status == lib.LLVMPLUG_OK and data[:4] == b"\x7fELF" and message == ""


def test_module_not_nul_terminated(lib, ffi):
    # The shim must not read past module_size: give it the IR followed by junk.
    buffer = IR + b"garbage that is not IR"
    status, data, _ = compile_call(lib, ffi, buffer, len(IR), b"", b"")
    assert status == lib.LLVMPLUG_OK


@pytest.mark.parametrize(
    ("module", "size", "target", "flags", "status_name", "words"),
    [
        (None, 10, None, None, "LLVMPLUG_ERROR_ARGUMENT", "NULL"),
        (IR, 0, None, None, "LLVMPLUG_ERROR_ARGUMENT", "empty"),
        (b"\x01\x02\x03garbage", 10, None, None, "LLVMPLUG_ERROR_PARSE", ""),
        (IR, len(IR), b"m68k-unknown-linux-gnu", None, "LLVMPLUG_ERROR_TARGET", "m68k"),  # experimental: never linked
        (IR, len(IR), None, b"-no-such-option", "LLVMPLUG_ERROR_OPTION", "no-such-option"),
        (IR, len(IR), None, b"-O2 \"unterminated", "LLVMPLUG_ERROR_OPTION", "unterminated"),
    ],
)
def test_compile_errors(lib, ffi, module, size, target, flags, status_name, words):
    target, flags = (ffi.NULL if v is None else v for v in (target, flags))
    status, data, message = compile_call(lib, ffi, module, size, target, flags)
    assert status == getattr(lib, status_name)
    assert data == b""
    assert words in message


def test_null_out_is_rejected(lib, ffi):
    array = ffi.new("llvmplug_buffer[]", 1)
    assert lib.llvmplug_compile(array, 1, ffi.NULL, ffi.NULL, 0, ffi.NULL) == lib.LLVMPLUG_ERROR_ARGUMENT
    status, _, message = call(lib, ffi, "llvmplug_compile", ffi.NULL, 0, ffi.NULL, ffi.NULL, 0)
    assert status == lib.LLVMPLUG_ERROR_ARGUMENT and "no module" in message
    assert lib.llvmplug_info(ffi.NULL) == lib.LLVMPLUG_ERROR_ARGUMENT
    assert lib.llvmplug_set_options(b"", ffi.NULL) == lib.LLVMPLUG_ERROR_ARGUMENT
    assert lib.llvmplug_list_options(b"", ffi.NULL) == lib.LLVMPLUG_ERROR_ARGUMENT
    assert lib.llvmplug_list_passes(b"", ffi.NULL) == lib.LLVMPLUG_ERROR_ARGUMENT


def test_null_result_accessors(lib, ffi):
    assert lib.llvmplug_result_status(ffi.NULL) == lib.LLVMPLUG_ERROR_ARGUMENT
    assert lib.llvmplug_result_data(ffi.NULL) == ffi.NULL
    assert lib.llvmplug_result_size(ffi.NULL) == 0
    assert ffi.string(lib.llvmplug_result_message(ffi.NULL)) == b""
    lib.llvmplug_result_free(ffi.NULL)


def test_set_options_all_or_nothing(lib, ffi):
    status, _, message = call(lib, ffi, "llvmplug_set_options", b"-x86-asm-syntax=intel -unroll-max-count=x", )
    assert status == lib.LLVMPLUG_ERROR_OPTION and "unroll-max-count" in message
    status, data, _ = compile_call(lib, ffi, IR, len(IR), ffi.NULL, b"-filetype=asm")
    assert data.startswith(b"\t.att_syntax")
    status, _, _ = call(lib, ffi, "llvmplug_set_options", ffi.NULL)
    assert status == lib.LLVMPLUG_OK


def test_bad_glob(lib, ffi):
    status, _, message = call(lib, ffi, "llvmplug_list_options", b"[")
    assert status == lib.LLVMPLUG_ERROR_ARGUMENT and "pattern" in message
    status, _, message = call(lib, ffi, "llvmplug_list_passes", b"[")
    assert status == lib.LLVMPLUG_ERROR_ARGUMENT and "pass pattern" in message


def test_every_status_has_an_exception(ffi):
    statuses = {v for k, v in ffi.typeof("llvmplug_status").relements.items() if k != "LLVMPLUG_OK"}
    assert statuses == set(errors._BY_STATUS)


def test_cdef_is_the_header_region():
    text = _abi.HEADER.read_text()
    source = _abi.cdef_source(text)
    # Every function the header declares is in the cdef, and nothing else is.
    declared = set(re.findall(r"LLVMPLUG_API[^;]*?\b(llvmplug_\w+)\s*\(", text))
    assert declared == set(re.findall(r"\b(llvmplug_\w+)\s*\(", source))
    assert len(declared) == 24  # 2.2 added llvmplug_progress, llvmplug_result_timings, llvmplug_set_sandbox
    # and llvmplug_confine_process


def test_shutdown_then_calls_fail_cleanly(ffi):
    library = _loader.Library(private=True)
    lib = library.lib
    assert lib.llvmplug_shutdown() == lib.LLVMPLUG_OK
    assert lib.llvmplug_shutdown() == lib.LLVMPLUG_OK
    status, _, message = compile_call(lib, ffi, IR, len(IR), ffi.NULL, ffi.NULL)
    assert status == lib.LLVMPLUG_ERROR_SHUTDOWN and "shutdown" in message
    library.close()
