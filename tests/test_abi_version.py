"""The loader refuses a library of another ABI right after dlopen, before touching anything else."""

from __future__ import annotations

import sys

import llvmplug
import pytest
from llvmplug import _loader

from fake_shims import VERSION_ONLY, build

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="builds a shared library with cc")


@pytest.mark.parametrize(("version", "shown"), [(0x00030000, "3.0"), (0x00010001, "1.1"), (0x00000000, "0.0")])
def test_another_major_is_refused(tmp_path, cc, version, shown):
    library = build(cc, tmp_path, "other", VERSION_ONLY, f"-DVERSION={version}")
    for _ in range(2):  # the refused library is not left loaded (no "already loaded" the second time)
        with pytest.raises(llvmplug.LibraryLoadError, match=rf"implements llvmplug ABI {shown}; .* needs ABI 2\.2 or a later 2\.x"):
            llvmplug.Plugin(path=library)
    with pytest.raises(llvmplug.LibraryLoadError, match=f"ABI {shown}"):
        llvmplug.Plugin(path=library, private=True)


def test_an_older_minor_is_refused(tmp_path, cc, monkeypatch):
    library = build(cc, tmp_path, "older", VERSION_ONLY, "-DVERSION=0x00020002")
    monkeypatch.setattr(_loader, "ABI_MIN_MINOR", 3)  # as a package needing ABI 2.3 would
    with pytest.raises(llvmplug.LibraryLoadError, match=r"implements llvmplug ABI 2\.2; .* needs ABI 2\.3"):
        _loader.Library(library)


def test_the_minor_before_2_2_is_refused(tmp_path, cc):
    # ABI 2.2 added llvmplug_set_sandbox, which every load calls, and llvmplug_progress and
    # llvmplug_result_timings, which a watched or timed compile calls.
    library = build(cc, tmp_path, "older", VERSION_ONLY, "-DVERSION=0x00020001")
    with pytest.raises(llvmplug.LibraryLoadError, match=r"implements llvmplug ABI 2\.1; .* needs ABI 2\.2"):
        _loader.Library(library)


def test_the_minor_before_llvmplug_list_passes_is_refused(tmp_path, cc):
    # ABI 2.1 added llvmplug_list_passes and llvmplug_compile_modules, which Plugin calls.
    library = build(cc, tmp_path, "older", VERSION_ONLY, "-DVERSION=0x00020000")
    with pytest.raises(llvmplug.LibraryLoadError, match=r"implements llvmplug ABI 2\.0; .* needs ABI 2\.2"):
        _loader.Library(library)


def test_a_later_minor_is_accepted(tmp_path, cc):
    library = build(cc, tmp_path, "later", VERSION_ONLY, "-DVERSION=0x00020007")
    # The library exports nothing else: the checks touched nothing but the
    # version and (from ABI 2.1) the build id.
    loaded = _loader.Library(library)
    assert loaded.build_id == "0" * 64
    loaded.close()


def test_a_library_without_the_version_function_is_not_a_shim(tmp_path, cc):
    library = build(cc, tmp_path, "stranger", "int something(void) { return 1; }\n")
    with pytest.raises(llvmplug.LibraryLoadError, match="not an llvmplug shim"):
        llvmplug.Plugin(path=library)


def test_the_real_shim_matches():
    version = llvmplug.info()["abi_version"]
    assert version >> 16 == _loader.ABI_MAJOR and version & 0xFFFF >= _loader.ABI_MIN_MINOR
