"""The ``search`` bot (bots/search.py, design §9.2): values from deals agreeing with what its
seat saw — reproducible from the seed, blind to every card the seat cannot see — a kind of
each game (``GET /bots``: tests/api/test_forks.py) playing legal moves only."""

from __future__ import annotations

import random

import msgspec

from bots import decide, kinds
from bots.arena import play
from bots.search import evaluate, game_of
from domain.bourre import GAME as BOURRE
from domain.bourre.codes import mask_of
from domain.burraco import GAME as BURRACO
from domain.table.clock import bot_think_ms
from tests.property.test_bourre_determinize import position
from tests.property.test_burraco_determinize import position as burraco_position

OPTIONS = {"seats": 4, "hands": 2, "declaration": "sequential"}


def test_both_games_list_a_search_bot() -> None:
    for game in ("bourre", "burraco"):
        assert "search" in kinds(game) and kinds(game)["search"]


def test_values_come_back_the_same_from_the_same_seed() -> None:
    state = position(OPTIONS, 5, 9, random.Random(2))
    seat = min(BOURRE.to_act(state))
    first = evaluate(state, seat, 0, random.Random(4), rounds=6)
    again = evaluate(state, seat, 0, random.Random(4), rounds=6)
    assert first == again
    assert [value for _, value in first] == sorted((value for _, value in first), reverse=True)
    legal = BOURRE.legal_commands(state, seat)
    every = evaluate(state, seat, 0, random.Random(4), rounds=2, every=True)
    assert len(every) == len(legal)
    assert game_of(state) is BOURRE


def test_the_values_do_not_depend_on_cards_the_seat_cannot_see() -> None:
    """Seats 1 and 2 trade their first cards (unplayed, neither barred by a void): seat 3,
    seeing neither, values its moves exactly as before."""
    state = position(OPTIONS, 3, 3, random.Random(0))
    hand = state.hand
    assert hand is not None
    holdings = list(hand.holdings)
    holdings[1] = (hand.holdings[2][0], *hand.holdings[1][1:])
    holdings[2] = (hand.holdings[1][0], *hand.holdings[2][1:])
    traded = msgspec.structs.replace(
        state,
        hand=msgspec.structs.replace(
            hand, holdings=tuple(holdings), held=tuple(mask_of(h) for h in holdings)
        ),
    )
    seat = min(BOURRE.to_act(state))
    assert seat not in (1, 2)
    assert evaluate(state, seat, 0, random.Random(1), rounds=4) == evaluate(
        traded, seat, 0, random.Random(1), rounds=4
    )


def test_a_burraco_search_weighs_legal_moves_only() -> None:
    table, _ = burraco_position({"players": 4, "target": 2000}, 4, 20)
    (seat,) = BURRACO.to_act(table)
    values = evaluate(table, seat, 0, random.Random(1), rounds=2)
    legal = [msgspec.json.encode(c) for c in BURRACO.legal_commands(table, seat)]
    assert values and all(msgspec.json.encode(c) in legal for c, _ in values)
    chosen = decide(BURRACO, "search", table, seat, BURRACO.legal_commands(table, seat),
                    random.Random(1))  # fmt: skip
    assert msgspec.json.encode(chosen) in legal


def test_search_bots_play_whole_hands_within_their_budget() -> None:
    tally = play("bourre", ["search", "basic", "basic"], 2, 7, options={"bot_think_ms": 5})
    assert tally.as_dict()["search"]["hands"] == 2


def test_the_budget_is_the_option_and_never_more_than_half_the_turn() -> None:
    assert bot_think_ms({}) == 300
    assert bot_think_ms({"bot_think_ms": 50}) == 50
    assert bot_think_ms({"bot_think_ms": 5000, "turn_seconds": 2}) == 1000


def test_the_search_runs_on_the_reference_engine_too() -> None:
    """The same search over the reference Decider (the playout interface's adapter) values the
    same legal moves as over Bourré's fast playout path (domain/bourre/playout.py)."""
    from bots.search import _SEARCHERS, ReferencePlayout, Searcher

    state = position(OPTIONS, 5, 9, random.Random(2))
    seat = min(BOURRE.to_act(state))
    spec = BOURRE.house.bots.search
    assert spec is not None
    reference = evaluate(state, seat, 0, random.Random(4), rounds=3)
    saved = _SEARCHERS.get("bourre")
    _SEARCHERS["bourre"] = Searcher(BOURRE, spec, ReferencePlayout(BOURRE, spec.policy))
    try:
        fast = evaluate(state, seat, 0, random.Random(4), rounds=3)
    finally:
        if saved is not None:
            _SEARCHERS["bourre"] = saved
    key = msgspec.json.encode
    assert sorted(map(key, (c for c, _ in fast))) == sorted(map(key, (c for c, _ in reference)))
