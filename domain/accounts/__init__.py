"""Accounts (design §2.2, "Players who exist"): who a player is, from one evening to the next.

An account is a stream of its own (never a table's): it is registered under a name, holds
sessions (signed-in browsers and API clients), may be a guest claimed later under a name, and
may change its password. Its events carry the password's argon2id hash and the account's seat
key (what its seats' tokens are derived from): both stay in this stream, shown nowhere.

Rules of account names (``account_name``): the one rule of names (:mod:`domain.names`), and
besides 2 to 24 characters, each a letter, a digit, ``_`` or ``-``. Two names are the same name
when their :func:`claim_key` is (:func:`domain.names.name_key`); a name-claim
stream keyed by that key (:class:`NameClaimed` at version 1) makes a name one
account's, whoever races for it.

Kinds: ``player`` (registered), ``guest`` (a web visitor, ``guest-xxxx``, claimable), and
``bot:<kind>`` (a server-side bot; never signs in).

Pure: :func:`decide` and :func:`evolve`; hashing and token drawing happen outside.
"""

from __future__ import annotations

import msgspec

from domain.errors import InvalidName
from domain.names import check_name, name_key

MIN_ACCOUNT_NAME = 2
MAX_ACCOUNT_NAME = 24
MIN_PASSWORD = 10
MAX_PASSWORD = 1024  # argon2 hashes anything; a megabyte "password" is an attack, not a secret
PLAYER = "player"
GUEST = "guest"
GUEST_PREFIX = "guest-"


class AccountError(Exception):
    """A command the account's rules refuse (``field`` names what is wrong)."""

    def __init__(self, message: str, field: str = "name") -> None:
        super().__init__(message)
        self.field = field


# -- events (stable topics ``account/<tag>``: infra.accounts) ----------------------------


class AccountEvent(msgspec.Struct, frozen=True, tag_field="type", kw_only=True):
    """Base of an account stream's events."""


class AccountRegistered(AccountEvent, frozen=True, tag="AccountRegistered"):
    """An account opened: its name, kind, password hash (none for a guest) and seat key."""

    name: str
    kind: str
    password_hash: str | None
    seat_key: str


class SessionStarted(AccountEvent, frozen=True, tag="SessionStarted"):
    """A sign-in: the SHA-256 of the session token (the token is never stored)."""

    session: str


class SessionEnded(AccountEvent, frozen=True, tag="SessionEnded"):
    """A sign-out: that session no longer answers."""

    session: str


class GuestClaimed(AccountEvent, frozen=True, tag="GuestClaimed"):
    """A guest chose a name and a password: the same account, now a player."""

    name: str
    password_hash: str


class PasswordChanged(AccountEvent, frozen=True, tag="PasswordChanged"):
    """A new password hash (every other session ends with it)."""

    password_hash: str


class NameClaimed(AccountEvent, frozen=True, tag="NameClaimed"):
    """A name-claim stream's only event: the account that holds the name (hex id)."""

    account: str


Event = (
    AccountRegistered | SessionStarted | SessionEnded | GuestClaimed | PasswordChanged | NameClaimed
)
EVENTS: tuple[type, ...] = (
    AccountRegistered, SessionStarted, SessionEnded, GuestClaimed, PasswordChanged, NameClaimed,
)  # fmt: skip


# -- state ---------------------------------------------------------------------------------


class Account(msgspec.Struct, frozen=True, kw_only=True):
    """An account as its events leave it."""

    name: str
    kind: str
    password_hash: str | None
    seat_key: str
    sessions: frozenset[str] = frozenset()


def evolve(state: Account | None, event: Event) -> Account | None:
    """The account after ``event``."""
    if isinstance(event, AccountRegistered):
        return Account(
            name=event.name,
            kind=event.kind,
            password_hash=event.password_hash,
            seat_key=event.seat_key,
        )
    if state is None:
        return None
    if isinstance(event, SessionStarted):
        return msgspec.structs.replace(state, sessions=state.sessions | {event.session})
    if isinstance(event, SessionEnded):
        return msgspec.structs.replace(state, sessions=state.sessions - {event.session})
    if isinstance(event, GuestClaimed):
        return msgspec.structs.replace(
            state, name=event.name, kind=PLAYER, password_hash=event.password_hash
        )
    if isinstance(event, PasswordChanged):
        return msgspec.structs.replace(
            state, password_hash=event.password_hash, sessions=frozenset()
        )
    return state


