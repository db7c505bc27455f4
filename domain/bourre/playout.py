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
"""

from __future__ import annotations

from itertools import combinations
from operator import itemgetter
from random import Random
from typing import Any, Final

from domain.bourre.cinch import TRICKS_TO_WIN, cinch_mask
from domain.bourre.codes import CODE_AT, INDEX, SUIT_MASK, SUIT_OF
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.state import DECLARE, DRAW, PLAY, SECOND_CHANCE, SETTLED, SETTLING, Table
from domain.bourre.tricks import BEATERS, legal_mask
from domain.cards import card, shuffled
from domain.table import Command
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


# --- legal moves ----------------------------------------------------------------------------


def _may_pass(pos: Position, seat: int) -> bool:
    """Rules 15–16 (``declaring.pass_refusal``)."""
    rules = pos.rules
    if pos.phase == P_DECLARE:
        if seat == rules.dealer and rules.ace_up:
            return False
        if rules.declaration != SIMULTANEOUS:
            decisions = pos.decisions
            others = decisions.count(0) - (decisions[seat] == 0)
            if others == rules.seats - 1:
                return False
        return True
    if pos.phase == P_SECOND:
        decisions, second = pos.decisions, pos.second
        return any(second[s] != 0 for s in range(rules.seats) if s != seat and decisions[s] == 1)
    return True


def _discard_moves(pos: Position, seat: int) -> list[int]:
    rules = pos.rules
    plain = SUBSETS[len(pos.holding[seat])][rules.max_discard]
    moves = [DISCARD + m for m in plain]
    if rules.may_take and seat == rules.dealer:
        moves += [DISCARD + TAKE + m for m in plain[1:]]
    return moves


def play_mask(pos: Position, seat: int) -> int:
    """The cards ``seat`` may play (spec 5.1, then the cinch of rule 21), as a mask."""
    rules = pos.rules
    held = pos.held[seat]
    trump = rules.trump
    legal = legal_mask(held, trump, pos.led, pos.best)
    if legal & SUIT_MASK[trump] and rules.cinch != "off" and pos.in_trick != len(pos.playing) - 1:
        gone = pos.gone if pos.trump_owner >= 0 else pos.gone | 1 << rules.trump_card
        legal = cinch_mask(
            legal, held, trump, pos.led, pos.best, pos.tricks[seat], gone, rules.cinch
        )[0]
    return legal


def legal(pos: Position) -> list[int]:
    """The moves of the seat to act (:func:`to_move`): cards lowest bit first; the declaring
    moves in ``legal_commands``' order."""
    seat = to_move(pos)
    if seat < 0:
        return []
    phase = pos.phase
    if phase == P_PLAY:
        mask = play_mask(pos, seat)
        moves = []
        while mask:
            low = mask & -mask
            moves.append(low.bit_length() - 1)
            mask ^= low
        return moves
    if phase == P_DECLARE:
        moves = [PASS] if _may_pass(pos, seat) else []
        if pos.rules.declaration == SEQUENTIAL:
            moves += _discard_moves(pos, seat)
        else:
            moves.append(STAY)
        return moves
    if phase == P_DRAW:
        return _discard_moves(pos, seat)
    if phase == P_SECOND:
        return [STAY, PASS] if _may_pass(pos, seat) else [STAY]
    return []


# --- applying a move ------------------------------------------------------------------------


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


def _ante(pos: Position, seat: int) -> None:
    pos.paid[seat] += pos.rules.ante
    pos.pot += pos.rules.ante


def _start_play(pos: Position, playing: list[int]) -> None:
    if len(playing) <= 1:
        pos.playing = tuple(playing)
        _settle(pos)
        return
    pos.phase = P_PLAY
    pos.playing = tuple(playing)
    pos.leader_index = 0
    pos.turn = playing[0]


def _after_draw(pos: Position) -> None:
    if pos.rules.four_card:
        pos.phase = P_SECOND
        _advance(pos)
    else:
        _start_play(pos, [s for s in pos.rules.order if pos.decisions[s] == 1])


def _advance(pos: Position) -> None:
    """Whose turn after a declaring move (``evolve.advance``), ending the stage when every
    seat is done; one player left (rule 16) settles the hand without play."""
    rules = pos.rules
    order = rules.order
    decisions = pos.decisions
    if pos.phase == P_DECLARE:
        if rules.declaration == SEQUENTIAL:
            for s in order:
                d = decisions[s]
                if d < 0 or (d == 1 and not pos.served[s]):
                    pos.turn = s
                    return
        elif rules.declaration == TWO_ROUND:
            for s in order:
                if decisions[s] < 0:
                    pos.turn = s
                    return
        elif not pos.revealed:
            pos.turn = -1
            return
        playing = [s for s in order if decisions[s] == 1]
        if len(playing) <= 1:
            pos.playing = tuple(playing)
            _settle(pos)
            return
        if rules.declaration == SEQUENTIAL:
            _after_draw(pos)
            return
        pos.phase = P_DRAW
    if pos.phase == P_DRAW:
        for s in order:
            if decisions[s] == 1 and not pos.served[s]:
                pos.turn = s
                return
        _after_draw(pos)
        return
    if pos.phase == P_SECOND:
        second = pos.second
        for s in order:
            if decisions[s] == 1 and second[s] < 0:
                pos.turn = s
                return
        _start_play(pos, [s for s in order if decisions[s] == 1 and second[s] != 0])


