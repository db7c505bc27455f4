"""What ``pip install .`` (the Dockerfile's install) ships: every file the service reads at run
time from a package folder that is not Python (nor a developer's README) — the web card room's
assets, each game's board renderer and its words in each language — is named by
``[tool.setuptools.package-data]``, so a wheel serves the same pages and catalogs as a
checkout."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHIPPED_PACKAGES = ("api", "domain")


def test_every_non_python_file_of_a_package_is_package_data() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]
    missing = []
    for package in SHIPPED_PACKAGES:
        base = ROOT / package
        for path in base.rglob("*"):
            if (
                not path.is_file()
                or path.suffix in (".py", ".pyc", ".md")
                or "__pycache__" in path.parts
            ):
                continue
            relative = path.relative_to(base).as_posix()
            globs = patterns.get(package, [])
            if not any(
                fnmatch(relative, glob) for glob in globs
            ):  # (a looser match than setuptools')
                missing.append(f"{package}/{relative}")
    assert missing == [], missing
