"""Design §9.3, forks over HTTP: ``POST /tables/{id}/fork`` opens a sandbox at a position as the
caller saw it — the seat's cards as its replay shows them, everything else dealt anew but
agreeing with the public record (voids included) — marked ``forkOf``/``at``, played by the
caller against bots, and left out of statistics, ratings and the counters."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec
import pytest
from litestar.testing import TestClient

from domain.bourre.codes import mask_of
from domain.bourre.determinize import observe
from tests.api.helpers import act, assert_problem, auth, head, legal, open_table, sit, view
from tests.property.test_bourre_determinize import check_agrees
from tests.waiting import wait_until

OPTIONS = {"seats": 4, "hands": 2, "declaration": "sequential"}
SEED = 3  # with these moves, seat 0 is to play a card after the others showed a void


def play_to_a_void(client: TestClient[Any], table: str, tokens: dict[int, str]) -> int:
    """Everyone plays without discarding, then each plays its first legal card, until seat 0
    is to play after another seat showed a void; the version there."""
    store = client.app.state.services.store
    for _ in range(40):
        loaded = store.get(UUID(table))
        (seat,) = loaded.game.to_act(loaded.state)
        hand = loaded.state.hand
        if hand.phase == "play" and seat == 0 and any(observe(loaded.state, 0).barred):
            return int(loaded.version)
        commands, _ = legal(client, table, tokens[seat])
        plays = [c for c in commands if c["type"] == "declare" and c["play"] and not c["discard"]]
        act(client, table, tokens[seat], plays[0] if plays else commands[0])
    raise AssertionError("no void shown")


@pytest.fixture
def position(client: TestClient[Any]) -> tuple[TestClient[Any], str, dict[int, str], int]:
    table = open_table(client, "bourre", OPTIONS, seed=SEED)
    tokens = sit(client, table, ["Ann", "Bob", "Cid", "Dee"])
    return client, table, tokens, play_to_a_void(client, table, tokens)


def fork(client: TestClient[Any], table: str, body: dict[str, Any], token: str | None) -> Any:
    return client.post(f"/tables/{table}/fork", json=body, headers=auth(token))


def test_a_fork_shows_the_seat_the_cards_its_replay_shows(position: Any) -> None:
    client, table, tokens, at = position
    replay = client.get(f"/tables/{table}/replay?at={at}", headers=auth(tokens[0])).json()
    answer = fork(client, table, {"at": at, "seat": 0}, tokens[0])
    assert answer.status_code == 201, answer.text
    body = answer.json()
    assert {"tableId", "forkOf", "at", "token"} <= set(body)
    assert (body["forkOf"], body["at"]) == (table, at) and body["tableId"] != table
    seen = view(client, body["tableId"], body["token"], after=body["position"])
    assert (seen["forkOf"], seen["at"]) == (table, at)
    for key in ("cards", "trump", "trumpCard", "trick", "lastTrick", "tricksPlayed", "pot"):
        assert seen[key] == replay[key], key
    assert [s["cardCount"] for s in seen["seats"]] == [s["cardCount"] for s in replay["seats"]]
    assert seen["toAct"] == [0] and seen["yourSeat"] == 0
    spectators = view(client, body["tableId"], after=body["position"])
    assert "cards" not in spectators and spectators["forkOf"] == table
    timeline = client.get(f"/tables/{body['tableId']}/timeline", headers=auth(body["token"]))
    forked = [e for e in timeline.json() if e["type"] == "TableForked"]
    assert forked and set(forked[0]) >= {"forkOf", "at"} and "state" not in forked[0]
    feed = client.get(f"/events?tableId={body['tableId']}&after=0")  # the public feed too
    assert feed.status_code == 200 and "TableForked" in feed.text and '"state"' not in feed.text
    # the fork plays on: the person's card, then the bots
    commands, _ = legal(client, body["tableId"], body["token"])
    act(client, body["tableId"], body["token"], commands[0])


def test_many_forks_deal_the_unseen_cards_anew_agreeing_with_the_record(position: Any) -> None:
    """Every fork keeps seat 0's cards and every public fact, puts every card somewhere once,
    and gives no seat a card of a suit it showed a void in; the deals differ."""
    client, table, tokens, at = position
    store = client.app.state.services.store
    real = store.get(UUID(table), at).state
    assert any(observe(real, 0).barred), "the record shows no void"
    deals = set()
    for _ in range(8):
        body = fork(client, table, {"at": at, "seat": 0}, tokens[0]).json()
        dealt = store.get(UUID(body["tableId"]), body["version"]).state
        same_seats = msgspec.structs.replace(real, names=dealt.names)
        check_agrees(same_seats, dealt, 0)
        barred = observe(real, 0).barred
        for seat in range(1, 4):  # no card of a suit the seat showed void in, and so on
            assert not mask_of(dealt.hand.holdings[seat]) & barred[seat]
        deals.add(tuple(tuple(c.code for c in h) for h in dealt.hand.holdings))
    assert len(deals) > 1, "every fork dealt the same cards"


def test_a_spectator_forks_only_what_spectators_see(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {**OPTIONS, "spectator_delay": 3}, seed=SEED)
    tokens = sit(client, table, ["Ann", "Bob", "Cid", "Dee"])
    at = play_to_a_void(client, table, tokens)
    assert_problem(fork(client, table, {"at": at, "seat": 0}, None), 422, field="at")
    visible = view(client, table)["version"]
    answer = fork(client, table, {"at": visible, "seat": 1}, None)
    if answer.status_code == 409:  # nobody to act at that version: an earlier one
        answer = fork(client, table, {"at": visible - 1, "seat": 1}, None)
    assert answer.status_code == 201, answer.text


def test_bad_forks_are_problems(position: Any) -> None:
    client, table, tokens, at = position
    assert_problem(fork(client, table, {"at": 0, "seat": 0}, tokens[0]), 400)
    assert_problem(fork(client, table, {"at": at, "seat": 9}, tokens[0]), 422, field="seat")
    assert_problem(fork(client, table, {"at": 1, "seat": 0}, tokens[0]), 409, field="at")
    assert_problem(fork(client, table, {"at": at + 99, "seat": 0}, tokens[0]), 422, field="at")
    assert_problem(fork(client, table, {"at": at}, tokens[0]), 400)
    missing = "00000000-0000-4000-8000-000000000000"
    assert_problem(fork(client, missing, {"at": 2, "seat": 0}, None), 404)
    body = fork(client, table, {"at": at, "seat": 0}, tokens[0]).json()
    again = fork(client, body["tableId"], {"at": body["version"], "seat": 0}, body["token"])
    assert_problem(again, 409)
    made = client.post("/tables", json={"game": "bourre", "options": {"fork_of": table}})
    assert_problem(made, 422, field="fork_of")


def test_forks_are_left_out_of_statistics_ratings_and_counters(position: Any) -> None:
    client, table, tokens, at = position
    before_stats = client.get(f"/stats?after={head(client)}").json()
    before_ann = client.get("/players/Ann/stats").json()
    body = fork(client, table, {"at": at, "seat": 0}, tokens[0]).json()
    fork_id, token = body["tableId"], body["token"]

    def settled() -> bool:
        for _ in range(20):
            commands, _ = legal(client, fork_id, token)
            if not commands:
                break
            act(client, fork_id, token, commands[0])
        ledger = client.get(f"/tables/{fork_id}/ledger?after={head(client)}").json()
        return bool(ledger.get("hands"))

    wait_until(settled, 60, "the fork's hand did not settle")
    after = head(client)
    assert client.get(f"/stats?after={after}").json() == before_stats
    assert client.get(f"/players/Ann/stats?after={after}").json() == before_ann
    assert client.get("/players/Player/stats").status_code == 404
    assert client.get("/leaderboard?game=bourre&pool=bots").json() == []


def test_get_bots_lists_the_search_bot(client: TestClient[Any]) -> None:
    listed = client.get("/bots").json()
    assert "search" in listed["bourre"] and "search" in listed["burraco"]


def test_a_burraco_fork_keeps_the_seats_hand_and_the_table(client: TestClient[Any]) -> None:
    table = open_table(client, "burraco", {"players": 4}, seed=4)
    tokens = sit(client, table, ["Ann", "Bob", "Cid", "Dee"])
    for _ in range(6):  # draw and discard, seat by seat
        seat = view(client, table)["toAct"][0]
        commands, _ = legal(client, table, tokens[seat])
        wanted = [c for c in commands if c["type"] in ("draw", "discard")]
        act(client, table, tokens[seat], (wanted or commands)[0])
    at = view(client, table)["version"]
    seat = view(client, table)["toAct"][0]
    replay = client.get(f"/tables/{table}/replay?at={at}", headers=auth(tokens[seat])).json()
    body = fork(client, table, {"at": at, "seat": seat}, tokens[seat]).json()
    seen = view(client, body["tableId"], body["token"], after=body["position"])
    assert (seen["forkOf"], seen["at"]) == (table, at)
    mine = next(s for s in seen["seats"] if s["seat"] == seat)
    assert mine["cards"] == next(s for s in replay["seats"] if s["seat"] == seat)["cards"]
    for key in ("discardPile", "stockCount", "teams", "phase", "toAct"):
        assert seen[key] == replay[key], key
