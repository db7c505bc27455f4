"""The playout path of Burraco (design §6.1): one hand as a compact, mutable position
for search — per-seat lists of card codes, the melds as ``(id, team, layout)`` entries, the
stock as an index into the hand's deck; no events, no per-step copies of the table.

The reference engine (``decide``/``evolve``, ``legal_commands``) stays the rules of the write
path; this module is held equal to it by ``tests/property/test_playout_differential.py``: from
any state of a hand, :func:`legal` lists the moves ``legal_commands`` lists and :func:`apply`
reaches the states and the score ``decide``/``evolve`` reach. The reading of melds (rules 7–11:
:func:`domain.burraco.melds.arrange_new`, ``arrange_extension``) and the candidate melds a
listing proposes (:mod:`domain.burraco.candidates`) are the reference's own pure functions,
remembered by their arguments; what this module replaces is everything around them — the
events, ``evolve``'s immutable copies, the checks that rebuild the table after a trial meld.

A position is full-information: every hand, the pozzetti and the stock in its deck order, so
the draws and the pozzetto come from the position's known deck. Determinizing hidden cards is
the search's job.

Moves: :data:`DRAW` (rule 12a, the stock's top card), :data:`TAKE` (the whole pile),
``DISCARD + CODE_ID[code]`` (rule 12c), and a meld as a tuple ``(meld, cards)`` — ``meld`` the
id of the team's meld the cards join, ``0`` for a new meld (rules 7–11); a hinted meld carries
its hints, ``(meld, cards, wild_rank, ace)``.

:func:`outcome` is, per seat, the hand's score of its side (rules 22–26).

The position lives in :mod:`.playout_position`, the rules checked on it in
:mod:`.playout_checks`; this module lists and applies moves, bridges them to the commands and
runs the hot loop.
"""

from __future__ import annotations

from random import Random
from typing import Any

from domain.burraco.candidates import (
    extensions,
    first_of_each,
    joining_alone,
    new_meld_cards,
    new_melds,
    pile_melds,
)
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.layout import SET
from domain.burraco.melds import reads_new
from domain.burraco.playout_checks import (
    _allowed,
    _discard_fault,
    _lay,
    _must_still_meld,
    _owed,
    _pile_card_meldable,
    _reading,
    _restricted,
    _set_fault,
    _take_pozzetto,
    _team_melds,
)
from domain.burraco.playout_position import (
    CODES,
    DISCARD,
    DISCARD_MOVE,
    DRAW,
    P_DRAW,
    P_OVER,
    P_PLAY,
    TAKE,
    TWO_LEFT,
    Move,
    Position,
    copy,
    from_state,
    is_over,
    outcome,
    to_move,
)
from domain.burraco.state import STOCK_END
from domain.table import Command

