"""``HEAD`` on every ``GET`` route (RFC 9110 §9.3.2), in one place for the whole API.

A ``HEAD`` request is routed as the ``GET`` it mirrors, so its status and headers are the
``GET``'s (authorisation, problems and all); the body is dropped on the way out. A streaming
answer (``/stream``) is told the client left as soon as its headers are out, so a ``HEAD``
never holds a stream open.
"""

from __future__ import annotations

from typing import Any

from litestar.types import ASGIApp, Message, Receive, Scope, Send


def head_as_get(app: ASGIApp) -> ASGIApp:
    """ASGI middleware: answer ``HEAD`` with the ``GET`` route's status and headers only."""

    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "HEAD":
            await app(scope, receive, send)
            return
        done = False

        async def without_body(message: Message) -> None:
            nonlocal done
            if done:
                return
            if message["type"] == "http.response.body":
                done = True
                await send({"type": "http.response.body", "body": b"", "more_body": False})
                return
            await send(message)

        async def receive_then_leave() -> Any:
            if done:
                return {"type": "http.disconnect"}
            return await receive()

        get_scope: Any = {**scope, "method": "GET"}
        await app(get_scope, receive_then_leave, without_body)

    return middleware
