"""Wire schemas of design §5: msgspec Structs with camelCase keys.

Request bodies are strict (unknown fields rejected, names and sizes bounded) so a malformed
request is a 400 naming the field; responses are what an independent client reads. Game
views, events and ledgers are the games' own JSON-ready dicts and pass through as objects.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from domain.table import MAX_SEED

# A name is checked once, by the table (domain.names.check_name: 400 naming ``name``).
Name = Annotated[
    str,
    msgspec.Meta(
        description="1 to 32 characters once trimmed; no control characters or "
        "bidirectional overrides"
    ),
]
CardCode = Annotated[str, msgspec.Meta(min_length=2, max_length=3)]
Seed = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEED)]
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=15)]


class Wire(msgspec.Struct, kw_only=True, rename="camel"):
    """Base of the response bodies: camelCase keys."""


class Request(msgspec.Struct, kw_only=True, rename="camel", forbid_unknown_fields=True):
    """Base of the request bodies: camelCase keys, unknown fields rejected."""


class CreateTable(Request):
    """``POST /tables``: the game, its options (spec "Options"), and optionally the seed and
    stacked decks (hands 1, 2, …; index 0 = top). Both fix the deals: only when the server
    allows stacked decks (``CARDROOM_ALLOW_STACKED_DECKS``), else a 403 naming the field."""

    game: str
    options: dict[str, Any] = {}
    seed: Seed | None = None
    decks: list[list[CardCode]] | None = None


class TableCreated(Wire):
    table_id: str
    game: str
    version: int
    position: int


BotKindName = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class TakeSeat(Request):
    """``POST /tables/{id}/seats``: the player's name and optionally the seat wanted; or,
    instead of ``name``, ``bot``: the kind of a server-side bot to seat (``GET /bots``)."""

    name: Name | None = None
    seat: SeatNumber | None = None
    bot: BotKindName | None = None


class SeatTaken(Wire):
    """The seat and its secret bearer token (shown once; only its hash is stored)."""

    table_id: str
    seat: int
    token: str
    version: int
    position: int
    bot: str | None = None  # a bot's seat: its kind; ``token`` is then empty (nobody holds it)


class CommandAccepted(Wire):
    """``POST /tables/{id}/commands``: the new version, the log position to wait for with
    ``?after=``, and the events written, as this seat may see them."""

    version: int
    position: int
    events: list[dict[str, Any]]


class TimelineEvent(Wire):
    """Documentation shape of one timeline item: the redacted event plus version and time."""

    version: int
    type: str
    at: str


class Verification(Wire):
    """``GET /tables/{id}/hands/{n}/verify``: the deal's commitment, and once the hand has
    settled (and the table reveals hands) the deck and salt, with ``valid`` recomputed."""

    table_id: str
    hand: int
    commitment: str
    settled: bool
    revealed: bool
    deck: list[str] | None = None
    salt: str | None = None
    valid: bool | None = None


class SpectatorCount(Wire):
    """``GET /tables/{id}/spectators``: how many live streams of the table are open without a
    seat token, across every API process (a count only)."""

    spectators: int


class ProjectionHealth(Wire):
    position: int | None
    head: int | None
    lag: int | None


class ShardHealth(Wire):
    """One sharded projector's position (None while a rebuild fences it) and lag."""

    shard: int
    position: int | None
    lag: int | None


class Health(Wire):
    status: str
    store: bool
    redis: bool
    projection: ProjectionHealth
    shards: list[ShardHealth] = []


class GameOption(Wire):
    """One table option of a game (:class:`domain.table.schema.Option`): ``type`` ``int``,
    ``number``, ``bool`` or ``choice``; ``min``/``max`` for numbers, ``choices`` for a choice;
    ``nullable``: ``null`` accepted; ``required``: must be given (``suggested`` is a value a
    form starts from); ``label`` one line; ``rule`` the number (or range) of the rule in the
    game's rules document that defines it; ``help`` a longer explanation; ``choice_labels``
    each of ``choices`` in words (same order; ``null`` when not a choice)."""

    name: str
    type: str
    default: Any
    min: int | None
    max: int | None
    choices: list[Any] | None
    choice_labels: list[str] | None
    nullable: bool
    required: bool
    suggested: Any
    label: str
    rule: str | None
    help: str


class GamePreset(Wire):
    """A named set of options a form fills in at once (:class:`domain.table.schema.Preset`):
    ``options`` the values it sets, every other option at its default."""

    name: str
    label: str
    options: dict[str, Any]
    help: str


class GameEntry(Wire):
    """``GET /games``: one registered game — its name (``POST /tables``' ``game``), its title,
    every option its tables take, its presets, and the URL of its board renderer (an ES module
    exporting the web board; ``null`` when the game has none)."""

    game: str
    title: str
    options: list[GameOption]
    presets: list[GamePreset]
    board: str | None
