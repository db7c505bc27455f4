"""The deal (rules 8–10, 32–33) and the draw's supply of cards (rules 13–14).

Randomness enters as data: a hand's deck, salt and commitment come from the table kernel
(:func:`domain.table.deck.hand_deck` over the 52-card pack); a reshuffle of discards uses
``random_seed(table.deals, "reshuffle", hand, round)`` (the table's secret stream, or the seed
for fixed deals). The orders are recorded in events, so replay
never shuffles.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from domain.bourre.codes import CODE, PACK_CODES
from domain.bourre.events import Dealt, Reshuffled
from domain.bourre.options import Options
from domain.bourre.state import Hand, Table
from domain.cards import Card, card, shuffled
from domain.table.deck import dealer_of, hand_deck, random_seed


def deal(table: Table, hand: int) -> Dealt:
    """Rule 10: card ``k`` goes to seat ``(dealer + 1 + k) mod n``; the last card dealt is the
    dealer's face-up card (rule 8), or in the separate modes the next card is turned up for
    trump and belongs to nobody (rules 32–33). The rest is the stock."""
    options = table.options
    n = options.seats
    dealer = dealer_of(hand, n)  # rule 4: seat 0 deals first, the deal passes left
    deck, salt, commitment = hand_deck(table.deals, PACK_CODES, hand)
    dealt = options.hand_size * n
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(n):  # cards k, k + n, k + 2n, … go to the same seat
        hands[(dealer + 1 + k) % n] = deck[k:dealt:n]
    if options.dealer_owns_trump_card:
        trump_code, owner, stock_start = deck[dealt - 1], dealer, dealt
    else:
        trump_code, owner, stock_start = deck[dealt], None, dealt + 1
    return Dealt(
        hand=hand,
        dealer=dealer,
        deck=deck,
        salt=salt,
        commitment=commitment,
        trump_card=trump_code,
        trump=str(card(trump_code).suit),
        hands=hands,
        trump_card_owner=owner,
        stock_size=len(deck) - stock_start,
    )


def stock_start(options: Options) -> int:
    dealt = options.hand_size * options.seats
    return dealt if options.dealer_owns_trump_card else dealt + 1


def reshuffle_if_short(
    table: Table, hand: Hand, seat: int, discarding: Sequence[Card], needed: int
) -> Reshuffled | None:
    """Rule 14: when the stock cannot serve ``needed`` cards, the dealer gathers the discards
    of the players already served — never those of ``seat``, who is being served now — and
    shuffles them to continue the stock.

    With ``reshuffle_pool: all_discards`` the pool is every discard not yet gathered, the
    current player's included, but rule 14's last sentence still holds: the current player
    is served from the shuffled pool passing over their own cards, which stay, in shuffled
    order, on top of the rest for the players after them (:func:`passing_over`)."""
    if len(hand.stock) >= needed:
        return None
    pool = [
        c
        for s, cards in enumerate(hand.discards)
        if s != seat
        for c in cards
        if c not in hand.gathered
    ]
    order_codes: list[str]
    round_ = hand.reshuffles + 1
    seed = random_seed(table.deals, "reshuffle", hand.number, round_)
    if table.options.reshuffle_pool == "all_discards":
        own = [c for c in discarding if c not in hand.gathered]
        pool += own
        pool_codes = [CODE[c] for c in pool]
        shuffled_codes = shuffled(pool_codes, seed)  # the same permutation as the cards'
        order_codes = passing_over(shuffled_codes, {CODE[c] for c in own}, needed - len(hand.stock))
    else:
        pool_codes = [CODE[c] for c in pool]
        order_codes = shuffled(pool_codes, seed)
    return Reshuffled(hand=hand.number, round=round_, pool=pool_codes, order=order_codes)


def passing_over(order: Sequence[str], own: Collection[str], short: int) -> list[str]:
    """Rule 14 under ``all_discards``: the shuffled ``order`` as the dealer deals it to a
    player who is ``short`` cards short of the stock and threw ``own`` away — the first
    ``short`` cards that are not the player's own come first, every other card keeps its
    shuffled order after them (the player's own cards passed over lead it)."""
    served: list[str] = []
    rest: list[str] = []
    for code in order:
        if len(served) < short and code not in own:
            served.append(code)
        else:
            rest.append(code)
    return served + rest
