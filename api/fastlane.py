"""The command route's fast lane (design §5, §6 "Command path"): ``POST /tables/{id}/commands``
answered without the framework's per-request machinery, with the framework's own answers.

Commands are the API's hot path: on a busy server most of a command's CPU went to routing,
middleware, parameter extraction and response building around a handler that does one thing
(:func:`api.writes.issue`). The fast lane is ASGI middleware in front of the routes that takes
a command request only when it is plain — the exact path with a canonical table UUID, a bearer
token, a valid ``Idempotency-Key`` or none, no CORS ``Origin``, a complete JSON-object body
within the size limit — and then does what the route does: spends the caller's command budget
(:mod:`api.ratelimit`), runs :func:`api.writes.issue` in the command lane
(:mod:`api.commandlane`: one thread per app runs queued commands in batches) and encodes its
answer with the app's serializer. An error is answered by the app's own exception handler, as
the route's would be. Anything else (a malformed path, header or body, a CORS request, a client
that left mid-body) goes to the routes untouched, its body replayed, so every edge case keeps
the one answer the framework gives it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec
from litestar.serialization import encode_json, get_serializer

from api.commandlane import CommandLane
from api.params import MAX_AUTHORIZATION, MAX_IDEMPOTENCY_KEY, ascii_integer
from api.problems import MAX_BODY_BYTES
from api.ratelimit import spend_budget

if TYPE_CHECKING:
    from litestar import Litestar
    from litestar.types import ASGIApp, Receive, ReceiveMessage, Scope, Send

# The route's path with a table id in canonical form (other spellings go to the routes).
COMMAND_PATH = re.compile(
    r"/tables/([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})/commands"
)
JSON_HEADERS = [(b"content-type", b"application/json")]
_decode = msgspec.json.Decoder().decode


class _Plain:
    """What the fast lane needs from a command request's headers; ``None`` when it is not
    plain (the routes answer it)."""

    __slots__ = ("authorization", "idempotency_key")

    def __init__(self, authorization: str, idempotency_key: str | None) -> None:
        self.authorization = authorization
        self.idempotency_key = idempotency_key

    @classmethod
    def of(cls, headers: Iterable[tuple[bytes, bytes]]) -> _Plain | None:
        authorization = key = None
        for name, value in headers:
            if name == b"authorization":
                if authorization is not None:
                    return None
                authorization = value.decode("latin-1")
            elif name == b"idempotency-key":
                if key is not None:
                    return None
                key = value.decode("latin-1")
            elif name == b"origin" or (name == b"content-length" and _too_long(value)):
                return None
        if not authorization or len(authorization) > MAX_AUTHORIZATION:
            return None
        if key is not None and not 0 < len(key) <= MAX_IDEMPOTENCY_KEY:
            return None
        return cls(authorization, key)


def _too_long(content_length: bytes) -> bool:
    length = ascii_integer(content_length)
    return length is None or length > MAX_BODY_BYTES


def fast_commands(app: Litestar, routes: ASGIApp) -> ASGIApp:
    """ASGI middleware for ``app`` (set on ``app.asgi_handler``): plain command requests in
    the fast lane, everything else to ``routes``."""
    serializer = get_serializer(app.type_encoders)
    handlers = app.exception_handlers
    lane = CommandLane()

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await routes(scope, receive, send)
            return
        path = COMMAND_PATH.fullmatch(scope["path"])
        plain = _Plain.of(scope["headers"]) if path is not None else None
        if path is None or plain is None:
            await routes(scope, receive, send)
            return
        received: list[ReceiveMessage] = []
        body = await _body(receive, received)
        data = _object(body)
        if data is None:  # not a complete JSON object: the routes say what is wrong
            await routes(scope, _replay(received, receive), send)
            return
        try:
            await spend_budget(scope, "commands")
            answer = await lane.issue(
                app.state.services,
                (UUID(path.group(1)), plain.authorization, data, plain.idempotency_key),
            )
        except Exception as error:
            await _problem(app, handlers, error, scope, _replay(received, receive), send)
            return
        content = encode_json(answer, serializer)
        headers = [*JSON_HEADERS, (b"content-length", str(len(content)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": content, "more_body": False})

    return middleware


async def _body(receive: Receive, received: list[ReceiveMessage]) -> bytes | None:
    """The whole body (``None``: the client left, or it is over the size limit); every
    message read is kept in ``received`` for a replay."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _object(body: bytes | None) -> dict[str, Any] | None:
    """The body as a JSON object, or ``None`` when it is anything else."""
    if not body:
        return None
    try:
        data = _decode(body)
    except Exception:  # malformed, or nested past the stack: the routes answer it
        return None
    return data if isinstance(data, dict) else None


def _replay(received: list[ReceiveMessage], receive: Receive) -> Receive:
    """``receive`` with the messages already read given back first."""
    pending = list(received)

    async def replayed() -> ReceiveMessage:
        if pending:
            return pending.pop(0)
        return await receive()

    return replayed


async def _problem(
    app: Litestar,
    handlers: Any,
    error: Exception,
    scope: Scope,
    receive: Receive,
    send: Send,
) -> None:
    """Answer ``error`` as the app's exception handling does for a route (the handler of the
    nearest class in the error's MRO)."""
    handler = next((handlers[cls] for cls in type(error).__mro__ if cls in handlers), None)
    if handler is None:
        raise error
    request = app.request_class(scope=scope, receive=receive, send=send)
    response = handler(request, error)
    asgi = response.to_asgi_response(app=None, request=request, type_encoders=app.type_encoders)
    await asgi(scope, receive, send)
