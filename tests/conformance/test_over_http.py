"""Every registered game over HTTP (the real app, its projector into the real Redis): a table
is filled until the API says it is full, played by random legal commands as ``/legal`` lists
them, and then every viewer's answers are the game's own — views, ledger, lobby line, hand
history — with no card told to a seat over the timeline that another seat was told too
(beyond the pack's copies)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any
from uuid import UUID

import pytest
from litestar.testing import TestClient

from domain.games import game_named
from infra.settings import Settings
from infra.store import TableStore
from projections.ledger import Ledger
from tests.api.helpers import auth, head, legal, open_table
from tests.conformance.conftest import GAMES
from tests.conformance.support import codes, pack_copies

pytestmark = pytest.mark.integration

COMMANDS = 60  # random commands at most


def fill(client: TestClient[Any], table_id: str) -> dict[int, str]:
    """Seat players until the API refuses one because the table is full; tokens by seat."""
    tokens: dict[int, str] = {}
    for number in range(64):
        answer = client.post(f"/tables/{table_id}/seats", json={"name": f"p{number}"})
        if answer.status_code == 409:
            return tokens
        assert answer.status_code == 201, answer.text
        tokens[answer.json()["seat"]] = answer.json()["token"]
    raise AssertionError("the table never filled")


def timeline(client: TestClient[Any], table_id: str, token: str | None) -> dict[int, Any]:
    """Every event of the table as ``token``'s holder receives it, by version."""
    answer = client.get(f"/tables/{table_id}/timeline?limit=500", headers=auth(token))
    assert answer.status_code == 200, answer.text
    assert "next" not in answer.headers.get("link", "")
    return {item["version"]: item for item in answer.json()}


@pytest.mark.parametrize("name", GAMES)
def test_a_table_played_over_http_answers_each_viewer_as_the_game_does(
    name: str, client: TestClient[Any], settings: Settings
) -> None:
    game = game_named(name)
    table_id = open_table(client, name, game.bot_options(2), seed=5)
    tokens = fill(client, table_id)
    rng = random.Random(name)
    for _ in range(COMMANDS):
        seats = sorted(tokens)
        rng.shuffle(seats)
        for seat in seats:
            commands, _ = legal(client, table_id, tokens[seat])
            if commands:
                answer = client.post(
                    f"/tables/{table_id}/commands",
                    json=rng.choice(commands),
                    headers=auth(tokens[seat]),
                )
                assert answer.status_code == 200, answer.text
                break
        else:
            break  # the table waits for nobody
    after = head(client)

    with TableStore(settings) as store:
        final = store.get(UUID(table_id))
    for viewer, token in [(None, None), *tokens.items()]:
        answer = client.get(f"/tables/{table_id}?after={after}", headers=auth(token))
        assert answer.json() == {
            "tableId": table_id,
            "game": name,
            "version": final.version,
            **game.view(final.state, viewer),
        }
    ledger = client.get(f"/tables/{table_id}/ledger?after={after}").json()
    assert ledger == Ledger.shape(game, final.state)
    status = game.seating(final.state).status
    lines = client.get(f"/tables?game={name}&status={status}&after={after}").json()
    assert [line for line in lines if line["tableId"] == table_id] == [
        {
            "tableId": table_id,
            "game": name,
            "version": final.version,
            **game.house.lobby(game, final.state),
        }
    ]
    history = client.get(f"/tables/{table_id}/hands/1/history?after={after}")
    if history.status_code == 200:
        told = history.json()
        assert len(told["lines"]) == len(told["events"]) > 0
    else:
        assert history.status_code == 409  # the first hand is still in play

    spectators = timeline(client, table_id, None)
    seen = {seat: timeline(client, table_id, token) for seat, token in tokens.items()}
    copies = pack_copies(game)
    assert sorted(spectators) == list(range(1, final.version + 1))
    for version, public in spectators.items():
        holders: Counter[str] = Counter()
        for mine in seen.values():
            assert codes(public) <= codes(mine[version]), version
            holders.update(codes(mine[version]) - codes(public))
        assert all(count <= copies.get(code, 1) for code, count in holders.items()), version
