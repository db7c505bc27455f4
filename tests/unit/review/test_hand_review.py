"""Design §9.4 (managers/hand_review.py): a seat's decisions are read back from the
hand's events, each move gets the evaluator's value, the move played its loss against the best,
and each choice a mark by the share of the hand's stake it lost."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.bourre.commands import Declare, PlayCard
from domain.games import game_named
from managers.hand_review import INACCURACY, MISTAKE, decisions, mark, review
from managers.reviewer import searching
from tests.unit.bourre.support import open_table, run, stack
from tests.unit.review.evaluators import seeded_values

GAME = game_named("bourre")
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
# Seat 1 holds the top spades; seat 0 (the dealer) hearts and the face-up 2S, trumps spades.
DECK = stack(["2H 3H 4H 5H 2S", "AS KS QS JS 10S"])


def high_cards(
    game: Any, state: Any, seat: int, moves: Sequence[Any], rng: random.Random
) -> list[tuple[Any, float]]:
    """A plain evaluator: a card is worth its rank, playing is worth 1 and passing 0."""
    out: list[tuple[Any, float]] = []
    for move in moves:
        if isinstance(move, PlayCard):
            out.append((move, float(RANKS.index(move.card[:-1]))))
        else:
            out.append((move, 1.0 if getattr(move, "play", False) else 0.0))
    return out


def one_hand(answers: str = "2S 5H 4H 3H 2H") -> tuple[Any, list[Any], int]:
    """Both seats play; seat 1 leads AS KS QS JS 10S and seat 0 answers ``answers`` (2S
    first: it must follow suit). Returns the state before the hand, the hand's events and the
    version of its first event (the last seat taken antes and deals it)."""
    _, opening = open_table({"seats": 2}, decks=[DECK])
    first = next(i for i, e in enumerate(opening) if GAME.hand_of(e) == 1)
    before: Any = None
    for event in opening[:first]:
        before = GAME.evolve(before, event)
    dealt = before
    for event in opening[first:]:
        dealt = GAME.evolve(dealt, event)
    commands: list[Any] = [Declare(seat=1, play=True), Declare(seat=0, play=True)]
    for lead, answer in zip(["AS", "KS", "QS", "JS", "10S"], answers.split(), strict=True):
        commands += [PlayCard(seat=1, card=lead), PlayCard(seat=0, card=answer)]
    _, events = run(dealt, *commands)
    return before, opening[first:] + events, first + 1


def test_a_seats_decisions_are_the_moves_it_played_at_their_versions() -> None:
    before, events, start = one_hand()
    found = decisions(GAME, before, events, 0, start)
    assert [d.played for d in found] == [
        Declare(seat=0, play=True),
        *(PlayCard(seat=0, card=c) for c in ["2S", "5H", "4H", "3H", "2H"]),
    ]
    for decision in found:
        # the version is the state the seat decided in: its move's first event comes next
        assert getattr(events[decision.version - start + 1], "seat", None) == 0
        assert decision.played in decision.legal
    assert [d.played.card for d in decisions(GAME, before, events, 1, start)[1:]] == [
        "AS", "KS", "QS", "JS", "10S",
    ]  # fmt: skip


def test_every_legal_move_is_valued_best_first_and_the_move_played_loses_the_difference() -> None:
    before, events, start = one_hand()
    body = review(GAME, decisions(GAME, before, events, 1, start), high_cards,
                  table_id="t", hand=1, seat=1)  # fmt: skip
    lead = body["decisions"][2]  # seat 1's second lead: KS QS JS 10S in hand
    assert lead["played"] == {"type": "play_card", "card": "KS"}
    assert [m["command"]["card"] for m in lead["moves"]] == ["KS", "QS", "JS", "10S"]
    assert [m["value"] for m in lead["moves"]] == [11.0, 10.0, 9.0, 8.0]
    assert lead["loss"] == 0 and lead["mark"] == "good"
    assert body["summary"]["accuracy"] == 100


def test_low_cards_thrown_against_the_evaluator_are_mistakes_and_the_last_card_is_forced() -> None:
    before, events, start = one_hand("2S 2H 3H 4H 5H")
    body = review(GAME, decisions(GAME, before, events, 0, start), high_cards,
                  table_id="t", hand=1, seat=0)  # fmt: skip
    # holding 5H 4H 3H 2H under KS, seat 0 threw 2H where the evaluator valued 5H 3 more
    answer = body["decisions"][2]
    assert answer["played"] == {"type": "play_card", "card": "2H"}
    assert answer["best"] == {"type": "play_card", "card": "5H"}
    assert answer["loss"] == 3.0 and answer["mark"] == "mistake"
    assert body["summary"]["stake"] == 3.0  # the most one choice could matter in the hand
    assert body["decisions"][4]["loss"] == 1.0  # 4H for 5H: a third of the stake
    assert body["decisions"][4]["mark"] == "mistake"
    assert body["decisions"][-1]["mark"] == "forced"  # 5H, the last card
    assert [m["version"] for m in body["summary"]["biggestMistakes"]] == [
        body["decisions"][i]["version"] for i in (2, 3, 4)
    ]
    assert body["summary"]["accuracy"] == 25  # the declaration alone was good


def test_marks_follow_the_share_of_the_hands_stake_lost() -> None:
    stake = 10.0
    assert mark(0.0, stake, 3) == "good"
    assert mark(INACCURACY * stake - 0.01, stake, 3) == "good"
    assert mark(INACCURACY * stake, stake, 3) == "inaccuracy"
    assert mark(MISTAKE * stake - 0.01, stake, 3) == "inaccuracy"
    assert mark(MISTAKE * stake, stake, 3) == "mistake"
    assert mark(5.0, stake, 1) == "forced"
    assert mark(None, stake, 2) == "unvalued"


def test_a_review_is_reproducible_and_each_decision_has_its_own_draw() -> None:
    before, events, start = one_hand()
    found = decisions(GAME, before, events, 0, start)
    first = review(GAME, found, seeded_values, table_id="t", hand=1, seat=0)
    assert review(GAME, found, seeded_values, table_id="t", hand=1, seat=0) == first
    other = review(GAME, found, seeded_values, table_id="u", hand=1, seat=0)
    assert other["decisions"] != first["decisions"]  # seeded from the table, hand and seat
    summary = first["summary"]
    assert summary["decisions"] == 6 and summary["choices"] == 1 + 3  # 2S and 2H were forced
    assert summary["good"] + summary["inaccuracies"] + summary["mistakes"] == summary["choices"]
    losses = [m["loss"] for m in summary["biggestMistakes"]]
    assert losses == sorted(losses, reverse=True) and len(losses) <= 3
    assert all(m["mark"] in ("inaccuracy", "mistake") for m in summary["biggestMistakes"])


def test_the_search_values_come_from_the_seats_information_only() -> None:
    """Two deals alike for seat 0 (its cards, the face-up 2S, seat 1 playing) but for seat 1's
    hidden hand — top spades or top diamonds — give seat 0 the same values: the search deals
    what seat 0 cannot see anew."""
    hidden = {}
    for other in ("AS KS QS JS 10S", "AD KD QD JD 10D"):
        _, opening = open_table({"seats": 2}, decks=[stack(["2H 3H 4H 5H 2S", other])])
        first = next(i for i, e in enumerate(opening) if GAME.hand_of(e) == 1)
        before: Any = None
        for event in opening[:first]:
            before = GAME.evolve(before, event)
        dealt = before
        for event in opening[first:]:
            dealt = GAME.evolve(dealt, event)
        _, events = run(dealt, Declare(seat=1, play=True), Declare(seat=0, play=False))
        found = decisions(GAME, before, opening[first:] + events, 0, first + 1)
        assert [d.played for d in found] == [Declare(seat=0, play=False)]
        hidden[other] = review(GAME, found, searching(3), table_id="t", hand=1, seat=0)
    spades, diamonds = hidden.values()
    assert spades["decisions"] == diamonds["decisions"]
    assert len(spades["decisions"][0]["moves"]) == len(GAME.legal_commands(found[0].state, 0))
    assert all(isinstance(m["value"], float) for m in spades["decisions"][0]["moves"])
