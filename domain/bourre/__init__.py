"""Bourré (docs/rules/bourre.md) as a pure Decider over one table; ``GAME`` is the entry point.

Modules, one job each:

* ``options`` — the options table (§9) and its validation.
* ``commands`` / ``events`` — the wire types (``declare``, ``draw``, ``second_chance``,
  ``play_card``; ``Anted``, ``Dealt``, ``Declared``, ``Discarded``, ``CardPlayed``,
  ``TrickWon``, ``HandSettled``, …).
* ``state`` — the immutable table and hand; ``evolve`` — applying events.
* ``deal`` — the deal of a hand (rule 10) from the kernel's deck, the reshuffle of served
  discards (rule 14); ``codes`` — card/code lookups and the card bit masks the rules read.
* ``declaring`` — play/pass, the draw, the variants of rules 30–33.
* ``tricks`` — trick winner and the obligations of 5.1; ``cinch`` — rules 19–22;
  ``playing`` — ``play_card``.
* ``settlement`` — the money flow of rule 27; ``decide`` — commands and their automatic
  consequences (trick won, settlement, next hand), the table-level ones through the kernel
  (:mod:`domain.table.kernel`); ``legal`` — ``to_act``/``legal_commands``.
* ``visibility`` — ``view``/``redact`` per viewer.
* ``house`` — what it shows beyond its rules (:mod:`domain.house`): ``readmodels`` (ledger,
  lobby line, counters, statistics), ``exportrows``, ``narration`` (hand histories) and
  ``strategies`` (bots).

Choices where the spec leaves room (each documented where it is implemented):

* Separate trump card (rules 32–33): the card after the last one dealt is turned up; the
  stock starts after it.
* ``simultaneous`` declaration: if everyone passes, the dealer is deemed to play (rule 16)
  and wins alone; the dealer's pass is refused when an Ace is turned up (rule 15).
* ``tie: split``: the tied players were paid, so they ante the next hand like everyone else.
* Rule 15 binds the dealer's own face-up card; a separately turned ace (rules 32–33) belongs
  to nobody and forces nobody to play.
* Rule 20's sound lower bound in a trick in progress: its trumps count as played, but a
  player who cannot head them loses the trump the cinch would put under them (K-Q-2 under
  a led AS is not K-Q sure), so that trump is not counted as a sure trick.
* ``four_card`` implies ``trump_card: separate`` and at most 3 discards; contradicting
  explicit values are rejected.
* ``close_table``: ends a table that is still seating at once; during a hand the hand is
  played out and settled first, then the table ends instead of dealing again.
* ``legal_commands`` lists game moves only; ``close_table`` is always open to a seated player.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.bourre import legal, visibility
from domain.bourre.clock import timeout_move
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.decide import TABLE, decide, decision
from domain.bourre.events import HandEvent, HandSettled
from domain.bourre.evolve import evolve
from domain.bourre.house import HOUSE
from domain.bourre.options import PRESETS, SCHEMA
from domain.bourre.state import Table
from domain.game import Game
from domain.table import (
    CloseTable,
    OpenTable,
    PlayerSeated,
    TableEnded,
    TableOpened,
    TakeSeat,
)

BourreCommand = OpenTable | TakeSeat | CloseTable | Declare | Draw | SecondChance | PlayCard
BourreEvent = TableOpened | PlayerSeated | TableEnded | HandEvent


class Rules:
    """Bourré's Decider (:class:`domain.game.Rules`)."""

    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    legal_commands = staticmethod(legal.legal_commands)
    to_act = staticmethod(legal.to_act)


def settles_hand(event: Any) -> bool:
    return isinstance(event, HandSettled)


GAME: Game[Table, Any, Any] = Game(
    name="bourre",
    command_type=BourreCommand,
    event_type=BourreEvent,
    rules=Rules(),
    visibility=visibility,
    table=TABLE,
    settles_hand=settles_hand,
    decision=decision,
    # seven bots; the table ends itself after the hands asked for (the lobby shows it ended)
    bot_options=lambda hands: {"seats": 7, "hands": hands},
    timeout_move=timeout_move,
    options=SCHEMA,
    presets=PRESETS,  # named sets of options (options.py)
    board=Path(__file__).with_name("board.js"),  # the web board renderer (board.js here)
    house=HOUSE,  # ledger, lobby line, counters, export rows, history, bots
)
