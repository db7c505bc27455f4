"""The playout path of Bourré (design §6.1): one hand as a compact, mutable position
for search — bit masks and small int lists, no events, no per-step copies of large states.

The reference engine (``decide``/``evolve``) stays the rules of the write path; this module is
held equal to it by ``tests/property/test_playout_differential.py``: from any state of a hand,
:func:`legal` lists the moves ``legal_commands`` lists and :func:`apply` reaches the states and
the settlement ``decide``/``evolve`` reach.

A position is full-information: every seat's cards, the stock in its order, and the reshuffle of
rule 14 from the table's deal source (the same seed ``decide`` uses), so chance comes from the
position's known deck order. Determinizing hidden cards is the search's job.

Moves are small ints:

* ``0..51`` — play card ``i`` (its bit index, :mod:`domain.bourre.codes`), rules 17–22;
* :data:`PASS` — pass (rule 11, or the second chance's pass, rule 33);
* :data:`STAY` — play without naming discards (``two_round``/``simultaneous`` declaration,
  the second chance's play);
* ``DISCARD + places + TAKE * take`` — play (``sequential``) or draw (rule 13) naming the
  cards at ``places`` (bit ``k``: the seat's ``k``-th card in the order received), ``take``:
  the dealer takes the turned card (rule 32).

:func:`outcome` is each seat's chips net for the hand: its payout and bourré payment
(rules 23–27) less every ante it put in this hand (rules 5–7, 30, 33).

The path is three modules by job, this one their interface: :mod:`.playout_position` (the
position, :func:`from_state`, :func:`outcome`), :mod:`.playout_moves` (:func:`legal`,
:func:`apply`, the bridge to the commands) and :mod:`.playout_random` (the hot loop).
"""

from __future__ import annotations

from domain.bourre.playout_moves import apply, from_command, legal, to_command
from domain.bourre.playout_position import (
    DISCARD,
    P_PLAY,
    PASS,
    STAY,
    TAKE,
    Position,
    copy,
    from_state,
    is_over,
    outcome,
    to_move,
)
from domain.bourre.playout_random import random_playout

__all__ = [
    "DISCARD",
    "PASS",
    "P_PLAY",
    "STAY",
    "TAKE",
    "Position",
    "apply",
    "copy",
    "from_command",
    "from_state",
    "is_over",
    "legal",
    "outcome",
    "random_playout",
    "to_command",
    "to_move",
]
