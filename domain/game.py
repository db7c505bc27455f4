"""The port every game implements, so the write side, projections and API stay generic
(design §2). It is generic over the game's state ``S``, command ``C`` and event ``E`` types.

:class:`Rules` — a Decider over one table, pure:

* ``decide(state, command) -> list[E]`` — ``state`` is ``None`` before ``TableOpened``;
  raises a :class:`domain.errors.DomainError` subclass with a precise message. Must not
  mutate ``state``. Commands that fill the last seat or settle a hand also return the next
  hand's events (decks come from the table's seed or stacked decks, see ``domain.table``).
* ``evolve(state, event) -> S`` — applies a fact; never validates, shuffles or reads a clock.
* ``legal_commands(state, seat) -> list[C]`` — every command ``seat`` may issue now (the
  legality ``decide`` uses); empty iff the table waits for nobody at that seat.
* ``to_act(state) -> frozenset[int]`` — seats whose command the table waits for.

:class:`Visibility` (design §5), pure as well:

* ``view(state, viewer, revealed=False) -> dict`` — the table as ``viewer`` (a seat, or
  ``None`` for a spectator) may see it; JSON-ready, camelCase keys. ``revealed=True`` shows the
  hidden cards of the current hand (replays of a settled hand).
* ``redact(event, viewer, revealed) -> dict`` — one event as ``viewer`` may see it, JSON-ready,
  with ``type``; hidden fields removed or replaced by counts. ``revealed=True`` means the
  event's hand has settled and the table's ``reveal`` option allows showing it.

:class:`Game` composes them with the table kernel's plug (:class:`domain.table.kernel.TableRules`)
and answers the flat names the other layers call: ``name``, ``command_type``, ``event_type``,
``decide``, ``evolve``, ``decision``, ``legal_commands``, ``to_act``, ``view``, ``redact``,
``hand_of``, ``settles_hand``, ``seat_for_token``, ``seating``.

What the game shows beyond its rules — its ledger, lobby line, counters, statistics, export
rows, hand-history text and bots — is its ``house`` (:class:`domain.house.House`, pure hooks
with the table kernel's defaults): the projections, the export, the history and the bots ask
``game.house`` and name no game.

* ``decision(state, command) -> (events, state)`` — ``decide`` and the state after its events,
  so the write side evolves each event once. A game that evolves while deciding gives its own;
  otherwise the events are folded with ``evolve``.
* ``hand_of(event) -> int`` — the hand an event belongs to (0 for table-level events).
* ``settles_hand(event) -> bool`` — whether the event ends its hand (cards may then be shown);
  answered by the event's class alone (a reader of the whole log asks once per class).
* ``seating(state) -> Seating`` — seats, names, status (``waiting``, ``playing``, ``ended``)
  and hand number, the same for every game.
* ``seat_for_token(state, token_hash) -> int | None`` — which seat a token hash holds.
* ``bot_options(hands) -> dict`` — the options of a table of random bots meant to play
  ``hands`` hands (``cardroom simulate``); none by default.
* ``timeout_move(state, seat) -> command | None`` — the move a seat whose turn ran out makes
  (:mod:`domain.table.clock`); the Game adds the clock's commands (``time_out``, ``sit_in``)
  and events (``TurnTimedOut``, ``SatIn``) to every game, and they leave its state as it is.
  It adds leaving too (:mod:`domain.table.leaving`): ``leave_seat`` → ``SeatLeft``, which the
  game's table plug applies to its state (``TableRules.vacate``).

What a client shows of a game (``GET /games``, design §5):

* ``title`` — the game's name as people write it (``Bourré``); by default the table plug's
  ``title`` (the one its messages use).
* ``option_schema`` — every option a table of the game takes
  (:class:`domain.table.schema.Option`): the game's own (``options=``, in its rules'
  options table order), then the turn clock's when the game has a ``timeout_move``, then the
  options every game takes (``reveal``, ``spectator_delay``).
* ``presets`` — named sets of options a form fills in at once
  (:class:`domain.table.schema.Preset`, each game's ``PRESETS``); none by default.
* ``board`` — the file of the game's board renderer, an ES module the web pages import
  (served at ``/games/{name}/board.js``); it lives in the game's package. ``None``: no board.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar, cast, get_args, get_type_hints

import msgspec

from domain.errors import IllegalCommand, TableClosed
from domain.house import House
from domain.table import ENDED, BoardReleased, ReleaseBoard, Seating, hand_of
from domain.table.clock import (
    CLOCK_EVENTS,
    CLOCK_SCHEMA,
    SatIn,
    SitIn,
    TimeOut,
    TurnTimedOut,
    forced_moves,
    sit_in,
)
from domain.table.fork import ForkTable, TableForked, decide_fork, fork_marks, public
from domain.table.kernel import TableRules, release_board
from domain.table.leaving import LeaveSeat, SeatLeft, leave_seat
from domain.table.options import COMMON_SCHEMA
from domain.table.schema import Option, Preset

Viewer = int | None  # a seat number, or None for a spectator

S = TypeVar("S")
C = TypeVar("C")
E = TypeVar("E")
S_contra = TypeVar("S_contra", contravariant=True)
E_contra = TypeVar("E_contra", contravariant=True)


class Rules(Protocol[S, C, E]):
    """The Decider: what may happen at a table and what it does to the state."""

    def decide(self, state: S | None, command: C) -> list[E]: ...

    def evolve(self, state: S | None, event: E) -> S: ...

    def legal_commands(self, state: S | None, seat: int) -> list[C]: ...

    def to_act(self, state: S | None) -> frozenset[int]: ...


class Visibility(Protocol[S_contra, E_contra]):
    """What each viewer may see of the table and of each event."""

    def view(
        self, state: S_contra | None, viewer: Viewer = None, revealed: bool = False
    ) -> dict[str, Any]: ...

    def redact(self, event: E_contra, viewer: Viewer, revealed: bool) -> dict[str, Any]: ...


def _plain(union: Any, clock: tuple[type, ...]) -> list[type]:
    """The types of a tagged union that are not (subclasses of) the clock's ``clock`` types."""
    return [kind for kind in get_args(union) if not issubclass(kind, clock)]


