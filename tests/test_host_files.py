"""Files of this machine that IR names: the safe policy refuses to let LLVM read them.

BPF's BTF writer copies each line of a source file into the object's line
info (.BTF.ext), from the DIFile's embedded `source:` or else from
`directory/filename` on the host (BTFDebug::populateFileContent). IR could
so carry any readable file into its object, or block on a FIFO. Under the
safe policy such a file that exists here is an OptionError naming it; on
Linux the kernel sandbox would also make the read fail, but the policy holds
without it (sandbox=False; Windows and macOS), and both give one answer.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

import llvmplug

WRITERS = Path(__file__).resolve().parent / "data" / "debuginfo" / "writers"
# clang-19 -g -target bpfel of a C file (near.c); its DIFile names near.c in a directory
# that does not exist, which each test replaces with one of its own.
BPF = (WRITERS / "near-c.bpfel.ll").read_text()
ABSENT = "/nonexistent/llvmplug/near-c"
SECRET = "int llvmplug_host_secret_line = 42;"


def _naming(directory: Path | str, source: str | None = None) -> str:
    assert f'directory: "{ABSENT}"' in BPF
    text = BPF.replace(f'directory: "{ABSENT}"', f'directory: "{directory}"')
    if source is not None:
        text = text.replace('checksumkind: CSK_MD5, checksum: "80acb1f906a8db23f49db5b5b949befd"',
                            f'source: "{source}"')
        assert "source:" in text
    return text


def _host_file(tmp_path: Path) -> Path:
    lines = [f"{SECRET} // {n}" for n in range(200)]  # every line BTF could name
    (tmp_path / "near.c").write_text("\n".join(lines) + "\n")
    return tmp_path


@pytest.mark.parametrize("sandbox", [True, False])
def test_a_host_file_named_by_debug_info_is_refused(tmp_path, sandbox):
    directory = _host_file(tmp_path)
    with llvmplug.Plugin(private=True, sandbox=sandbox) as plugin:
        with pytest.raises(llvmplug.OptionError) as caught:
            plugin.compile(_naming(directory), "bpfel", cache=None)
    message = str(caught.value)
    assert f"'{directory}/near.c'" in message and "BTF" in message and "-gembed-source" in message


def test_the_channel_is_real_under_policy_all(tmp_path):
    """The control: without the check (policy="all", no kernel sandbox) the file's lines are in the object."""
    directory = _host_file(tmp_path)
    with llvmplug.Plugin(private=True, policy="all", sandbox=False) as plugin:
        output = plugin.compile(_naming(directory), "bpfel", cache=None)
    assert SECRET.encode() in output


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel sandbox is Linux's")
def test_the_kernel_sandbox_alone_keeps_the_file_out(tmp_path):
    """The second layer: policy="all" in a sandboxed copy reads nothing either (Landlock refuses the open)."""
    directory = _host_file(tmp_path)
    with llvmplug.Plugin(private=True, policy="all", sandbox=True) as plugin:
        threads = plugin.info()["sandbox"]["threads"]
        if "landlock" not in threads["layers"]:
            pytest.skip(f"no Landlock here: {threads['summary']}")
        output = plugin.compile(_naming(directory), "bpfel", cache=None)
    assert SECRET.encode() not in output


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_named_by_debug_info_is_refused_not_read(tmp_path):
    """A read would block for ever; the refusal comes first (a child, so that a regression fails, not hangs)."""
    os.mkfifo(tmp_path / "near.c")
    with llvmplug.Plugin(isolation="process", sandbox=False) as plugin:
        with pytest.raises(llvmplug.OptionError, match="near.c"):
            plugin.compile(_naming(tmp_path), "bpfel", cache=None, timeout=60)


@pytest.mark.parametrize("sandbox", [True, False])
def test_an_absent_file_or_an_embedded_source_compiles_the_same_with_or_without_the_sandbox(tmp_path, sandbox):
    absent = _naming(tmp_path / "absent")
    embedded = _naming(_host_file(tmp_path), source="int x;\\0A")  # there, but never read: no refusal
    with llvmplug.Plugin(private=True, sandbox=sandbox) as plugin:
        outputs = [plugin.compile(text, "bpfel", cache=None) for text in (absent, embedded)]
    with llvmplug.Plugin(private=True, sandbox=not sandbox) as other:
        assert [other.compile(text, "bpfel", cache=None) for text in (absent, embedded)] == outputs
    assert SECRET.encode() not in outputs[1] and b"int x;" in outputs[1]


def test_other_targets_never_read_the_file(tmp_path):
    """Only BPF's BTF reads source files; DWARF and CodeView name them. No refusal for x86."""
    directory = _host_file(tmp_path)
    x86 = _naming(directory).replace('target triple = "bpfel"', 'target triple = "x86_64-unknown-linux-gnu"')
    x86 = "\n".join(line for line in x86.splitlines() if not line.startswith("target datalayout"))
    output = llvmplug.compile(x86, "x86_64-unknown-linux-gnu", cache=None)
    assert SECRET.encode() not in output
