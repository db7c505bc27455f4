"""Swiss pairing over random tournaments (docs/rules/tournaments.md rule T5), through the
tournament's own Decider: the properties of the FIDE Dutch system's examples — every entry
placed once a round, no repeat pairing where one can be avoided, byes to the lowest ranked of
the fewest byes, seat position 0 to whoever has held it least, score groups paired within."""

from __future__ import annotations

import random
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.tournament.decide import Tournament, decide, evolve, fold
from domain.tournament.events import CreateTournament, Enter, PairRound, RecordTable, Side, Start


def run(state: Tournament, command: object) -> Tournament:
    for event in decide(state, command):
        state = evolve(state, event)
    return state


def swiss(entries: int, size: int, rounds: int) -> Tournament:
    tables = -(-entries // size)
    command = CreateTournament(game="bourre", format="swiss", options={"seats": size},
                               rounds=rounds, tables=tables, secret="ab" * 16)  # fmt: skip
    state = fold(decide(None, command))
    assert state is not None
    for n in range(entries):
        state = run(state, Enter(names=(f"P{n}",), token_hashes=("",)))
    return run(state, Start())


def avoidable(entries: list[int], met: dict[int, set[int]]) -> bool:
    """Whether ``entries`` can be paired heads-up with no two who have met (brute force)."""
    if not entries:
        return True
    first, rest = entries[0], entries[1:]
    return any(
        avoidable([e for e in rest if e != other], met)
        for other in rest
        if other not in met.get(first, set())
    )


@settings(max_examples=40, deadline=None)
@given(
    entries=st.integers(min_value=2, max_value=11),
    size=st.sampled_from([2, 2, 3]),
    rounds=st.integers(min_value=1, max_value=5),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_swiss_pairing_properties_hold_over_random_tournaments(
    entries: int, size: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    if entries < size:
        entries = size
    state = swiss(entries, size, rounds)
    for number in range(1, rounds + 1):
        met: dict[int, set[int]] = {e: set() for e in state.entries}
        for result in state.results():
            for a, b in combinations(set(result.seats), 2):
                met[a].add(b)
                met[b].add(a)
        byes_before = state.byes()
        held: dict[int, int] = {}
        for result in state.results():
            held[result.seats[0]] = held.get(result.seats[0], 0) + 1
        ranking = [int(row["entry"]) for row in state.standings()]
        ids = tuple(f"r{number}t{t}" for t in range(state.tables_needed()))
        state = run(state, PairRound(round=number, table_ids=ids))
        paired = state.rounds[number]
        placed = [e for plan in paired.tables for e in plan.seats] + list(paired.byes)
        # every entry exactly once; whole tables; as few byes as the tables allow
        assert sorted(placed) == sorted(state.entries)
        assert all(len(plan.seats) == size for plan in paired.tables)
        assert len(paired.byes) == entries % size
        # byes: the lowest ranked among the fewest byes
        out = set(paired.byes)
        rest = set(state.entries) - out
        if out and rest:
            assert max(byes_before.get(e, 0) for e in out) <= min(
                byes_before.get(e, 0) for e in rest
            )
            fewest = max(byes_before.get(e, 0) for e in out)
            below = [e for e in ranking if byes_before.get(e, 0) == fewest]
            assert set(below[-len(out) :]) >= {e for e in out if byes_before.get(e, 0) == fewest}
        # no repeat where one can be avoided (heads-up: checked by brute force)
        repeats = [
            (a, b) for plan in paired.tables for a, b in combinations(plan.seats, 2) if b in met[a]
        ]
        if size == 2 and avoidable([e for e in ranking if e not in out], met):
            assert repeats == [], (number, repeats)
        # seat position 0 to whoever has held it least (ties: the higher ranked)
        for plan in paired.tables:
            first = plan.seats[0]
            assert all(held.get(first, 0) <= held.get(e, 0) for e in plan.seats)
        # random results of the round
        for plan in paired.tables:
            scores = tuple(Side((seat,), rng.randint(-3, 3)) for seat in range(size))
            state = run(state, RecordTable(table_id=plan.table_id, hands=(scores,)))
    assert state.status == "ended"


@settings(max_examples=25, deadline=None)
@given(pairs=st.integers(min_value=2, max_value=6), seed=st.integers(min_value=0, max_value=2**32))
def test_swiss_round_two_pairs_winners_with_winners_and_losers_with_losers(
    pairs: int, seed: int
) -> None:
    rng = random.Random(seed)
    state = swiss(2 * pairs, 2, 2)
    state = run(state, PairRound(round=1, table_ids=tuple(f"a{t}" for t in range(pairs))))
    winners: set[int] = set()
    for plan in state.rounds[1].tables:
        won = rng.randint(0, 1)
        winners.add(plan.seats[won])
        hand = (Side((0,), 5 if won == 0 else 1), Side((1,), 5 if won == 1 else 1))
        state = run(state, RecordTable(table_id=plan.table_id, hands=(hand,)))
    state = run(state, PairRound(round=2, table_ids=tuple(f"b{t}" for t in range(pairs))))
    for plan in state.rounds[2].tables:
        a, b = plan.seats
        if pairs % 2 == 0:  # even score groups: paired within them, no repeat possible
            assert (a in winners) == (b in winners)
        assert set(plan.seats) not in [set(p.seats) for p in state.rounds[1].tables]
