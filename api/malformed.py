"""The one malformed-request problem (design §5, "Errors"), in the client's words.

Litestar reports a body, query, header or path that does not parse with its own names: the
whole body is ``data``, a query is named after the handler's argument (``from_version``) and
its source reads ``ParamType.QUERY``. The client knows only what it sent, so this module
names the body field (``seat``), the query parameter (``from``) or the header
(``Idempotency-Key``) as the client wrote it. Every such error, a body that is not JSON
included, is one problem type: 400 ``malformed-request`` with ``field`` when there is one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from litestar import Request
from litestar.exceptions import HTTPException, ValidationException

MALFORMED = "malformed-request"
BODY_PARAMETER = "data"  # the name Litestar gives the request body
_MISSING_FIELD = re.compile(r"missing required field `([^`]+)`")
_AT_PATH = re.compile(r" - at `\$\.([^`]+)`$")
_MISSING_PARAMETER = re.compile(r"Missing required (?:query parameter|header) '([^']+)'")


@dataclass(frozen=True)
class Malformed:
    detail: str
    field: str | None = None
    errors: tuple[dict[str, Any], ...] = ()


def bad_table_id(exc: ValidationException) -> bool:
    """Whether the path's table id failed to parse (it is not a UUID: it names no table)."""
    return any(
        (error.get("source"), error.get("key")) == ("path", "table_id") for error in _errors(exc)
    )


def malformed(request: Request[Any, Any, Any], exc: HTTPException) -> Malformed:
    """What a 400 from Litestar says, naming the field as the client wrote it."""
    errors = [
        {**error, "key": _client_name(request, error)} if "key" in error else error
        for error in (_errors(exc) if isinstance(exc, ValidationException) else [])
    ]
    if not errors:
        missing = _MISSING_PARAMETER.search(str(exc.detail))
        return Malformed(str(exc.detail), missing.group(1) if missing else None)
    first = errors[0]
    name = first.get("key")
    message = str(first.get("message", exc.detail))
    source = _source(first.get("source"))
    where = f"{source} field {name!r}" if name and source else (f"{name!r}" if name else "")
    return Malformed(f"{where}: {message}" if where else message, name, tuple(errors))


def _errors(exc: ValidationException) -> list[dict[str, Any]]:
    extra = exc.extra if isinstance(exc.extra, list) else [exc.extra]
    return [error for error in extra if isinstance(error, dict)]


def _source(source: Any) -> str | None:
    """``ParamType.QUERY`` -> ``query``; ``body`` stays ``body``."""
    if source is None:
        return None
    return str(getattr(source, "value", source))


def _client_name(request: Request[Any, Any, Any], error: dict[str, Any]) -> str | None:
    """The name the client used for the field at fault (None: the body as a whole)."""
    key = error.get("key")
    if key == BODY_PARAMETER:
        message = str(error.get("message", ""))
        found = _MISSING_FIELD.search(message) or _AT_PATH.search(message)
        return found.group(1) if found else None
    try:
        parameter = request.route_handler.parsed_fn_signature.parameters[str(key)]
    except (AttributeError, KeyError):
        return None if key is None else str(key)
    declared = parameter.kwarg_definition
    for attribute in (_source(error.get("source")) or "", "name"):
        alias = getattr(declared, attribute, None)
        if isinstance(alias, str) and alias:
            return alias
    return str(key)
