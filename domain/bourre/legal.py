"""Who is to act and what they may do: ``to_act`` and ``legal_commands``.

Legality is shared with ``decide``: the pass refusal (rules 15–16), the discard limit
(rule 34) and the playable cards (5.1, 5.2) come from the same functions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from itertools import chain, combinations
from typing import Final

from domain.bourre.codes import BIT, CODE, PACK
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.declaring import pass_refusal
from domain.bourre.playing import playable
from domain.bourre.state import DECLARE, DRAW, PLAY, PLAYING, SECOND_CHANCE, Hand, Table
from domain.table import Command

MAX_SEATS: Final = 8
# the answer when one seat acts
_ONE: Final = tuple(frozenset((seat,)) for seat in range(MAX_SEATS))
_NOBODY: Final[frozenset[int]] = frozenset()
# PLAYS[seat][card]: the command playing it (frozen and immutable, so one is shared)
PLAYS: Final = tuple(
    {c: PlayCard(seat=seat, card=CODE[c]) for c in PACK} for seat in range(MAX_SEATS)
)


def to_act(state: Table | None) -> frozenset[int]:
    """The seats whose command the table waits for (several only in the sealed round of
    ``simultaneous`` declaration, rule 31)."""
    if state is None or state.status != PLAYING or state.hand is None:
        return _NOBODY
    hand = state.hand
    if hand.turn is not None:
        return _ONE[hand.turn]
    if hand.phase == DECLARE and not hand.revealed:
        return frozenset(s for s, d in enumerate(hand.decisions) if d is None)
    return _NOBODY


def discard_choices(codes: Sequence[str], most: int) -> list[list[str]]:
    """Every choice of at most ``most`` of ``codes`` (rule 34's discards), as new lists: the
    empty one, then one card, two cards, …, each in the order of ``codes``."""
    sizes = range(min(len(codes), most) + 1)
    return list(map(list, chain.from_iterable(map(partial(combinations, codes), sizes))))


def _discards(table: Table, hand: Hand, seat: int) -> tuple[list[list[str]], bool]:
    """Every discard a seat may name (rule 34), and whether it may also name each of them but
    the empty one taking the turned card (rule 32: at least one card)."""
    holding = list(map(CODE.__getitem__, hand.holdings[seat]))
    plain = discard_choices(holding, table.options.max_discard)
    taking = table.options.trump_card == "separate_dealer_may_take" and seat == hand.dealer
    return plain, taking


def legal_commands(state: Table | None, seat: int) -> list[Command]:
    """Every game command ``seat`` may issue now. ``close_table`` (always open to a seated
    player) is a table command and not listed; this list is empty iff nobody waits for
    ``seat``."""
    if state is None or state.status != PLAYING:
        return []
    table, hand = state, state.hand
    if hand is None:
        return []
    turn = hand.turn
    if turn != seat and (turn is not None or seat not in to_act(state)):
        return []
    phase = hand.phase
    if phase == PLAY:  # the commonest question: the cards the seat may play, in hand order
        legal = playable(hand, seat, table.options)[0]
        plays = PLAYS[seat]
        if legal == hand.held[seat]:  # leading, or free to discard anything
            return list(map(plays.__getitem__, hand.holdings[seat]))
        return [plays[c] for c in hand.holdings[seat] if BIT[c] & legal]
    commands: list[Command] = []
    if phase == DECLARE:
        if pass_refusal(table, hand, seat) is None:
            commands.append(Declare(seat=seat, play=False))
        if table.options.declaration == "sequential":
            plain, taking = _discards(table, hand, seat)
            commands += map(partial(Declare, seat, True), plain)  # (seat, play, discard)
            if taking:
                commands += [
                    Declare(seat=seat, play=True, discard=list(d), take_trump=True)
                    for d in plain[1:]
                ]
        else:
            commands.append(Declare(seat=seat, play=True))
    elif phase == DRAW:
        plain, taking = _discards(table, hand, seat)
        commands += [Draw(seat=seat, discard=d) for d in plain]
        if taking:
            commands += [Draw(seat=seat, discard=list(d), take_trump=True) for d in plain[1:]]
    elif phase == SECOND_CHANCE:
        commands.append(SecondChance(seat=seat, play=True))
        if pass_refusal(table, hand, seat) is None:
            commands.append(SecondChance(seat=seat, play=False))
    return commands
