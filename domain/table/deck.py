"""The seed and the decks: randomness enters a table only as data (design §2).

A table's ``seed`` (an integer from 0 to 2**63 − 1) and any stacked ``decks`` are given when
it opens. Hand ``n`` uses stacked deck ``n − 1`` when there is one, else the seeded shuffle of
the game's pack ``shuffled(pack, derive_seed(seed, "deck", n))``; its ``salt`` and the public
``commitment`` to the order come from the seed too, so replay never shuffles and anyone can
check a settled hand's deal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from domain.cards import deal_salt, deck_commitment, derive_seed, is_code, shuffled
from domain.errors import InvalidOption
from domain.table import MAX_SEED


class HandDeck(NamedTuple):
    """One hand's deck order (top first), its secret salt and the public commitment."""

    deck: list[str]
    salt: str
    commitment: str


def check_seed(seed: Any) -> int:
    """A seed is an integer from 0 to ``MAX_SEED`` (it travels as a JSON int64)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidOption("seed", f"must be an integer from 0 to {MAX_SEED}")
    return seed


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def check_decks(decks: Any, pack: Sequence[str]) -> list[list[str]]:
    """Each stacked deck must be an order of the game's ``pack`` (every code as many times as
    the pack has it); the error names the deck (0-based, as given) and the card."""
    if not isinstance(decks, Sequence) or isinstance(decks, str):
        raise InvalidOption("decks", "must be a list of decks")
    wanted = Counter(pack)
    checked: list[list[str]] = []
    for index, deck in enumerate(decks):
        if not isinstance(deck, Sequence) or isinstance(deck, str):
            raise InvalidOption("decks", f"deck {index} must be a list of card codes")
        counts: Counter[str] = Counter()
        for code in deck:
            if not is_code(code) or code not in wanted:
                raise InvalidOption(
                    "decks", f"deck {index}: {code!r} is not a card of the {len(pack)}-card pack"
                )
            counts[code] += 1
            if counts[code] > wanted[code]:
                raise InvalidOption(
                    "decks",
                    f"deck {index}: {code} occurs {_times(counts[code])} "
                    f"(the pack has it {_times(wanted[code])})",
                )
        missing = [code for code in wanted if counts[code] < wanted[code]]
        if missing:
            short = sum(wanted[code] - counts[code] for code in missing)
            raise InvalidOption(
                "decks", f"deck {index}: {missing[0]} is missing ({short} cards missing)"
            )
        checked.append(list(deck))
    return checked


def hand_deck(
    seed: int, decks: Sequence[Sequence[str]], pack: Sequence[str], hand: int
) -> HandDeck:
    """The deck of hand ``hand`` (1-based): stacked if given, else the seeded shuffle of
    ``pack`` (the codes in the pack's canonical order); with its salt and commitment."""
    if hand <= len(decks):
        deck = list(decks[hand - 1])
    else:
        deck = shuffled(pack, derive_seed(seed, "deck", hand))
    salt = deal_salt(seed, hand)
    return HandDeck(deck, salt, deck_commitment(deck, salt))


def dealer_of(hand: int, seats: int) -> int:
    """Seat 0 deals hand 1; the deal passes left (to the next seat) each hand."""
    return (hand - 1) % seats
