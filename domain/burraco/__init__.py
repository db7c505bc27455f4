"""Burraco (``docs/rules/burraco.md``) as a pure Decider; ``GAME`` is the entry point.

Modules, one job each:

* ``options`` — spec §8 options (``seats``, alias ``players``) and their validation;
* ``commands`` / ``events`` — the wire types (design §5 tags, past-tense events);
* ``values`` — card values (rule 3) and a per-code lookup table;
* ``layout`` — a meld as the table shows it; ``melds`` — reading sets and sequences into
  layouts, wild placement (rules 7–11);
* ``deal`` — the ``Dealt`` of a hand from the kernel's deck, and how it is dealt (rules 4–6);
* ``state`` — the table and the hand in play; ``evolve`` — applying events;
* ``decide`` — commands, the table-level ones through the kernel (:mod:`domain.table.kernel`);
* ``turn`` — the turn: draw, pile, meld, the pozzetto, the checks legality shares (rules 7–19);
* ``closing`` — the discard, closing, the end of the hand and the next deal (rules 12c, 17–27);
* ``scoring`` — a hand per partnership and the match (rules 22–27, FITAB bonuses);
* ``candidates`` / ``legal`` — ``to_act`` and the listing of legal commands; ``bot`` — a
  random legal bot;
* ``visibility`` — ``view`` and ``redact`` per viewer;
* ``house`` — what it shows beyond its rules (:mod:`domain.house`): ``readmodels`` (score
  sheet, lobby line, counters, statistics), ``exportrows``, ``narration`` (hand histories) and
  ``strategies`` (bots).

Choices where the spec leaves room (each documented where it is implemented):

* ``legal_commands`` lists every draw, pile take and discard, but a representative finite set
  of melds (single-card additions, whole sets, maximal runs, runs bridged or extended by one
  wild); ``decide`` accepts every legal meld, listed or not, and commands may say which rank
  an end wild stands for (``wildRank``) and where an either-way ace goes (``ace``).
* Rule 10 comes before those hints: a same-suit 2 that can be natural is natural, and a wild
  already on the table gives way only to its natural card (then it goes to an end, the
  player's choice, or bridges a gap the same addition opens); a wild at one end of a run may
  cross to the other end to make room for an added card (``2C(as 4C) 5C 6C`` + ``8C`` gives
  ``5C 6C 2C(as 7C) 8C``); a wild inside a run never moves otherwise.
* ``CloseTable`` by a seated player asks to end the match (``CloseAsked``, rule 28); once every
  seated person has asked this hand the match is abandoned: the unfinished hand is not scored
  (``HandAbandoned`` reveals its deck and salt), scored hands stay in the ledger, no winner.
* Rule 13 forbids re-discarding the single card taken from the pile; a second copy of the
  same code (two packs) may be discarded, also after one copy was melded (copies are
  indistinguishable, so the melded one counts as the pile card, as for ``must_meld``). A
  player left holding only that card, before the team's pozzetto, may still meld it out
  (rule 16); rule 19's refusal of melds binds once the pozzetto is taken.
* Rule 17: a pozzetto taken on the discard is sealed (hidden even from its taker, counted in
  hand by rule 23) until ``PozzettoOpened`` at the start of the taker's next turn.
* Option ``take_pile=must_meld``: the pile may be taken only if a meld using one of its
  cards is then accepted, and the discard waits until such a meld is made (while one is
  still possible), so a turn can always end; a meld that would make it impossible before
  it is made is refused.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.burraco import legal, visibility
from domain.burraco.clock import timeout_move
from domain.burraco.commands import BurracoCommand
from domain.burraco.decide import TABLE, decide, decision
from domain.burraco.events import BurracoEvent, HandAbandoned, HandScored
from domain.burraco.evolve import evolve
from domain.burraco.house import HOUSE
from domain.burraco.options import PRESETS, SCHEMA
from domain.burraco.state import Table
from domain.game import Game


class Rules:
    """Burraco's Decider (:class:`domain.game.Rules`)."""

    decide = staticmethod(decide)
    evolve = staticmethod(evolve)
    legal_commands = staticmethod(legal.legal_commands)
    to_act = staticmethod(legal.to_act)


def settles_hand(event: Any) -> bool:
    return isinstance(event, HandScored | HandAbandoned)


GAME: Game[Table, Any, Any] = Game(
    name="burraco",
    command_type=BurracoCommand,
    event_type=BurracoEvent,
    rules=Rules(),
    visibility=visibility,
    table=TABLE,
    settles_hand=settles_hand,
    follows_clock=True,
    decision=decision,
    bot_options=lambda hands: {"seats": 4, "hands": hands},  # rule 27: no deal after the last
    timeout_move=timeout_move,
    title="Burraco",  # capitalised (its messages say "burraco table")
    options=SCHEMA,
    presets=PRESETS,  # named sets of options (options.py)
    board=Path(__file__).with_name("board.js"),  # the web board renderer (board.js here)
    house=HOUSE,  # ledger, lobby line, counters, export rows, history, bots
)
