"""Limits on what a connection may hold of the server (design §5, "Server limits").

uvicorn's httptools protocol with three limits, from the settings
(``CARDROOM_MAX_HEADER_BYTES``, ``CARDROOM_HEADER_TIMEOUT``, ``CARDROOM_BODY_TIMEOUT``):

* a request line plus headers larger than ``max_header_bytes`` is answered ``431`` and the
  connection closed, before the rest is buffered;
* a connection that has not sent a request's headers within ``header_timeout`` seconds (from
  its opening, or from the first byte of a later request) is answered ``408`` and closed;
* a request whose body is not complete ``body_timeout`` seconds after its headers is closed:
  the application sees the client as gone (``http.disconnect``).

Each is answered as problem details with the project's slug (``request-header-fields-too-large``,
``request-timeout``), as is a request the parser refuses (a header holding a DEL byte: the one
400 ``malformed-request``, not uvicorn's plain text). Idle keep-alive connections are closed by
uvicorn's own keep-alive timeout. The limits reach
the protocol as ``config.limits`` (the uvicorn ``Config`` is pickled to worker processes, so
they travel with it).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import msgspec
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from api.malformed import MALFORMED
from api.problems import PROBLEM_BASE
from infra.settings import Settings


@dataclass(frozen=True)
class ServerLimits:
    max_header_bytes: int
    header_timeout: float
    body_timeout: float

    @classmethod
    def of(cls, settings: Settings) -> ServerLimits:
        return cls(settings.max_header_bytes, settings.header_timeout, settings.body_timeout)


class _HeadersTooLarge(Exception):
    """Raised in a parser callback: the parser stops and the request is refused."""


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with :class:`ServerLimits` (``config.limits``)."""

    def __init__(self, config: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        self.limits: ServerLimits = config.limits
        self._in_head = True
        self._head_bytes = 0  # bytes received while the headers are incomplete
        self._head_parsed = 0  # request line and header bytes parsed
        self._too_large = False
        self._deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.limits.header_timeout, self._headers_too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        too_large = self._in_head and self._head_bytes > self.limits.max_header_bytes
        if too_large and not self.transport.is_closing():
            self._refuse_headers()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head_parsed = 0
        if not self._in_head:  # a later request on this connection
            self._in_head = True
            self._head_bytes = 0
            self._arm(self.limits.header_timeout, self._headers_too_slow)

    def on_url(self, url: bytes) -> None:
        super().on_url(url)
        self._count(len(url))

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        self._count(len(name) + len(value) + 4)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._arm(self.limits.body_timeout, self._body_too_slow)
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._disarm()
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request the parser refuses (a header holding a DEL byte, a
        malformed request line): the one 400 problem, as problem details, not plain text."""
        if self._too_large:
            self._refuse_headers()
        else:
            self._reply_and_close(
                400,
                b"Bad Request",
                "the request line or a header does not parse as HTTP/1.1 "
                "(a byte HTTP does not allow there, such as a control character or DEL)",
                slug=MALFORMED,
            )

    # -- limits -------------------------------------------------------------------------------

    def _count(self, size: int) -> None:
        self._head_parsed += size
        if self._head_parsed > self.limits.max_header_bytes:
            self._too_large = True
            raise _HeadersTooLarge

    def _refuse_headers(self) -> None:
        self._reply_and_close(431, b"Request Header Fields Too Large", "request headers too large")

    def _headers_too_slow(self) -> None:
        self._deadline = None
        if self._in_head:
            self._reply_and_close(408, b"Request Timeout", "request headers too slow")

    def _body_too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()  # the application reads http.disconnect

    def _reply_and_close(
        self, status: int, reason: bytes, detail: str, *, slug: str | None = None
    ) -> None:
        """Answer a problem (design §5, "Errors": the project's ``urn:cardroom:problem:`` slug,
        by default the reason phrase's, ``request-header-fields-too-large``) and close."""
        self._disarm()
        if self.transport.is_closing():
            return
        kind = PROBLEM_BASE + (slug or reason.decode().lower().replace(" ", "-"))
        body = msgspec.json.encode(
            {"type": kind, "title": reason.decode(), "status": status, "detail": detail}
        )
        self.transport.write(
            b"HTTP/1.1 %d %s\r\ncontent-type: application/problem+json\r\n"
            b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (status, reason, len(body), body)
        )
        self.transport.close()

    def _arm(self, seconds: float, handler: Any) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, handler)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
