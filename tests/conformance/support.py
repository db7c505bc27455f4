"""What the conformance suite plays and checks, for any game (no tests here).

* :func:`random_playout` — random legal commands of random waiting seats through a store.
* :func:`visibility_breaches` — the visibility promises (design §5) checked at every version
  of a table, from the game's own ``view`` and ``redact`` alone (no knowledge of any game):

  1. a spectator sees nothing a seat does not (views and events);
  2. an event tells no card privately to more seats than the pack has copies of it (what a
     seat sees of an event beyond what a spectator sees is its own);
  3. a view shows a seat no card beyond a spectator's that its events of the hand (or of the
     hand before, until the next is dealt) did not tell it (a view leaks nothing the event
     stream keeps from it);
  4. every hand deals each seat some card no one else is told of (so the checks above are
     not vacuous: a game that showed every hand to everyone would fail here).

  These find a card shown to the wrong seat; a card shown to spectators and seats alike is
  caught only if it empties a seat's private deal (4) — the per-game leak tests
  (tests/api/test_leaks.py) hold the built-in games to the truth of their states.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any
from uuid import UUID

from domain.cards import is_code
from domain.game import Game
from infra.store import TableStore

Viewer = int | None


def codes(document: Any) -> set[str]:
    """Every card code anywhere in a JSON document (values and keys)."""
    found: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            found.update(key for key in item if is_code(key))
        elif isinstance(item, list | tuple):
            stack.extend(item)
        elif is_code(item):
            found.add(item)
    return found


def random_playout(store: TableStore, table_id: UUID, seed: int, limit: int) -> Iterator[int]:
    """Up to ``limit`` random legal commands (a seeded choice of waiting seat, then of its
    legal command) until the table waits for nobody; yields each command's position."""
    rng = random.Random(seed)
    for _ in range(limit):
        table = store.get(table_id)
        waiting = sorted(table.game.to_act(table.state))
        if not waiting:
            return
        seat = rng.choice(waiting)
        legal = table.game.legal_commands(table.state, seat)
        assert legal, f"seat {seat} is to act but has no legal command"
        yield store.execute(table_id, rng.choice(legal)).position


def pack_copies(game: Game) -> Counter[str]:
    return Counter(game.table.pack)


def visibility_breaches(game: Game, events: list[Any], seats: int) -> list[str]:
    """Every breach of the promises of the module docstring at a table whose stored events
    are ``events`` (in version order) with ``seats`` seats."""
    copies = pack_copies(game)
    viewers: list[Viewer] = [None, *range(seats)]
    breaches: list[str] = []
    state: Any = None
    hand = 0
    told: dict[Viewer, set[str]] = {seat: set() for seat in viewers}
    before: dict[Viewer, set[str]] = told
    private: dict[int, set[str]] = {seat: set() for seat in range(seats)}

    def dealt_privately(number: int) -> None:
        for seat, cards in private.items():
            if number and not cards:
                breaches.append(f"hand {number}: seat {seat} was dealt no card of its own")

    for version, event in enumerate(events, start=1):
        state = game.evolve(state, event)
        number = game.hand_of(event)
        if number > hand:
            dealt_privately(hand)
            hand = number
            before = told  # a view may show the last hand until the next is dealt
            told = {seat: set() for seat in viewers}
            private = {seat: set() for seat in range(seats)}
        redacted = {viewer: codes(game.redact(event, viewer, False)) for viewer in viewers}
        public = redacted[None]
        holders: Counter[str] = Counter()
        for seat in range(seats):
            if not public <= redacted[seat]:
                breaches.append(f"v{version} {type(event).__name__}: spectators see more "
                                f"than seat {seat}: {sorted(public - redacted[seat])}")  # fmt: skip
            own = redacted[seat] - public
            holders.update(own)
            private[seat] |= own
        for code, count in holders.items():
            if count > copies.get(code, 1):
                breaches.append(f"v{version} {type(event).__name__}: {code} told to {count} "
                                f"seats, the pack has {copies.get(code, 1)}")  # fmt: skip
        for viewer in viewers:
            told[viewer] |= redacted[viewer]
        views = {viewer: codes(game.view(state, viewer)) for viewer in viewers}
        for seat in range(seats):
            if not views[None] <= views[seat]:
                breaches.append(f"v{version}: the spectators' view shows more than seat "
                                f"{seat}'s: {sorted(views[None] - views[seat])}")  # fmt: skip
            untold = views[seat] - views[None] - told[seat] - before[seat]
            if untold:
                breaches.append(f"v{version}: seat {seat}'s view shows {sorted(untold)}, "
                                "which no event of the hand told it")  # fmt: skip
    dealt_privately(hand)
    return breaches
