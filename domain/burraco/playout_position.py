"""The playout path of Burraco, its position (design §6.1; the interface and the moves' encoding
are in :mod:`domain.burraco.playout`): the compact mutable position, its making from a reference
state, whose turn it is and each side's score."""

from __future__ import annotations

from typing import Any, Final

from domain.burraco.layout import Layout
from domain.burraco.options import Options
from domain.burraco.scoring import CLOSING, NO_POZZETTO, burraco_bonus
from domain.burraco.state import DRAW as DRAW_PHASE
from domain.burraco.state import OVER as OVER_PHASE
from domain.burraco.state import Table
from domain.burraco.values import INFO, points_of

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