def _reshuffle(pos: Position, seat: int, thrown: tuple[int, ...], needed: int) -> None:
    """Rule 14 (``deal.reshuffle_if_short``): the discards of the seats already served (with
    ``all_discards`` every discard, the seat's own passed over) continue the stock, in the
    order the table's seed gives."""
    gathered = pos.gathered
    pool = [
        c
        for s, cards in enumerate(pos.discards)
        if s != seat
        for c in cards
        if not gathered >> c & 1
    ]
    rules = pos.rules
    pos.reshuffles += 1
    if rules.share_all:
        own = [c for c in thrown if not gathered >> c & 1]
        pool += own
        order = [pool[i] for i in rules.shuffle(pos.reshuffles, len(pool))]
        short = needed - len(pos.stock)
        served: list[int] = []
        rest: list[int] = []
        for c in order:
            if len(served) < short and c not in own:
                served.append(c)
            else:
                rest.append(c)
        order = served + rest
    else:
        order = [pool[i] for i in rules.shuffle(pos.reshuffles, len(pool))]
    for c in pool:
        gathered |= 1 << c
    pos.gathered = gathered
    pos.stock += tuple(order)


def _getter(places: tuple[int, ...]) -> Any:
    """A function answering the tuple of a holding's cards at ``places`` (in one C call)."""
    if len(places) > 1:
        return itemgetter(*places)
    if places:
        return itemgetter(slice(places[0], places[0] + 1))
    return itemgetter(slice(0, 0))


# SPLITS[size][m]: for a holding of ``size`` cards, the getters of the cards at the places
# whose bits ``m`` sets and of the others (both in the holding's order)
SPLITS: Final = tuple(
    tuple(
        (
            _getter(tuple(k for k in range(size) if m >> k & 1)),
            _getter(tuple(k for k in range(size) if not m >> k & 1)),
        )
        for m in range(1 << size)
    )
    for size in range(8)
)
BITS: Final = tuple(1 << i for i in range(52))  # card index -> its bit


def _draw(pos: Position, seat: int, places: int, take: bool) -> None:
    """Rule 13 (``declaring.draw_events`` and ``evolve.discarded``): the cards at ``places``
    leave the hand, the turned card (rule 32) and as many from the stock as needed join it."""
    pos.served[seat] = True
    if not places:  # stands pat (a take needs a discard)
        pos.discards[seat] = ()
        return
    holding = pos.holding[seat]
    throw, keep = SPLITS[len(holding)][places]
    thrown = throw(holding)
    kept = keep(holding)
    needed = len(thrown) - take
    stock = pos.stock
    if len(stock) < needed:
        _reshuffle(pos, seat, thrown, needed)
        stock = pos.stock
    drawn = stock[:needed]
    pos.stock = stock[needed:]
    bit = BITS.__getitem__
    held = pos.held[seat] ^ sum(map(bit, thrown)) | sum(map(bit, drawn))
    if take:
        card = pos.rules.trump_card
        kept += (card,)
        held |= 1 << card
        pos.trump_owner = seat
    pos.holding[seat] = kept + drawn
    pos.held[seat] = held
    pos.discards[seat] = thrown


def apply(pos: Position, move: int) -> None:
    """Play ``move`` (one of :func:`legal`) for the seat to act, with its consequences: the
    trick won (rule 18), the settlement once the hand is over."""
    seat = to_move(pos)
    phase = pos.phase
    if phase == P_PLAY:
        _play(pos, seat, move)
        return
    rules = pos.rules
    if phase == P_DECLARE:
        play = move != PASS
        pos.decisions[seat] = int(play)
        if play and rules.declaration != SIMULTANEOUS and rules.double_ante:
            _ante(pos, seat)
        if move >= DISCARD:
            _draw(pos, seat, move & 31, bool(move & TAKE))
        if rules.declaration == SIMULTANEOUS and min(pos.decisions) >= 0:
            _reveal(pos)
        _advance(pos)
    elif phase == P_DRAW:
        _draw(pos, seat, move & 31, bool(move & TAKE))
        _advance(pos)
    elif phase == P_SECOND:
        play = move != PASS
        pos.second[seat] = int(play)
        if play:
            _ante(pos, seat)
        _advance(pos)
    else:
        raise ValueError("the hand is over")


