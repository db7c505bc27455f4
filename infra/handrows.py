"""One table's public events folded into the ``hands`` and ``results`` rows of an export
(``docs/analytics.md`` has the schema).

Everything here reads the public feed's events (:mod:`infra.feed`), never the store's raw
events, so an export shows nothing a spectator could not see. Each game fills its own columns
through its ``house.rows`` (:class:`domain.house.HandRows`: the columns it declares, the event
types it reads, its summary of a hand); a game without one gets the facts every table has
(seats, dealer, start, settlement, commands). The columns are every registered game's, so
each game's rows hold every column (null where the game has no such fact); a ``DECIMAL`` chip
amount beyond DECIMAL(38, 0) is exported as null.

A hand's ``commands`` counts the commands whose events begin in that hand: the write side
stamps all events of one command with one time (``at``), so a change of ``at`` starts the next
command. The command that settles a hand also deals the next one; it counts for the hand it
settled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from domain.games import game_named, games

DECIMAL_LIMIT = 10**38  # chips beyond DECIMAL(38, 0) are exported as null

Row = dict[str, Any]


def chips(value: int | None) -> int | None:
    """A chip amount as the export's DECIMAL(38, 0) holds it (null past its range)."""
    return value if value is not None and abs(value) < DECIMAL_LIMIT else None


@dataclass
class Hand:
    """What the public events told of one hand so far."""

    hand: int
    started_at: str
    events: list[dict[str, Any]] = field(default_factory=list)  # those its summary reads
    commands: int = 0
    first: dict[str, dict[str, Any]] = field(default_factory=dict)  # each type's first event
    settled_at: str | None = None  # the time of the first event that settled it


@dataclass
class TableSummary:
    """A table's seats and its hands, folded from its public events in version order."""

    table_id: str
    game: str
    seats: int = 0
    names: dict[int, str] = field(default_factory=dict)
    bots: dict[int, str | None] = field(default_factory=dict)
    hands: dict[int, Hand] = field(default_factory=dict)
    last_at: str | None = None  # the time of the last event added

    def add(
        self, kind: str, hand_no: int, at: str, event: dict[str, Any] | None, settles: bool
    ) -> None:
        """One public event of type ``kind`` in hand ``hand_no`` (0: none) stored at ``at``;
        ``event`` its public fields, needed only when ``kind`` is one the table's summary
        reads (:func:`reads`); ``settles``: it settles its hand."""
        new_command = at != self.last_at
        self.last_at = at
        self.fold(kind, hand_no, at, event, settles, new_command)

    def fold(
        self,
        kind: str,
        hand_no: int,
        at: str,
        event: dict[str, Any] | None,
        settles: bool,
        new_command: bool,
    ) -> Hand | None:
        """:meth:`add` for a caller that keeps :attr:`last_at` itself (``new_command``: ``at``
        is not the time of the table's previous event); returns the event's hand (``None``
        for a table-level event)."""
        if event is not None:
            if kind == "TableOpened":
                self.seats = int(event.get("options", {}).get("seats", 0) or 0)
            elif kind == "PlayerSeated":
                self.names[event["seat"]] = event["name"]
                self.bots[event["seat"]] = event.get("bot") or event.get("botKind")
                self.seats = max(self.seats, event["seat"] + 1)
        if not hand_no:
            return None
        hand = self.hands.get(hand_no)
        if hand is None:
            hand = self.hands[hand_no] = Hand(hand_no, at)
        if event is not None:
            hand.events.append(event)
            hand.first.setdefault(kind, event)
        if settles and hand.settled_at is None:
            hand.settled_at = at
        if new_command:
            hand.commands += 1
        return hand

    def rows(self) -> tuple[list[Row], list[Row]]:
        """``(hands, results)`` rows of the hands that have settled, in hand order."""
        summarise = game_named(self.game).house.rows.summarise
        hand_facts, seat_facts = hand_columns(), seat_columns()
        hand_chips, seat_chips = _decimals(hand_facts), _decimals(seat_facts)
        hands: list[Row] = []
        results: list[Row] = []
        for number in sorted(self.hands):
            hand = self.hands[number]
            if hand.settled_at is None:
                continue
            row: Row = {
                "table_id": self.table_id,
                "hand": number,
                "seats": self.seats,
                **dict.fromkeys(hand_facts),
                "started_at": hand.started_at,
                "settled_at": hand.settled_at,
                "commands": hand.commands,
            }
            seats: list[Row] = [
                {
                    "table_id": self.table_id,
                    "hand": number,
                    "seat": seat,
                    "name": self.names.get(seat),
                    "bot": self.bots.get(seat),
                    **dict.fromkeys(seat_facts),
                }
                for seat in range(self.seats)
            ]
            summarise(hand, row, seats)
            for name in hand_chips:
                row[name] = chips(row[name])
            for name in seat_chips:
                for result in seats:
                    result[name] = chips(result[name])
            hands.append(row)
            results.extend(seats)
        return hands, results


def reads(game: str) -> frozenset[str]:
    """The event types whose public fields ``game``'s summary reads (the seats' and its
    ``house.rows.reads``): only those are handed to :meth:`TableSummary.add` as dicts."""
    return _SEATING | game_named(game).house.rows.reads


# The columns every table has (the kernel's: who dealt, each seat's team if any and whether it
# won); each game adds its own (``house.rows``), shared by name across games.
COMMON_HAND_COLUMNS = {"dealer": "INTEGER"}
COMMON_SEAT_COLUMNS = {"team": "INTEGER", "won": "BOOLEAN"}


def merged_columns(
    common: dict[str, str], declared: list[tuple[str, Mapping[str, str]]]
) -> dict[str, str]:
    """The common columns then each game's new ones, in registration order; a column declared
    twice must have one type."""
    columns = dict(common)
    for game, own in declared:
        for name, kind in own.items():
            known = columns.setdefault(name, kind)
            if known != kind:
                raise ValueError(f"{game} declares export column {name!r} as {kind}, not {known}")
    return columns


def hand_columns() -> dict[str, str]:
    """The game-specific columns of ``hands`` (null where a game has no such fact), in
    schema order: the common ones, then every registered game's."""
    declared = [(game.name, game.house.rows.hand_columns) for game in games()]
    return merged_columns(COMMON_HAND_COLUMNS, declared)


def seat_columns() -> dict[str, str]:
    """The game-specific columns of ``results``, as :func:`hand_columns`."""
    declared = [(game.name, game.house.rows.seat_columns) for game in games()]
    return merged_columns(COMMON_SEAT_COLUMNS, declared)


def _decimals(columns: dict[str, str]) -> tuple[str, ...]:
    return tuple(name for name, kind in columns.items() if kind.startswith("DECIMAL"))


_SEATING = frozenset({"TableOpened", "PlayerSeated"})
