"""Design §5: health, OpenAPI, and errors that need no game — problem details everywhere."""

from __future__ import annotations

import uuid
from typing import Any

from litestar.testing import TestClient

from tests.api.helpers import assert_problem


def test_health_reports_store_redis_and_projection_lag(client: TestClient[Any]) -> None:
    response = client.get("/health")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["store"] is True and body["redis"] is True
    assert set(body["projection"]) == {"position", "head", "lag"}


def test_openapi_schema_is_served_at_slash_schema(client: TestClient[Any]) -> None:
    response = client.get("/schema")
    assert response.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    for path in (
        "/tables",
        "/tables/{table_id}",
        "/tables/{table_id}/seats",
        "/tables/{table_id}/commands",
        "/tables/{table_id}/legal",
        "/tables/{table_id}/timeline",
        "/tables/{table_id}/replay",
        "/tables/{table_id}/ledger",
        "/tables/{table_id}/stream",
        "/tables/{table_id}/hands/{n}/verify",
        "/health",
    ):
        assert path in paths, path
    create = schema["components"]["schemas"]["CreateTable"]["properties"]
    assert set(create) == {"game", "options", "seed", "decks"}


def test_every_400_an_operation_may_answer_is_documented_as_the_problem(
    client: TestClient[Any],
) -> None:
    """An operation with a path id, a header or a query can be sent one that does not parse
    (an ``Authorization`` over 300 characters at ``/legal``): its OpenAPI entry lists the 400
    as the one problem (``application/problem+json``), not Litestar's own error body."""
    schema = client.get("/schema").json()
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if not operation.get("parameters"):
                continue
            answer = operation["responses"].get("400")
            assert answer is not None, f"{method} {path} does not list its 400"
            assert set(answer["content"]) == {"application/problem+json"}, f"{method} {path}"
    table = client.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
    legal = f"/tables/{table.json()['tableId']}/legal"
    too_long = client.get(legal, headers={"Authorization": "Bearer " + "x" * 400})
    assert_problem(too_long, 400, field="Authorization")


def test_an_unknown_table_is_a_404_problem(client: TestClient[Any]) -> None:
    table = uuid.uuid4()
    for path in ("", "/legal", "/timeline", "/ledger", "/replay?at=1", "/hands/1/verify"):
        assert_problem(client.get(f"/tables/{table}{path}"), 404)
    assert_problem(client.post(f"/tables/{table}/seats", json={"name": "Ann"}), 404)
    assert_problem(client.post(f"/tables/{table}/commands", json={"type": "draw"}), 404)


def test_a_malformed_table_id_names_no_table(client: TestClient[Any]) -> None:
    body = assert_problem(client.get("/tables/not-a-uuid"), 404)
    assert body["type"].endswith(":table-not-found")


def test_an_unknown_game_is_named_in_the_problem(client: TestClient[Any]) -> None:
    body = assert_problem(client.post("/tables", json={"game": "poker"}), 422, option="game")
    assert "poker" in body["detail"]


def test_a_malformed_create_body_names_the_field(client: TestClient[Any]) -> None:
    assert_problem(client.post("/tables", json={"game": "bourre", "seed": "x"}), 400, field="seed")
    assert_problem(client.post("/tables", json={"game": "bourre", "colour": 1}), 400)
    assert_problem(client.post("/tables", content=b"{not json"), 400)
    assert_problem(client.post("/tables", json=[1, 2]), 400)


def test_unknown_routes_and_methods_are_problems(client: TestClient[Any]) -> None:
    assert_problem(client.get("/nowhere"), 404)
    assert_problem(client.delete("/tables"), 405)


def test_redis_down_is_a_503_problem_and_health_says_so(tmp_path: Any) -> None:
    from api.app import create_app
    from tests.api.conftest import free_port, make_settings

    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings = make_settings(tmp_path, dead, "cardroom-test-dead:")
    with TestClient(create_app(settings)) as client:
        health = client.get("/health")
        assert health.status_code == 503
        assert health.json()["store"] is True and health.json()["redis"] is False
        assert_problem(client.get("/tables"), 503)
        # The write side does not need Redis.
        created = client.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
        assert created.status_code == 201
        assert_problem(client.get(f"/tables/{created.json()['tableId']}"), 503)


def test_the_lobby_lists_open_tables_and_filters_by_game(client: TestClient[Any]) -> None:
    from tests.api.helpers import head, open_table

    bourre = open_table(client, "bourre", {"seats": 2})
    burraco = open_table(client, "burraco", {"players": 2})
    after = head(client)
    client.get(f"/tables/{burraco}?after={after}")  # wait for the projection
    everything = client.get("/tables").json()
    assert [line["tableId"] for line in everything] == [bourre, burraco]
    only = client.get("/tables?game=burraco").json()
    assert [line["tableId"] for line in only] == [burraco]
    assert client.get("/tables?game=poker").status_code == 400
