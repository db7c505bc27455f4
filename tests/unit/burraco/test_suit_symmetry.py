"""Readings are remembered once for the four suits (``melds``: a sequence is read as spades
and swapped back). What ``arrange_new``, ``arrange_extension`` and ``extends`` answer must be
what reading the cards as played answers: the same layout, or the same refusal."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from domain.burraco import melds
from domain.burraco.candidates import forget
from domain.burraco.melds import Layout, MeldError, arrange_extension, arrange_new, extends
from domain.burraco.values import INFO

from .test_candidate_filters import sequences

CODES = sorted(INFO)


def as_played_extension(layout: Layout, added: tuple[str, ...]) -> Layout | str:
    fields = (layout.kind, layout.cards, layout.suit, layout.rank, layout.low, layout.wild)
    try:
        return melds._read_extension(*fields, added, None, None)
    except MeldError as error:
        return error.message


def as_played_new(cards: tuple[str, ...]) -> Layout | str:
    try:
        return melds._read_new(cards, None, None)
    except MeldError as error:
        return error.message


def answer(read: Callable[..., Layout], *args: object) -> Layout | str:
    try:
        return read(*args)
    except MeldError as error:
        return error.message


@pytest.mark.parametrize("order", ["spades first", "hearts first"])
def test_a_card_added_to_a_sequence_reads_as_played(order: str) -> None:
    forget()
    layouts = list(sequences())
    swap = melds.SWAPS["H"]
    spades = [
        Layout(lay.kind, tuple(swap[c] for c in lay.cards), "S", lay.rank, lay.low, lay.wild)
        for lay in layouts
    ]
    pairs = [*zip(spades, layouts, strict=True)]
    rng = random.Random(7)
    for first, second in pairs if order == "spades first" else [(b, a) for a, b in pairs]:
        for layout in (first, second):  # the second finds the first's reading remembered
            for code in rng.sample(CODES, 6):
                expected = as_played_extension(layout, (code,))
                assert answer(arrange_extension, layout, [code]) == expected, (layout, code)
                assert extends(layout, code) == (not isinstance(expected, str))


def test_new_melds_read_as_played() -> None:
    forget()
    rng = random.Random(3)
    suits = "SHDC"
    for _ in range(4000):
        suit = rng.choice(suits)
        low = rng.randint(1, 12)
        cards = [
            f"{'A' if p in (1, 14) else p if p <= 10 else 'JQK'[p - 11]}{suit}"
            for p in range(low, min(14, low + rng.randint(1, 5)) + 1)
        ]
        cards = [c for c in cards if rng.random() < 0.85]
        if rng.random() < 0.5:
            cards.insert(rng.randint(0, len(cards)), rng.choice(["JK", "2S", "2H", "2D", "2C"]))
        if rng.random() < 0.1:
            cards.append(rng.choice(CODES))
        played = tuple(cards)
        expected = as_played_new(played)
        assert answer(arrange_new, list(played)) == expected, played
        assert answer(arrange_new, list(played)) == expected, played  # remembered
