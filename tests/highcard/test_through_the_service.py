"""High card through the real service: stored and loaded by the write side's ``TableStore``,
projected into Redis by the projector, and played over the HTTP API — with no change to any
of them: the game is only registered (``conftest.py``)."""

from __future__ import annotations

from typing import Any

import pytest
import redis
from litestar.testing import TestClient

from infra.settings import Settings
from infra.store import TableStore
from projections.reader import ReadModels
from projections.runner import Projector
from tests.api.helpers import act, auth, open_table, sit, view
from tests.highcard import GAME
from tests.highcard.support import stack
from tests.integration.store_support import bot_moves
from tests.integration.test_projection_support import catch_up

pytestmark = pytest.mark.integration


def test_a_high_card_table_is_stored_loaded_and_projected(
    store: TableStore, store_settings: Settings, redis_client: redis.Redis, redis_prefix: str
) -> None:
    table_id = store.create_table("highcard", {"seats": 3, "hands": 2}, seed=5).table_id
    for seat in range(3):
        store.take_seat(table_id, f"player-{seat}", seat)
    assert len(list(bot_moves(store, table_id, seed=1))) == 2 * 3  # 2 hands, 1 card a seat
    with TableStore(store_settings) as reopened:  # a cold load decodes every stored event
        loaded = reopened.get(table_id)
    assert loaded.game is GAME and GAME.seating(loaded.state).status == "ended"
    assert sum(loaded.state.wins) == 2

    catch_up(Projector(store, redis_client, redis_prefix), store)
    reader = ReadModels(redis_client, redis_prefix)
    for viewer in (None, 0, 1, 2):
        assert reader.view(table_id, viewer) == {
            "tableId": str(table_id),
            "game": "highcard",
            "version": loaded.version,
            **GAME.view(loaded.state, viewer),
        }
    assert reader.lobby() == []  # an ended table leaves the lobby
    assert reader.analytics()["highcard"]["hands"] == 2


def test_a_high_card_hand_played_over_http(client: TestClient[Any]) -> None:
    deck = stack("AS 2C 3D", "KH 4S 5S")
    table = open_table(client, "highcard", {"seats": 2}, decks=[deck])
    tokens = sit(client, table, ["Ann", "Bob"])
    taken = client.post(f"/tables/{table}/seats", json={"name": "Cy"})
    assert taken.status_code == 409, taken.text  # the table is full

    bob = view(client, table, tokens[1])
    assert bob["seats"][1]["cards"] == ["KH", "4S", "5S"] and "cards" not in bob["seats"][0]
    assert bob["toAct"] == [1]
    refused = client.post(
        f"/tables/{table}/commands",
        json={"type": "play_card", "card": "AS"},
        headers=auth(tokens[1]),
    )
    assert refused.status_code == 422 and "you do not hold AS" in refused.json()["detail"]

    act(client, table, tokens[1], {"type": "play_card", "card": "kh"})
    answer = act(client, table, tokens[0], {"type": "play_card", "card": "AS"})
    won = [e for e in answer["events"] if e["type"] == "HandWon"]
    assert won and won[0]["seat"] == 0 and won[0]["card"] == "AS"

    spectator = view(client, table, None, after=answer["position"])
    assert spectator["status"] == "ended" and spectator["seats"][0]["wins"] == 1
    verified = client.get(f"/tables/{table}/hands/1/verify").json()
    assert verified["valid"] is True and verified["deck"] == deck
    assert client.get(f"/tables?after={answer['position']}").json() == []
