"""Trick play for one seat: the cards it may play now (5.1 then the cinch, 5.2) and the
``play_card`` decision (rules 17–22, 29: illegal plays are rejected, so no renege exists)."""

from __future__ import annotations

from domain.bourre.cinch import cinch_mask
from domain.bourre.codes import BIT, CARD_AT, CODE_AT, INDEX, SUIT_MASK, cards_in, cards_of
from domain.bourre.commands import PlayCard
from domain.bourre.events import CardPlayed
from domain.bourre.options import Options
from domain.bourre.state import PLAY, Hand, Table
from domain.bourre.tricks import legal_cards, legal_mask, why_illegal
from domain.cards import Card, CardError, card
from domain.errors import IllegalCommand, NotYourTurn
from domain.table import Event


def gone_mask(hand: Hand) -> int:
    """Rule 20: the cards a player knows are out of play — every card played, the trick in
    progress included, and the turned trump card when it belongs to nobody (rules 32–33)."""
    if hand.trump_card_owner is None:
        return hand.gone | BIT[hand.trump_card]
    return hand.gone


def known_out(hand: Hand) -> tuple[Card, ...]:
    """A floor under rule 20's count, whatever is played to the trick in progress: only the
    cards of finished tricks (and a turned card that belongs to nobody) are taken as out, so
    a trump in the trick still counts against the player. A cinch by this floor is a cinch
    by the rules too (for checks such as "a cinch always wins")."""
    in_trick = 0
    for _, c in hand.trick:
        in_trick |= BIT[c]
    return tuple(cards_of(gone_mask(hand) & ~in_trick))


# The last answer of ``playable``: (hand, seat, options, answer). A seat's ``legal_commands``
# and the ``decide`` of the card it then plays ask about the same hand; states are immutable,
# so the answer for the same objects still holds and is not worked out twice.
_last: tuple[Hand | None, int, Options | None, tuple[int, int]] = (None, -1, None, (0, 0))


def playable(hand: Hand, seat: int, options: Options) -> tuple[int, int]:
    """(the cards ``seat`` may play now, the cinch's highest trumps or 0), as masks."""
    global _last
    last = _last
    if last[0] is hand and last[1] == seat and last[2] is options:
        return last[3]
    held = hand.held[seat]
    trump = hand.trump_suit
    legal = legal_mask(held, trump, hand.led, hand.best)
    if (
        not legal & SUIT_MASK[trump]  # no trump to play: the cinch has nothing to narrow
        or options.cinch == "off"
        or len(hand.trick) == len(hand.playing) - 1  # the last to play is never cinched
    ):
        answer = legal, 0  # (rule 21)
    else:
        answer = cinch_mask(
            legal,
            held,
            trump,
            hand.led,
            hand.best,
            hand.tricks[seat],
            gone_mask(hand),
            options.cinch,
        )
    _last = (hand, seat, options, answer)
    return answer


def _refusal(hand: Hand, seat: int, chosen: Card, legal: int, top: int) -> IllegalCommand:
    """Why a held card may not be played: the cinch's highest trump, else 5.1's obligation."""
    holding = hand.holdings[seat]
    trick = [c for _, c in hand.trick]
    if top and chosen in legal_cards(holding, hand.trump, trick):
        names = " or ".join(c.code for c in cards_of(top)[::-1])  # highest first
        return IllegalCommand(f"must play your highest trump (cinch): {names}", rule="bourre 21")
    reason = why_illegal(chosen, holding, hand.trump, trick)
    if top:  # the whole answer at once, not one obligation per refusal
        allowed = " or ".join(c.code for c in cards_in(holding, legal))
        reason += f"; with your cinch: {allowed} (rule 21)"
    return IllegalCommand(reason, rule="bourre 5.1")


def play_index(table: Table, hand: Hand, command: PlayCard) -> int:
    """Rules 17–22: the seat to act plays a card it holds that the obligations allow; the
    card's bit index, or the refusal."""
    seat = command.seat
    if hand.phase != PLAY:
        raise IllegalCommand(f"no card can be played now: the hand is in the {hand.phase} phase")
    if hand.turn != seat:  # the seat to play is always an active one
        if seat not in hand.playing:
            raise IllegalCommand("you passed: you are out of this hand (rule 12)")
        raise NotYourTurn(f"it is seat {hand.turn}'s turn to play, not seat {seat}'s")
    index = INDEX.get(command.card)
    if index is None:  # not a canonical code: parse it (case, spaces) or say why not
        try:
            index = INDEX[card(command.card).code]
        except CardError as error:
            raise IllegalCommand(str(error)) from None
    bit = 1 << index
    if not hand.held[seat] & bit:
        raise IllegalCommand(f"you do not hold {CODE_AT[index]}")
    legal, top = playable(hand, seat, table.options)
    if not legal & bit:
        raise _refusal(hand, seat, CARD_AT[index], legal, top)
    return index


def decide_play(table: Table, hand: Hand, command: PlayCard) -> list[Event]:
    """Rules 17–22: the card played (:func:`play_index`)."""
    index = play_index(table, hand, command)
    return [CardPlayed(hand=hand.number, seat=command.seat, card=CODE_AT[index])]
