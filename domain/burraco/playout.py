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
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Final

from domain.burraco.candidates import (
    Candidate,
    extensions,
    joining_alone,
    new_meld_cards,
    new_melds,
    pile_melds,
)
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.layout import SET, Layout, MeldError
from domain.burraco.melds import arrange_extension, arrange_new, reads_new
from domain.burraco.options import Options
from domain.burraco.scoring import CLOSING, NO_POZZETTO, burraco_bonus
from domain.burraco.state import DRAW as DRAW_PHASE
from domain.burraco.state import OVER as OVER_PHASE
from domain.burraco.state import STOCK_END, Table
from domain.burraco.values import INFO, points_of
from domain.table import Command

DRAW: Final = 0
TAKE: Final = 1
DISCARD: Final = 2
CODES: Final[tuple[str, ...]] = tuple(sorted(INFO))  # the 53 distinct codes (52 and the joker)
CODE_ID: Final[dict[str, int]] = {code: i for i, code in enumerate(CODES)}
DISCARD_MOVE: Final[dict[str, int]] = {code: DISCARD + i for i, code in enumerate(CODES)}
TWO_LEFT: Final = 2  # rules 16 and 19 bite on a hand left with fewer cards than this

# phases
P_DRAW: Final = 0
P_PLAY: Final = 1
P_OVER: Final = 2

Move = int | tuple[Any, ...]


class Rules:
    """What a hand's rules read and never change: the options and the deal."""

    __slots__ = (
        "bonuses",
        "clean_close",
        "deck",
        "must_meld",
        "number",
        "players",
        "rediscard",
        "set_ranks_limited",
        "stalemate",
    )

    def __init__(self, table: Table) -> None:
        options: Options = table.options
        r = table.round
        assert r is not None
        self.players: int = options.players
        self.bonuses: str = options.bonuses
        self.clean_close: bool = options.close_requires == "clean_burraco"
        self.set_ranks_limited: bool = options.set_ranks == "aces_and_threes"
        self.must_meld: bool = options.take_pile == "must_meld"
        self.rediscard: bool = options.single_card_rediscard
        self.stalemate: int = options.players * options.stalemate_rounds  # rule 21
        self.deck: tuple[str, ...] = r.deck
        self.number: int = r.number


class Position:
    """One Burraco hand, mutable. Seats' hands keep the order cards were received (the
    reference's listing reads it)."""

    __slots__ = (
        "closed_by",
        "end_reason",
        "hands",
        "last_turn",
        "melded_from_pile",
        "melds",
        "next_meld",
        "phase",
        "pile",
        "pozzetti",
        "pozzetto_of_team",
        "rules",
        "sealed",
        "single_streak",
        "stock_next",
        "took_pile",
        "turn",
    )

    rules: Rules
    hands: list[list[str]]
    sealed: list[tuple[str, ...]]  # rule 17: taken on the discard, not yet opened
    pozzetti: list[tuple[str, ...]]
    pozzetto_of_team: list[int]  # -1: not taken
    stock_next: int
    pile: list[str]
    melds: list[tuple[int, int, Layout]]  # (id, team, layout)
    next_meld: int
    turn: int
    phase: int
    took_pile: tuple[str, ...]
    melded_from_pile: bool
    last_turn: bool
    single_streak: int
    closed_by: int  # -1: nobody
    end_reason: str


def copy(pos: Position) -> Position:
    """A cheap copy: the hands and the pile copied, tuples, layouts and the rules shared."""
    new = Position.__new__(Position)
    new.rules = pos.rules
    new.hands = [hand[:] for hand in pos.hands]
    new.sealed = pos.sealed[:]
    new.pozzetti = pos.pozzetti[:]
    new.pozzetto_of_team = pos.pozzetto_of_team[:]
    new.stock_next = pos.stock_next
    new.pile = pos.pile[:]
    new.melds = pos.melds[:]
    new.next_meld = pos.next_meld
    new.turn = pos.turn
    new.phase = pos.phase
    new.took_pile = pos.took_pile
    new.melded_from_pile = pos.melded_from_pile
    new.last_turn = pos.last_turn
    new.single_streak = pos.single_streak
    new.closed_by = pos.closed_by
    new.end_reason = pos.end_reason
    return new


