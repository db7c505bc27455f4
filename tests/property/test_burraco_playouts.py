"""Hypothesis playouts of whole Burraco matches by random legal bots (design §2 invariants).

The bots really meld, extend, take the pozzetto (direct and on the discard) and close. After
every command: the 108 cards are conserved, exactly one seat is to act (none once the match is
over) and ``legal_commands`` is empty exactly for the seats not to act. Every scored hand's
team scores are the sum of their parts (rules 22–26) and the totals their running sum;
replaying the events gives the same state; every match ends.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.burraco import GAME
from domain.burraco.events import Dealt, HandClosed, HandScored, PozzettoTaken
from domain.burraco.melds import arrange_new
from domain.burraco.state import PLAYING, Table
from domain.cards import burraco_pack, codes, deck_commitment
from projections.ledger import Ledger
from tests.unit.burraco.playouts import play_match

PACK = Counter(codes(burraco_pack()))

OPTIONS = st.fixed_dictionaries(
    {
        "players": st.sampled_from([4, 2]),
        "target": st.integers(min_value=200, max_value=1200),
    },
    optional={
        "bonuses": st.sampled_from(["standard", "fitab"]),
        "close_requires": st.sampled_from(["any_burraco", "clean_burraco"]),
        "set_ranks": st.sampled_from(["any", "aces_and_threes"]),
        "take_pile": st.sampled_from(["free", "must_meld"]),
        "single_card_rediscard": st.booleans(),
        "stalemate_rounds": st.integers(min_value=1, max_value=3),
    },
)


def cards_on_the_table(table: Table) -> Counter[str]:
    r = table.round
    assert r is not None
    seen: Counter[str] = Counter()
    for hand in (*r.hands, *r.sealed, *r.pozzetti):
        seen.update(hand)
    seen.update(r.stock)
    seen.update(r.pile)
    for meld in r.melds:
        seen.update(meld.layout.cards)
    return seen


def check_invariants(table: Table, events: list[Any]) -> None:
    if table.round is not None:
        assert cards_on_the_table(table) == PACK  # 108 cards, nothing duplicated or lost
        for meld in table.round.melds:
            arrange_new(list(meld.layout.cards))  # every meld on the table is a legal meld
    acting = GAME.to_act(table)
    if table.status == PLAYING:
        assert len(acting) == 1
    else:
        assert acting == frozenset()
    for seat in range(table.players):
        assert bool(GAME.legal_commands(table, seat)) == (seat in acting)
    for event in events:
        if isinstance(event, HandScored):
            for score in event.scores:
                parts = score.melds + score.in_hand + score.burracos + score.closing
                assert score.total == parts + score.pozzetto


def check_match(table: Table, events: list[Any]) -> None:
    replayed: Any = None
    for event in events:
        replayed = GAME.evolve(replayed, event)
    assert replayed == table  # replay equals state
    scored = [e for e in events if isinstance(e, HandScored)]
    assert scored, "no hand was scored"
    running = [0, 0]
    for hand in scored:
        running = [running[t] + hand.scores[t].total for t in (0, 1)]
        assert hand.totals == running
    dealt = {e.hand: e for e in events if isinstance(e, Dealt)}
    for hand in scored:  # the revealed deck matches the commitment published at the deal
        assert deck_commitment(hand.deck, hand.salt) == dealt[hand.hand].commitment
        assert hand.deck == dealt[hand.hand].deck
    ledger = Ledger.shape(GAME, table)
    assert [t["total"] for t in ledger["teams"]] == running
    assert ledger["winner"] in ("A", "B")
    assert table.status == "ended"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), options=OPTIONS)
def test_burraco_random_bots_play_whole_matches_keeping_every_invariant(
    seed: int, options: dict[str, Any]
) -> None:
    table, events = play_match(seed, options, check=check_invariants)
    check_match(table, events)


def test_burraco_bots_meld_take_both_kinds_of_pozzetto_and_close() -> None:
    """The playouts exercise the whole game, not only draw and discard."""
    seen: Counter[str] = Counter()
    for seed in range(12):
        _, events = play_match(seed, {"players": 4 if seed % 3 else 2, "target": 800})
        for event in events:
            seen[type(event).__name__] += 1
            if isinstance(event, PozzettoTaken):
                seen["direct" if event.direct else "on the discard"] += 1
            if isinstance(event, HandClosed):
                seen[event.reason] += 1
            if isinstance(event, HandScored):
                seen["burracos"] += sum(s.clean_burracos + s.dirty_burracos for s in event.scores)
    assert seen["Melded"] and seen["MeldExtended"] and seen["PileTaken"]
    assert seen["direct"] and seen["on the discard"] and seen["PozzettoOpened"]
    assert seen["closed"] and seen["stock"] and seen["burracos"]
    assert seen["MatchWon"] == 12