def _no_options(hands: int) -> dict[str, Any]:
    return {}


class Game(Generic[S, C, E]):
    """One game: its rules, its visibility and its table plug, under one name."""

    def __init__(
        self,
        *,
        name: str,
        command_type: Any,
        event_type: Any,
        rules: Rules[S, C, E],
        visibility: Visibility[S, E],
        table: TableRules[S],
        settles_hand: Callable[[E], bool],
        decision: Callable[[S | None, C], tuple[list[E], S]] | None = None,
        bot_options: Callable[[int], dict[str, Any]] | None = None,
        timeout_move: Callable[[S, int], C | None] | None = None,
        follows_clock: bool = False,
        title: str | None = None,
        options: Sequence[Option] = (),
        presets: Sequence[Preset] = (),
        board: Path | None = None,
        # what the game shows beyond its rules (domain.house): read models, export, history, bots
        house: House | None = None,
    ) -> None:
        self.name = name
        # the tagged unions of commands and events (msgspec-decodable), with the clock's
        self.command_type = command_type | TimeOut | SitIn | LeaveSeat
        self.event_type = event_type | TurnTimedOut | SatIn | SeatLeft | TableForked | BoardReleased
        self.rules = rules
        # the game's own command and event types (exactly these types skip the clock's checks)
        self._own_commands = frozenset(_plain(command_type, (TimeOut, SitIn)))
        self._own_events = frozenset(_plain(event_type, CLOCK_EVENTS))
        self.visibility = visibility
        self.table = table
        # The flat names, bound once: the hot paths call them without a hop.
        self._decide = rules.decide
        self._evolve = rules.evolve
        self.legal_commands: Callable[[S | None, int], list[C]] = rules.legal_commands
        self.to_act: Callable[[S | None], frozenset[int]] = rules.to_act
        self._view = visibility.view
        self._redact = visibility.redact
        self.view: Callable[..., dict[str, Any]] = self._marked_view
        self.redact: Callable[[E, Viewer, bool], dict[str, Any]] = self._kernel_redact
        self.settles_hand = settles_hand
        self.hand_of: Callable[[E], int] = hand_of
        self.seating: Callable[[S], Seating] = table.seating
        self.seat_for_token: Callable[[S | None, str], int | None] = table.seat_for_token
        self._decision: Callable[[S | None, C], tuple[list[E], S]] = decision or self._fold
        self.bot_options: Callable[[int], dict[str, Any]] = bot_options or _no_options
        self.timeout_move = timeout_move
        # whether the game's evolve reads the clock's events (Burraco: who sits out)
        self.follows_clock = follows_clock
        self.house = house if house is not None else House()
        self.decide: Callable[[S | None, C], list[E]] = self._decide_with_clock
        self.evolve: Callable[[S | None, E], S] = self._evolve_with_clock
        self.decision: Callable[[S | None, C], tuple[list[E], S]] = self._decision_with_clock
        # what a client shows of the game (module docstring)
        self.title = title or table.title
        clock = CLOCK_SCHEMA if timeout_move is not None else ()
        self.option_schema: tuple[Option, ...] = (*options, *clock, *COMMON_SCHEMA)
        self.presets: tuple[Preset, ...] = tuple(presets)
        self.board = board

    def _marked_view(
        self, state: S | None, viewer: Viewer = None, revealed: bool = False
    ) -> dict[str, Any]:
        """The game's view; a fork's (design §9.3) says so: ``forkOf`` and ``at``."""
        view = self._view(state, viewer, revealed)
        options = view.get("options")
        if options and "fork_of" in options:
            view.update(fork_marks(options))
        return view

    def _kernel_redact(self, event: E, viewer: Viewer, revealed: bool) -> dict[str, Any]:
        """The game's redaction; a fork's start shows no card (:func:`domain.table.fork.public`)."""
        if isinstance(event, TableForked):
            return public(event)
        return self._redact(event, viewer, revealed)

    def _forked(self, state: S | None, command: ForkTable) -> tuple[list[E], S]:
        """A fork's start (:mod:`domain.table.fork`): its events and the state after them."""
        if state is None:
            raise IllegalCommand("the table is not open yet")
        options = getattr(state, "raw_options", None) or {}
        events = cast(list[E], decide_fork(self.seating(state), options, command))
        after: Any = state
        for event in events:
            after = self.evolve(after, event)
        return events, after

    def state_type(self) -> Any:
        """The class of the game's state (the return type of its ``evolve``)."""
        return get_type_hints(self._evolve)["return"]

    def _decide_with_clock(self, state: S | None, command: C) -> list[E]:
        """The game's ``decide``, with the clock's commands (module docstring)."""
        if type(command) in self._own_commands:
            return self._decide(state, command)
        if isinstance(command, TimeOut | SitIn | LeaveSeat | ForkTable | ReleaseBoard):
            return self.decision(state, command)[0]
        return self._decide(state, command)

    def _evolve_with_clock(self, state: S | None, event: E) -> S:
        """The game's ``evolve``; the clock's events leave the state as it is unless the game
        follows them (``follows_clock``)."""
        if type(event) in self._own_events:
            return self._evolve(state, event)
        if isinstance(event, SeatLeft):
            assert state is not None
            return self.table.vacate(state, event) if self.table.vacate else state
        if isinstance(event, BoardReleased):  # the kernel's (design §10): no game state
            assert state is not None
            return state
        if isinstance(event, TableForked):  # a fork's start: its state wholesale
            return cast(S, msgspec.json.decode(event.state, type=self.state_type()))
        if isinstance(event, CLOCK_EVENTS) and not self.follows_clock:
            assert state is not None
            return state
        return self._evolve(state, event)

    def _decision_with_clock(self, state: S | None, command: C) -> tuple[list[E], S]:
        """``decide`` and the state after its events (see the module docstring)."""
        if type(command) in self._own_commands:
            return self._decision(state, command)
        if isinstance(command, TimeOut):
            if state is None or self.timeout_move is None:
                raise IllegalCommand(f"{self.name} tables have no turn clock")
            return forced_moves(
                state, command, self.to_act, self.timeout_move, self._decision, self.evolve
            )
        if isinstance(command, LeaveSeat):
            if state is None:
                raise IllegalCommand("the table is not open yet")
            seating = self.seating(state)
            if seating.status == ENDED:
                raise TableClosed("the table has ended")
            left = cast(list[E], leave_seat(seating, command))
            return left, self.evolve(state, left[0])
        if isinstance(command, ReleaseBoard):
            if state is None:
                raise IllegalCommand("the table is not open yet")
            released = cast(list[E], release_board(self.seating(state), command))
            return released, state
        if isinstance(command, ForkTable):
            return self._forked(state, command)
        if isinstance(command, SitIn):
            if state is None:
                raise IllegalCommand("the table is not open yet")
            events = cast(list[E], sit_in(self.seating(state), command))
            return events, self.evolve(state, events[0])
        return self._decision(state, command)

    def _fold(self, state: S | None, command: C) -> tuple[list[E], S]:
        """The events ``command`` produces and the state after them (evolved one by one)."""
        events = self._decide(state, command)
        after = state
        for event in events:
            after = self.evolve(after, event)
        assert after is not None, "a decision always produces at least one event"
        return events, after

    def __repr__(self) -> str:
        return f"Game({self.name!r})"
