"""House style (design §7) as a gate: ``ruff check``, ``ruff format --check`` and ``mypy`` pass
on the whole repository, with the configuration in ``pyproject.toml``.

Each tool runs as ``sys.executable -m <tool>`` from the repository root, so it is the one
installed next to the tests. mypy keeps its incremental cache in ``.mypy_cache`` (ignored by
git): a warm run takes about a second, a cold one some twenty.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

CHECKS = {
    "ruff-check": ("ruff", ["check", "--no-fix", "."]),
    "ruff-format": ("ruff", ["format", "--check", "--diff", "."]),
    "mypy": ("mypy", []),  # the files and flags come from [tool.mypy]
}


@pytest.mark.parametrize("check", sorted(CHECKS))
def test_the_repository_passes(check: str) -> None:
    tool, arguments = CHECKS[check]
    if importlib.util.find_spec(tool) is None:
        pytest.skip(f"{tool} is not installed in {sys.executable}'s environment")
    result = subprocess.run(
        [sys.executable, "-m", tool, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if result.returncode != 0:
        pytest.fail(
            f"{check} failed (exit {result.returncode}):\n{result.stdout}\n{result.stderr}",
            pytrace=False,
        )
