"""The README's Python snippets run as written (against the installed package)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_python_section_runs(tmp_path):
    blocks = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(), re.S)
    # The first two are the Python section's: the host, then GPU code and linking.
    # (Later ones show services and assume the caller's own modules and flags.)
    source = "\n".join(blocks[:2])
    assert "import llvmplug" in source and "link=[helper]" in source
    (tmp_path / "examples").mkdir()
    shutil.copy(ROOT / "examples" / "add.ll", tmp_path / "examples" / "add.ll")
    source += "\nassert \".entry k\" in ptx.decode() and \"scale\" not in ptx.decode()  # linked, inlined\n"
    result = subprocess.run([sys.executable, "-c", source], cwd=tmp_path, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr
    assert "X86" in result.stdout and "NVPTX" in result.stdout
