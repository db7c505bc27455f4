"""The API on the PostgreSQL event store (design §3): the same endpoints, the same answers."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from infra.settings import Settings
from tests.api.helpers import (
    SPADES_SWEEP_DECK,
    act,
    assert_problem,
    legal,
    open_table,
    sit,
    view,
)


@pytest.mark.integration
def test_a_bourre_hand_over_http_on_postgresql(
    tmp_path: Path, postgres_url: str, redis_url: str, redis_prefix: str
) -> None:
    settings = Settings(
        event_store=postgres_url,
        redis_url=redis_url,
        redis_prefix=redis_prefix,
        allow_stacked_decks=True,
        var_dir=tmp_path,
    )
    client: TestClient[Any]
    with TestClient(create_app(settings, run_projector=True)) as client:
        table = open_table(client, "bourre", {"seats": 2}, decks=[SPADES_SWEEP_DECK])
        tokens = sit(client, table, ["Ann", "Bob"])
        assert view(client, table, tokens[1])["cards"] == ["AS", "KS", "QS", "JS", "10S"]
        act(client, table, tokens[1], {"type": "declare", "play": True, "discard": []})
        act(client, table, tokens[0], {"type": "declare", "play": True, "discard": []})
        for lead in ["AS", "KS", "QS", "JS", "10S"]:
            act(client, table, tokens[1], {"type": "play_card", "card": lead})
            answer = act(client, table, tokens[0], legal(client, table, tokens[0])[0][0])
        assert "HandSettled" in [e["type"] for e in answer["events"]]
        ledger = client.get(f"/tables/{table}/ledger?after={answer['position']}").json()
        assert ledger["hands"][0]["winner"] == 1
        assert client.get(f"/tables/{table}/hands/1/verify").json()["valid"] is True
        stale = {"type": "play_card", "card": "AS", "expectedVersion": 1}
        response = client.post(
            f"/tables/{table}/commands",
            json=stale,
            headers={"Authorization": f"Bearer {tokens[1]}"},
        )
        assert_problem(response, 409)
