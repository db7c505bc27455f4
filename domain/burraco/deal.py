"""The deal (Burraco rules 4–6): the ``Dealt`` event of a hand, and how a deck order is dealt
out. The deck, its salt and commitment come from the table kernel
(:func:`domain.table.deck.hand_deck` over the 108-card pack): randomness enters only as the
table's secret, seed or stacked decks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.burraco.events import Dealt
from domain.cards import burraco_pack, codes
from domain.table.deck import dealer_of, hand_deck

if TYPE_CHECKING:
    from domain.burraco.state import Table

PACK: tuple[str, ...] = tuple(codes(burraco_pack()))  # rule 2, in the pack's canonical order

HAND_SIZE = 11  # rule 5
POZZETTO_SIZE = 11  # rule 5


def deal(
    deck: tuple[str, ...], dealer: int, players: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...], str, int]:
    """Rule 6: card ``k`` of the first 11n to seat ``(dealer + 1 + k) mod n``; the next 22
    alternately to pozzetto 0 and 1; the next card starts the pile; the rest is the stock.

    Returns the hands, the pozzetti, the first discard and the index of the stock's top.
    """
    hands: list[list[str]] = [[] for _ in range(players)]
    dealt = HAND_SIZE * players
    for k in range(dealt):
        hands[(dealer + 1 + k) % players].append(deck[k])
    pozzetti = (
        deck[dealt : dealt + 2 * POZZETTO_SIZE : 2],
        deck[dealt + 1 : dealt + 2 * POZZETTO_SIZE : 2],
    )
    first = dealt + 2 * POZZETTO_SIZE
    return tuple(tuple(h) for h in hands), pozzetti, deck[first], first + 1


def deck_of_hand(table: Table, hand: int) -> list[str]:
    """Rule 6: the stacked deck of hand ``n`` if given, else the table's shuffle."""
    return hand_deck(table.deals, PACK, hand).deck


def deal_hand(table: Table, hand: int) -> Dealt:
    """Rule 4: seat 0 deals hand 1; the deal passes left (to the next seat) each hand."""
    deck, salt, commitment = hand_deck(table.deals, PACK, hand)
    return Dealt(
        hand=hand,
        dealer=dealer_of(hand, table.players),
        deck=deck,
        salt=salt,
        commitment=commitment,
        first_discard=deck[HAND_SIZE * table.players + 2 * POZZETTO_SIZE],
        players=table.players,
    )
