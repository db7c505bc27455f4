"""Problem details (RFC 9457) for every error the API answers (design §5, "Errors").

Each error is ``application/problem+json`` with ``type``, ``title``, ``status`` and a
``detail`` a person can act on, plus what is wrong when known: ``rule`` (the spec rule a
command broke), ``option`` (the table option), ``field`` (the body field, query or header).
Nothing reaches the client as a bare 500: the catch-all handler logs the exception and answers
a problem without internals.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from redis import RedisError

from api.malformed import MALFORMED, bad_table_id, malformed
from domain.cards import CardError
from domain.errors import DomainError, InvalidOption
from infra.store import StoreUnavailable, TableNotFound, VersionConflict

log = logging.getLogger("cardroom.api")

PROBLEM_JSON = "application/problem+json"
MAX_BODY_BYTES = 64 * 1024  # a command is < 1 KiB; a larger body is a 413 problem
PROBLEM_BASE = "urn:cardroom:problem:"


class Problem(msgspec.Struct, kw_only=True, omit_defaults=True):
    """The problem-details body (RFC 9457) with cardroom's extension members."""

    type: str
    title: str
    status: int
    detail: str
    rule: str | None = None
    option: str | None = None
    field: str | None = None
    errors: list[dict[str, Any]] | None = None


class ApiProblem(Exception):
    """An error the API raises itself (auth, forbidden, bad query, projection timeout)."""

    def __init__(
        self,
        status: int,
        slug: str,
        detail: str,
        *,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.slug = slug
        self.detail = detail
        self.field = field
        self.headers = headers or {}


def problem_response(
    status: int,
    slug: str,
    detail: str,
    *,
    headers: dict[str, str] | None = None,
    **extensions: Any,
) -> Response[Problem]:
    body = Problem(
        type=PROBLEM_BASE + slug, title=_phrase(status), status=status, detail=detail, **extensions
    )
    return Response(content=body, status_code=status, media_type=PROBLEM_JSON, headers=headers)


def _phrase(status: int) -> str:
    """The status's reason phrase (``Unprocessable Entity``), or ``Error`` if unknown."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def _slug(name: str) -> str:
    """``IllegalCommand`` -> ``illegal-command``."""
    out = []
    for i, ch in enumerate(name):
        if ch.isupper() and i:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


def domain_error_handler(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """A command or option the rules reject: the game's own message and rule (design §5)."""
    assert isinstance(exc, DomainError)
    extensions: dict[str, Any] = {}
    if exc.rule:
        extensions["rule"] = exc.rule
    if isinstance(exc, InvalidOption):
        extensions["option"] = exc.key
    field = getattr(exc, "field", None)  # e.g. the header or query at fault
    if isinstance(field, str):
        extensions["field"] = field
    # Every 400 is the one malformed-request problem; other statuses are named by the error.
    slug = MALFORMED if exc.status == 400 else _slug(type(exc).__name__)
    return problem_response(exc.status, slug, exc.message, **extensions)


def card_error_handler(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    return problem_response(422, "invalid-card", str(exc))


def api_problem_handler(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    assert isinstance(exc, ApiProblem)
    extensions = {"field": exc.field} if exc.field else {}
    return problem_response(exc.status, exc.slug, exc.detail, headers=exc.headers, **extensions)


# Litestar's words when the connection ends before the body is complete (e.g. the server's
# body timeout, api/serverlimits.py, closed it).
CLIENT_LEFT = "client disconnected prematurely"


def http_exception_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """Litestar's own errors (no route, bad path/query/header/body) as problem details: a
    table id that is not a UUID names no table (404 ``table-not-found``); anything else that
    does not parse is the one ``malformed-request`` problem naming the field as the client
    wrote it (:mod:`api.malformed`)."""
    assert isinstance(exc, HTTPException)
    status = exc.status_code
    if exc.detail == CLIENT_LEFT:  # nobody to answer, and not the server's fault
        log.info("client left mid-body: %s %s", request.method, request.url.path)
        return problem_response(400, "client-left", "the client left before sending its body")
    if status >= 500:
        log.error("HTTP %s: %s", status, exc.detail)
        return problem_response(status, "server-error", "the server could not answer this request")
    if isinstance(exc, ValidationException) and bad_table_id(exc):
        table = request.scope.get("path_params", {}).get("table_id", "")
        return problem_response(404, "table-not-found", f"no table {table!r}")
    if status == 400:
        found = malformed(request, exc)
        extensions: dict[str, Any] = {"errors": list(found.errors)} if found.errors else {}
        if found.field:
            extensions["field"] = found.field
        return problem_response(status, MALFORMED, found.detail, headers=exc.headers, **extensions)
    slug = _phrase(status).lower().replace(" ", "-")  # e.g. "method-not-allowed"
    return problem_response(status, slug, exc.detail, headers=exc.headers)


def store_error_handler(status: int, slug: str) -> Any:
    """The store's and Redis's errors: unknown table, version conflict, unavailable."""

    def handle(_: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
        if status >= 500:
            log.warning("%s: %s", slug, exc)
            headers = {"Retry-After": "1"}
            return problem_response(
                status, slug, f"{slug.replace('-', ' ')}; retry shortly", headers=headers
            )
        return problem_response(status, slug, str(exc) or slug.replace("-", " "))

    return handle


def too_deep_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """A JSON body nested so deeply that decoding it overflowed the stack: malformed input,
    the one 400 problem. Any other ``RecursionError`` is a fault of ours (a 500)."""
    if "deserializing" not in str(exc):  # msgspec's decoder says so; nothing else does
        return unexpected_error_handler(request, exc)
    return problem_response(400, MALFORMED, "the JSON body is nested too deeply")


def unexpected_error_handler(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """Last resort: log it with the request line, answer a problem without internals."""
    log.exception("unhandled error on %s %s", request.method, request.url.path, exc_info=exc)
    return problem_response(500, "server-error", "the server failed to answer this request")


def exception_handlers() -> dict[Any, Any]:
    """The handlers in resolution order (Litestar picks the most specific class)."""
    return {
        DomainError: domain_error_handler,
        CardError: card_error_handler,
        ApiProblem: api_problem_handler,
        TableNotFound: store_error_handler(404, "table-not-found"),
        VersionConflict: store_error_handler(409, "version-conflict"),
        StoreUnavailable: store_error_handler(503, "store-unavailable"),
        RedisError: store_error_handler(503, "redis-unavailable"),
        HTTPException: http_exception_handler,
        RecursionError: too_deep_handler,
        Exception: unexpected_error_handler,
    }


_MEANINGS = {
    400: "malformed request: a body, query, header or path that does not parse (names `field`)",
    401: "no token, or a token that holds no seat at this table",
    403: "not allowed: another seat's turn, a body naming another seat, stacked decks off",
    404: "unknown table (or hand), or unknown game (or a game without a board)",
    409: "version conflict (expectedVersion), a taken seat, or a closed table",
    413: "a request body over 64 KiB",
    429: "past this client address's budget (CARDROOM_RATE_LIMITS); see `Retry-After`",
    422: "illegal under the rules (names `rule`, `option` or `field`)",
    503: "the store or Redis does not answer, or the projection lags behind `after`",
}


def documented(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries for the problem answers an operation may give."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            description=_MEANINGS[status],
            media_type=PROBLEM_JSON,
            generate_examples=False,
        )
        for status in statuses
    }