def _reveal(pos: Position) -> None:
    """Rule 31: the sealed decisions shown; if all passed the dealer plays (rule 16); those
    who play pay the second ante (rule 30)."""
    rules = pos.rules
    if max(pos.decisions) < 1:
        pos.decisions[rules.dealer] = 1
    pos.revealed = True
    if rules.double_ante:
        for s in range(rules.seats):
            if pos.decisions[s] == 1:
                _ante(pos, s)


def _play(pos: Position, seat: int, card: int) -> None:
    """Rules 17–18: the card joins the trick; a full trick goes to its heading card's seat."""
    bit = 1 << card
    pos.held[seat] ^= bit
    pos.gone |= bit
    done = pos.in_trick + 1
    if done == 1:
        pos.led = SUIT_OF[card]
        pos.best = card
        pos.best_seat = seat
    elif BEATERS[pos.rules.trump][pos.best] & bit:
        pos.best = card
        pos.best_seat = seat
    playing = pos.playing
    count = len(playing)
    if done < count:
        pos.in_trick = done
        pos.turn = playing[(pos.leader_index + done) % count]
        return
    winner = pos.best_seat
    pos.tricks[winner] += 1
    pos.tricks_played += 1
    pos.in_trick = 0
    pos.led = -1
    pos.best = -1
    pos.best_seat = -1
    pos.leader_index = playing.index(winner)
    if pos.tricks_played == pos.rules.hand_size:
        _settle(pos)
    else:
        pos.turn = winner


# --- the bridge to the commands ---------------------------------------------------------------


def to_command(pos: Position, move: int) -> Command:
    """The command of ``move`` for the seat to act."""
    seat = to_move(pos)
    phase = pos.phase
    if phase == P_PLAY:
        return PlayCard(seat=seat, card=CODE_AT[move])
    if move >= DISCARD:
        holding = pos.holding[seat]
        codes = [CODE_AT[c] for k, c in enumerate(holding) if move >> k & 1]
        take = bool(move & TAKE)
        if phase == P_DRAW:
            return Draw(seat=seat, discard=codes, take_trump=take)
        return Declare(seat=seat, play=True, discard=codes, take_trump=take)
    if phase == P_SECOND:
        return SecondChance(seat=seat, play=move == STAY)
    return Declare(seat=seat, play=move == STAY)


def from_command(pos: Position, command: Command) -> int:
    """The move of a command of the seat to act (a ``ValueError`` for any other)."""
    if isinstance(command, PlayCard):
        return INDEX[card(command.card).code]
    if isinstance(command, SecondChance):
        return STAY if command.play else PASS
    if isinstance(command, Declare | Draw):
        if isinstance(command, Declare) and not command.play:
            return PASS
        if isinstance(command, Declare) and pos.rules.declaration != SEQUENTIAL:
            return STAY
        holding = pos.holding[command.seat]
        places = 0
        for code in command.discard:
            places |= 1 << holding.index(INDEX[code])
        return DISCARD + places + (TAKE if command.take_trump else 0)
    raise ValueError(f"not a Bourré move: {type(command).__name__}")


# --- the hot loop ---------------------------------------------------------------------------


def _random_declaring_move(pos: Position, random: Any) -> int:
    """The move :func:`random_playout` picks from ``legal(pos)`` (see there), counted rather
    than listed (before play: declarations, draws, second chances)."""
    seat = to_move(pos)
    phase = pos.phase
    rules = pos.rules
    if phase == P_SECOND:  # [STAY, PASS] or [STAY]
        return PASS if _may_pass(pos, seat) and random() >= 0.5 else STAY
    may = phase == P_DECLARE and _may_pass(pos, seat)
    if phase == P_DECLARE and rules.declaration != SEQUENTIAL:  # [PASS, STAY] or [STAY]
        return PASS if may and random() < 0.5 else STAY
    plain = SUBSETS[len(pos.holding[seat])][rules.max_discard]
    count = len(plain)
    taking = count - 1 if rules.may_take and seat == rules.dealer else 0
    total = may + count + taking
    k = int(random() * total) if total > 1 else 0
    if may:
        if not k:
            return PASS
        k -= 1
    return DISCARD + plain[k] if k < count else DISCARD + TAKE + plain[k - count + 1]


