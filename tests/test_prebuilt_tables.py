"""The policy tables come from the build, and equal what a loaded copy computes (issue 27).

What the option and pass policies say about every LLVM option and pass is
fixed when the shim is built, so the build computes it (csrc/options/prebuilt.h) and a
copy no longer does so on every load. These tests hold the build's tables to
what a copy computes itself: LLVMPLUG_CHECK_TABLES=1 makes a copy compute every
table and compare it, row by row and field by field, with the build's;
LLVMPLUG_PREVIOUS_LOAD=1 makes it use its own tables, as every copy did before.
Each variable is read by a copy when it first runs, so each test sets it only
while its private copy loads.
"""

from __future__ import annotations

import llvmplug
import pytest


@pytest.fixture
def copy_with(monkeypatch):
    """A private copy loaded with these environment variables set, and only while it loads."""
    made = []

    def load(**variables: str) -> llvmplug.Plugin:
        with monkeypatch.context() as scope:
            for name, value in variables.items():
                scope.setenv(name, value)
            made.append(llvmplug.Plugin(private=True))
        return made[-1]

    yield load
    for plugin in made:
        plugin.unload()


def test_a_copy_uses_the_tables_the_build_computed(copy_with):
    assert copy_with().info()["tables"] == {"source": "build"}


def test_the_build_tables_equal_what_a_copy_computes(copy_with):
    checked = copy_with(LLVMPLUG_CHECK_TABLES="1").info()["tables"]
    assert checked == {"source": "check", "differences": [], "difference_count": 0}


def test_the_check_reports_differences(copy_with):
    # Without the output capture a copy learns fewer option shapes (enums
    # only show theirs in the help text), so its own tables differ from the
    # build's: the check must say so. (Such a copy classifies its options
    # itself, failing closed: tests/test_policy.py.)
    checked = copy_with(LLVMPLUG_CHECK_TABLES="1", LLVMPLUG_TEST_NO_CAPTURE="1").info()["tables"]
    assert checked["difference_count"] >= len(checked["differences"]) > 1
    assert "printing" in checked["differences"][0]
    option_rows = [line for line in checked["differences"] if line.startswith("option '")]
    assert option_rows and all("the build's {" in line and "this copy's {" in line for line in option_rows)


def test_listings_equal_those_of_a_copy_that_computes_its_tables(copy_with):
    built, computed = copy_with(), copy_with(LLVMPLUG_PREVIOUS_LOAD="1")
    assert computed.info()["tables"] == {"source": "load"}
    assert built.options() == computed.options()
    assert built.passes() == computed.passes()


def test_a_copy_without_the_capture_classifies_its_options_itself(copy_with):
    # The build learned enum shapes from the help text; a copy that cannot
    # print (LLVMPLUG_TEST_NO_CAPTURE, as on Windows and macOS) must not take
    # the build's word for them, or an option it cannot vet would pass.
    blind = copy_with(LLVMPLUG_TEST_NO_CAPTURE="1")
    with pytest.raises(llvmplug.OptionError, match="could not be learned"):
        blind.compile("define void @f() {\n  ret void\n}\n", flags=["-x86-asm-syntax=intel"])
    copy_with().compile("define void @f() {\n  ret void\n}\n", flags=["-x86-asm-syntax=intel"])
