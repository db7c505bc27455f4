"""One table's public events folded into the ``hands`` and ``results`` rows of an export
(``docs/analytics.md`` has the schema).

Everything here reads the public feed's events (:mod:`infra.feed`), never the store's raw
events, so an export shows nothing a spectator could not see. Each game that has its own facts
registers a summary by its name (Bourré: rules 5–7 antes, 11 declarations, 23–27 settlement;
Burraco: rules 15–17 pozzetti, 18–21 endings, 22–27 scores); any other game gets the facts
every table has (seats, dealer, start, settlement, commands).

A hand's ``commands`` counts the commands whose events begin in that hand: the write side
stamps all events of one command with one time (``at``), so a change of ``at`` starts the next
command. The command that settles a hand also deals the next one; it counts for the hand it
settled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
        summarise = SUMMARIES.get(self.game, plain_summary)
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
                **dict.fromkeys(HAND_FACTS),
                "started_at": hand.started_at,
                "settled_at": hand.settled_at,
                "commands": hand.commands,
            }
            seats = [
                {
                    "table_id": self.table_id,
                    "hand": number,
                    "seat": seat,
                    "name": self.names.get(seat),
                    "bot": self.bots.get(seat),
                    **dict.fromkeys(SEAT_FACTS),
                }
                for seat in range(self.seats)
            ]
            summarise(hand, row, seats)
            hands.append(row)
            results.extend(seats)
        return hands, results


def reads(game: str) -> frozenset[str]:
    """The event types whose public fields ``game``'s summary reads (the seats' and each
    summary's own): only those are handed to :meth:`TableSummary.add` as dicts."""
    return _SEATING | _READS.get(game, _READS[""])


# The game-specific columns (null where a game has no such fact), in schema order.
HAND_FACTS = (
    "dealer", "trump", "trump_card", "first_declarer", "players_in", "pot", "winners",
    "bourre", "tied", "first_discard", "pozzetto_first_team", "pozzetti", "ending", "closer",
    "scores", "clean_burracos", "dirty_burracos", "match_winner",
)  # fmt: skip
SEAT_FACTS = ("team", "won", "played", "bourre", "chips", "points")


def _first(hand: Hand, kind: str) -> dict[str, Any] | None:
    return hand.first.get(kind)


def plain_summary(hand: Hand, row: Row, seats: list[Row]) -> None:
    """Any game: the dealer, when its deal says so."""
    dealt = _first(hand, "Dealt")
    row["dealer"] = dealt.get("dealer") if dealt else None


def bourre_summary(hand: Hand, row: Row, seats: list[Row]) -> None:
    """Bourré: antes, declarations, the pot and who took it, bourrés (rules 5–7, 11, 23–27)."""
    plain_summary(hand, row, seats)
    dealt = _first(hand, "Dealt") or {}
    row["trump"], row["trump_card"] = dealt.get("trump"), dealt.get("trumpCard")
    paid = [0] * len(seats)
    played: dict[int, bool] = {}
    for event in hand.events:
        if event["type"] == "Anted":
            for seat in event["seats"]:
                paid[seat] += event["amount"]
        elif event["type"] == "Declared":
            if row["first_declarer"] is None:
                row["first_declarer"] = event["seat"]
            if "play" in event:
                played[event["seat"]] = event["play"]
        elif event["type"] == "DecisionsRevealed":
            played.update(enumerate(event["plays"]))
    settled = _first(hand, "HandSettled")
    if settled is None:
        return
    winner = settled.get("winner")
    row["pot"] = chips(settled["pot"])
    row["winners"] = [winner] if winner is not None else list(settled.get("tied", []))
    row["bourre"], row["tied"] = list(settled["bourre"]), list(settled.get("tied", []))
    row["players_in"] = sum(1 for play in played.values() if play)
    for seat, result in enumerate(seats):
        in_bourre = seat in settled["bourre"]
        net = settled["payouts"][seat] - paid[seat]
        net -= settled["bourrePayment"] if in_bourre else 0
        result.update(won=seat in row["winners"], played=played.get(seat), bourre=in_bourre)
        result["chips"] = chips(net)


def burraco_summary(hand: Hand, row: Row, seats: list[Row]) -> None:
    """Burraco: first discard, pozzetti, how the hand ended and its scores (rules 15–27)."""
    plain_summary(hand, row, seats)
    dealt = _first(hand, "Dealt") or {}
    row["first_discard"] = dealt.get("firstDiscard")
    taken = [e for e in hand.events if e["type"] == "PozzettoTaken"]
    row["pozzetti"] = len(taken)
    row["pozzetto_first_team"] = taken[0]["team"] if taken else None
    closed = _first(hand, "HandClosed")
    row["ending"] = closed["reason"] if closed else "abandoned"
    row["closer"] = closed.get("seat") if closed else None
    won = _first(hand, "MatchWon")
    row["match_winner"] = won["team"] if won else None
    scored = _first(hand, "HandScored")
    for seat, result in enumerate(seats):
        result["team"] = seat % 2  # partners sit opposite; heads-up each seat is a team
    if scored is None:
        return
    totals = [score["total"] for score in scored["scores"]]
    row["scores"] = totals
    row["clean_burracos"] = sum(score.get("cleanBurracos", 0) for score in scored["scores"])
    row["dirty_burracos"] = sum(score.get("dirtyBurracos", 0) for score in scored["scores"])
    best = max(totals)
    winning = [team for team, total in enumerate(totals) if total == best]
    row["winners"] = [s for s in range(len(seats)) if len(winning) == 1 and s % 2 in winning]
    for result in seats:
        result["points"] = totals[result["team"]]
        result["won"] = result["seat"] in row["winners"]


SUMMARIES: dict[str, Callable[[Hand, Row, list[Row]], None]] = {
    "bourre": bourre_summary,
    "burraco": burraco_summary,
}

_SEATING = frozenset({"TableOpened", "PlayerSeated"})
_READS = {
    "": frozenset({"Dealt"}),  # plain_summary
    "bourre": frozenset({"Dealt", "Anted", "Declared", "DecisionsRevealed", "HandSettled"}),
    "burraco": frozenset({"Dealt", "PozzettoTaken", "HandClosed", "MatchWon", "HandScored"}),
}
