"""The README's embedding example runs as written (a subprocess, with a time limit)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_embedding_example_runs(tmp_path):
    text = (ROOT / "README.md").read_text()
    code = re.search(r"## Embedding\n\n```python\n(.*?)```", text, re.S).group(1)
    script = tmp_path / "example.py"
    script.write_text(code)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path, env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "10"        # the arrange() line's documented value