def from_state(state: Table) -> Position:
    """The position of the hand in ``state`` (the reference engine's table)."""
    r = state.round
    if r is None:
        raise ValueError("no hand in play")
    pos = Position.__new__(Position)
    pos.rules = Rules(state)
    pos.hands = [list(hand) for hand in r.hands]
    pos.sealed = list(r.sealed)
    pos.pozzetti = list(r.pozzetti)
    pos.pozzetto_of_team = [-1 if p is None else p for p in r.pozzetto_of_team]
    pos.stock_next = r.stock_next
    pos.pile = list(r.pile)
    pos.melds = [(m.id, m.team, m.layout) for m in r.melds]
    pos.next_meld = state.next_meld
    pos.turn = r.turn
    pos.phase = P_OVER if r.phase == OVER_PHASE else P_DRAW if r.phase == DRAW_PHASE else P_PLAY
    pos.took_pile = r.took_pile
    pos.melded_from_pile = r.melded_from_pile
    pos.last_turn = r.last_turn
    pos.single_streak = r.single_streak
    pos.closed_by = -1 if r.closed_by is None else r.closed_by
    pos.end_reason = r.end_reason or ""
    return pos


def to_move(pos: Position) -> int:
    """The seat whose turn it is; -1 once the hand is over."""
    return -1 if pos.phase == P_OVER else pos.turn


def is_over(pos: Position) -> bool:
    return pos.phase == P_OVER


def team_scores(pos: Position) -> tuple[int, int]:
    """Rules 22–26: each partnership's score for the hand (``scoring.team_score``)."""
    rules = pos.rules
    totals = []
    for team in (0, 1):
        total = 0
        for _, owner, layout in pos.melds:
            if owner == team:
                total += points_of(layout.cards) + burraco_bonus(layout, rules.bonuses)
        for seat in range(team, rules.players, 2):
            total -= points_of(pos.hands[seat]) + points_of(pos.sealed[seat])
        if pos.end_reason == "closed" and pos.closed_by >= 0 and pos.closed_by % 2 == team:
            total += CLOSING
        if pos.pozzetto_of_team[team] < 0:
            total += NO_POZZETTO
        totals.append(total)
    return totals[0], totals[1]


def outcome(pos: Position) -> list[float]:
    """Per seat, the hand's score of its side (rules 22–26); the hand must be over."""
    if pos.phase != P_OVER:
        raise ValueError("the hand is not over")
    scores = team_scores(pos)
    return [float(scores[seat % 2]) for seat in range(pos.rules.players)]


# --- the checks (turn.py's, on a position) ----------------------------------------------------


def _team_melds(pos: Position, team: int) -> list[tuple[int, Layout]]:
    return [(meld_id, layout) for meld_id, owner, layout in pos.melds if owner == team]


def _set_fault(pos: Position, team: int, layout: Layout) -> bool:
    """Rule 8 (one set per rank per team) and option ``set_ranks``."""
    if layout.kind != SET:
        return False
    if pos.rules.set_ranks_limited and layout.rank not in ("A", "3"):
        return True
    for _, owner, other in pos.melds:
        if owner == team and other.kind == SET and other.rank == layout.rank:
            return True
    return False


def _closing_fault(pos: Position, seat: int, code: str) -> bool:
    """Rule 18: whether ``seat`` may not go out by discarding ``code``."""
    team = seat % 2
    if pos.pozzetto_of_team[team] < 0:
        return True
    layouts = [layout for _, owner, layout in pos.melds if owner == team]
    if pos.rules.clean_close:
        if not any(lay.burraco and lay.clean for lay in layouts):
            return True
    elif not any(lay.burraco for lay in layouts):
        return True
    info = INFO[code]
    return info.wild  # the joker and every 2 (rule 18: never a wild)


def _discard_fault(pos: Position, seat: int, code: str, pile_rule: bool = True) -> bool:
    """Rules 13, 14, 18 and option ``take_pile`` (``turn.discard_fault``)."""
    took = pos.took_pile
    hand = pos.hands[seat]
    if (
        not pos.rules.rediscard
        and len(took) == 1
        and took[0] == code
        and hand.count(code) == 1
        and not pos.melded_from_pile
    ):
        return True
    if pile_rule and _must_still_meld(pos, seat):
        return True
    return (
        len(hand) == 1 and pos.pozzetto_of_team[seat % 2] >= 0 and _closing_fault(pos, seat, code)
    )


def _restricted(pos: Position, seat: int) -> bool:
    """Whether :func:`_discard_fault` could refuse any card (``turn.discards_restricted``)."""
    if len(pos.hands[seat]) == 1:
        return True
    took = pos.took_pile
    if not took:
        return False
    return (len(took) == 1 and not pos.rules.rediscard) or (
        pos.rules.must_meld and not pos.melded_from_pile
    )


def _owed(pos: Position) -> bool:
    """Option ``take_pile=must_meld``: a pile taken this turn is still owed a meld."""
    return pos.rules.must_meld and bool(pos.took_pile) and not pos.melded_from_pile


