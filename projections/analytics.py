"""The analytics counters (design §4): how much has been played, per game and in all.

==============================  =====  ===================================================
key                             type   holds
==============================  =====  ===================================================
``{p}shard:{<i>}:analytics``    hash   ``{scope}:{counter}`` -> int; scope ``all`` or a game
==============================  =====  ===================================================

Each shard counts its own tables' events in its part (:mod:`projections.keys`); a read sums
the parts.

Every event counts towards ``events``; ``TableOpened`` and ``TableEnded`` towards
``tables_opened`` and ``tables_ended``. A game adds its own counters (a counter of the same
name replaces the common one): Bourré its hands, chips, bourrés, plays and passes, tricks;
Burraco its deals, melds, pozzetti, hand endings, burracos and matches. Any other game counts
its seated players and settled hands, from the game contract alone. Events are told apart by
their stored type name (their tag), as the event store records them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from domain.game import Game
from projections.model import CountingModel, Outcome
from projections.table_projection import NotificationLike, ProjectionError
from projections.tracking import Batch

ALL_GAMES = "all"  # the analytics scope summing every game

Counters = dict[str, int]

_TAGS: dict[type, str] = {}


def tag_of(event: Any) -> str:
    """The event's stored type name: its msgspec tag (e.g. ``"HandSettled"``), else its class
    name."""
    return tag_of_class(type(event))


def tag_of_class(kind: type) -> str:
    """:func:`tag_of` an event of class ``kind``."""
    tag = _TAGS.get(kind)
    if tag is None:
        config = getattr(kind, "__struct_config__", None)
        tag = _TAGS[kind] = str(getattr(config, "tag", None) or kind.__name__)
    return tag


def bourre_counters(game: Game, tag: str, event: Any) -> Counters:
    """Bourré: settled hands and their pots, bourrés, split pots, solo wins (rules 16, 23–25),
    plays and passes (rules 11–12), cards, tricks, reshuffles (rule 14), antes (rules 5–6)."""
    if tag == "HandSettled":
        return {
            "hands": 1,
            "pot_chips": event.pot,
            "bourres": len(event.bourre),
            "split_pots": 1 if event.tied else 0,
            "solo_wins": 1 if event.solo else 0,
        }
    if tag == "PlayerSeated":
        return {"players_seated": 1}
    if tag == "Declared" and not event.sealed:
        return {"plays": 1} if event.play else {"passes": 1}
    if tag == "DecisionsRevealed":
        plays = sum(event.plays)
        return {"plays": plays, "passes": len(event.plays) - plays}
    if tag == "CardPlayed":
        return {"cards_played": 1}
    if tag == "TrickWon":
        return {"tricks": 1}
    if tag == "Reshuffled":
        return {"reshuffles": 1}
    if tag == "Anted":
        return {"ante_chips": event.amount * len(event.seats)}
    return {}


_HAND_ENDINGS = {"closed": "closings", "stock": "stock_exhausted", "stalemate": "stalemates"}


def burraco_counters(game: Game, tag: str, event: Any) -> Counters:
    """Burraco: tables, deals, melds, pozzetti (rules 15–17), how hands end (rules 18, 20–21),
    scored hands with their clean and dirty burracos (rule 24), and matches won (rule 27)."""
    if tag == "TableOpened":
        return {"tables": 1}
    if tag == "Dealt":
        return {"hands_dealt": 1}
    if tag == "Melded":
        return {"melds": 1}
    if tag == "PozzettoTaken":
        kind = "pozzetti_direct" if event.direct else "pozzetti_on_discard"
        return {"pozzetti": 1, kind: 1}
    if tag == "HandClosed":
        return {_HAND_ENDINGS.get(event.reason, "hands_ended"): 1}
    if tag == "HandScored":
        return {
            "hands": 1,
            "burracos_clean": sum(s.clean_burracos for s in event.scores),
            "burracos_dirty": sum(s.dirty_burracos for s in event.scores),
        }
    if tag == "MatchWon":
        return {"matches": 1}
    return {}


def seating_counters(game: Game, tag: str, event: Any) -> Counters:
    """Any game: players seated, and hands settled (the game's ``settles_hand``)."""
    if tag == "PlayerSeated":
        return {"players_seated": 1}
    if game.settles_hand(event):
        return {"hands": 1}
    return {}


_COUNTERS: dict[str, Callable[[Game, str, Any], Counters]] = {
    "bourre": bourre_counters,
    "burraco": burraco_counters,
}
# The events whose increments depend on their fields, per game above; every other event of
# that game adds the same increments as any other of its type, so a batch counts them a type
# at a time (tests/unit/test_projection_counters.py holds the functions to this). A game not
# named here is counted event by event.
FIELD_COUNTED: dict[str, frozenset[str]] = {
    "bourre": frozenset({"HandSettled", "Declared", "DecisionsRevealed", "Anted"}),
    "burraco": frozenset({"PozzettoTaken", "HandClosed", "HandScored"}),
}


def counters_of(game: Game, event: Any) -> Counters:
    """The increments one event adds to its game's counters (the common ones included)."""
    counts: Counters = {}
    _count(counts, game, tag_of(event), event)
    return counts


def _count(counts: Counters, game: Game, tag: str, event: Any) -> None:
    """Add one event's increments to ``counts``.

    The common counters yield to a game's own counter of the same name. Zero increments are
    kept, so a counter's field exists as soon as it was ever counted, however the events were
    batched (a rebuild must equal the incremental run).
    """
    increments = _COUNTERS.get(game.name, seating_counters)(game, tag, event)
    counts["events"] = counts.get("events", 0) + 1
    if tag == "TableOpened" and "tables_opened" not in increments:
        counts["tables_opened"] = counts.get("tables_opened", 0) + 1
    elif tag == "TableEnded" and "tables_ended" not in increments:
        counts["tables_ended"] = counts.get("tables_ended", 0) + 1
    for counter, amount in increments.items():
        counts[counter] = counts.get(counter, 0) + int(amount)


def _counted(counts: Counters, game: Game, tag: str, note: NotificationLike) -> None:
    """:func:`_count` of a notification's event, a failure naming the event."""
    try:
        _count(counts, game, tag, note.event)
    except Exception as error:  # name the event an operator must look at
        raise ProjectionError(
            f"position {note.position} (table {note.table_id} version {note.version}, "
            f"{type(note.event).__name__}): cannot count it: {error!r}"
        ) from error


def field_of(scope: str, counter: str) -> str:
    """The hash field of ``counter`` in ``scope`` (a game's name, or ``all``)."""
    return f"{scope}:{counter}"


class Analytics(CountingModel):
    """The counters, per game and for all games together."""

    def key(self) -> str:
        return self.keys.named("analytics")

    def write(self, batch: Batch, outcome: Outcome) -> None:
        """Add the batch's increments, per game and for all games, as new totals written
        whole (:mod:`projections.totals`)."""
        counts: dict[str, Counters] = {}  # game -> counter -> increment
        for (game, kind), notes in outcome.by_kind().items():
            tag, into = tag_of_class(kind), counts.setdefault(game.name, {})
            by_fields = FIELD_COUNTED.get(game.name)
            if by_fields is not None and tag not in by_fields:
                one: Counters = {}  # every event of this type counts alike
                _counted(one, game, tag, notes[0])
                for counter, amount in one.items():
                    into[counter] = into.get(counter, 0) + amount * len(notes)
                continue
            for note in notes:
                _counted(into, game, tag, note)
        increments: Counters = {}
        for scope_game, counters in counts.items():
            for counter, amount in counters.items():
                for scope in (scope_game, ALL_GAMES):
                    field = field_of(scope, counter)
                    increments[field] = increments.get(field, 0) + amount
        if increments:
            self._totals.add(batch, {self.key(): increments})

    def flush_keys(self) -> Iterable[str]:
        return (self.key(),)

    def read(self) -> dict[str, Counters]:
        """Counters per scope: ``{"all": {...}, "bourre": {...}, "burraco": {...}}``."""
        scopes: dict[str, Counters] = {ALL_GAMES: {}}
        for part in self.keys.parts("analytics"):
            raw: dict[bytes, bytes] = self._redis.hgetall(part)  # type: ignore[assignment]
            for field, value in sorted(raw.items()):
                scope, _, counter = field.decode().partition(":")
                counters = scopes.setdefault(scope, {})
                counters[counter] = counters.get(counter, 0) + int(value)
        return {scope: dict(sorted(counters.items())) for scope, counters in scopes.items()}
