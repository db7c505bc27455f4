"""The playout path of Bourré, its hot loop (design §6.1, :mod:`domain.bourre.playout`): a random
playout to the hand's end, declarations and draws drawn without listing every move."""

from __future__ import annotations

from random import Random
from typing import Any

from domain.bourre.cinch import TRICKS_TO_WIN, cinch_mask
from domain.bourre.codes import SUIT_MASK, SUIT_OF
from domain.bourre.playout_moves import (
    _advance,
    _ante,
    _draw,
    _may_pass,
    _start_play,
    apply,
)
from domain.bourre.playout_position import (
    DISCARD,
    P_DECLARE,
    P_OVER,
    P_PLAY,
    P_SECOND,
    PASS,
    SEQUENTIAL,
    STAY,
    SUBSETS,
    TAKE,
    Position,
    _settle,
    copy,
    to_move,
)
from domain.bourre.tricks import BEATERS

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