def _must_still_meld(pos: Position, seat: int) -> bool:
    return _owed(pos) and _pile_card_meldable(pos, seat)


def _pile_card_meldable(pos: Position, seat: int) -> bool:
    """Whether a meld using a card of this turn's pile take is accepted now."""
    team_melds = _team_melds(pos, seat % 2)
    for c in pile_melds(pos.hands[seat], team_melds, pos.took_pile):
        if _allowed(pos, seat, c.meld or 0, c.cards):
            return True
    return False


def _unrefusable(pos: Position, seat: int) -> int:
    """The most cards a meld may lay with nothing after it able to refuse it
    (``turn.unrefusable``)."""
    if _owed(pos):
        return -1
    return len(pos.hands[seat]) - TWO_LEFT


def _held(hand: list[str], cards: Sequence[str]) -> bool:
    if len(cards) == 1:
        return cards[0] in hand
    remaining = hand[:]
    for code in cards:
        if code not in remaining:
            return False
        remaining.remove(code)
    return True


def _reading(
    pos: Position, seat: int, meld: int, cards: Sequence[str], hints: tuple[Any, Any] = (None, None)
) -> Layout | None:
    """Rules 7–11: the layout the cards make (new, or joining meld ``meld``), or ``None``."""
    if not _held(pos.hands[seat], cards):
        return None
    team = seat % 2
    try:
        if meld == 0:
            layout = arrange_new(cards, wild_rank=hints[0], ace=hints[1])
            return None if _set_fault(pos, team, layout) else layout
        for meld_id, owner, old in pos.melds:
            if meld_id == meld:
                if owner != team:
                    return None
                return arrange_extension(old, cards, wild_rank=hints[0], ace=hints[1])
    except MeldError:
        return None
    return None


def _lay(pos: Position, seat: int, meld: int, cards: Sequence[str], layout: Layout) -> None:
    """The meld on the table and out of the hand (``evolve``'s ``Melded``/``MeldExtended``)."""
    hand = pos.hands[seat]
    for code in cards:
        hand.remove(code)
    if meld == 0:
        meld = pos.next_meld
        pos.melds.append((meld, seat % 2, layout))
        pos.next_meld = meld + 1
    else:
        melds = pos.melds
        for index, (meld_id, owner, _) in enumerate(melds):
            if meld_id == meld:
                melds[index] = (meld_id, owner, layout)
                break
    took = pos.took_pile
    if took and not pos.melded_from_pile:
        pos.melded_from_pile = any(code in took for code in cards)


def _take_pozzetto(pos: Position, seat: int, direct: bool) -> None:
    """Rule 15: the first of each team to empty the hand takes a pozzetto (0 if still there);
    directly to play on (rule 16) or sealed until the next turn (rule 17)."""
    index = 0 if pos.pozzetti[0] else 1
    cards = pos.pozzetti[index]
    if direct:
        pos.hands[seat] += cards
    else:
        pos.sealed[seat] = cards
    pos.pozzetti[index] = ()
    pos.pozzetto_of_team[seat % 2] = index


def _stands_after(after: Position, seat: int) -> bool:
    """Rules 16 and 19 and option ``must_meld`` on the position after a meld
    (``turn.after_meld``, before a pozzetto taken directly)."""
    if _owed(after) and not _pile_card_meldable(after, seat):
        return False
    hand = after.hands[seat]
    team = seat % 2
    if not hand:
        return after.pozzetto_of_team[team] < 0
    if any(not _discard_fault(after, seat, code, pile_rule=False) for code in hand):
        return True
    if len(hand) == 1 and after.pozzetto_of_team[team] >= 0:
        return False
    return len(hand) == 1 and any(extensions(hand, _team_melds(after, team)))


def _allowed(
    pos: Position, seat: int, meld: int, cards: Sequence[str], hints: tuple[Any, Any] = (None, None)
) -> bool:
    """Whether ``decide`` accepts this meld by the seat to act (``turn.meld_allowed``)."""
    layout = _reading(pos, seat, meld, cards, hints)
    if layout is None:
        return False
    if len(cards) <= _unrefusable(pos, seat):
        return True
    trial = copy(pos)
    _lay(trial, seat, meld, cards, layout)
    return _stands_after(trial, seat)


# --- legal moves ------------------------------------------------------------------------------


def _once(candidates: list[Candidate]) -> list[Candidate]:
    seen: set[tuple[int | None, tuple[str, ...]]] = set()
    first: list[Candidate] = []
    for c in candidates:
        key = (c.meld, tuple(sorted(c.cards)))
        if key not in seen:
            seen.add(key)
            first.append(c)
    return first


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
            for c in _once(candidates)
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
