"""Trick play for one seat: the cards it may play now (5.1 then the cinch, 5.2) and the
``play_card`` decision (rules 17–22, 29: illegal plays are rejected, so no renege exists)."""

from __future__ import annotations

from domain.bourre.cinch import apply_cinch
from domain.bourre.codes import CODE
from domain.bourre.commands import PlayCard
from domain.bourre.events import CardPlayed
from domain.bourre.options import Options
from domain.bourre.state import PLAY, Hand
from domain.bourre.tricks import legal_cards, why_illegal
from domain.cards import Card, CardError, card
from domain.errors import IllegalCommand, NotYourTurn


def _dead_card(hand: Hand) -> tuple[Card, ...]:
    """The turned trump card when it belongs to nobody (rules 32–33): known and out of play."""
    return (hand.trump_card,) if hand.trump_card_owner is None else ()


def already_played(hand: Hand) -> tuple[Card, ...]:
    """Rule 20: the cards a player knows are out of play — every card played, the trick in
    progress included, and the turned trump card when it belongs to nobody (rules 32–33)."""
    return (*hand.played, *_dead_card(hand))


def known_out(hand: Hand) -> tuple[Card, ...]:
    """A floor under rule 20's count, whatever is played to the trick in progress: only the
    cards of finished tricks (and a turned card that belongs to nobody) are taken as out, so
    a trump in the trick still counts against the player. A cinch by this floor is a cinch
    by the rules too (for checks such as "a cinch always wins")."""
    done = hand.played[: len(hand.played) - len(hand.trick)]
    return (*done, *_dead_card(hand))


def playable(hand: Hand, seat: int, options: Options) -> tuple[list[Card], list[Card]]:
    """(the cards ``seat`` may play now, the cinch's highest trumps or [])."""
    holding = hand.holdings[seat]
    trick = [c for _, c in hand.trick]
    legal = legal_cards(holding, hand.trump, trick)
    last = len(hand.trick) == len(hand.playing) - 1
    return apply_cinch(
        legal,
        holding,
        hand.trump,
        trick,
        hand.tricks[seat],
        already_played(hand),
        last,
        options.cinch,
    )


def decide_play(hand: Hand, command: PlayCard, options: Options) -> list[CardPlayed]:
    """Rules 17–22: the seat to act plays a card it holds that the obligations allow."""
    if hand.phase != PLAY:
        raise IllegalCommand(f"no card can be played now: the hand is in the {hand.phase} phase")
    if command.seat not in hand.playing:
        raise IllegalCommand("you passed: you are out of this hand (rule 12)")
    if hand.turn != command.seat:
        raise NotYourTurn(f"it is seat {hand.turn}'s turn to play, not seat {command.seat}'s")
    try:
        chosen = card(command.card)
    except CardError as error:
        raise IllegalCommand(str(error)) from None
    holding = hand.holdings[command.seat]
    if chosen not in holding:
        raise IllegalCommand(f"you do not hold {chosen.code}")
    legal, top = playable(hand, command.seat, options)
    if chosen not in legal:
        trick = [c for _, c in hand.trick]
        if top and chosen in legal_cards(holding, hand.trump, trick):
            names = " or ".join(c.code for c in top)
            raise IllegalCommand(f"must play your highest trump (cinch): {names}", rule="bourre 21")
        reason = why_illegal(chosen, holding, hand.trump, trick)
        if top:  # the whole answer at once, not one obligation per refusal
            reason += f"; with your cinch: {' or '.join(c.code for c in legal)} (rule 21)"
        raise IllegalCommand(reason, rule="bourre 5.1")
    return [CardPlayed(hand=hand.number, seat=command.seat, card=CODE[chosen])]