def _declare_sequentially(pos: Position, random: Any) -> None:
    """The random declarations of ``sequential`` declaration (rules 11–16, 30, 32), each seat
    in turn playing or passing and drawing at once: :func:`_random_declaring_move` and
    :func:`apply` on locals, the same moves for the same random numbers."""
    rules = pos.rules
    decisions = pos.decisions
    holding = pos.holding
    n = rules.seats
    most = rules.max_discard
    dealer = rules.dealer
    taker = dealer if rules.may_take else -1
    passes = decisions.count(0)
    for seat in rules.order:
        if decisions[seat] >= 0:
            continue  # declared (and drawn) already
        plain = SUBSETS[len(holding[seat])][most]
        count = len(plain)
        may = passes != n - 1 and not (seat == dealer and rules.ace_up)  # rules 15-16
        total = may + count + (count - 1 if seat == taker else 0)
        k = int(random() * total) if total > 1 else 0  # a forced move draws no number
        if may:
            if not k:
                decisions[seat] = 0
                passes += 1
                continue
            k -= 1
        decisions[seat] = 1
        if rules.double_ante:  # rule 30
            _ante(pos, seat)
        if k < count:
            places = plain[k]
            if places:
                _draw(pos, seat, places, False)
            else:  # stands pat
                pos.served[seat] = True
                pos.discards[seat] = ()
        else:
            _draw(pos, seat, plain[k - count + 1], True)
    playing = [s for s in rules.order if decisions[s] == 1]
    if len(playing) <= 1:  # rule 16
        pos.playing = tuple(playing)
        _settle(pos)
    elif rules.four_card:
        pos.phase = P_SECOND
        _advance(pos)
    else:
        _start_play(pos, playing)


def random_playout(pos: Position, rng: Random) -> list[float]:
    """Play the hand out from ``pos`` (left unchanged) with uniformly random legal moves; the
    outcome. Each move is the ``k``-th of :func:`legal`'s list for one random number, as
    ``moves[int(random() * len(moves))]`` picks it, and a forced move (the only one) draws
    no number; the declaring moves are counted rather than listed, and trick play, nearly
    every move of a hand, is inlined here on locals."""
    pos = copy(pos)
    random = rng.random
    if pos.phase == P_DECLARE and pos.rules.declaration == SEQUENTIAL:
        _declare_sequentially(pos, random)
    while pos.phase < P_PLAY:
        apply(pos, _random_declaring_move(pos, random))
    if pos.phase == P_OVER:
        assert pos.settled is not None
        return pos.settled
    rules = pos.rules
    trump = rules.trump
    trump_suit = SUIT_MASK[trump]
    beaters = BEATERS[trump]
    cinch = rules.cinch
    cinch_on = cinch != "off"
    held = pos.held
    tricks = pos.tricks
    playing = pos.playing
    count = len(playing)
    after = [0] * rules.seats  # the next to play after each seat
    for i, s in enumerate(playing):
        after[s] = playing[(i + 1) % count]
    last = count - 1
    out = 0 if pos.trump_owner >= 0 else 1 << rules.trump_card
    gone = pos.gone
    led = pos.led
    led_mask = SUIT_MASK[led] if led >= 0 else 0
    best = pos.best
    trumped = best >= 0 and SUIT_OF[best] == trump  # a trump heads the trick
    best_seat = pos.best_seat
    done = pos.in_trick
    left = rules.hand_size - pos.tricks_played
    seat = pos.turn
    while True:
        mine = held[seat]
        # spec 5.1 (tricks.legal_mask), inlined
        if not done:
            allowed = mine
        else:
            allowed = mine & led_mask
            if allowed:
                if not trumped or led == trump:
                    allowed = allowed & beaters[best] or allowed
            else:
                allowed = mine & trump_suit
                if not allowed:
                    allowed = mine
                elif trumped:
                    allowed = allowed & beaters[best] or allowed
        # the cinch (rule 21): only with trumps to play, not last, and three tricks in reach
        if (
            cinch_on
            and done != last
            and allowed & trump_suit
            and tricks[seat] + (mine & trump_suit).bit_count() >= TRICKS_TO_WIN
        ):
            allowed = cinch_mask(allowed, mine, trump, led, best, tricks[seat], gone | out, cinch)[
                0
            ]
        # the k-th card of ``allowed``, lowest first, for a uniform k (a forced card: no draw)
        if allowed & (allowed - 1):
            k = int(random() * allowed.bit_count())
            while k:
                allowed &= allowed - 1
                k -= 1
        bit = allowed & -allowed
        card = bit.bit_length() - 1
        held[seat] = mine ^ bit
        gone |= bit
        if not done:
            led = SUIT_OF[card]
            led_mask = SUIT_MASK[led]
            best = card
            trumped = led == trump
            best_seat = seat
        elif beaters[best] & bit:
            best = card
            trumped = SUIT_OF[card] == trump
            best_seat = seat
        done += 1
        if done < count:
            seat = after[seat]
            continue
        tricks[best_seat] += 1
        left -= 1
        if not left:
            break
        seat = best_seat
        done = 0
        led = best = -1  # (the cinch reads a trick's lead)
    pos.tricks_played = rules.hand_size
    _settle(pos)
    assert pos.settled is not None
    return pos.settled
