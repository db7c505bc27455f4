"""The deal (Burraco rules 4–6): which deck a hand uses, the ``Dealt`` event, and how a
deck order is dealt out. Randomness enters only as the table's seed or stacked decks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.burraco.events import Dealt
from domain.cards import (
    burraco_pack,
    codes,
    deal_salt,
    deck_commitment,
    derive_seed,
    shuffled,
)

if TYPE_CHECKING:
    from domain.burraco.state import Table

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
    """Rule 6: the stacked deck of hand ``n`` if given, else the seeded shuffle."""
    if hand - 1 < len(table.decks):
        return list(table.decks[hand - 1])
    return codes(shuffled(burraco_pack(), derive_seed(table.seed, "deck", hand)))


def deal_hand(table: Table, hand: int) -> Dealt:
    """Rule 4: seat 0 deals hand 1; the deal passes left (to the next seat) each hand."""
    deck = deck_of_hand(table, hand)
    salt = deal_salt(table.seed, hand)
    return Dealt(
        hand=hand,
        dealer=(hand - 1) % table.players,
        deck=deck,
        salt=salt,
        commitment=deck_commitment(deck, salt),
        first_discard=deck[HAND_SIZE * table.players + 2 * POZZETTO_SIZE],
        players=table.players,
    )
