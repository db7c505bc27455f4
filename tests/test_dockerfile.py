"""The service image starts: the ``Dockerfile`` copies every top-level package the app is built
from (pyproject's ``packages.find`` include) and every repository package those import (an
import of an uncopied package fails only when the container starts)."""

from __future__ import annotations

import ast
import fnmatch
import shlex
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def included_packages() -> set[str]:
    """The top-level packages pyproject's ``[tool.setuptools.packages.find] include`` names."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    return {
        path.name
        for path in ROOT.iterdir()
        if (path / "__init__.py").is_file()
        and any(fnmatch.fnmatch(path.name, pattern) for pattern in patterns)
    }


def repository_imports(packages: set[str]) -> set[str]:
    """The repository's top-level packages that modules of ``packages`` import (imports
    inside functions included)."""
    local = {path.name for path in ROOT.iterdir() if (path / "__init__.py").is_file()}
    found: set[str] = set()
    for package in packages:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    found.add(node.module.split(".")[0])
    return found & local


def copied_paths() -> set[str]:
    """The sources of the Dockerfile's ``COPY`` instructions (first path segment)."""
    copied: set[str] = set()
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        words = shlex.split(line, comments=True)
        if not words or words[0].upper() != "COPY":
            continue
        sources = [word for word in words[1:-1] if not word.startswith("--")]
        copied.update(source.strip("./").split("/")[0] for source in sources)
    return copied


def test_the_image_copies_every_package_the_app_is_built_from_and_imports() -> None:
    packages = included_packages()
    assert {"api", "domain", "infra"} <= packages  # the include patterns were read
    imported = repository_imports(packages)
    assert imported <= packages, f"the app imports packages it is not built with: {imported}"
    assert sorted(packages - copied_paths()) == []


def test_the_image_copies_what_pip_install_needs() -> None:
    assert {"pyproject.toml", "README.md"} <= copied_paths()
