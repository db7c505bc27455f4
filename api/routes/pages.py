"""The web card room: HTML shells of the lobby, the spectator's table and the player's table,
the static files they load (``api/web``), and the OpenAPI browser's assets served locally.

Each page is one HTML shell that loads a plain ES module (no build step, nothing fetched from
outside): ``/`` the lobby, ``/watch/{id}`` the table live and its replay, ``/play/{id}`` a
seat's table. The modules read the API of design §5 like any other client.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from litestar import Response, Router, get
from litestar.connection import ASGIConnection
from litestar.exceptions import NotFoundException
from litestar.handlers import BaseRouteHandler, HTTPRouteHandler
from litestar.openapi.plugins import SwaggerRenderPlugin
from litestar.static_files import create_static_files_router

from api.params import TableId
from api.webpage import page

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
STATIC = "/static"
SWAGGER = f"{STATIC}/vendor/swagger-ui"
# A static file's path as the files are named: segments of ASCII letters, digits, ``.``,
# ``_`` and ``-`` (no dot first), 100 characters a segment and 200 in all at most. Anything
# else — a NUL, a control or invisible character, a name longer than the file system allows —
# is no file of ours: 404 before the file system is asked (it would raise, not answer).
_STATIC_NAME = re.compile(r"(?:/[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}){1,10}")
MAX_STATIC_PATH = 200


def static_name(connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler) -> None:
    """Guard of the static files: refuse a name no file of ``api/web`` can have (404)."""
    path = connection.scope["path"][len(STATIC) :]
    if len(path) > MAX_STATIC_PATH or not _STATIC_NAME.fullmatch(path):
        raise NotFoundException(f"no static file {path[:60]!r}")


def _page(title: str, module: str) -> Response[str]:
    return page(title, module)


@get("/", include_in_schema=False)
async def lobby_page() -> Response[str]:
    """The lobby: live, waiting and ended tables, and the create-table form."""
    return _page("cardroom — lobby", "lobby.js")


@get("/watch/{table_id:uuid}", include_in_schema=False)
async def watch_page(table_id: TableId) -> Response[str]:
    """The spectator's table, live over the stream, and its replay (``?at=N``)."""
    return _page("cardroom — watch", "watch.js")


@get("/play/{table_id:uuid}", include_in_schema=False)
async def play_page(table_id: TableId) -> Response[str]:
    """A seat's table: take a seat, then play from the legal commands."""
    return _page("cardroom — play", "play.js")


def swagger_plugin() -> SwaggerRenderPlugin:
    """Swagger UI at ``/schema/swagger`` from the vendored ``swagger-ui-dist`` (no CDN)."""
    return SwaggerRenderPlugin(
        path="/swagger",
        js_url=f"{SWAGGER}/swagger-ui-bundle.js",
        css_url=f"{SWAGGER}/swagger-ui.css",
        standalone_preset_js_url=f"{SWAGGER}/swagger-ui-standalone-preset.js",
        favicon=f"<link rel='icon' type='image/svg+xml' href='{STATIC}/img/favicon.svg'>",
    )


ROUTES: list[HTTPRouteHandler | Router] = [
    lobby_page,
    watch_page,
    play_page,
    create_static_files_router(
        path=STATIC, directories=[WEB_DIR], name="web", guards=[static_name]
    ),
]
