"""The table kernel: what every game's table has — open, seats and tokens, close, the deck of
each hand — written once (design §2).

A table's first event is ``TableOpened``; players join with ``PlayerSeated``; the first hand
starts when every seat is filled. The table's ``secret`` (drawn by the write side), its
``seed`` (drawn, or given at creation on servers that allow fixed deals) and any stacked
``decks`` live in ``TableOpened`` and are never shown to anyone: each hand's deck and salt are
derived from them and recorded in that hand's ``Dealt`` event. ``fixed_deals`` is public.

This module holds the table-level wire types (their stored topics are ``table/…``);
beside it:

* ``options`` — the options every game accepts (``reveal``, ``spectator_delay``) and the
  check that refuses unknown keys, listing every accepted one;
* ``deck`` — the seed, the secret, stacked decks, and each hand's deck, salt and commitment;
* ``seats`` — names, free seat choice, one seat per token;
* ``kernel`` — ``TableRules`` (what a game plugs in) and ``decide_table`` (open, seat, close).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

import msgspec

MAX_SEED = 2**63 - 1  # seeds travel as JSON integers (int64)

# A table's status, the same for every game.
WAITING = "waiting"  # for players: seats are still free
PLAYING = "playing"
ENDED = "ended"


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", rename="camel"):
    """Base of every command: a tagged msgspec Struct (``type`` is its tag)."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", rename="camel"):
    """Base of every event: a tagged msgspec Struct named in the past tense.

    Stored events never use ``forbid_unknown_fields`` or ``array_like``; fields added later
    get defaults, so old events still decode.
    """


class OpenTable(Command, frozen=True, tag="open_table"):
    """``secret``: 128+ random bits in hex, drawn by the write side (``domain.table.deck``);
    ``fixed_deals``: the creator chose the seed or stacked the decks."""

    game: str
    options: dict[str, Any]
    seed: int
    decks: list[list[str]] = []
    secret: str = ""
    fixed_deals: bool = False


class TakeSeat(Command, frozen=True, tag="take_seat"):
    name: str
    token_hash: str
    seat: int | None = None
    bot: str | None = None  # a server-side bot's kind (the write side checks it exists)
    account: str | None = None  # the kind of the signed-in account sitting (design §2.2)


class CloseTable(Command, frozen=True, tag="close_table"):
    seat: int


class AbandonTable(Command, frozen=True, tag="abandon_table"):
    """The service's sweeper: a table waiting for players has waited ``idle_seconds`` since its
    last event (from the stored event times), against a limit of ``limit_seconds``."""

    idle_seconds: float
    limit_seconds: float


class TableOpened(Event, frozen=True, tag="TableOpened"):
    game: str
    options: dict[str, Any]  # normalised: every key present, defaults filled in
    seed: int
    decks: list[list[str]] = []
    secret: str = ""  # never shown; empty for tables opened before secrets (seed-derived)
    fixed_deals: bool = False  # public: the creator chose the seed or the decks


class DealFacts(TypedDict):
    """What every game's table keeps of its opening for its deals
    (:class:`domain.table.deck.DealSource`), under the same names in each game's state."""

    seed: int
    decks: tuple[tuple[str, ...], ...]
    secret: str
    fixed_deals: bool


def deal_facts(event: TableOpened) -> DealFacts:
    """The opening's deal facts; stacked decks fix the deals whether or not the event says so
    (tables opened before ``fixed_deals`` was recorded)."""
    return {
        "seed": event.seed,
        "decks": tuple(tuple(deck) for deck in event.decks),
        "secret": event.secret,
        "fixed_deals": event.fixed_deals or bool(event.decks),
    }


class PlayerSeated(Event, frozen=True, tag="PlayerSeated", omit_defaults=True):
    """A seat taken. ``omit_defaults``: a person's seat is stored as before bots existed."""

    seat: int
    name: str
    token_hash: str  # SHA-256 of the seat's bearer token; the token itself is never stored
    bot: str | None = None  # the kind of the server-side bot playing this seat, if any
    # the kind of the account seated (``player``, ``guest``), None for a name typed
    # without signing in (design §2.2): whether the table is rated
    account: str | None = None


class TableEnded(Event, frozen=True, tag="TableEnded"):
    # "closed" by a player, "hands" limit reached, "match" won, "abandoned" by everyone
    reason: str


class CloseAsked(Event, frozen=True, tag="CloseAsked"):
    """A seat asked to end the table by agreement (a game that ends that way: Burraco rule
    28); the table ends once every seated person has asked. ``hand``: the hand in play."""

    seat: int
    hand: int = 0


class ReleaseBoard(Command, frozen=True, tag="release_board"):
    """The tournament's process manager (never a player): every table of ``round`` of
    ``tournament`` has finished its boards, so this table's play opens to everyone (design
    §10, docs/rules/tournaments.md rule T3). Accepted only by a table that has ended."""

    tournament: str
    round: int


class BoardReleased(Event, frozen=True, tag="BoardReleased"):
    """A board table's play opened to everyone: the feed, the export, the lobby and the
    statistics take in the table's events here, in the log's order (design §10). It follows
    ``TableEnded`` and nothing follows it; it leaves the game's state as it is."""

    tournament: str
    round: int


class Seating(msgspec.Struct, frozen=True, kw_only=True):
    """What every table has whatever its game: seats, who sits in them, its status
    (``waiting`` for players, ``playing``, ``ended``) and the hand in play (0 before the first)."""

    seats: int
    names: tuple[str | None, ...]
    status: str
    hand: int


def hand_of(event: Any) -> int:
    """The hand an event belongs to: its ``hand`` field; 0 for table-level events."""
    return int(getattr(event, "hand", 0))


def seat_holding(token_hashes: Iterable[str | None], token_hash: str) -> int | None:
    """The seat whose stored token hash is ``token_hash`` (``None`` for an empty seat);
    an empty hash never matches, so no seat is held by no token."""
    if not token_hash:
        return None
    for seat, stored in enumerate(token_hashes):
        if stored == token_hash:
            return seat
    return None


def hash_token(token: str) -> str:
    """The stored form of a seat token."""
    import hashlib

    return hashlib.sha256(token.encode()).hexdigest()
