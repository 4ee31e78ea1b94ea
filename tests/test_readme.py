"""The README's Python snippets run as written (against the installed package)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_python_section_runs(tmp_path):
    """From an empty directory: the snippets need no file of the checkout."""
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    # The first two are the Python section's: the host, then GPU code and linking; then
    # running code with tvm-ffi-orcjit. (Others show services with the caller's own modules.)
    running = [block for block in blocks if "tvm_ffi_orcjit" in block]
    source = "\n".join(blocks[:2] + running)
    assert "import llvmplug" in source and "link=[helper]" in source and len(running) == 1
    source += "\nassert \".entry k\" in ptx.decode() and \"scale\" not in ptx.decode()  # linked, inlined\n"
    result = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert "X86" in result.stdout and "NVPTX" in result.stdout
