"""The contract every game implements, so the write side, projections and API stay generic.

A game is a Decider over one table:

* ``decide(state, command) -> list[Event]`` — ``state`` is ``None`` before ``TableOpened``;
  raises a :class:`domain.errors.DomainError` subclass with a precise message. Must not
  mutate ``state``. Commands that fill the last seat or settle a hand also return the next
  hand's ``Anted``/``Dealt`` events (decks come from the table's seed/stacked decks).
* ``evolve(state, event) -> state`` — applies a fact; never validates, shuffles or reads a clock.
* ``legal_commands(state, seat) -> list[Command]`` — every command ``seat`` may issue now
  (shared legality with ``decide``); empty iff the table waits for nobody at that seat.
* ``to_act(state) -> frozenset[int]`` — seats whose command the table waits for.

Visibility (design §5), pure as well:

* ``view(state, viewer, revealed=False) -> dict`` — the table as ``viewer`` (a seat, or
  ``None`` for a spectator) may see it; JSON-ready, camelCase keys. ``revealed=True`` shows the
  hidden cards of the current hand (used for replays of a settled hand).
* ``redact(event, viewer, revealed) -> dict`` — one event as ``viewer`` may see it, JSON-ready,
  with ``type``; hidden fields removed or replaced by counts. ``revealed=True`` means the
  event's hand has settled and the table's ``reveal`` option allows showing it.
* ``hand_of(event) -> int`` — the hand an event belongs to (0 for table-level events).
* ``settles_hand(event) -> bool`` — whether the event ends its hand (cards may then be shown).

Table kernel facts:

* ``seating(state) -> Seating`` — seats, names, status and hand number, the same for every game
  (read models build lobby lines from it).
* ``seat_for_token(state, token_hash) -> int | None`` — which seat a token hash belongs to.
* ``decision(state, command) -> (events, state)`` — ``decide`` and the state after its events,
  so the write side evolves each event once.

Read models:

* ``ledger(state) -> dict`` — design §5 ledger shape for this game.
* ``lobby(state) -> dict`` — a lobby line: seats, names, status, hand number.
* ``counters(event) -> dict[str, int]`` — analytics increments for one event.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from domain.table import Seating

Viewer = int | None  # a seat number, or None for a spectator


@dataclass(frozen=True, slots=True)
class Game:
    name: str
    command_type: Any  # the tagged union of this game's commands (msgspec-decodable)
    event_type: Any  # the tagged union of this game's events
    decide: Callable[[Any, Any], list[Any]]
    evolve: Callable[[Any, Any], Any]
    legal_commands: Callable[[Any, int], list[Any]]
    to_act: Callable[[Any], frozenset[int]]
    view: Callable[..., dict[str, Any]]
    redact: Callable[[Any, Viewer, bool], dict[str, Any]]
    hand_of: Callable[[Any], int]
    settles_hand: Callable[[Any], bool]
    ledger: Callable[[Any], dict[str, Any]]
    lobby: Callable[[Any], dict[str, Any]]
    counters: Callable[[Any], dict[str, int]]
    seat_for_token: Callable[[Any, str], int | None]
    seating: Callable[[Any], Seating]

    def decision(self, state: Any, command: Any) -> tuple[list[Any], Any]:
        """The events ``command`` produces and the state after them."""
        events = self.decide(state, command)
        for event in events:
            state = self.evolve(state, event)
        return events, state
