"""Design §9.4: ``GET /tables/{id}/hands/{n}/review?seat=S`` lists every decision of
seat S in a settled hand with a value per legal move, the move played and its loss; 409 while
the hand is in play; 202 while the reviewer computes it; and it shows no card hidden from S at
the time of each decision."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from api.app import create_app
from infra.settings import Settings
from managers.reviewer import RETRY_SECONDS, Reviewer, compute, searching
from projections.reviews import Job, Reviews
from tests.api.helpers import (
    SPADES_SWEEP_DECK,
    act,
    assert_problem,
    auth,
    legal,
    open_table,
    sit,
)
from tests.documents import card_codes
from tests.waiting import wait_until

ROUNDS = 2


def play_first_hand(client: TestClient[Any], options: dict[str, Any]) -> tuple[str, dict[int, str]]:
    """Bob (seat 1) holds AS KS QS JS 10S and takes all five tricks; Ann (seat 0, the
    dealer) holds 2H 3H 4H 5H 2S; both play; hand 2 is dealt and waits."""
    table = open_table(client, "bourre", {"seats": 2, **options}, decks=[SPADES_SWEEP_DECK], seed=7)
    tokens = sit(client, table, ["Ann", "Bob"])
    act(client, table, tokens[1], {"type": "declare", "play": True, "discard": []})
    act(client, table, tokens[0], {"type": "declare", "play": True, "discard": ["2H", "3H"]})
    for lead in ["AS", "KS", "QS", "JS", "10S"]:
        act(client, table, tokens[1], {"type": "play_card", "card": lead})
        moves, _ = legal(client, table, tokens[0])
        act(client, table, tokens[0], moves[-1])
    return table, tokens


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient[Any]]:
    """The real app with its reviewer (the search bot, two rounds a decision: cheap)."""
    cheap = replace(settings, review_rounds=ROUNDS)
    with TestClient(create_app(cheap, run_projector=True)) as test_client:
        yield test_client


def reviewed(
    client: TestClient[Any], table: str, hand: int, seat: int, token: str | None = None
) -> Any:
    """The review: asked for (202 while the app's reviewer computes it), then read (200)."""
    path = f"/tables/{table}/hands/{hand}/review?seat={seat}"
    first = client.get(path, headers=auth(token))
    if first.status_code == 202:
        assert first.headers["Retry-After"] == "1"
        assert first.json()["status"] == "pending"

    def stored() -> Any:
        got = client.get(path, headers=auth(token))
        return got if got.status_code == 200 else None

    answer = wait_until(stored, 30, "the reviewer stored no review")
    return answer.json()


def timeline(client: TestClient[Any], table: str) -> list[dict[str, Any]]:
    response = client.get(f"/tables/{table}/timeline")
    assert response.status_code == 200
    return list(response.json())


def test_a_review_is_409_while_the_hand_is_in_play(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK], seed=7)
    tokens = sit(client, table, ["Ann", "Bob"])
    answer = client.get(f"/tables/{table}/hands/1/review?seat=1", headers=auth(tokens[1]))
    assert_problem(answer, 409, field="n")
    assert answer.json()["type"].endswith(":hand-in-play")


