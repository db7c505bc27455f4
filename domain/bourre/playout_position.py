"""The playout path of Bourré, its position (design §6.1; the interface and the moves' encoding
are in :mod:`domain.bourre.playout`): the rules a hand is played under, the compact mutable
position, its making from a reference state, whose turn it is and each seat's chips net."""

from __future__ import annotations

from itertools import combinations
from typing import Any, Final

from domain.bourre.codes import INDEX
from domain.bourre.state import DECLARE, DRAW, PLAY, SECOND_CHANCE, SETTLED, SETTLING, Table
from domain.cards import shuffled
from domain.table.deck import DealSource, random_seed

PASS: Final = 52
STAY: Final = 53
DISCARD: Final = 64
TAKE: Final = 32

# phases
P_DECLARE: Final = 0
P_DRAW: Final = 1
P_SECOND: Final = 2
P_PLAY: Final = 3
P_OVER: Final = 4
_PHASES: Final = {DECLARE: P_DECLARE, DRAW: P_DRAW, SECOND_CHANCE: P_SECOND, PLAY: P_PLAY}

SEQUENTIAL: Final = 0
TWO_ROUND: Final = 1
SIMULTANEOUS: Final = 2
_DECLARATIONS: Final = {"sequential": SEQUENTIAL, "two_round": TWO_ROUND, "simultaneous": 2}
ACE_RANK: Final = 12  # an index's rank bits: 0 is the 2, 12 the Ace


def _subsets(size: int, most: int) -> tuple[int, ...]:
    """Rule 34's choices of at most ``most`` of ``size`` places, as place masks, in the order
    ``legal_commands`` lists them (the empty one, one card, two cards, …)."""
    return tuple(
        sum(1 << k for k in chosen)
        for count in range(min(size, most) + 1)
        for chosen in combinations(range(size), count)
    )


SUBSETS: Final = tuple(tuple(_subsets(size, most) for most in range(6)) for size in range(8))


class Rules:
    """What a hand's rules read and never change: the options and the deal's fixed facts."""

    __slots__ = (
        "ace_up",
        "ante",
        "cinch",
        "dealer",
        "deals",
        "declaration",
        "double_ante",
        "four_card",
        "hand_size",
        "max_discard",
        "may_take",
        "number",
        "order",
        "pot_limit",
        "seats",
        "share_all",
        "shuffles",
        "split",
        "trump",
        "trump_card",
    )

    def __init__(self, table: Table) -> None:
        options = table.options
        hand = table.hand
        assert hand is not None
        self.seats: int = options.seats
        self.ante: int = options.ante
        self.pot_limit: int | None = options.pot_limit
        self.double_ante: bool = options.double_ante
        self.declaration: int = _DECLARATIONS[options.declaration]
        self.four_card: bool = options.four_card
        self.max_discard: int = options.max_discard
        self.may_take: bool = options.trump_card == "separate_dealer_may_take"
        self.cinch: str = options.cinch
        self.split: bool = options.tie == "split"
        self.share_all: bool = options.reshuffle_pool == "all_discards"
        self.hand_size: int = options.hand_size
        self.dealer: int = hand.dealer
        self.order: tuple[int, ...] = hand.order
        self.trump: int = hand.trump_suit
        self.trump_card: int = INDEX[hand.trump_card.code]
        # rule 15: the dealer's own face-up ace forces the dealer to play
        self.ace_up: bool = (
            options.dealer_owns_trump_card
            and options.ace_forces_dealer
            and self.trump_card % 13 == ACE_RANK
        )
        self.deals: DealSource = table.deals
        self.number: int = hand.number
        self.shuffles: dict[tuple[int, int], list[int]] = {}

    def shuffle(self, round_: int, size: int) -> list[int]:
        """Rule 14's reshuffle number ``round_`` of ``size`` cards, as the order of their
        places: the table's seed (``random_seed(deals, "reshuffle", hand, round)``) drives the
        same Fisher–Yates shuffle as ``deal.reshuffle_if_short``, whose permutation depends on
        the seed and the size only, so it is worked out once per hand (playouts from the same
        deal share it)."""
        key = (round_, size)
        found = self.shuffles.get(key)
        if found is None:
            seed = random_seed(self.deals, "reshuffle", self.number, round_)
            found = self.shuffles[key] = shuffled(range(size), seed)
        return found


