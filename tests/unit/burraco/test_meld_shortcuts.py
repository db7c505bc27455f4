"""Plain melds (``domain.burraco.meld_shortcuts``) are read at once, without trying every reading:
on every sequence of one suit (clean, or with its wild at each place) and on sets of each size,
with every card added, and on new melds, the plain layout must be the full reading's."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from domain.burraco import melds
from domain.burraco.meld_shortcuts import plain_extension, plain_new
from domain.burraco.melds import Layout, MeldError
from domain.burraco.values import INFO

from .test_candidate_filters import sequences

CODES = sorted(INFO)
SUITS = "SHDC"
CODE_OF = {(info.suit, info.rank): code for code, info in INFO.items()}


def full(read: Callable[..., Layout], *key: object) -> Layout | str:
    """The full reading (``melds`` with the plain shortcuts turned off)."""
    try:
        return read(*key)
    except MeldError as error:
        return error.message


@pytest.fixture
def no_shortcut(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(melds, "plain_new", lambda cards: None)
    monkeypatch.setattr(melds, "plain_extension", lambda *key: None)


def sets() -> Iterator[Layout]:
    rng = random.Random(5)
    for symbol in ("3", "8", "10", "Q", "A"):
        for size in range(2, 10):
            naturals = tuple(f"{symbol}{rng.choice(SUITS)}" for _ in range(size))
            yield Layout("set", naturals, rank=symbol)
            if size < 9:
                for wild in ("JK", "2D"):
                    yield Layout("set", (*naturals, wild), rank=symbol, wild=size)


@pytest.mark.usefixtures("no_shortcut")
def test_a_plain_addition_reads_as_in_full() -> None:
    plain = 0
    for layout in [*sequences(), *sets()]:
        key = (layout.kind, layout.cards, layout.suit, layout.rank, layout.low, layout.wild)
        for code in CODES:
            found = plain_extension(*key, code)
            if found is not None:
                assert found == full(melds._read_extension, *key, (code,), None, None)
                plain += 1
    assert plain > 1_500


@pytest.mark.usefixtures("no_shortcut")
def test_a_plain_new_meld_reads_as_in_full() -> None:
    rng = random.Random(9)
    plain = 0
    for _ in range(20_000):
        size = rng.randint(2, 10)
        if rng.random() < 0.5:  # a run, perhaps broken or mixed
            suit, low = rng.choice(SUITS), rng.randint(1, 12)
            ranks = [14 if p == 1 else p for p in range(low, min(14, low + size - 1) + 1)]
            cards = [CODE_OF[suit, r] for r in ranks]
        else:  # a set, perhaps with a wild or a stranger
            symbol = rng.choice(["4", "9", "J", "A"])
            cards = [f"{symbol}{rng.choice(SUITS)}" for _ in range(size)]
        if rng.random() < 0.3:
            cards.insert(rng.randint(0, len(cards)), rng.choice(["JK", "2S", "2H", *CODES]))
        found = plain_new(tuple(cards))
        if found is not None:
            assert found == full(melds._read_new, tuple(cards), None, None), cards
            plain += 1
    assert plain > 3_000