# the interface (design §6.1): what the search and the tests use
__all__ = [
    "DISCARD",
    "DISCARD_MOVE",
    "DRAW",
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


# --- legal moves ------------------------------------------------------------------------------


def meld_moves(pos: Position, seat: int, distinct: list[str]) -> list[Move]:
    """The melds and additions ``legal_commands`` lists (``legal._meld_commands``)."""
    hand = pos.hands[seat]
    team = seat % 2
    if _owed(pos):
        team_melds = _team_melds(pos, team)
        candidates = [*extensions(hand, team_melds), *new_melds(hand)]
        candidates += pile_melds(hand, team_melds, pos.took_pile)
        return [
            (c.meld or 0, c.cards)
            for c in first_of_each(candidates)
            if _allowed(pos, seat, c.meld or 0, c.cards)
        ]
    most = len(hand) - TWO_LEFT
    listed: list[Move] = []
    for meld_id, owner, layout in pos.melds:
        if owner != team:
            continue
        for code in joining_alone(distinct, layout):
            if most >= 1 or _allowed(pos, seat, meld_id, (code,)):
                listed.append((meld_id, (code,)))
    for cards in new_meld_cards(hand):
        if len(cards) > most:
            if _allowed(pos, seat, 0, cards):
                listed.append((0, cards))
            continue
        found = reads_new(cards)
        if found is None or (found.kind == SET and _set_fault(pos, team, found)):
            continue
        listed.append((0, cards))
    return listed


def discard_moves(pos: Position, seat: int, distinct: list[str]) -> list[Move]:
    """The discards ``legal_commands`` lists: while a pile meld is still owed and possible
    none; else every distinct card but those rules 13 and 18 bar."""
    if not _restricted(pos, seat):
        return [DISCARD_MOVE[c] for c in distinct]
    if _must_still_meld(pos, seat):
        return []
    return [DISCARD_MOVE[c] for c in distinct if not _discard_fault(pos, seat, c, False)]


def _take_allowed(pos: Position, seat: int) -> bool:
    """Rule 12a, option ``take_pile=must_meld``: only when a card of it can be melded."""
    if not pos.rules.must_meld:
        return True
    trial = copy(pos)
    _take(trial, seat)
    return _pile_card_meldable(trial, seat)


def legal(pos: Position) -> list[Move]:
    """The moves of the seat to act, as ``legal_commands`` lists them (the melds, then the
    discards; the draw, then the pile)."""
    if pos.phase == P_OVER:
        return []
    seat = pos.turn
    if pos.phase == P_DRAW:
        if pos.pile and _take_allowed(pos, seat):
            return [DRAW, TAKE]
        return [DRAW]
    distinct = list(dict.fromkeys(pos.hands[seat]))
    return meld_moves(pos, seat, distinct) + discard_moves(pos, seat, distinct)


# --- applying a move --------------------------------------------------------------------------


def _take(pos: Position, seat: int) -> None:
    taken = tuple(pos.pile)
    pos.hands[seat] += taken
    pos.pile = []
    pos.phase = P_PLAY
    pos.took_pile = taken
    pos.single_streak = pos.single_streak + 1 if len(taken) == 1 else 0


def _discard(pos: Position, seat: int, code: str) -> None:
    """Rules 12c–21: the discard; then the pozzetto, the closing, the exhausted stock, the
    stalemate or the next turn (``closing.discard``)."""
    hand = pos.hands[seat]
    last_card = len(hand) == 1
    hand.remove(code)
    pos.pile.append(code)
    players = pos.rules.players
    following = (seat + 1) % players
    pos.turn = following
    pos.phase = P_DRAW
    pos.took_pile = ()
    pos.melded_from_pile = False
    if last_card:
        if pos.pozzetto_of_team[seat % 2] >= 0:  # rule 18: the closing discard
            pos.phase = P_OVER
            pos.closed_by = seat
            pos.end_reason = "closed"
            return
        _take_pozzetto(pos, seat, direct=False)  # rule 17
    if pos.last_turn:  # rule 20
        pos.phase = P_OVER
        pos.end_reason = "stock"
        return
    if pos.single_streak >= pos.rules.stalemate:  # rule 21
        pos.phase = P_OVER
        pos.end_reason = "stalemate"
        return
    sealed = pos.sealed[following]
    if sealed:  # rule 17: the pozzetto taken on the discard is theirs from this turn
        pos.hands[following] += sealed
        pos.sealed[following] = ()


def apply(pos: Position, move: Move) -> None:
    """Play ``move`` (one of :func:`legal`, or any legal meld) for the seat to act, with its
    consequences (rules 12–21). A move is not checked again."""
    seat = pos.turn
    if type(move) is int:
        if move == DRAW:
            deck = pos.rules.deck
            pos.hands[seat].append(deck[pos.stock_next])
            pos.stock_next += 1
            pos.phase = P_PLAY
            pos.single_streak = 0
            pos.last_turn = len(deck) - pos.stock_next <= STOCK_END
        elif move == TAKE:
            _take(pos, seat)
        else:
            _discard(pos, seat, CODES[move - DISCARD])
        return
    assert isinstance(move, tuple)
    meld, cards = move[0], move[1]
    hints = (move[2], move[3]) if len(move) > TWO_LEFT else (None, None)
    layout = _reading(pos, seat, meld, cards, hints)
    if layout is None:
        raise ValueError(f"not a legal meld: {move}")
    _lay(pos, seat, meld, cards, layout)
    if not pos.hands[seat] and pos.pozzetto_of_team[seat % 2] < 0:
        _take_pozzetto(pos, seat, direct=True)  # rule 16


# --- the bridge to the commands ---------------------------------------------------------------


def to_command(pos: Position, move: Move) -> Command:
    """The command of ``move`` for the seat to act."""
    seat = pos.turn
    if type(move) is int:
        if move == DRAW:
            return Draw(seat=seat)
        if move == TAKE:
            return TakePile(seat=seat)
        return Discard(seat=seat, card=CODES[move - DISCARD])
    assert isinstance(move, tuple)
    hints: dict[str, Any] = {}
    if len(move) > TWO_LEFT:
        hints = {"wild_rank": move[2], "ace": move[3]}
    if move[0] == 0:
        return Meld(seat=seat, cards=list(move[1]), **hints)
    return AddToMeld(seat=seat, meld=move[0], cards=list(move[1]), **hints)


def from_command(pos: Position, command: Command) -> Move:
    """The move of a command of the seat to act (a ``ValueError`` for any other)."""
    if isinstance(command, Draw):
        return DRAW
    if isinstance(command, TakePile):
        return TAKE
    if isinstance(command, Discard):
        return DISCARD_MOVE[command.card]
    if isinstance(command, Meld | AddToMeld):
        meld = command.meld if isinstance(command, AddToMeld) else 0
        cards = tuple(command.cards)
        if command.wild_rank is None and command.ace is None:
            return (meld, cards)
        return (meld, cards, command.wild_rank, command.ace)
    raise ValueError(f"not a Burraco move: {type(command).__name__}")


# --- the hot loop -----------------------------------------------------------------------------


def random_playout(pos: Position, rng: Random) -> list[float]:
    """Play the hand out from ``pos`` (left unchanged) with uniformly random legal moves; the
    outcome. Each move is ``moves[int(random() * len(moves))]`` of :func:`legal`'s list, and
    a forced move (the only one) draws no number."""
    pos = copy(pos)
    random = rng.random
    while pos.phase != P_OVER:
        moves = legal(pos)
        apply(pos, moves[int(random() * len(moves))] if len(moves) > 1 else moves[0])
    return outcome(pos)
