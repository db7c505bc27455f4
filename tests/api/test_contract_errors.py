"""One error contract (design §5, "Errors"), black-box: a malformed body is one problem type
naming its field on every POST; a bad query names the parameter as the client wrote it; a
table id that is not a UUID names no table; legal commands need a seat; the lobby's game
filter reads the game registry; no message shows a password."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from litestar.testing import TestClient

from infra.eventstore_env import EventStoreURLError, eventsourcing_env, redacted
from infra.settings import Settings, SettingsError
from infra.store import StoreUnavailable, TableStore
from tests.api.conftest import free_port
from tests.api.helpers import SPADES_SWEEP_DECK, assert_problem, auth, head, open_table, sit

MALFORMED = "urn:cardroom:problem:malformed-request"
NOT_FOUND = "urn:cardroom:problem:table-not-found"
NOT_A_UUID = "not-a-uuid"


@pytest.fixture
def table(client: TestClient[Any]) -> tuple[str, dict[int, str]]:
    table_id = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
    return table_id, sit(client, table_id, ["Ann", "Bob"])


BAD_BODIES = [
    # (endpoint, body as sent, the field the problem names; None: no field to name)
    ("create", b"{not json", None),
    ("create", b"[1, 2]", None),
    ("create", b"{}", "game"),
    ("create", b'{"game": 5}', "game"),
    ("create", b'{"game": "bourre", "seed": "x"}', "seed"),
    ("create", b'{"game": "bourre", "options": []}', "options"),
    ("create", b'{"game": "bourre", "seed": -1}', "seed"),
    ("seat", b"{not json", None),
    ("seat", b"{}", "name"),
    ("seat", b'{"name": 5}', "name"),
    ("seat", b'{"name": "Cy", "seat": "first"}', "seat"),
    ("command", b"{not json", None),
    ("command", b'["declare"]', None),
    ("command", b'{"play": true}', "type"),
    ("command", b'{"type": 7}', "type"),
    ("command", b'{"type": "play_card"}', "card"),
    ("command", b'{"type": "play_card", "card": 12}', "card"),
    ("command", b'{"type": "declare", "play": "yes"}', "play"),
    ("command", b'{"type": "declare", "play": true, "expectedVersion": "5"}', "expectedVersion"),
]


@pytest.mark.parametrize(("endpoint", "body", "field"), BAD_BODIES)
def test_every_malformed_body_is_one_problem_naming_its_field(
    client: TestClient[Any], table: Any, endpoint: str, body: bytes, field: str | None
) -> None:
    table_id, tokens = table
    path = {
        "create": "/tables",
        "seat": f"/tables/{table_id}/seats",
        "command": f"/tables/{table_id}/commands",
    }[endpoint]
    headers = {"Content-Type": "application/json", **auth(tokens[1])}
    before = client.get(f"/tables/{table_id}/timeline").json()
    problem = assert_problem(client.post(path, content=body, headers=headers), 400)
    assert problem["type"] == MALFORMED
    assert problem.get("field") == field
    assert client.get(f"/tables/{table_id}/timeline").json() == before  # nothing written


@pytest.mark.parametrize(
    ("query", "parameter"),
    [
        ("timeline?from=abc", "from"),
        ("timeline?from=0", "from"),
        ("timeline?to=-3", "to"),
        ("timeline?from=5&to=2", "from"),
        ("replay?at=x", "at"),
        ("replay", "at"),
        ("stream?from=0", "from"),
        ("?after=-1", "after"),
    ],
)
def test_a_query_error_names_the_parameter_as_written(
    client: TestClient[Any], table: Any, query: str, parameter: str
) -> None:
    table_id, _ = table
    path = f"/tables/{table_id}/{query}" if not query.startswith("?") else f"/tables{query}"
    problem = assert_problem(client.get(path), 400, field=parameter, type=MALFORMED)
    for internal in ("from_version", "to_version", "ParamType", "QUERY"):
        assert internal not in problem["detail"], problem


def test_a_header_that_does_not_parse_is_the_same_problem_naming_the_header(
    client: TestClient[Any], table: Any
) -> None:
    table_id, tokens = table
    stream = client.get(f"/tables/{table_id}/stream", headers={"Last-Event-ID": "soon"})
    assert_problem(stream, 400, field="Last-Event-ID", type=MALFORMED)
    key = {"Idempotency-Key": "", **auth(tokens[1])}
    body = {"type": "declare", "play": True}
    command = client.post(f"/tables/{table_id}/commands", json=body, headers=key)
    assert_problem(command, 400, field="Idempotency-Key", type=MALFORMED)


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", ""),
        ("GET", "/timeline"),
        ("GET", "/replay?at=1"),
        ("GET", "/ledger"),
        ("GET", "/legal"),
        ("GET", "/stream"),
        ("GET", "/hands/1/verify"),
        ("POST", "/seats"),
        ("POST", "/commands"),
    ],
)
def test_a_table_id_that_is_not_a_uuid_names_no_table(
    client: TestClient[Any], method: str, path: str
) -> None:
    response = client.request(method, f"/tables/{NOT_A_UUID}{path}", json={"name": "Cy"})
    problem = assert_problem(response, 404)
    assert problem["type"] == NOT_FOUND and NOT_A_UUID in problem["detail"]


def test_legal_commands_without_a_token_tell_a_spectator_to_take_a_seat(
    client: TestClient[Any], table: Any
) -> None:
    table_id, tokens = table
    response = client.get(f"/tables/{table_id}/legal")
    problem = assert_problem(response, 401, field="Authorization")
    assert problem["type"].endswith(":missing-token")
    assert f"/tables/{table_id}/seats" in problem["detail"]
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert client.get(f"/tables/{table_id}/legal", headers=auth(tokens[1])).status_code == 200


def test_the_lobby_filters_by_a_registered_game_and_names_an_unknown_one(
    client: TestClient[Any], table: Any
) -> None:
    table_id, _ = table
    lobby = client.get("/tables", params={"game": "bourre", "after": head(client)})
    assert lobby.status_code == 200 and table_id in {t["tableId"] for t in lobby.json()}
    assert client.get("/tables", params={"game": "burraco"}).json() == []
    response = client.get("/tables", params={"game": "poker"})
    problem = assert_problem(response, 400, field="game", type=MALFORMED)
    assert "poker" in problem["detail"]


SECRET = "s3cret-pw"
DSNS = [
    f"postgresql://cardroom:{SECRET}@127.0.0.1:5432/cardroom",
    f"postgresql://cardroom:{SECRET}@127.0.0.1:notaport/cardroom",
    f"redis://:{SECRET}@127.0.0.1:6379/0",
    f"rediss://user:{SECRET}@redis.example:6380/1",
    f"unix:///run/redis.sock?db=0&password={SECRET}",
]


@pytest.mark.parametrize("dsn", DSNS)
def test_a_dsn_shown_in_a_message_hides_its_password(dsn: str) -> None:
    shown = redacted(dsn)
    assert SECRET not in shown and "***" in shown


def test_no_error_or_log_line_shows_a_password(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    messages: list[str] = []
    for bad in (f"mysql://u:{SECRET}@h/db", f"postgresql://u:{SECRET}@h:99999/db"):
        with pytest.raises(EventStoreURLError) as raised:
            eventsourcing_env(bad)
        messages.append(str(raised.value))
    with pytest.raises(SettingsError) as refused:
        Settings.from_env({"CARDROOM_REDIS_URL": f"http://:{SECRET}@h"})
    messages.append(str(refused.value))
    settings = Settings(
        event_store=f"postgresql://postgres:{SECRET}@127.0.0.1:{free_port()}/test",
        redis_url=f"redis://:{SECRET}@127.0.0.1:6379/0",
    )
    messages.append(repr(settings))
    with pytest.raises(StoreUnavailable) as unavailable:
        TableStore(settings)
    messages.append(str(unavailable.value))
    messages += [record.getMessage() for record in caplog.records]
    assert all(SECRET not in message for message in messages), messages


def test_the_ledger_from_the_store_holds_spectators_behind_like_every_answer(
    client_for: Any,
) -> None:
    from tests.api.contract_client import heads_up, settle_first_hand

    unprojected = client_for(run_projector=False)  # the ledger comes from the store
    delayed, ann, bob = heads_up(unprojected, spectator_delay=40)
    live, ann_live, bob_live = heads_up(unprojected)
    for table, first, second in ((delayed, ann, bob), (live, ann_live, bob_live)):
        settle_first_hand(unprojected, table, first, second)
    answers = {}
    for table in (delayed, live):
        response = unprojected.get(f"/tables/{table}/ledger")
        assert response.status_code == 200 and response.headers["X-Cardroom-Source"] == "store"
        answers[table] = response.json()
    assert answers[live]["hands"] and not answers[delayed]["hands"]  # settled, not yet shown
    spectator_view = unprojected.get(f"/tables/{delayed}").json()
    assert spectator_view["version"] < unprojected.get(f"/tables/{live}").json()["version"]
