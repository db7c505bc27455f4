"""``GET /i18n/{lang}.json``: the message catalog of one of the card room's languages, what
the web pages format their words with (:mod:`api.i18n`; design §5, "Languages")."""

from __future__ import annotations

from typing import Annotated

from litestar import Response, get
from litestar.params import PathParameter

from api.i18n import LANGUAGES, catalog_json
from api.problems import ApiProblem, documented

CatalogName = Annotated[
    str, PathParameter(max_length=16, description="a language code and .json, e.g. fa.json")
]


@get(
    "/i18n/{name:str}",
    summary="A language's message catalog",
    sync_to_thread=False,
    responses=documented(400, 404),
)
def catalog(name: CatalogName) -> Response[bytes]:
    """The catalog of language ``<code>`` (``en``, ``it``, ``kn``, ``bn``, ``fa``, ``mn``,
    ``gu``): ``lang``, ``dir`` (``ltr`` or ``rtl``), ``languages`` (code, own name and
    direction of each), ``messages`` (key -> ICU MessageFormat string) and ``fallback`` (the
    English string of each key the language has no word for yet)."""
    code, dot, ext = name.partition(".")
    if not dot or ext != "json" or code not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        detail = f"no catalog {name!r}; the languages are {known}"
        raise ApiProblem(404, "language-not-found", detail)
    return Response(
        catalog_json(code),
        media_type="application/json",
        headers={"Cache-Control": "no-cache", "Content-Language": code},
    )


ROUTES = [catalog]
