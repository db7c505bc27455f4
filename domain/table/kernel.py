"""The table-level commands, decided once for every game (design §2): ``open_table``,
``take_seat`` and ``close_table``.

A game plugs in what differs in a :class:`TableRules`: its name, its options, its pack, how to
read seats and tokens off its state, the events that start play when the last seat fills
(the antes and deal of hand 1), and what closing a table in play means for it. Its ``decide``
asks :func:`decide_table` first and handles only its own commands when that returns ``None``.

* Before ``TableOpened`` only ``open_table`` is accepted; after ``TableEnded`` nothing is.
* ``open_table``: the game's name, the seed (:func:`~domain.table.deck.check_seed`), the
  secret (:func:`~domain.table.deck.check_secret`), the options and any stacked decks (each
  an order of the game's pack); stacked decks make the deals fixed.
* ``take_seat``: :func:`~domain.table.seats.seat_taken`; when it fills the last seat, the
  game's ``start`` events follow in the same decision.
* ``close_table``: only by a seated player; a table still waiting for players ends at once,
  a table in play ends as the game's ``close`` says.
* ``leave_seat`` (:mod:`domain.table.leaving`): decided beside the turn clock's commands by
  :class:`domain.game.Game`; the game's ``vacate`` applies its ``SeatLeft``.
* ``release_board`` (the tournament's process manager, never a player): a board table that
  has ended opens its play to everyone (``BoardReleased``, design §10); a table still
  waiting or in play refuses it. It is decided beside the clock's commands by
  :class:`domain.game.Game` (an ended table refuses every other command), which leaves the
  game's state as it is; the manager records it once (it reads the table's last event).
* ``abandon_table`` (the service's sweeper, never a player): a table still waiting for players
  whose last event is at least the limit old ends with reason ``abandoned``; a table in play,
  or one that has not waited that long, refuses it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from domain.errors import IllegalCommand, InvalidOption, TableClosed
from domain.table import (
    ENDED,
    WAITING,
    AbandonTable,
    BoardReleased,
    CloseTable,
    Event,
    OpenTable,
    ReleaseBoard,
    Seating,
    TableEnded,
    TableOpened,
    TakeSeat,
)
from domain.table.deck import check_decks, check_secret, check_seed
from domain.table.seats import is_seated, seat_taken

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class TableRules(Generic[S]):
    """What a game plugs into the kernel."""

    game: str  # the registry name, recorded in TableOpened
    title: str  # the game's name in messages ("Bourré")
    options: Callable[[Mapping[str, Any]], dict[str, Any]]  # raw options -> normalised
    pack: Sequence[str]  # the codes of one deck, in the pack's canonical order
    seating: Callable[[S], Seating]
    seat_for_token: Callable[[S | None, str], int | None]
    evolve: Callable[[S | None, Any], S]
    start: Callable[[S], list[Any]]  # events once every seat is taken (hand 1)
    close: Callable[[S, int], list[Any]]  # a seated player closes the table in play
    # SeatLeft applied to the game's state (domain.table.leaving): the seat freed (waiting) or
    # taken over by a bot, its token no longer holding it; None: the game has no leaving
    vacate: Callable[[S, Any], S] | None = None


def open_table(rules: TableRules[Any], command: OpenTable) -> TableOpened:
    if command.game != rules.game:
        raise InvalidOption("game", f"this is a {rules.title} table, not {command.game!r}")
    seed = check_seed(command.seed)
    options = rules.options(command.options)
    decks = check_decks(command.decks, rules.pack)
    return TableOpened(
        game=rules.game,
        options=options,
        seed=seed,
        decks=decks,
        secret=check_secret(command.secret),
        fixed_deals=bool(command.fixed_deals or decks),
    )


def take_seat(rules: TableRules[S], state: S, command: TakeSeat) -> list[Any]:
    seating = rules.seating(state)
    seated = seat_taken(seating, rules.seat_for_token(state, command.token_hash), command)
    if sum(name is None for name in seating.names) > 1:
        return [seated]
    return [seated, *rules.start(rules.evolve(state, seated))]


def close_table(rules: TableRules[S], state: S, command: CloseTable) -> list[Any]:
    seating = rules.seating(state)
    if not is_seated(seating, command.seat):
        raise IllegalCommand("only a seated player may close the table")
    if seating.status == WAITING:
        return [TableEnded(reason="closed")]
    return rules.close(state, command.seat)


def abandon_table(rules: TableRules[S], state: S, command: AbandonTable) -> list[Any]:
    if rules.seating(state).status != WAITING:
        raise IllegalCommand("only a table waiting for players can be abandoned")
    if not command.idle_seconds >= command.limit_seconds:
        raise IllegalCommand(
            f"the table has waited {command.idle_seconds:g}s of {command.limit_seconds:g}s"
        )
    return [TableEnded(reason="abandoned")]


def release_board(seating: Seating, command: ReleaseBoard) -> list[Event]:
    """``BoardReleased`` for a table that has ended (module docstring)."""
    if seating.status != ENDED:
        raise IllegalCommand("a board opens only once its table has ended")
    if not command.tournament or command.round < 1:
        raise IllegalCommand("release_board names the tournament and a round")
    return [BoardReleased(tournament=command.tournament, round=command.round)]


def decide_table(rules: TableRules[S], state: S | None, command: Any) -> list[Event] | None:
    """The events of a table-level command; ``None`` for a command of the game itself (the
    table is then open and not ended)."""
    if state is None:
        if not isinstance(command, OpenTable):
            raise IllegalCommand("the table is not open yet")
        return [open_table(rules, command)]
    if isinstance(command, OpenTable):
        raise IllegalCommand("the table is already open")
    if rules.seating(state).status == ENDED:
        raise TableClosed("the table has ended")
    if isinstance(command, TakeSeat):
        return take_seat(rules, state, command)
    if isinstance(command, CloseTable):
        return close_table(rules, state, command)
    if isinstance(command, AbandonTable):
        return abandon_table(rules, state, command)
    return None
