"""Accounts and sessions (design §2.2; the service layer is :mod:`api.accounts`)."""

from __future__ import annotations

import hashlib
from typing import Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import JSONBody

from api import accounts
from api.params import TableId
from api.problems import documented
from api.ratelimit import spend_key
from api.schemas import Request as Body
from api.services import ServicesDep, blocking
from domain.accounts import claim_key

# Sign-in attempts: per name and per client address, in a minute.
SIGN_INS_PER_NAME = 10
SIGN_INS_PER_CLIENT = 30
WINDOW = 60


class Credentials(Body):
    """A name and a password (``POST /accounts``, ``POST /sessions``, ``POST /me/claim``)."""

    name: str
    password: str


class Account(msgspec.Struct):
    name: str
    kind: str


class Session(msgspec.Struct):
    token: str
    name: str


def _session_answer(request: Request[Any, Any, Any], found: dict[str, str]) -> Response[Session]:
    secure = request.url.scheme == "https"
    return Response(
        Session(token=found["token"], name=found["name"]),
        status_code=201,
        headers={"Set-Cookie": accounts.cookie_header(found["token"], secure=secure)},
    )


@post("/accounts", status_code=201, summary="Register", responses=documented(400, 409, 503))
async def register(data: JSONBody[Credentials], services: ServicesDep) -> Account:
    """A player account: ``name`` (2–24 letters, digits, ``_``, ``-``; not taken, nor one
    that reads like a taken one) and ``password`` (at least 10 characters, kept as an
    argon2id hash)."""
    found = await blocking(accounts.register, services, data.name, data.password)
    return Account(**found)


@post("/sessions", status_code=201, summary="Sign in", responses=documented(400, 401, 429, 503))
async def sign_in(
    request: Request[Any, Any, Any], data: JSONBody[Credentials], services: ServicesDep
) -> Response[Session]:
    """A session: its bearer token, and the same as an HttpOnly SameSite=Lax cookie. A wrong
    name or password is one 401; attempts are limited per name and per client."""
    key = hashlib.sha256(claim_key(data.name[:64]).encode("utf-8", "surrogatepass")).hexdigest()
    await spend_key(request.scope, f"signin-name:{key}", SIGN_INS_PER_NAME, WINDOW)
    await spend_key(request.scope, "signin", SIGN_INS_PER_CLIENT, WINDOW, per_client=True)
    found = await blocking(accounts.sign_in, services, data.name, data.password)
    return _session_answer(request, found)


@post("/guests", status_code=201, summary="Play as a guest", responses=documented(429, 503))
async def guest(request: Request[Any, Any, Any], services: ServicesDep) -> Response[Session]:
    """A guest account (``guest-xxxxxx``) and its session, to claim later with a name."""
    await spend_key(request.scope, "guests", SIGN_INS_PER_CLIENT, WINDOW, per_client=True)
    found = await blocking(accounts.guest, services)
    return _session_answer(request, found)


@delete("/sessions/current", status_code=204, summary="Sign out", responses=documented(401, 403))
async def sign_out(request: Request[Any, Any, Any], services: ServicesDep) -> Response[None]:
    """Revoke this session (bearer or cookie); the cookie is cleared."""
    token = accounts.session_of(request.headers, request.cookies, write=True)
    await blocking(accounts.sign_out, services, token)
    return Response(None, status_code=204, headers={"Set-Cookie": accounts.cleared_cookie()})


@get("/me", summary="Who am I", responses=documented(401, 503))
async def me(request: Request[Any, Any, Any], services: ServicesDep) -> Account:
    """The signed-in account's name and kind (``player``, ``guest``); 401 without a session."""
    token = accounts.session_of(request.headers, request.cookies, write=False)
    return Account(**await blocking(accounts.me, services, token))


class HeldSeat(msgspec.Struct):
    seat: int
    token: str
    name: str


@get("/me/seats/{table_id:str}", summary="My seat at a table", responses=documented(400, 401, 404))
async def my_seat(
    request: Request[Any, Any, Any], table_id: TableId, services: ServicesDep
) -> HeldSeat:
    """The seat the signed-in account holds at the table, with its token: the play page of
    a second device of the account continues the seat (404 when it holds none there)."""
    token = accounts.session_of(request.headers, request.cookies, write=False)
    seat, held, name = await blocking(accounts.my_seat, services, table_id, token)
    return HeldSeat(seat=seat, token=held, name=name)


@post("/me/claim", status_code=200, summary="Claim a guest", responses=documented(400, 401, 409))
async def claim(
    request: Request[Any, Any, Any], data: JSONBody[Credentials], services: ServicesDep
) -> Account:
    """A guest chooses a name and a password: the same account (its seats, its session)."""
    token = accounts.session_of(request.headers, request.cookies, write=True)
    found = await blocking(accounts.claim, services, token, data.name, data.password)
    return Account(**found)


class NewPassword(Body):
    """The current password and the new one (``POST /me/password``)."""

    password: str
    new_password: str


@post("/me/password", status_code=204, summary="Change password", responses=documented(400, 401))
async def change_password(
    request: Request[Any, Any, Any], data: JSONBody[NewPassword], services: ServicesDep
) -> Response[None]:
    """With the current ``password``, a ``newPassword`` (10+ characters); every session of
    the account ends (sign in again)."""
    token = accounts.session_of(request.headers, request.cookies, write=True)
    await blocking(accounts.change_password, services, token, data.password, data.new_password)
    return Response(None, status_code=204, headers={"Set-Cookie": accounts.cleared_cookie()})


ROUTES = [register, sign_in, guest, sign_out, me, my_seat, claim, change_password]
