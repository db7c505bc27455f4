"""The tournament's rules (docs/rules/tournaments.md T1–T9), pure: the Decider, the Mitchell
movement as data, the 20–0 scale and each format's scoring."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from domain.errors import DomainError, InvalidOption
from domain.games import game_named
from domain.tournament import movement
from domain.tournament.boards import board
from domain.tournament.decide import Tournament, TournamentError, decide, evolve, fold
from domain.tournament.events import (
    BoardOpened,
    CreateTournament,
    Enter,
    EntryAccepted,
    PairRound,
    RecordTable,
    RoundEnded,
    RoundPaired,
    Side,
    Start,
    TournamentEnded,
    TournamentStarted,
)
from domain.tournament.scoring import (
    TableResult,
    duplicate_scores,
    match_scores,
    standings,
    victory_points,
)

SECRET = "0f" * 16


def created(**given: Any) -> Tournament:
    fields: dict[str, Any] = {"game": "burraco", "format": "duplicate", "options": {},
                              "rounds": 2, "boards_per_round": 2, "tables": 2, "bots": "basic",
                              "secret": SECRET} | given  # fmt: skip
    state = fold(decide(None, CreateTournament(**fields)))
    assert state is not None
    return state


def step(state: Tournament, command: Any) -> tuple[Tournament, list[Any]]:
    events = decide(state, command)
    for event in events:
        state = evolve(state, event)
    return state, events


# -- T1: formats and entries -------------------------------------------------------------------
def test_t1_a_burraco_duplicate_seats_pairs_and_plays_each_rounds_boards_as_its_hands() -> None:
    state = created(tables=4)
    assert state.created.sides == ((0, 2), (1, 3))
    assert state.capacity == 8
    assert state.created.options["hands"] == 2  # boards a round
    assert state.created.scoring == "vp"


def test_t1_a_bourre_table_seats_one_entry_a_seat_and_scores_against_the_field() -> None:
    state = created(game="bourre", options={"seats": 3}, tables=3)
    assert state.created.sides == ((0,), (1,), (2,))
    assert state.created.scoring == "field"


@pytest.mark.parametrize(
    ("given", "field"),
    [
        ({"format": "knockout"}, "format"),
        ({"rounds": 0}, "rounds"),
        ({"tables": 51}, "tables"),
        ({"bots": "genius"}, "bots"),
        ({"format": "sit-and-go", "tables": 2}, "tables"),
        ({"tables": 1}, "tables"),
        ({"options": {"colour": "red"}}, "colour"),
        ({"options": {"tournament": {}}}, "tournament"),
        ({"tables": 2, "rounds": 3}, "rounds"),  # T4: a Mitchell of 2 tables has 2 rounds
    ],
)
def test_t1_an_event_that_cannot_be_run_is_refused_naming_the_field(
    given: dict[str, Any], field: str
) -> None:
    with pytest.raises(InvalidOption) as refused:
        created(**given)
    assert refused.value.key == field


def test_t1_entries_are_taken_while_it_waits_each_name_once_and_not_beyond_its_places() -> None:
    state = created(tables=2, bots=None)
    state, _ = step(state, Enter(names=("Ann", "Bob"), token_hashes=("a", "b")))
    with pytest.raises(InvalidOption, match="names"):
        step(state, Enter(names=("Cy",), token_hashes=("c",)))  # a pair is two names
    with pytest.raises(InvalidOption, match="entered already"):
        step(state, Enter(names=("ANN", "Dee"), token_hashes=("c", "d")))
    for names in (("Cy", "Dee"), ("Eve", "Flo"), ("Gus", "Hal")):
        state, _ = step(state, Enter(names=names, token_hashes=("x", "y")))
    with pytest.raises(TournamentError, match="full"):
        step(state, Enter(names=("Ike", "Jo"), token_hashes=("x", "y")))
    state, events = step(state, Start())
    assert isinstance(events[-1], TournamentStarted)
    with pytest.raises(TournamentError, match="started"):
        step(state, Enter(names=("Ike", "Jo"), token_hashes=("x", "y")))


def test_t1_without_bots_every_place_must_be_taken_to_start() -> None:
    state = created(bots=None)
    with pytest.raises(TournamentError, match="0 of 4 entries"):
        step(state, Start())


def test_t1_the_organisers_bots_fill_every_free_place_at_the_start() -> None:
    state = created()
    state, _ = step(state, Enter(names=("Ann", "Bob"), token_hashes=("a", "b")))
    state, events = step(state, Start())
    bots = [e for e in events if isinstance(e, EntryAccepted)]
    assert [e.entry for e in bots] == [1, 2, 3]
    assert bots[0].names == ("Bot 3 (basic)", "Bot 4 (basic)") and bots[0].bot == "basic"


# -- T2: boards ------------------------------------------------------------------------------------
def test_t2_a_boards_commitment_is_published_at_the_start_and_its_deck_checks_against_it() -> None:
    state, _ = step(created(), Start())
    pack = game_named("burraco").table.pack
    assert len(state.commitments) == 4
    drawn = board(SECRET, pack, 3)
    assert sorted(drawn.deck) == sorted(pack)
    text = f"{' '.join(drawn.deck)}|{drawn.salt}"
    assert hashlib.sha256(text.encode()).hexdigest() == drawn.commitment == state.commitments[2]
    assert board(SECRET, pack, 1).deck != drawn.deck


# -- T3/T4: rounds, the movement, boards opening -------------------------------------------------
def test_t4_the_mitchell_keeps_north_south_and_moves_east_west_up_one_table() -> None:
    moved = movement.mitchell(4, 2, 2, 2)
    assert [seated for _, seated in moved[0]] == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert [seated for _, seated in moved[1]] == [(0, 5), (1, 6), (2, 7), (3, 4)]
    assert {boards for boards, _ in moved[1]} == {(3, 4)}  # every table plays the round's boards
    movement.check(moved, 8)


def test_t4_a_movement_where_two_pairs_would_meet_again_is_refused() -> None:
    assert movement.max_rounds(4, 2) == 4
    assert movement.problem(movement.mitchell(4, 5, 2, 1), 8) == (
        "entries 0 and 4 would meet twice by round 5"
    )
    with pytest.raises(InvalidOption, match="at most 4 rounds"):
        movement.check(movement.mitchell(4, 5, 2, 1), 8)


def test_t3_the_last_table_of_a_round_opens_its_boards_ends_the_round_then_the_event() -> None:
    state, _ = step(created(rounds=1, boards_per_round=1), Start())
    state, (paired,) = step(state, PairRound(round=1, table_ids=("t0", "t1")))
    assert isinstance(paired, RoundPaired)
    assert [plan.seats for plan in paired.tables] == [(0, 2, 0, 2), (1, 3, 1, 3)]
    hand = (Side((0, 2), 300), Side((1, 3), 100))
    state, events = step(state, RecordTable(table_id="t0", hands=(hand,)))
    assert [type(e).__name__ for e in events] == ["TableFinished"]
    assert state.standings()[0]["score"] == 0  # nothing counts before the round ends
    with pytest.raises(TournamentError, match="finished already"):
        step(state, RecordTable(table_id="t0", hands=(hand,)))
    state, events = step(state, RecordTable(table_id="t1", hands=(hand,)))
    assert [type(e) for e in events[1:]] == [BoardOpened, RoundEnded, TournamentEnded]
    assert events[1].commitment == state.commitments[0]
    with pytest.raises(TournamentError, match="ended"):
        step(state, PairRound(round=2, table_ids=("t2", "t3")))


def test_t4_the_next_round_is_paired_only_once_the_previous_one_ended() -> None:
    state, _ = step(created(), Start())
    state, _ = step(state, PairRound(round=1, table_ids=("a", "b")))
    with pytest.raises(TournamentError, match="round 1 has not ended"):
        step(state, PairRound(round=2, table_ids=("c", "d")))
    with pytest.raises(DomainError):
        step(state, PairRound(round=1, table_ids=("c", "d")))


# -- T6–T9: scoring ------------------------------------------------------------------------------
def test_burraco_rule_29_the_20_0_scale() -> None:
    assert [victory_points(d) for d in (0, 49, 50, 205, 949, 950, 2000)] == [
        10,
        10,
        11,
        12,
        19,
        20,
        20,
    ]
    assert [victory_points(-d) for d in (205, 950)] == [8, 0]


def hand(ns: int, ew: int) -> tuple[tuple[Side, ...], ...]:
    return ((Side((0, 2), ns), Side((1, 3), ew)),)


def test_t6_each_pair_scores_victory_points_against_every_other_tables_same_seats() -> None:
    # The example of rule T6: North-South nets +165, +165, -40, +165 on board 1.
    results = [
        TableResult("a", 1, (1,), (0, 4, 0, 4), hand(750, 585)),
        TableResult("b", 1, (1,), (1, 5, 1, 5), hand(750, 585)),
        TableResult("c", 1, (1,), (2, 6, 2, 6), hand(380, 420)),
        TableResult("d", 1, (1,), (3, 7, 3, 7), hand(750, 585)),
    ]
    scores = duplicate_scores(results, "vp")
    assert scores[2] == (24, -40) and scores[0] == (32, 165)
    assert scores[6] == (36, 40) and scores[4] == (28, -165)
    assert sum(score for score, _ in scores.values()) == 4 * 3 * 20


def test_t7_a_bourre_seat_scores_its_chips_against_the_field() -> None:
    def chips(*won: int) -> tuple[tuple[Side, ...], ...]:
        return (tuple(Side((seat,), c) for seat, c in enumerate(won)),)

    results = [
        TableResult("a", 1, (1,), (0, 3, 6), chips(0, 0, 4)),
        TableResult("b", 1, (1,), (1, 4, 7), chips(0, 2, -2)),
        TableResult("c", 1, (1,), (2, 5, 8), chips(0, -1, 1)),
    ]
    scores = duplicate_scores(results, "field")
    assert (scores[6][0], scores[7][0], scores[8][0]) == (9, -9, 0)  # bourre.md rule 36


def test_t8_a_swiss_entry_scores_two_for_each_side_it_outscored_and_a_bye_as_a_win() -> None:
    results = [TableResult("a", 1, (), (0, 1), (((Side((0,), 7), Side((1,), 3)),)))]
    results.append(TableResult("b", 1, (), (2, 3), (((Side((0,), 5), Side((1,), 5)),))))
    scores = match_scores(results, {4: 1}, 2)
    assert {entry: score for entry, (score, _) in scores.items()} == {0: 2, 1: 0, 2: 1, 3: 1, 4: 2}
    table = standings("match", {n: (f"P{n}",) for n in range(5)}, results, {4: 1}, 2)
    assert [(row["rank"], row["entry"]) for row in table] == [
        (1, 0),
        (2, 4),
        (3, 2),
        (3, 3),
        (5, 1),
    ]


def test_t1_the_entry_that_fills_a_sit_and_go_starts_it() -> None:
    state = created(game="bourre", format="sit-and-go", options={"seats": 2}, rounds=1, tables=1)
    state, events = step(state, Enter(names=("Ann",), token_hashes=("a",)))
    assert [type(e) for e in events] == [EntryAccepted]
    state, events = step(state, Enter(names=("Bob",), token_hashes=("b",)))
    assert [type(e) for e in events] == [EntryAccepted, TournamentStarted]
    assert state.status == "playing"