def test_bad_tables_hands_and_seats_are_problems(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    unknown = "00000000-0000-0000-0000-000000000000"
    assert_problem(client.get(f"/tables/{unknown}/hands/1/review?seat=0"), 404)
    assert_problem(client.get("/tables/not-a-table/hands/1/review?seat=0"), 404)
    assert_problem(client.get(f"/tables/{table}/hands/9/review?seat=0"), 404, field="n")
    assert_problem(client.get(f"/tables/{table}/hands/0/review?seat=0"), 400, field="n")
    assert_problem(client.get(f"/tables/{table}/hands/1/review?seat=2"), 400, field="seat")
    assert_problem(client.get(f"/tables/{table}/hands/1/review?seat=-1"), 400, field="seat")
    assert_problem(client.get(f"/tables/{table}/hands/1/review?seat=x"), 400, field="seat")
    assert_problem(client.get(f"/tables/{table}/hands/1/review"), 400, field="seat")


def test_a_review_lists_every_decision_with_a_value_per_legal_move(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    body = reviewed(client, table, 1, 0)
    assert body["seat"] == 0 and body["hand"] == 1 and body["tableId"] == table
    assert body["engine"] == {"bot": "search", "rounds": ROUNDS}
    # Ann's decisions: her declaration, then a card to each of Bob's five leads.
    events = timeline(client, table)
    hers = [e["version"] - 1 for e in events if e.get("seat") == 0
            and e["type"] in ("Declared", "CardPlayed") and e["hand"] == 1]  # fmt: skip
    assert [d["version"] for d in body["decisions"]] == hers
    first = body["decisions"][0]
    assert first["played"] == {"type": "declare", "play": True, "discard": ["2H", "3H"],
                               "takeTrump": False}  # fmt: skip
    for decision in body["decisions"]:
        moves = decision["moves"]
        assert all(isinstance(m["value"], float | int) for m in moves)
        values = [m["value"] for m in moves]
        assert values == sorted(values, reverse=True)  # best first
        assert decision["played"] in [m["command"] for m in moves]
        played = next(m["value"] for m in moves if m["command"] == decision["played"])
        assert decision["loss"] == round(values[0] - played, 3) >= 0
        assert decision["mark"] in ("good", "inaccuracy", "mistake", "forced")
    summary = body["summary"]
    assert summary["decisions"] == 6
    assert summary["good"] + summary["inaccuracies"] + summary["mistakes"] == summary["choices"]
    assert summary["thresholds"] == {"inaccuracy": 0.1, "mistake": 0.3}
    assert len(summary["biggestMistakes"]) <= 3


def seat_saw(client: TestClient[Any], table: str, version: int, seat: int) -> set[str]:
    """Every card the seat's own view showed at ``version``, as it was then (a replay asked
    now would show the settled hand revealed)."""
    loaded = client.app.state.services.store.get(UUID(table), version)
    return card_codes(loaded.game.view(loaded.state, seat))


def test_a_review_shows_no_card_hidden_from_the_seat_at_the_time(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    assert "AS" not in seat_saw(client, table, 7, 0)  # Bob's cards are hidden from Ann
    for seat in (0, 1):
        body = reviewed(client, table, 1, seat)
        assert body["decisions"]
        for decision in body["decisions"]:
            visible = seat_saw(client, table, decision["version"], seat)
            assert card_codes(decision) <= visible, (seat, decision["version"])
        for mistake in body["summary"]["biggestMistakes"]:
            assert card_codes(mistake) <= card_codes(body["decisions"])


def test_the_seat_alone_reads_its_review_when_hands_are_never_revealed(
    client: TestClient[Any],
) -> None:
    table, tokens = play_first_hand(client, {"reveal": "never"})
    answer = client.get(f"/tables/{table}/hands/1/review?seat=0")
    assert_problem(answer, 403, field="seat")
    assert_problem(client.get(f"/tables/{table}/hands/1/review?seat=0", headers=auth(tokens[1])),
                   403, field="seat")  # fmt: skip
    assert reviewed(client, table, 1, 0, tokens[0])["seat"] == 0


def test_a_review_is_stored_once_and_read_again(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    first = reviewed(client, table, 1, 1)
    again = client.get(f"/tables/{table}/hands/1/review?seat=1")
    assert again.status_code == 200 and again.json() == first
    services = client.app.state.services
    jobs = f"{services.settings.redis_prefix}reviews:{{jobs}}"
    wait_until(lambda: services.redis.client.zcard(jobs) == 0, 10, "the job stayed queued")


def test_a_review_computed_again_is_the_same(client: TestClient[Any]) -> None:
    table, _ = play_first_hand(client, {})
    stored = reviewed(client, table, 1, 0)
    services = client.app.state.services
    again = compute(services.store, Job(UUID(table), 1, 0), searching(ROUNDS), stored["engine"])
    assert again == stored


def test_settled_hands_are_reviewed_unasked_for_people_not_bots(settings: Settings) -> None:
    eager = replace(settings, review_rounds=ROUNDS, review_settled_hands=True)
    with TestClient(create_app(eager, run_projector=True)) as client:
        table = open_table(client, "bourre", {"seats": 2, "hands": 1}, decks=[SPADES_SWEEP_DECK])
        ann = sit(client, table, ["Ann"])[0]
        assert client.post(f"/tables/{table}/seats", json={"bot": "basic"}).status_code == 201

        def over() -> bool:
            """Ann plays her first legal move whenever it is her turn, until hand 1 settles."""
            moves = client.get(f"/tables/{table}/legal", headers=auth(ann)).json()
            if moves:
                act(client, table, ann, moves[0])
            return client.get(f"/tables/{table}/hands/1/history").status_code == 200

        wait_until(over, 30, "the hand did not settle")
        reviews = Reviews(client.app.state.services.redis.client, eager.redis_prefix)
        ann_review = wait_until(lambda: reviews.read(Job(UUID(table), 1, 0)), 30, "no review")
        assert ann_review is not None and ann_review["seat"] == 0 and ann_review["decisions"]
        assert reviews.read(Job(UUID(table), 1, 1)) is None  # the bot's seat: only when asked
        assert not reviews.queued(Job(UUID(table), 1, 1))


def test_spectators_wait_their_delay_and_a_seat_does_not(client: TestClient[Any]) -> None:
    table, tokens = play_first_hand(client, {"spectator_delay": 40})
    # spectators see the table 40 events behind: hand 1 is not even dealt for them yet
    assert_problem(client.get(f"/tables/{table}/hands/1/review?seat=1"), 404, field="n")
    assert reviewed(client, table, 1, 1, tokens[1])["seat"] == 1


def test_a_burraco_hand_of_bots_is_reviewed_for_any_seat(client: TestClient[Any]) -> None:
    table = open_table(client, "burraco", {"seats": 4}, seed=11)
    for _ in range(4):
        assert client.post(f"/tables/{table}/seats", json={"bot": "basic"}).status_code == 201
    wait_until(
        lambda: client.get(f"/tables/{table}/hands/1/history").status_code == 200,
        60, "the bots did not finish hand 1",
    )  # fmt: skip
    body = reviewed(client, table, 1, 2)
    assert body["game"] == "burraco" and len(body["decisions"]) > 5
    for decision in body["decisions"]:
        assert all(isinstance(m["value"], float | int) for m in decision["moves"])
        visible = seat_saw(client, table, decision["version"], 2)
        assert card_codes(decision) <= visible, decision["version"]


def test_a_job_that_cannot_be_reviewed_is_dropped_and_one_that_fails_waits(
    client: TestClient[Any],
) -> None:
    services = client.app.state.services
    prefix = f"{services.settings.redis_prefix}own:"  # a queue the app's reviewer does not see

    def failing(game: Any, state: Any, seat: int, moves: Any, rng: Any) -> Any:
        raise RuntimeError("the search failed")

    reviewer = Reviewer(services.store, services.redis.client, prefix, evaluate=failing,
                        engine={"bot": "test"}, now=lambda: 1000.0)  # fmt: skip
    reviews = reviewer.reviews
    unknown = Job(UUID(int=7), 1, 0)
    reviews.ask(unknown, now=0.0)
    assert reviewer.run_once() == 1
    assert not reviews.queued(unknown)  # no such table: dropped
    table, _ = play_first_hand(client, {})
    in_play = Job(UUID(table), 2, 0)  # hand 2 is dealt and waits
    reviews.ask(in_play, now=0.0)
    reviewer.run_once()
    assert not reviews.queued(in_play)  # not settled: dropped (a GET asks again later)
    settled = Job(UUID(table), 1, 0)
    reviews.ask(settled, now=0.0)
    assert reviewer.run_once() == 1
    assert reviews.read(settled) is None
    assert services.redis.client.zscore(reviews.jobs_key, settled.member) == 1000.0 + RETRY_SECONDS
    assert reviewer.run_once() == 0  # not due again before then