class Position:
    """One Bourré hand, mutable. Per-seat lists are indexed by seat; cards are bit indices."""

    __slots__ = (
        "best",
        "best_seat",
        "decisions",
        "discards",
        "gathered",
        "gone",
        "held",
        "holding",
        "in_trick",
        "leader_index",
        "led",
        "paid",
        "phase",
        "playing",
        "pot",
        "reshuffles",
        "revealed",
        "rules",
        "second",
        "served",
        "settled",
        "stock",
        "tricks",
        "tricks_played",
        "trump_owner",
        "turn",
    )

    rules: Rules
    phase: int
    turn: int  # the seat to act; -1 in the sealed round (any undecided seat) and when over
    held: list[int]  # per seat, a mask
    holding: list[tuple[int, ...]]  # per seat, in the order received (read until the draw)
    stock: tuple[int, ...]  # top first
    discards: list[tuple[int, ...]]
    gathered: int  # discards already reshuffled into the stock, a mask
    reshuffles: int
    decisions: list[int]  # -1 undecided, 0 pass, 1 play
    revealed: bool
    served: list[bool]
    second: list[int]  # -1 undecided, 0 pass, 1 play (rule 33)
    trump_owner: int  # -1: nobody
    playing: tuple[int, ...]
    leader_index: int
    in_trick: int  # cards played to the current trick
    led: int
    best: int
    best_seat: int
    tricks: list[int]
    tricks_played: int
    gone: int
    pot: int
    paid: list[int]  # chips each seat put in this hand
    settled: list[float] | None  # the outcome, once the hand is over


def copy(pos: Position) -> Position:
    """A cheap copy: the per-seat lists copied, tuples and the rules shared."""
    new = Position.__new__(Position)
    new.rules = pos.rules
    new.phase = pos.phase
    new.turn = pos.turn
    new.held = pos.held[:]
    new.holding = pos.holding[:]
    new.stock = pos.stock
    new.discards = pos.discards[:]
    new.gathered = pos.gathered
    new.reshuffles = pos.reshuffles
    new.decisions = pos.decisions[:]
    new.revealed = pos.revealed
    new.served = pos.served[:]
    new.second = pos.second[:]
    new.trump_owner = pos.trump_owner
    new.playing = pos.playing
    new.leader_index = pos.leader_index
    new.in_trick = pos.in_trick
    new.led = pos.led
    new.best = pos.best
    new.best_seat = pos.best_seat
    new.tricks = pos.tricks[:]
    new.tricks_played = pos.tricks_played
    new.gone = pos.gone
    new.pot = pos.pot
    new.paid = pos.paid[:]
    new.settled = pos.settled
    return new


def _idx(cards: Any) -> tuple[int, ...]:
    return tuple(INDEX[c.code] for c in cards)


def _opening_antes(table: Table, number: int) -> list[int]:
    """The antes every seat paid before the deal of hand ``number`` (rules 5–7, 30)."""
    options = table.options
    paid = [options.ante] * options.seats
    if number == 1 or options.double_ante:
        return paid
    for record in reversed(table.history):
        if record.hand == number - 1:
            exempt = set(record.bourre)
            if options.tie == "carry":
                exempt.update(record.tied)
            for seat in exempt:
                paid[seat] = 0
            break
    return paid


