"""Routes only translate HTTP to one service call and back (design §2, "Layers"): each route
function is short, and no route module imports another (shared work lives in the services)."""

from __future__ import annotations

import ast
import inspect
from pathlib import Path

import api.routes
from api.app import create_app

ROUTES_DIR = Path(api.routes.__file__).parent
MAX_ROUTE_LINES = 15


def test_every_route_function_is_at_most_15_lines() -> None:
    app = create_app()
    too_long = {}
    for route in app.routes:
        for handler in getattr(route, "route_handlers", []):
            fn = handler.fn
            if not inspect.getmodule(fn).__name__.startswith("api.routes."):  # type: ignore[union-attr]
                continue  # Litestar's own (the OpenAPI schema)
            source = inspect.getsource(fn)
            node = ast.parse(source).body[0]
            assert isinstance(node, ast.AsyncFunctionDef | ast.FunctionDef)
            lines = (node.end_lineno or 0) - node.lineno + 1  # from ``def`` on, no decorator
            if lines > MAX_ROUTE_LINES:
                too_long[f"{fn.__module__}.{fn.__name__}"] = lines
    assert not too_long, too_long


def test_no_route_module_imports_another() -> None:
    for path in ROUTES_DIR.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("api.routes"), (path.name, node.module)
