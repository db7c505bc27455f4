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
name replaces the common one) through its ``house.counting`` (:mod:`domain.house`): hands,
chips, plays, melds, how hands end… A game without its own counts its seated players and
settled hands, from the game contract alone. Events are told apart by their stored type name
(their tag), as the event store records them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

from domain.game import Game
from domain.games import games
from domain.house import Counters
from projections.forks import forked_tables
from projections.model import CountingModel, Outcome
from projections.table_projection import NotificationLike, ProjectionError
from projections.tracking import Batch

ALL_GAMES = "all"  # the analytics scope summing every game

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


class _FieldCounted(Mapping[str, frozenset[str]]):
    """Per registered game (by name) that has them, the event tags whose increments depend on
    their fields (its ``house.counting.by_fields``); every other event of that game adds the
    same increments as any other of its type, so a batch counts them a type at a time
    (tests/unit/test_projection_counters.py holds the games to this). A game not listed is
    counted event by event. Read from the registry when asked: a game registered later is
    found too."""

    def _games(self) -> dict[str, frozenset[str]]:
        found = {}
        for game in games():
            by_fields = game.house.counting.by_fields
            if by_fields is not None:
                found[game.name] = by_fields
        return found

    def __getitem__(self, name: str) -> frozenset[str]:
        return self._games()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._games())

    def __len__(self) -> int:
        return len(self._games())


FIELD_COUNTED: Mapping[str, frozenset[str]] = _FieldCounted()


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
    increments = game.house.counting.count(game, tag, event)
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
        forks = forked_tables(outcome)  # sandboxes: never counted (projections.forks)
        for (game, kind), notes in outcome.by_kind().items():
            if forks:
                notes = [note for note in notes if note.table_id not in forks]
                if not notes:
                    continue
            tag, into = tag_of_class(kind), counts.setdefault(game.name, {})
            by_fields = game.house.counting.by_fields
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
        """Counters per scope: ``{"all": {...}, "<game>": {...}, ...}``."""
        scopes: dict[str, Counters] = {ALL_GAMES: {}}
        for part in self.keys.parts("analytics"):
            raw: dict[bytes, bytes] = self._redis.hgetall(part)  # type: ignore[assignment]
            for field, value in sorted(raw.items()):
                scope, _, counter = field.decode().partition(":")
                counters = scopes.setdefault(scope, {})
                counters[counter] = counters.get(counter, 0) + int(value)
        return {scope: dict(sorted(counters.items())) for scope, counters in scopes.items()}