def _settle(pos: Position) -> None:
    """Rules 23–27 (``settlement.settle``, on locals): the outcome, antes paid this hand
    included. One player left (rule 16) takes the pot at stake (``cap``) and nobody is bourré;
    else a unique leader takes it, tied leaders share it with ``tie: split`` (rule 34), and
    every player without a trick pays ``cap`` (rule 25)."""
    rules = pos.rules
    pot = pos.pot
    limit = rules.pot_limit
    cap = pot if limit is None or pot < limit else limit
    net = [float(-paid) for paid in pos.paid]
    playing = pos.playing
    if pos.tricks_played < rules.hand_size:  # solo
        net[playing[0]] += cap
    else:
        tricks = pos.tricks
        most = max([tricks[s] for s in playing])
        leaders = [s for s in playing if tricks[s] == most]
        if len(leaders) == 1:
            net[leaders[0]] += cap
        elif rules.split:
            share = cap // len(leaders)
            for s in leaders:
                net[s] += share
        for s in playing:
            if not tricks[s]:
                net[s] -= cap
    pos.settled = net
    pos.phase = P_OVER
    pos.turn = -1


def from_state(state: Table) -> Position:
    """The position of the hand in ``state`` (the reference engine's table)."""
    hand = state.hand
    if hand is None:
        raise ValueError("no hand in play")
    rules = Rules(state)
    options = state.options
    pos = Position.__new__(Position)
    pos.rules = rules
    n = rules.seats
    pos.held = list(hand.held)
    pos.holding = [_idx(cards) for cards in hand.holdings]
    pos.stock = _idx(hand.stock)
    pos.discards = [_idx(cards) for cards in hand.discards]
    pos.gathered = sum(1 << INDEX[c.code] for c in hand.gathered)
    pos.reshuffles = hand.reshuffles
    pos.decisions = [-1 if d is None else int(d) for d in hand.decisions]
    pos.revealed = hand.revealed
    pos.served = list(hand.served)
    pos.second = [-1 if d is None else int(d) for d in hand.second]
    owner = hand.trump_card_owner
    pos.trump_owner = -1 if owner is None else owner
    pos.playing = hand.playing
    pos.leader_index = hand.leader_index
    pos.in_trick = len(hand.trick)
    pos.led = hand.led
    pos.best = hand.best
    pos.best_seat = -1
    for seat, played in hand.trick:
        if INDEX[played.code] == hand.best:
            pos.best_seat = seat
    pos.tricks = list(hand.tricks)
    pos.tricks_played = hand.tricks_played
    pos.gone = hand.gone
    pos.turn = -1 if hand.turn is None else hand.turn
    pos.settled = None
    paid = _opening_antes(state, hand.number)
    if options.double_ante and hand.revealed:
        for seat in range(n):
            if pos.decisions[seat] == 1:
                paid[seat] += rules.ante
    if options.four_card:
        for seat in range(n):
            if pos.second[seat] == 1:
                paid[seat] += rules.ante
    pos.paid = paid
    if hand.phase == SETTLED:
        record = hand.settlement
        assert record is not None
        pos.pot = record.pot
        pos.phase = P_OVER
        pos.turn = -1
        _settle(pos)
    else:
        pos.pot = state.pot
        pos.phase = _PHASES.get(hand.phase, P_OVER)
        if hand.phase == SETTLING:
            pos.turn = -1
            _settle(pos)
    return pos


def to_move(pos: Position) -> int:
    """The seat to act; in the sealed round of ``simultaneous`` declaration (rule 31) the first
    undecided seat from the dealer's left; -1 once the hand is over."""
    turn = pos.turn
    if turn >= 0 or pos.phase == P_OVER:
        return turn
    decisions = pos.decisions
    for seat in pos.rules.order:
        if decisions[seat] < 0:
            return seat
    return -1


def is_over(pos: Position) -> bool:
    return pos.phase == P_OVER


def outcome(pos: Position) -> list[float]:
    """Per seat, the chips won or paid this hand, antes included (rules 5–7, 23–27, 30, 33)."""
    if pos.settled is None:
        raise ValueError("the hand is not over")
    return pos.settled[:]
