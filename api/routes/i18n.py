"""``GET /i18n/{lang}.json``: the message catalog of one of the card room's languages, what
the web pages format their words with (:mod:`api.i18n`; design §5, "Languages")."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Request, Response, get
from litestar.params import PathParameter

from api.i18n import catalog_file
from api.problems import documented

CatalogName = Annotated[
    str, PathParameter(max_length=16, description="a language code and .json, e.g. fa.json")
]


@get(
    "/i18n/{name:str}",
    summary="A language's message catalog",
    sync_to_thread=False,
    responses=documented(400, 404),
)
def catalog(name: CatalogName, request: Request[Any, Any, Any]) -> Response[bytes]:
    """The catalog of language ``<code>`` (``en``, ``it``, ``kn``, ``bn``, ``fa``, ``mn``,
    ``gu``): ``lang``, ``dir`` (``ltr`` or ``rtl``), ``languages`` (code, own name and
    direction of each), ``messages`` (key -> ICU MessageFormat string) and ``fallback`` (the
    English string of each key the language has no word for yet)."""
    code, body, etag = catalog_file(name)
    headers = {"Cache-Control": "no-cache", "Content-Language": code, "ETag": etag}
    if request.headers.get("if-none-match") == etag:
        return Response(b"", status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


ROUTES = [catalog]
