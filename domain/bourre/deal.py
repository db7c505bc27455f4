"""The deal (rules 8–10, 32–33) and the draw's supply of cards (rules 13–14).

Randomness enters as data: a hand's deck is the table's stacked deck for that hand, or the
seeded shuffle ``shuffled(standard_pack(), derive_seed(seed, "deck", hand))``; a reshuffle of
discards uses ``derive_seed(seed, "reshuffle", hand, round)``. The orders are recorded in
events, so replay never shuffles.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.bourre.codes import CODE, PACK_CODES
from domain.bourre.events import Dealt, Reshuffled
from domain.bourre.options import Options
from domain.bourre.state import Hand, Table
from domain.cards import (
    Card,
    card,
    deal_salt,
    deck_commitment,
    derive_seed,
    is_code,
    shuffled,
)
from domain.errors import InvalidOption

KNOWN_CODES = frozenset(PACK_CODES)


def validate_decks(decks: Sequence[Sequence[str]]) -> list[list[str]]:
    """Stacked decks must each be an ordering of the 52-card pack (rule 1); the error names
    the deck (0-based index, as given) and the card."""
    checked: list[list[str]] = []
    for index, deck in enumerate(decks):
        seen: set[str] = set()
        for code in deck:
            if not is_code(code) or code not in KNOWN_CODES:
                raise InvalidOption(
                    "decks", f"deck {index}: {code!r} is not a card of the 52-card pack"
                )
            if code in seen:
                raise InvalidOption("decks", f"deck {index}: {code} appears twice")
            seen.add(code)
        missing = sorted(KNOWN_CODES - seen)
        if missing:
            raise InvalidOption(
                "decks", f"deck {index}: {missing[0]} is missing ({len(missing)} cards missing)"
            )
        checked.append(list(deck))
    return checked


def deck_for(table: Table, hand: int) -> list[str]:
    """The deck of hand ``hand`` (1-based): stacked if given, else the seeded shuffle."""
    if hand <= len(table.decks):
        return list(table.decks[hand - 1])
    # shuffling the codes gives the same order as shuffling the cards (same permutation)
    return shuffled(PACK_CODES, derive_seed(table.seed, "deck", hand))


def deal(table: Table, hand: int) -> Dealt:
    """Rule 10: card ``k`` goes to seat ``(dealer + 1 + k) mod n``; the last card dealt is the
    dealer's face-up card (rule 8), or in the separate modes the next card is turned up for
    trump and belongs to nobody (rules 32–33). The rest is the stock."""
    options = table.options
    n = options.seats
    dealer = (hand - 1) % n  # rule 4: seat 0 deals first, the deal passes left
    deck = deck_for(table, hand)
    dealt = options.hand_size * n
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(dealt):
        hands[(dealer + 1 + k) % n].append(deck[k])
    if options.dealer_owns_trump_card:
        trump_code, owner, stock_start = deck[dealt - 1], dealer, dealt
    else:
        trump_code, owner, stock_start = deck[dealt], None, dealt + 1
    salt = deal_salt(table.seed, hand)
    return Dealt(
        hand=hand,
        dealer=dealer,
        deck=deck,
        salt=salt,
        commitment=deck_commitment(deck, salt),
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
    shuffles them to continue the stock. With ``reshuffle_pool: all_discards`` the pool is
    every discard not yet gathered, the current player's included."""
    if len(hand.stock) >= needed:
        return None
    pool = [
        c
        for s, cards in enumerate(hand.discards)
        if s != seat
        for c in cards
        if c not in hand.gathered
    ]
    if table.options.reshuffle_pool == "all_discards":
        pool += [c for c in discarding if c not in hand.gathered]
    round_ = hand.reshuffles + 1
    seed = derive_seed(table.seed, "reshuffle", hand.number, round_)
    pool_codes = [CODE[c] for c in pool]
    order = shuffled(pool_codes, seed)  # the same permutation as shuffling the cards
    return Reshuffled(hand=hand.number, round=round_, pool=pool_codes, order=order)
