"""How ``legal_commands`` is listed (design §3): the candidates of
:mod:`domain.burraco.candidates`, each kept exactly when ``decide`` accepts it.

The listing decides most melds without building the table after them (``turn.refusable``),
discards without trying each card (``turn.discards_restricted``) and remembers how melds read
(``candidates``, ``melds``); here every candidate, listed or not, is put to ``decide`` itself
at every step of bot-played matches, under each option that changes what may be played.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Callable
from itertools import pairwise
from pathlib import Path
from typing import Any, TypeVar

import pytest

from domain.burraco import GAME
from domain.burraco.candidates import Candidate, extensions, new_melds, pile_melds
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.melds import Layout, MeldError, arrange_extension
from domain.burraco.state import DRAW, PLAYING, Table, team_of
from domain.burraco.values import INFO
from domain.cards import burraco_pack, codes
from domain.errors import DomainError

from .playouts import play_match

T = TypeVar("T")

OPTIONS = [
    {},
    {"players": 2},
    {"take_pile": "must_meld"},
    {"single_card_rediscard": True},
    {"close_requires": "clean_burraco", "set_ranks": "aces_and_threes"},
    {"take_pile": "must_meld", "players": 2, "single_card_rediscard": True},
]


def candidates(table: Table, seat: int) -> list[Any]:
    """The commands the listing chooses from, in its order: the draw and the pile; or the
    additions, the new melds (and while a pile meld is owed under ``must_meld`` the pile's
    melds, each once), then a discard of each card."""
    r = table.round
    assert r is not None
    if r.phase == DRAW:
        return [Draw(seat=seat), TakePile(seat=seat)] if r.pile else [Draw(seat=seat)]
    hand = r.hands[seat]
    team_melds = [(m.id, m.layout) for m in r.melds if m.team == team_of(seat)]
    found: list[Candidate] = [*extensions(hand, team_melds), *new_melds(hand)]
    if table.options.take_pile == "must_meld" and r.took_pile and not r.melded_from_pile:
        found += pile_melds(hand, team_melds, r.took_pile)
    melds = first_of_each(found, lambda c: (c.meld, tuple(sorted(c.cards))))
    return [
        *(
            Meld(seat=seat, cards=list(c.cards))
            if c.meld is None
            else AddToMeld(seat=seat, meld=c.meld, cards=list(c.cards))
            for c in melds
        ),
        *(Discard(seat=seat, card=code) for code in dict.fromkeys(hand)),
    ]


def first_of_each(items: list[T], key: Callable[[T], Any]) -> list[T]:
    """The items in order, without those whose key an earlier one had."""
    seen: set[Any] = set()
    kept = []
    for item in items:
        if key(item) not in seen:
            seen.add(key(item))
            kept.append(item)
    return kept


def accepted(table: Table, command: Any) -> bool:
    try:
        GAME.decide(table, command)
    except DomainError:
        return False
    return True


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(map(str, o.values())))
def test_burraco_legal_commands_are_exactly_the_candidates_decide_accepts(
    options: dict[str, Any],
) -> None:
    steps = 0

    def check(table: Table, _events: list[Any]) -> None:
        nonlocal steps
        if table.status != PLAYING:
            return
        for seat in range(table.players):
            listed = GAME.legal_commands(table, seat)
            if seat not in GAME.to_act(table):
                assert listed == []
                continue
            assert listed == [c for c in candidates(table, seat) if accepted(table, c)]
            steps += 1

    for seed in range(2):
        play_match(seed, {**options, "target": 1000}, check=check)
    assert steps > 500


def layouts_of_play(seeds: range) -> set[Layout]:
    """Every layout the melds of some bot-played matches took."""
    seen: set[Layout] = set()

    def gather(table: Table, _events: list[Any]) -> None:
        if table.round is not None:
            seen.update(m.layout for m in table.round.melds)

    for seed in seeds:
        play_match(seed, {"target": 1000}, check=gather)
    return seen


def test_burraco_extensions_list_every_single_card_the_meld_takes() -> None:
    # the filter before each reading (candidates.joinable) leaves out no card that can join
    every_code = sorted(INFO)
    layouts = layouts_of_play(range(2))
    assert len(layouts) > 200
    for layout in layouts:
        listed = [c.cards[0] for c in extensions(every_code, [(7, layout)])]
        taken = []
        for code in every_code:
            try:
                arrange_extension(layout, [code])
            except MeldError:
                continue
            taken.append(code)
        assert listed == taken, layout


def proposed_melds(hand: list[str]) -> list[tuple[str, ...]]:
    """The new melds a hand proposes, as candidates.py's docstring states them: for each rank
    (first seen first) all its naturals, or its two naturals and the first wild; then for
    each suit (first seen first) each maximal run of three or more, each run of two with a
    wild to spare, each two runs a gap apart bridged by a wild to spare; each set of cards
    once."""
    wilds = [code for code in hand if INFO[code].wild]
    found: list[list[str]] = []
    ranks = dict.fromkeys(INFO[c].rank for c in hand if not INFO[c].wild)
    for rank in ranks:
        same = [code for code in hand if INFO[code].rank == rank and not INFO[code].wild]
        if len(same) >= 3:
            found.append(same[:9])
        elif len(same) == 2 and wilds:
            found.append([*same, wilds[0]])

    def spare_wild(cards: list[str]) -> list[str] | None:
        for wild in wilds:
            if hand.count(wild) > cards.count(wild):
                return [*cards, wild]
        return None

    for suit in dict.fromkeys(INFO[c].suit for c in hand if INFO[c].suit):
        place = {}
        for code in hand:
            if INFO[code].suit == suit:
                rank = INFO[code].rank
                place.update({1: code, 14: code} if rank == 14 else {rank: code})
        runs: list[list[int]] = []
        for p in sorted(place):
            if runs and runs[-1][-1] == p - 1:
                runs[-1].append(p)
            else:
                runs.append([p])
        found += [[place[p] for p in run] for run in runs if len(run) >= 3]
        wanting = [run for run in runs if len(run) == 2]
        wanting += [a + b for a, b in pairwise(runs) if b[0] == a[-1] + 2]
        found += filter(None, (spare_wild([place[p] for p in run]) for run in wanting))
    return [tuple(cards) for cards in first_of_each(found, lambda cards: tuple(sorted(cards)))]


def test_burraco_new_melds_are_the_sets_and_runs_the_hand_holds_in_order() -> None:
    rng = random.Random(11)
    pack = codes(burraco_pack())
    for _ in range(3000):
        hand = rng.sample(pack, rng.randint(1, 24))
        assert [c.cards for c in new_melds(hand)] == proposed_melds(hand), hand


LISTING = """
import random
from domain.burraco import GAME
from domain.burraco.bot import choose
from domain.table import OpenTable, TakeSeat
rng, table = random.Random(4), None
def run(command):
    global table
    table = GAME.decision(table, command)[1]
run(OpenTable(game="burraco", options={"take_pile": "must_meld"}, seed=4))
for seat in range(4):
    run(TakeSeat(name=f"b{seat}", token_hash=f"t{seat}"))
while table.status == "playing":
    (seat,) = GAME.to_act(table)
    print(GAME.legal_commands(table, seat))
    run(choose(table, seat, rng))
"""


def test_burraco_the_listing_does_not_depend_on_string_hashing() -> None:
    # seeded bot play (simulations, benchmarks) must replay the same whatever PYTHONHASHSEED
    root = str(Path(__file__).resolve().parents[3])
    outputs = {
        subprocess.run(
            [sys.executable, "-c", LISTING],
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": root},
            capture_output=True,
            text=True,
            check=True,
            timeout=120,
        ).stdout
        for seed in (1, 2, 3)
    }
    assert len(outputs) == 1
    assert "AddToMeld(" in next(iter(outputs))
