"""Accounts and sessions (design §2.2): the service layer behind ``/accounts``, ``/sessions``,
``/me`` and ``/guests``, and what a session is worth at a table.

* Passwords are hashed with argon2id (``argon2-cffi``: :data:`HASHER`'s parameters, design
  §2.2) in a worker thread; the hash is recorded in the account's stream and goes nowhere else.
* A wrong name and a wrong password are one answer (401 ``bad-credentials``) taking the same
  time: an unknown name is checked against a dummy hash of the same parameters.
* A session token is ``session.<account id>.<secret>``; the account's stream records its
  SHA-256 (``SessionStarted``), and signing out records ``SessionEnded``, so a revoked token
  no longer answers in any process.
* An account's seat at a table holds the token ``HMAC-SHA256(seat key, table id)``: the seat key
  is drawn at registration and kept in the stream, so any session of the account reaches the
  seat's token again (:func:`seat_token`), and an API client keeps the token itself.
* Sessions travel as ``Authorization: Bearer <token>`` or the ``cardroom_session`` cookie
  (HttpOnly, SameSite=Lax). A write authenticated by the cookie alone is refused (403
  ``cross-site``) when its ``Origin`` (or ``Sec-Fetch-Site``) says another site sent it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit
from uuid import UUID

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from api.problems import ApiProblem
from api.schemas import SeatTaken
from api.services import Services
from domain import accounts as rules
from domain.table import PlayerSeated, TakeSeat, hash_token
from infra.accounts import Conflict, NameTaken

# argon2id, OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): tens of
# milliseconds per guess on a server core, a memory bill for every guess on a GPU.
HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1, hash_len=32, salt_len=16)
SESSION_PREFIX = "session."
COOKIE = "cardroom_session"
COOKIE_AGE = 30 * 24 * 3600  # seconds: a month of evenings
CHALLENGE = {"WWW-Authenticate": 'Bearer realm="cardroom"'}
MAX_TOKEN = 256


@dataclass(frozen=True)
class Signed:
    """A live session: the account's id, its state, and the session's hash."""

    account_id: UUID
    account: rules.Account
    session: str


@cache
def dummy_hash() -> str:
    """A hash of the same parameters nobody's password matches (timing of unknown names)."""
    return HASHER.hash(secrets.token_urlsafe(24))


