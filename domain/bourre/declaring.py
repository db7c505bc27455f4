"""Declaring and drawing: play or pass (rules 11–12, 15–16), the draw (rules 13–14, 32), the
variants of declaration (rules 30–31) and the four-card second chance (rule 33)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from domain.bourre.codes import CARD, CODE, CODE_AT, INDEX
from domain.bourre.commands import Declare, Draw, SecondChance
from domain.bourre.deal import reshuffle_if_short
from domain.bourre.events import Anted, Declared, Discarded, SecondChanceDeclared
from domain.bourre.state import DECLARE, DRAW, SECOND_CHANCE, Hand, Table
from domain.cards import CardError, Rank, card
from domain.errors import IllegalCommand, NotYourTurn
from domain.table import Event

ACE: Final = Rank.ACE  # read once: an enum member looked up on its class costs a descriptor call


def pass_refusal(table: Table, hand: Hand, seat: int) -> str | None:
    """Why ``seat`` may not pass now, or ``None``.

    Rule 15: with an Ace turned up the dealer must play. Rule 16: when everyone else has
    passed, the last to declare must play (in ``simultaneous`` declaration nobody can know
    that, so the reveal makes the dealer play instead).
    """
    options = table.options
    if (
        seat == hand.dealer
        and hand.phase == DECLARE
        and options.dealer_owns_trump_card
        and options.ace_forces_dealer
        and hand.trump_card.rank == ACE
    ):
        return f"the dealer must play: the face-up card is an ace ({hand.trump_card.code}, rule 15)"
    if hand.phase == DECLARE and options.declaration != "simultaneous":
        decisions = hand.decisions  # the others' passes are all the others
        if decisions.count(False) - (decisions[seat] is False) == len(decisions) - 1:
            return "everyone else passed: you must play (rule 16)"
    if hand.phase == SECOND_CHANCE:
        others = [
            hand.second[s] for s in range(len(hand.second)) if s != seat and hand.decisions[s]
        ]
        if all(d is False for d in others):
            return "everyone else passed: you must play (rule 16)"
    return None


def draw_events(
    table: Table, hand: Hand, seat: int, discard: Sequence[str], take_trump: bool
) -> list[Event]:
    """Rule 13: discard the named cards and receive as many from the top of the stock
    (rule 14 reshuffles served discards when it runs out). Rule 32: a dealer taking the
    turned card discards at least one card and receives one fewer."""
    codes: list[str] = []  # the canonical codes of the cards named
    named = 0  # the mask of the cards named so far
    held = hand.held[seat]
    for code in discard:
        index = INDEX.get(code)
        if index is None:  # not a canonical code: parse it (case, spaces) or say why not
            try:
                index = INDEX[card(code).code]
            except CardError as error:
                raise IllegalCommand(str(error)) from None
        bit = 1 << index
        if named & bit:
            raise IllegalCommand(f"{CODE_AT[index]} is named twice in the discard")
        if not held & bit:
            raise IllegalCommand(f"you do not hold {CODE_AT[index]}")
        named |= bit
        codes.append(CODE_AT[index])
    limit = table.options.max_discard
    if len(codes) > limit:
        raise IllegalCommand(f"you may discard at most {limit} cards", rule="bourre 34")
    if take_trump:
        if table.options.trump_card != "separate_dealer_may_take":
            raise IllegalCommand(
                f"the turned card cannot be taken (option trump_card is {table.options.trump_card})"
            )
        if seat != hand.dealer:
            raise IllegalCommand("only the dealer may take the turned card (rule 32)")
        if not codes:
            raise IllegalCommand("taking the turned card needs at least one discard (rule 32)")
    needed = len(codes) - (1 if take_trump else 0)
    events: list[Event] = []
    stock = hand.stock
    if len(stock) < needed:  # rule 14 (the Card objects are needed only here)
        thrown = list(map(CARD.__getitem__, codes))
        reshuffled = reshuffle_if_short(table, hand, seat, thrown, needed)
        assert reshuffled is not None
        events.append(reshuffled)
        stock = stock + tuple(map(CARD.__getitem__, reshuffled.order))
    events.append(
        Discarded(
            hand=hand.number,
            seat=seat,
            discarded=codes,
            drawn=list(map(CODE.__getitem__, stock[:needed])),
            took_trump=take_trump,
        )
    )
    return events


def _second_ante(table: Table, hand: Hand, seats: list[int]) -> list[Event]:
    """Rule 30: with ``double_ante`` each player who plays pays a second ante."""
    if not table.options.double_ante or not seats:
        return []
    return [Anted(hand=hand.number, seats=seats, amount=table.options.ante, reason="double_ante")]


def decide_declare(table: Table, hand: Hand, command: Declare) -> list[Event]:
    """Rule 11 (and 31): play or pass. In ``sequential`` declaration a player who plays
    discards and draws at once (rule 13)."""
    options = table.options
    seat = command.seat
    if hand.phase != DECLARE:
        raise IllegalCommand(f"declarations are over: the hand is in the {hand.phase} phase")
    sealed = options.declaration == "simultaneous"
    if hand.decisions[seat] is not None:
        raise IllegalCommand("you have already declared this hand")
    if not sealed and hand.turn != seat:
        raise NotYourTurn(f"it is seat {hand.turn}'s turn to declare, not seat {seat}'s")
    if not command.play:
        if command.discard or command.take_trump:
            raise IllegalCommand("a pass names no discards")
        refusal = pass_refusal(table, hand, seat)
        if refusal:
            raise IllegalCommand(refusal)
        return [Declared(hand=hand.number, seat=seat, play=False, sealed=sealed)]
    declared = Declared(hand=hand.number, seat=seat, play=True, sealed=sealed)
    if options.declaration == "sequential":
        draw = draw_events(table, hand, seat, command.discard, command.take_trump)
        if options.double_ante:
            return [declared, *_second_ante(table, hand, [seat]), *draw]
        draw.insert(0, declared)  # (the events list is this call's own)
        return draw
    if command.discard or command.take_trump:
        raise IllegalCommand(
            "name your discards (and take the turned card) in the draw, after the declarations "
            f"(declaration: {options.declaration})"
        )
    if sealed:
        return [declared]  # the second ante is paid when decisions are revealed
    return [declared, *_second_ante(table, hand, [seat])]


def decide_draw(table: Table, hand: Hand, command: Draw) -> list[Event]:
    """Rule 31: the draw after ``two_round`` round 1 or the ``simultaneous`` reveal."""
    if hand.phase == DECLARE and table.options.declaration == "sequential":
        raise IllegalCommand(
            "there is no draw now: in sequential declaration name your discards when you "
            "declare play (rule 13)"
        )
    if hand.phase != DRAW:
        raise IllegalCommand(f"there is no draw now: the hand is in the {hand.phase} phase")
    if not hand.decisions[command.seat]:
        raise IllegalCommand("you passed: you are out of this hand (rule 12)")
    if hand.served[command.seat]:
        raise IllegalCommand("you have already drawn this hand")
    if hand.turn != command.seat:
        raise NotYourTurn(f"it is seat {hand.turn}'s turn to draw, not seat {command.seat}'s")
    return draw_events(table, hand, command.seat, command.discard, command.take_trump)


def decide_second_chance(table: Table, hand: Hand, command: SecondChance) -> list[Event]:
    """Rule 33: after the draw a player may still pass; one who continues pays an ante."""
    if not table.options.four_card:
        raise IllegalCommand(
            "there is no second chance now: it is played only with the four_card option (rule 33)"
        )
    if hand.phase != SECOND_CHANCE:
        raise IllegalCommand(
            f"there is no second chance now: the hand is in the {hand.phase} phase"
        )
    if not hand.active(command.seat):
        raise IllegalCommand("you passed: you are out of this hand (rule 12)")
    if hand.second[command.seat] is not None:
        raise IllegalCommand("you have already taken your second chance this hand")
    if hand.turn != command.seat:
        raise NotYourTurn(f"it is seat {hand.turn}'s turn to decide, not seat {command.seat}'s")
    if not command.play:
        refusal = pass_refusal(table, hand, command.seat)
        if refusal:
            raise IllegalCommand(refusal)
        return [SecondChanceDeclared(hand=hand.number, seat=command.seat, play=False)]
    ante = Anted(
        hand=hand.number, seats=[command.seat], amount=table.options.ante, reason="four_card"
    )
    return [SecondChanceDeclared(hand=hand.number, seat=command.seat, play=True), ante]
