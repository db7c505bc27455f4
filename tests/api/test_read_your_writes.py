"""Design §4 read-your-writes: a command answers with its log position; ``?after=`` waits
(bounded) for the projection, and says so (503) rather than serve stale data silently."""

from __future__ import annotations

from typing import Any

import pytest

from api import reads
from tests.api.helpers import assert_problem, auth, head, open_table, sit


def test_after_waits_for_the_projection_to_reach_the_position(client: Any) -> None:
    table = open_table(client, "bourre", {"seats": 3})
    response = client.post(f"/tables/{table}/seats", json={"name": "Ann"})
    position = response.json()["position"]
    seen = client.get(f"/tables/{table}?after={position}")
    assert seen.status_code == 200
    assert seen.headers["x-cardroom-source"] == "read-model"
    assert seen.json()["seats"][0]["name"] == "Ann"
    ledger = client.get(f"/tables/{table}/ledger?after={position}")
    assert ledger.status_code == 200


def test_a_position_beyond_the_log_is_refused(client: Any) -> None:
    table = open_table(client, "bourre", {"seats": 2})
    beyond = head(client) + 1000
    assert_problem(client.get(f"/tables/{table}?after={beyond}"), 422, field="after")
    assert client.get(f"/tables/{table}?after=-1").status_code == 400


def test_a_projection_that_lags_is_a_503_not_stale_data(
    client_for: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reads, "WAIT_TIMEOUT", 0.2)
    no_projector = client_for(run_projector=False)
    table = open_table(no_projector, "bourre", {"seats": 2})
    tokens = sit(no_projector, table, ["Ann", "Bob"])
    position = head(no_projector)
    response = no_projector.get(f"/tables/{table}?after={position}", headers=auth(tokens[1]))
    problem = assert_problem(response, 503, field="after")
    assert response.headers["retry-after"] == "1"
    assert str(position) in problem["detail"]


def test_a_table_not_projected_yet_is_answered_from_the_store(client_for: Any) -> None:
    no_projector = client_for(run_projector=False)
    table = open_table(no_projector, "bourre", {"seats": 2})
    tokens = sit(no_projector, table, ["Ann", "Bob"])
    response = no_projector.get(f"/tables/{table}", headers=auth(tokens[1]))
    assert response.status_code == 200
    assert response.headers["x-cardroom-source"] == "store"
    body = response.json()
    assert body["tableId"] == table and body["yourSeat"] == 1 and len(body["cards"]) == 5
    ledger = no_projector.get(f"/tables/{table}/ledger")
    assert ledger.headers["x-cardroom-source"] == "store"
    assert set(ledger.json()) == {"pot", "players", "hands"}