def replay(events: list[Event]) -> Account | None:
    state: Account | None = None
    for event in events:
        state = evolve(state, event)
    return state


# -- commands ------------------------------------------------------------------------------


class Register(msgspec.Struct, frozen=True):
    name: str
    kind: str
    password_hash: str | None
    seat_key: str


class StartSession(msgspec.Struct, frozen=True):
    session: str


class EndSession(msgspec.Struct, frozen=True):
    session: str


class ClaimGuest(msgspec.Struct, frozen=True):
    name: str
    password_hash: str


class ChangePassword(msgspec.Struct, frozen=True):
    password_hash: str


Command = Register | StartSession | EndSession | ClaimGuest | ChangePassword


def decide(state: Account | None, command: Command) -> list[Event]:
    """The events ``command`` records on an account in ``state``; raises
    :class:`AccountError` when the rules refuse it."""
    if isinstance(command, Register):
        if state is not None:
            raise AccountError("this account is registered already")
        return [
            AccountRegistered(
                name=command.name,
                kind=command.kind,
                password_hash=command.password_hash,
                seat_key=command.seat_key,
            )
        ]
    if state is None:
        raise AccountError("no such account")
    if isinstance(command, StartSession):
        if state.password_hash is None and state.kind != GUEST:
            raise AccountError("this account cannot sign in", field="name")
        return [SessionStarted(session=command.session)]
    if isinstance(command, EndSession):
        return [SessionEnded(session=command.session)] if command.session in state.sessions else []
    if isinstance(command, ClaimGuest):
        if state.kind != GUEST:
            raise AccountError("only a guest account may be claimed", field="name")
        return [GuestClaimed(name=command.name, password_hash=command.password_hash)]
    if isinstance(command, ChangePassword):
        if state.kind != PLAYER:
            raise AccountError("only a registered account has a password", field="password")
        return [PasswordChanged(password_hash=command.password_hash)]
    raise AccountError(f"unknown command {type(command).__name__}")


# -- rules of names and passwords --------------------------------------------------------


def account_name(raw: object) -> str:
    """An account's name as shown; raises :class:`~domain.errors.InvalidName` (``name``)."""
    name = check_name(raw, "an account's name")
    if not MIN_ACCOUNT_NAME <= len(name) <= MAX_ACCOUNT_NAME:
        raise InvalidName(
            f"an account's name must have {MIN_ACCOUNT_NAME} to {MAX_ACCOUNT_NAME} characters"
        )
    for ch in name:
        if not (ch.isalnum() or ch in "_-"):
            raise InvalidName(
                f"an account's name holds only letters, digits, '_' and '-', not {ch!r}"
            )
    return name


def registered_name(raw: object) -> str:
    """A name a person may register: :func:`account_name`, and not in the guests' form."""
    name = account_name(raw)
    if claim_key(name).startswith(claim_key(GUEST_PREFIX)):
        raise InvalidName(f"names beginning with {GUEST_PREFIX!r} are the guests'")
    return name


def check_password(raw: object) -> str:
    """A password a person may choose; raises :class:`AccountError` (``password``)."""
    if not isinstance(raw, str) or not MIN_PASSWORD <= len(raw) <= MAX_PASSWORD:
        raise AccountError(
            f"a password must have {MIN_PASSWORD} to {MAX_PASSWORD} characters",
            field="password",
        )
    if any("\ud800" <= ch <= "\udfff" for ch in raw):
        raise AccountError("a password must be text (no lone surrogate)", field="password")
    return raw


def claim_key(name: str) -> str:
    """What a name-claim stream is keyed by: the house's one rule of names,
    :func:`~domain.names.name_key` (NFKC, confusable skeleton, case folded), the rule a
    name at a table follows too."""
    return name_key(name)
