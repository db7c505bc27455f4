"""Bearer-token auth (design §5): a seat's token, issued once by ``POST /tables/{id}/seats``,
or a signed-in account's session token, which answers for the account's seat (design §2.2).

The store keeps only the token's SHA-256; ``TableStore.seat_for_token`` answers which seat of
the table holds it. Commands and legal commands need a token (401 without one, with the hint
how to get one); reads treat a caller without a token as a spectator, and a token that holds
no seat as an error (401), never as a spectator, so a client with a typo learns about it.
"""

from __future__ import annotations

from uuid import UUID

from api import embargo
from api.accounts import SESSION_PREFIX, account_seat
from api.problems import ApiProblem
from api.services import Services, blocking
from domain.game import Viewer

CHALLENGE = {"WWW-Authenticate": 'Bearer realm="cardroom"'}
MAX_TOKEN_LENGTH = 256


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (None when absent)."""
    if authorization is None or not authorization.strip():
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ApiProblem(
            401,
            "bad-authorization",
            "the Authorization header must be 'Bearer <token>' with the token from taking a seat",
            field="Authorization",
            headers=CHALLENGE,
        )
    if len(token) > MAX_TOKEN_LENGTH or not token.isascii():
        raise _no_seat()
    return token


def viewer_of(services: Services, table_id: UUID, authorization: str | None) -> Viewer:
    """The caller's seat, or None for a spectator (no token). Unknown table -> 404.

    Synchronous (it reads the store): call it from a worker thread.
    """
    token = bearer_token(authorization)
    if token is None:
        services.queries.facts(table_id)  # 404 for an unknown table
        embargo.require_open(services, table_id)  # a tournament's board (design §10)
        return None
    seat = services.queries.seat_for_token(table_id, token)
    if seat is None and token.startswith(SESSION_PREFIX):  # a signed-in account's seat
        seat = account_seat(services, table_id, token)
    if seat is None:
        raise _no_seat()
    return seat


def seat_of(services: Services, table_id: UUID, authorization: str | None) -> int:
    """The caller's seat; commands need one (401 otherwise). Synchronous, like
    :func:`viewer_of`."""
    if bearer_token(authorization) is None:
        services.queries.facts(table_id)  # 404 before 401 for an unknown table
        raise ApiProblem(
            401,
            "missing-token",
            "send 'Authorization: Bearer <token>' with the token you got when taking your "
            f"seat; to play, take one first with POST /tables/{table_id}/seats",
            field="Authorization",
            headers=CHALLENGE,
        )
    seat = viewer_of(services, table_id, authorization)
    assert seat is not None
    return seat


async def caller_seat(services: Services, table_id: UUID, authorization: str | None) -> Viewer:
    """:func:`viewer_of` from a worker thread."""
    return await blocking(viewer_of, services, table_id, authorization)


def _no_seat() -> ApiProblem:
    """401: a well-formed token that holds no seat at this table (or is not one of ours)."""
    return ApiProblem(
        401, "bad-token", "this token holds no seat at this table", field="Authorization",
        headers=CHALLENGE,
    )  # fmt: skip
