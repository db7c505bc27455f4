"""A Swiss of 8 players over 3 rounds and a Sit & Go of each game, run to the end by bots
through the store, the process managers, the projector and HTTP (docs/rules/tournaments.md
T1, T5, T8, T9); and a person's entry token is their seat at the event's table."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.waiting import wait_until


def run_to_the_end(client: TestClient[Any], body: dict[str, Any]) -> dict[str, Any]:
    created = client.post("/tournaments", json=body)
    assert created.status_code == 201, created.text
    tid = created.json()["tournamentId"]
    started = client.post(f"/tournaments/{tid}/start")
    assert started.status_code == 200, started.text

    def ended() -> dict[str, Any]:
        found: dict[str, Any] = client.get(f"/tournaments/{tid}").json()
        return found if found["status"] == "ended" else {}

    final = wait_until(ended, 90, f"the {body['format']} event did not end")
    head = client.app.state.services.store.max_position()
    read_model = client.get(f"/tournaments/{tid}/standings?after={head}").json()
    assert read_model["standings"] == final["standings"]
    return final


def test_a_swiss_of_eight_bots_over_three_rounds_never_pairs_two_players_twice(
    client: TestClient[Any],
) -> None:
    final = run_to_the_end(
        client,
        {"game": "bourre", "format": "swiss", "options": {"seats": 2, "hands": 2},
         "rounds": 3, "tables": 4, "bots": "basic"},
    )  # fmt: skip
    assert [r["round"] for r in final["rounds"]] == [1, 2, 3]
    meetings = [tuple(sorted(t["entries"])) for r in final["rounds"] for t in r["tables"]]
    assert len(meetings) == 12 and len(set(meetings)) == 12
    standings = final["standings"]
    assert sorted(row["entry"] for row in standings) == list(range(8))
    assert all(row["played"] == 3 for row in standings)
    assert sum(row["score"] for row in standings) == 12 * 2  # 2 match points a table
    scores = [(row["score"], row["tiebreak"]) for row in standings]
    assert scores == sorted(scores, reverse=True)
    # a Swiss table deals its own cards: an ordinary table, watched while it plays
    table = final["rounds"][0]["tables"][0]["tableId"]
    seen = client.get(f"/tables/{table}").json()
    assert seen["tournamentId"] == final["tournamentId"] and seen["board"] is None
    assert client.get(f"/tournaments/{final['tournamentId']}/boards/1").status_code == 404


def test_a_sit_and_go_of_bourre_ends_after_its_hands_ranked_by_chips(
    client: TestClient[Any],
) -> None:
    final = run_to_the_end(
        client,
        {"game": "bourre", "format": "sit-and-go", "options": {"seats": 4, "hands": 3},
         "bots": "basic"},
    )  # fmt: skip
    table = final["rounds"][0]["tables"][0]["tableId"]
    names = [seat["name"] for seat in client.get(f"/tables/{table}").json()["seats"]]
    # chips won by hand (rule T9): each hand's payout less any bourré payment, summed
    won = dict.fromkeys(names, 0)
    for event in client.get(f"/tables/{table}/timeline").json():
        if event["type"] == "HandSettled":
            for seat, name in enumerate(names):
                paid = event["bourrePayment"] if seat in event["bourre"] else 0
                won[name] += event["payouts"][seat] - paid
    assert {row["names"][0]: row["score"] for row in final["standings"]} == won


def test_a_sit_and_go_of_burraco_is_a_match_to_its_target(client: TestClient[Any]) -> None:
    final = run_to_the_end(
        client,
        {"game": "burraco", "format": "sit-and-go", "options": {"seats": 2, "target": 300},
         "bots": "basic"},
    )  # fmt: skip
    table = final["rounds"][0]["tables"][0]["tableId"]
    head = client.app.state.services.store.max_position()
    view = client.get(f"/tables/{table}?after={head}").json()
    assert view["status"] == "ended"
    top = final["standings"][0]
    assert top["rank"] == 1 and top["score"] >= 300


def test_an_entry_token_holds_the_persons_seat_and_nobody_else_may_sit(
    client: TestClient[Any],
) -> None:
    tid = client.post(
        "/tournaments",
        json={"game": "bourre", "format": "sit-and-go", "options": {"seats": 3}, "bots": "basic"},
    ).json()["tournamentId"]
    entered = client.post(f"/tournaments/{tid}/entries", json={"name": "Ann"})
    assert entered.status_code == 201, entered.text
    token = entered.json()["tokens"][0]
    again = client.post(f"/tournaments/{tid}/entries", json={"name": "ann"})
    assert again.status_code == 422 and again.json()["field"] == "names"
    started = client.post(f"/tournaments/{tid}/start").json()
    assert started["entries"][0]["names"] == ["Ann"]
    table = started["rounds"][0]["tables"][0]["tableId"]

    def dealt() -> dict[str, Any]:  # the read model catches up with the deal
        found: dict[str, Any] = client.get(
            f"/tables/{table}", headers={"Authorization": f"Bearer {token}"}
        ).json()
        return found if found["hand"] >= 1 else {}

    mine = wait_until(dealt, 30, "hand 1 was not dealt")
    assert mine["yourSeat"] == 0 and mine["seats"][0]["name"] == "Ann"
    assert mine["seats"][0]["cards"] and "cards" not in mine["seats"][1]  # hers alone
    refused = client.post(f"/tables/{table}/seats", json={"name": "Zed"})
    assert refused.status_code == 409 and refused.json()["type"].endswith("tournament-table")
    assert client.post(f"/tournaments/{tid}/start").status_code == 409
    assert client.post(f"/tournaments/{tid}/entries", json={"name": "Cy"}).status_code == 409
    listed = client.get("/tournaments").json()
    assert listed[0]["tournamentId"] == tid and listed[0]["status"] == "playing"
    missing = client.get("/tournaments/00000000-0000-4000-8000-000000000000")
    assert missing.status_code == 404


def test_the_manager_replays_safely_a_round_is_paired_and_seated_once(
    client: TestClient[Any],
) -> None:
    from uuid import UUID

    from managers.tournament import advance

    body = {"game": "bourre", "format": "swiss", "options": {"seats": 3}, "tables": 3, "rounds": 2}
    tid = client.post("/tournaments", json=body).json()["tournamentId"]
    for name in ("Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gus"):
        assert client.post(f"/tournaments/{tid}/entries", json={"name": name}).status_code == 201
    started = client.post(f"/tournaments/{tid}/start").json()  # 7 players: 2 tables, a bye
    services = client.app.state.services
    for _ in range(2):  # a crash replayed, a second manager: nothing new
        state = advance(services.store, services.tournaments, UUID(tid))
    assert len(state.rounds) == 1 and len(state.rounds[1].tables) == 2
    assert [t["tableId"] for t in started["rounds"][0]["tables"]] == [
        plan.table_id for plan in state.rounds[1].tables
    ]
    assert started["rounds"][0]["byes"] == [6]  # the lowest ranked: the last entry
    for plan in state.rounds[1].tables:
        seats = client.get(f"/tables/{plan.table_id}").json()["seats"]
        assert [s["name"] for s in seats] == [state.entries[e].names[0] for e in plan.seats]


def test_a_signed_in_account_enters_under_its_name_and_sits_as_the_account(
    client: TestClient[Any],
) -> None:
    assert client.post("/accounts", json={"name": "Vera", "password": "x" * 12}).status_code == 201
    session = client.post("/sessions", json={"name": "Vera", "password": "x" * 12}).json()["token"]
    client.cookies.clear()  # the bearer session alone
    tid = client.post(
        "/tournaments",
        json={"game": "bourre", "format": "sit-and-go", "options": {"seats": 2}, "bots": "basic"},
    ).json()["tournamentId"]
    typed = client.post(f"/tournaments/{tid}/entries", json={"name": "vera"})
    assert typed.status_code == 409 and typed.json()["field"] == "name"  # an account's name
    entered = client.post(
        f"/tournaments/{tid}/entries", headers={"Authorization": f"Bearer {session}"}
    )
    assert entered.status_code == 201, entered.text
    assert (entered.json()["names"], entered.json()["account"]) == (["Vera"], "player")
    token = entered.json()["tokens"][0]
    table = client.post(f"/tournaments/{tid}/start").json()["rounds"][0]["tables"][0]["tableId"]
    seated = client.get(
        f"/tables/{table}/timeline", headers={"Authorization": f"Bearer {token}"}
    ).json()
    mine = next(e for e in seated if e["type"] == "PlayerSeated" and e["name"] == "Vera")
    assert mine["account"] == "player"  # rated when every seat is an account's (design §2.2)


def test_a_bourre_duplicate_deals_each_board_alike_and_scores_chips_against_the_field(
    client: TestClient[Any],
) -> None:
    final = run_to_the_end(
        client,
        {"game": "bourre", "format": "duplicate", "options": {"seats": 3}, "rounds": 1,
         "boardsPerRound": 2, "tables": 3, "bots": "basic"},
    )  # fmt: skip
    assert final["scoring"] == "field"
    tables = final["rounds"][0]["tables"]
    for number in (1, 2):
        traveller = client.get(f"/tournaments/{final['tournamentId']}/boards/{number}").json()
        for table in tables:  # rule 36: the same deal from the same dealer at every table
            check = client.get(f"/tables/{table['tableId']}/hands/{number}/verify").json()
            assert check["deck"] == traveller["deck"] and check["valid"]
        # against the field: each seat's board scores sum to nought across the tables
        for seat in range(3):
            scores = [
                side["boardScore"]
                for row in traveller["tables"]
                for side in row["result"]["sides"]
                if side["seats"] == [seat]
            ]
            assert len(scores) == 3 and sum(scores) == 0


def test_a_sit_and_go_starts_when_its_last_place_is_taken(client: TestClient[Any]) -> None:
    body = {"game": "bourre", "format": "sit-and-go", "options": {"seats": 2, "hands": 1}}
    tid = client.post("/tournaments", json=body).json()["tournamentId"]
    client.post(f"/tournaments/{tid}/entries", json={"name": "Ann"})
    assert client.get(f"/tournaments/{tid}").json()["status"] == "waiting"
    assert client.post(f"/tournaments/{tid}/entries", json={"name": "Bob"}).status_code == 201
    started = client.get(f"/tournaments/{tid}").json()
    assert started["status"] == "playing"
    table = started["rounds"][0]["tables"][0]["tableId"]
    seated = client.get(f"/tables/{table}/timeline?from=1&to=3").json()
    assert [e["name"] for e in seated if e["type"] == "PlayerSeated"] == ["Ann", "Bob"]


def test_bots_fill_a_sit_and_go_once_it_has_waited_the_organisers_seconds(
    client: TestClient[Any],
) -> None:
    body = {"game": "bourre", "format": "sit-and-go", "options": {"seats": 3, "hands": 1},
            "bots": "basic", "botsAfterSeconds": 0.2}  # fmt: skip
    created = client.post("/tournaments", json=body)
    assert created.status_code == 201 and created.json()["botsAfterSeconds"] == 0.2
    tid = created.json()["tournamentId"]
    assert client.post(f"/tournaments/{tid}/entries", json={"name": "Ann"}).status_code == 201

    def started() -> dict[str, Any]:
        found: dict[str, Any] = client.get(f"/tournaments/{tid}").json()
        return found if found["status"] != "waiting" else {}

    event = wait_until(started, 30, "the bots did not fill the Sit & Go")
    assert [e["bot"] for e in event["entries"]] == [None, "basic", "basic"]
    table = event["rounds"][0]["tables"][0]["tableId"]
    seated = client.get(f"/tables/{table}/timeline?from=1&to=4").json()
    assert next(e["name"] for e in seated if e["type"] == "PlayerSeated") == "Ann"


def test_only_a_sit_and_go_with_bots_waits_for_them_and_only_a_while() -> None:
    from domain.errors import IllegalCommand
    from domain.tournament.decide import decide, fold
    from domain.tournament.errors import InvalidField
    from domain.tournament.events import CreateTournament, Enter, FillWithBots

    def create(**fields: Any) -> Any:
        base: dict[str, Any] = {"game": "bourre", "format": "sit-and-go", "secret": "a" * 32,
                                "options": {"seats": 2}, "bots": "basic"}  # fmt: skip
        return decide(None, CreateTournament(**{**base, **fields}))

    for bad in ({"bots_after_seconds": 0}, {"bots_after_seconds": 90_000},
                {"bots_after_seconds": 5, "bots": None},
                {"bots_after_seconds": 5, "format": "swiss", "rounds": 2}):  # fmt: skip
        try:
            create(**bad)
        except InvalidField as refused:
            assert refused.field == "botsAfterSeconds", bad
        else:
            raise AssertionError(f"{bad} was accepted")
    events = create(bots_after_seconds=5)
    for waited, entered in ((60.0, False), (4.9, True)):
        state = fold(events + (decide(fold(events), Enter(names=("Ann",), token_hashes=("h",)))
                               if entered else []))  # fmt: skip
        try:
            decide(state, FillWithBots(waited_seconds=waited))
        except IllegalCommand:
            continue
        raise AssertionError(f"filled after {waited}s with entries: {entered}")
    state = fold(events + decide(fold(events), Enter(names=("Ann",), token_hashes=("h",))))
    filled = decide(state, FillWithBots(waited_seconds=5.0))
    assert [type(e).__name__ for e in filled] == ["EntryAccepted", "TournamentStarted"]
