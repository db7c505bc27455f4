"""A tournament's commands and events (design §10). Events are stored under the stable topics
``tournament/<Tag>`` in the tournaments' own streams (:mod:`infra.tournaments`); like every
stored event they never forbid unknown fields, and fields added later get defaults.
"""

from __future__ import annotations

import msgspec

DUPLICATE = "duplicate"
SWISS = "swiss"
SIT_AND_GO = "sit-and-go"
FORMATS = (DUPLICATE, SWISS, SIT_AND_GO)

WAITING = "waiting"
PLAYING = "playing"
ENDED = "ended"


class Command(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", rename="camel"):
    """Base of a tournament's commands."""


class Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", rename="camel"):
    """Base of a tournament's events (past tense)."""


class Side(msgspec.Struct, frozen=True, rename="camel"):
    """One side of a settled hand (a seat, or a partnership's seats) and its score, as the
    game's ``house.ranking`` tells it."""

    seats: tuple[int, ...]
    score: int


class TablePlan(msgspec.Struct, frozen=True, rename="camel"):
    """One table of a round: its id, its number in the round (0-based), the boards its hands
    play (empty: the table draws its own deals) and the entry at each seat."""

    table_id: str
    table: int
    boards: tuple[int, ...]
    seats: tuple[int, ...]


# -- commands -------------------------------------------------------------------------------------
class CreateTournament(Command, frozen=True, tag="create_tournament"):
    game: str
    format: str
    options: dict[str, object]
    rounds: int = 1
    boards_per_round: int = 1
    tables: int = 1
    bots: str | None = None
    secret: str = ""  # drawn by the write side: the boards' decks and salts come from it
    name: str = ""
    # a Sit & Go: the organiser's bots fill the free places once this many seconds have
    # passed since the event was created (and someone has entered); None: they never do
    bots_after_seconds: float | None = None


class Enter(Command, frozen=True, tag="enter"):
    """A player, or a pair (one name a seat of its side), with each member's token hash."""

    names: tuple[str, ...]
    token_hashes: tuple[str, ...]
    account: str | None = None  # the kind of the signed-in account entering (design §2.2)


class Start(Command, frozen=True, tag="start"):
    pass


class FillWithBots(Command, frozen=True, tag="fill_with_bots"):
    """The process manager, never a person: the Sit & Go has waited ``waited_seconds`` since
    it was created (from the stored time of ``TournamentCreated`` and the manager's clock)."""

    waited_seconds: float


class PairRound(Command, frozen=True, tag="pair_round"):
    """Pair the next round; ``table_ids`` (drawn by the caller) name its tables in order."""

    round: int
    table_ids: tuple[str, ...]


class RecordTable(Command, frozen=True, tag="record_table"):
    """A table of the current round ended; ``hands`` is each settled hand's sides."""

    table_id: str
    hands: tuple[tuple[Side, ...], ...]


# -- events ---------------------------------------------------------------------------------------
class TournamentCreated(Event, frozen=True, tag="TournamentCreated"):
    game: str
    format: str
    options: dict[str, object]  # the tables' options (the format's fixed ones included)
    rounds: int
    boards_per_round: int
    tables: int
    seats: int  # seats a table
    sides: tuple[tuple[int, ...], ...]  # an entry's seats at a table, one tuple a side
    scoring: str
    bots: str | None
    secret: str  # never shown
    name: str = ""
    bots_after_seconds: float | None = None  # a Sit & Go's wait before bots fill it


class EntryAccepted(Event, frozen=True, tag="EntryAccepted"):
    entry: int
    names: tuple[str, ...]
    token_hashes: tuple[str, ...]
    bot: str | None = None
    account: str | None = None  # an account's entry: its seats are the account's (rated)


class TournamentStarted(Event, frozen=True, tag="TournamentStarted"):
    """The boards' commitments, published before any card is dealt."""

    commitments: tuple[str, ...]


class RoundPaired(Event, frozen=True, tag="RoundPaired"):
    round: int
    tables: tuple[TablePlan, ...]
    byes: tuple[int, ...] = ()


class TableFinished(Event, frozen=True, tag="TableFinished"):
    table_id: str
    hands: tuple[tuple[Side, ...], ...]


class BoardOpened(Event, frozen=True, tag="BoardOpened"):
    """Every table of the round has played the board: its cards and results open."""

    board: int
    deck: tuple[str, ...]
    salt: str
    commitment: str


class RoundEnded(Event, frozen=True, tag="RoundEnded"):
    round: int


class TournamentEnded(Event, frozen=True, tag="TournamentEnded"):
    pass


COMMANDS = CreateTournament | Enter | Start | FillWithBots | PairRound | RecordTable
EVENTS = (
    TournamentCreated, EntryAccepted, TournamentStarted, RoundPaired, TableFinished,
    BoardOpened, RoundEnded, TournamentEnded,
)  # fmt: skip
AnyEvent = (
    TournamentCreated | EntryAccepted | TournamentStarted | RoundPaired | TableFinished
    | BoardOpened | RoundEnded | TournamentEnded
)  # fmt: skip