def hash_session(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_token(account: rules.Account, table_id: UUID) -> str:
    """The token of the account's seat at ``table_id`` (what its hash at the table is of)."""
    digest = hmac.new(account.seat_key.encode(), table_id.bytes, hashlib.sha256).digest()
    return "acct-" + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _bad_credentials() -> ApiProblem:
    return ApiProblem(
        401, "bad-credentials", "the name or the password is wrong", field="name",
        headers=CHALLENGE,
    )  # fmt: skip


def _name_taken(name: str) -> ApiProblem:
    return ApiProblem(
        409, "name-taken", f"the name {name!r} (or one that reads like it) is taken", field="name"
    )


def _refused(error: rules.AccountError) -> ApiProblem:
    return ApiProblem(400, "bad-account-request", str(error), field=error.field)


def register(services: Services, name: object, password: object) -> dict[str, str]:
    """``POST /accounts``: a player account; 400 naming a bad field, 409 a taken name."""
    chosen = rules.registered_name(name)
    try:
        secret = rules.check_password(password)
    except rules.AccountError as error:
        raise _refused(error) from error
    if services.accounts.holder(chosen) is not None:  # spare the hash for a taken name
        raise _name_taken(chosen)
    try:
        _, account = services.accounts.register(
            chosen, rules.PLAYER, HASHER.hash(secret), secrets.token_urlsafe(32)
        )
    except NameTaken as error:
        raise _name_taken(chosen) from error
    return {"name": account.name, "kind": account.kind}


def sign_in(services: Services, name: object, password: object) -> dict[str, str]:
    """``POST /sessions``: a new session of the named account, or the one 401."""
    if not isinstance(name, str) or not isinstance(password, str):
        raise ApiProblem(400, "malformed", "send `name` and `password` as strings", field="name")
    holder = None
    if 0 < len(name) <= 64 and len(password) <= rules.MAX_PASSWORD:
        holder = services.accounts.holder(name)
    state = services.accounts.load(holder)[0] if holder is not None else None
    stored = state.password_hash if state is not None else None
    if not _verify(stored or dummy_hash(), password) or state is None or stored is None:
        raise _bad_credentials()
    assert holder is not None
    return _start(services, holder)


def guest(services: Services) -> dict[str, str]:
    """``POST /guests``: a guest account (``guest-xxxxxx``) and its session."""
    for _ in range(5):
        name = rules.GUEST_PREFIX + secrets.token_hex(3)
        try:
            account_id, _ = services.accounts.register(
                name, rules.GUEST, None, secrets.token_urlsafe(32)
            )
        except NameTaken:
            continue
        return _start(services, account_id)
    raise ApiProblem(503, "unavailable", "no guest name free; try again")


def _start(services: Services, account_id: UUID) -> dict[str, str]:
    token = f"{SESSION_PREFIX}{account_id.hex}.{secrets.token_urlsafe(32)}"
    try:
        account = services.accounts.execute(account_id, rules.StartSession(hash_session(token)))
    except Conflict:  # another sign-in of this account at the same moment: once more
        account = services.accounts.execute(account_id, rules.StartSession(hash_session(token)))
    return {"token": token, "name": account.name, "kind": account.kind}


def _verify(stored: str, password: str) -> bool:
    try:
        return HASHER.verify(stored, password.encode("utf-8", "surrogatepass"))
    except (VerificationError, InvalidHashError):
        return False


def signed_in(services: Services, token: str | None) -> Signed | None:
    """The live session ``token`` opens (None: no token, not a session, revoked)."""
    if token is None or not token.startswith(SESSION_PREFIX) or len(token) > MAX_TOKEN:
        return None
    account_hex, _, secret = token[len(SESSION_PREFIX) :].partition(".")
    try:
        account_id = UUID(hex=account_hex)
    except ValueError:
        return None
    if not secret:
        return None
    account, _ = services.accounts.load(account_id)
    session = hash_session(token)
    if account is None or session not in account.sessions:
        return None
    return Signed(account_id, account, session)


def required(services: Services, token: str | None) -> Signed:
    """The live session, or 401."""
    found = signed_in(services, token)
    if found is None:
        raise ApiProblem(
            401, "not-signed-in", "sign in first: POST /sessions (or POST /guests)",
            headers=CHALLENGE,
        )  # fmt: skip
    return found


def sign_out(services: Services, token: str | None) -> None:
    """``DELETE /sessions/current``: the session no longer answers."""
    found = required(services, token)
    try:
        services.accounts.execute(found.account_id, rules.EndSession(found.session))
    except Conflict:
        services.accounts.execute(found.account_id, rules.EndSession(found.session))


def claim(services: Services, token: str | None, name: object, password: object) -> dict[str, str]:
    """``POST /me/claim``: a guest takes a name and a password; the account (its seats,
    its sessions) stays the same."""
    found = required(services, token)
    if found.account.kind != rules.GUEST:
        raise ApiProblem(409, "not-a-guest", "only a guest account may be claimed", field="name")
    chosen = rules.registered_name(name)
    try:
        secret = rules.check_password(password)
    except rules.AccountError as error:
        raise _refused(error) from error
    try:
        services.accounts.claim(chosen, found.account_id)
    except NameTaken as error:
        raise _name_taken(chosen) from error
    account = services.accounts.execute(
        found.account_id, rules.ClaimGuest(chosen, HASHER.hash(secret))
    )
    return {"name": account.name, "kind": account.kind}


def change_password(
    services: Services, token: str | None, password: object, new_password: object
) -> None:
    """``POST /me/password``: with the current password, a new one (``PasswordChanged``);
    every session of the account ends with it, this one too."""
    found = required(services, token)
    stored = found.account.password_hash
    if not isinstance(password, str) or not _verify(stored or dummy_hash(), password) or not stored:
        raise _bad_credentials()
    try:
        secret = rules.check_password(new_password)
    except rules.AccountError as error:
        raise _refused(rules.AccountError(str(error), field="newPassword")) from error
    services.accounts.execute(found.account_id, rules.ChangePassword(HASHER.hash(secret)))


def me(services: Services, token: str | None) -> dict[str, str]:
    found = required(services, token)
    return {"name": found.account.name, "kind": found.account.kind}


# -- how a request carries its session -------------------------------------------------------


def session_of(headers: Any, cookies: Any, *, write: bool) -> str | None:
    """The session token a request carries: ``Authorization: Bearer`` first, else the
    cookie — and for a write by cookie, only from this site (403 ``cross-site``)."""
    authorization = headers.get("authorization")
    if authorization:
        scheme, _, token = authorization.strip().partition(" ")
        if scheme.lower() == "bearer" and token.strip().startswith(SESSION_PREFIX):
            return token.strip()
        return None
    token = cookies.get(COOKIE)
    if not token:
        return None
    if write:
        same_site(headers)
    return str(token)


def same_site(headers: Any) -> None:
    """Refuse (403) a cookie-authenticated write another site sent."""
    if headers.get("sec-fetch-site", "") in ("cross-site",):
        raise _cross_site()
    origin = headers.get("origin")
    if origin is None:
        return
    host = headers.get("host", "")
    if origin == "null" or urlsplit(origin).netloc.lower() != host.lower():
        raise _cross_site()


def _cross_site() -> ApiProblem:
    return ApiProblem(
        403, "cross-site", "a write signed in by cookie must come from this site's pages",
        field="Origin",
    )  # fmt: skip


def cookie_header(token: str, *, secure: bool) -> str:
    """The ``Set-Cookie`` of a session."""
    flags = "; Secure" if secure else ""
    return f"{COOKIE}={token}; Path=/; Max-Age={COOKIE_AGE}; HttpOnly; SameSite=Lax{flags}"


def cleared_cookie() -> str:
    return f"{COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"


# -- an account at a table -----------------------------------------------------------------


def take_seat(services: Services, table_id: UUID, token: str, seat: int | None) -> SeatTaken:
    """The signed-in account sits at ``table_id`` under its name (``seat`` or the first free
    one); a second device of the account asking again gets the same seat back. The answer
    holds the seat's token, as any seat's does."""
    found = required(services, token)
    held = seat_token(found.account, table_id)
    already = services.queries.seat_for_token(table_id, held)
    if already is not None:
        current = services.store.get(table_id)
        return SeatTaken(
            table_id=str(table_id), seat=already, token=held, version=current.version,
            position=0,
        )  # fmt: skip
    command = TakeSeat(
        name=found.account.name, token_hash=hash_token(held), seat=seat, account=found.account.kind
    )
    result = services.store.execute(table_id, command)
    for recorded in result.events:
        event = recorded.event
        if isinstance(event, PlayerSeated) and event.token_hash == command.token_hash:
            return SeatTaken(
                table_id=str(table_id), seat=event.seat, token=held,
                version=result.version, position=result.position,
            )  # fmt: skip
    raise RuntimeError(f"table {table_id}: TakeSeat wrote no PlayerSeated for this account")


def not_an_accounts_name(services: Services, name: str) -> None:
    """A name typed at a seat may not be an account's (or read like one): 409 naming
    ``name`` — the account sits signed in, so nobody is counted as another."""
    if services.accounts.holder(name.strip()) is not None:
        raise ApiProblem(
            409, "name-taken",
            f"{name.strip()!r} is an account's name: sign in to sit as it, or choose another",
            field="name",
        )  # fmt: skip


def my_seat(services: Services, table_id: UUID, token: str | None) -> tuple[int, str, str]:
    """``GET /me/seats/{table_id}``: the seat the signed-in account holds at the table, its
    token and the account's name, so a page on another device of the account continues the
    seat (401 without a session, 404 when the account holds no seat there)."""
    found = required(services, token)
    services.queries.facts(table_id)  # 404 for an unknown table
    held = seat_token(found.account, table_id)
    seat = services.queries.seat_for_token(table_id, held)
    if seat is None:
        raise ApiProblem(
            404, "no-seat", f"{found.account.name} holds no seat at table {table_id}",
            field="table_id",
        )  # fmt: skip
    return seat, held, found.account.name


def account_seat(services: Services, table_id: UUID, token: str) -> int | None:
    """The seat a session's account holds at ``table_id`` (None: not signed in, no seat)."""
    found = signed_in(services, token)
    if found is None:
        return None
    return services.queries.seat_for_token(table_id, seat_token(found.account, table_id))
