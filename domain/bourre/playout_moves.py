"""The playout path of Bourré, its moves (design §6.1, :mod:`domain.bourre.playout`): the legal
moves of a position (rules 11–22, 32–33), applying one, and the bridge to the commands."""

from __future__ import annotations

from operator import itemgetter
from typing import Any, Final

from domain.bourre.cinch import cinch_mask
from domain.bourre.codes import CODE_AT, INDEX, SUIT_MASK, SUIT_OF
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.playout_position import (
    DISCARD,
    P_DECLARE,
    P_DRAW,
    P_PLAY,
    P_SECOND,
    PASS,
    SEQUENTIAL,
    SIMULTANEOUS,
    STAY,
    SUBSETS,
    TAKE,
    TWO_ROUND,
    Position,
    _settle,
    to_move,
)
from domain.bourre.tricks import BEATERS, legal_mask
from domain.cards import card
from domain.table import Command

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
