"""``GET /games`` (design §5): every registered game with its title, its options (name, type,
range, choices, default, a one-line label and the rule that defines it) and its board
renderer, served at ``/games/{game}/board.js``."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from domain.games import game_named

FIELDS = {"name", "type", "default", "min", "max", "choices", "label", "rule"}


def test_every_game_is_listed_with_its_options_and_board(client: TestClient[Any]) -> None:
    listed = client.get("/games").json()
    assert [entry["game"] for entry in listed][:2] == ["bourre", "burraco"]
    bourre, burraco = listed[0], listed[1]
    assert (bourre["title"], burraco["title"]) == ("Bourré", "Burraco")
    for entry in (bourre, burraco):
        assert entry["board"] == f"/games/{entry['game']}/board.js"
        names = [option["name"] for option in entry["options"]]
        assert names == [o.name for o in game_named(entry["game"]).option_schema]
        assert all(set(option) >= FIELDS for option in entry["options"])
    pot_limit = next(o for o in bourre["options"] if o["name"] == "pot_limit")
    assert pot_limit["rule"] == "26" and pot_limit["nullable"] and pot_limit["default"] is None
    seats = burraco["options"][0]
    assert (seats["name"], seats["type"], seats["choices"], seats["default"]) == (
        "seats",
        "choice",
        [4, 2],
        4,
    )


def test_a_game_s_board_module_is_served_as_javascript(client: TestClient[Any]) -> None:
    answer = client.get("/games/burraco/board.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert "export function renderBoard(" in answer.text


def test_an_unknown_game_s_board_is_a_404_problem(client: TestClient[Any]) -> None:
    answer = client.get("/games/poker/board.js")
    assert answer.status_code == 404
    assert answer.headers["content-type"] == "application/problem+json"
    body = answer.json()
    assert body["type"].endswith("game-not-found") and "'poker'" in body["detail"]


def test_the_openapi_schema_lists_the_games(client: TestClient[Any]) -> None:
    paths = client.get("/schema/openapi.json").json()["paths"]
    assert "/games" in paths and "/games/{game}/board.js" in paths


def test_choices_are_listed_in_words_and_presets_beside_them(client: TestClient[Any]) -> None:
    listed = {entry["game"]: entry for entry in client.get("/games").json()}
    close = next(o for o in listed["burraco"]["options"] if o["name"] == "close_requires")
    assert close["choices"] == ["any_burraco", "clean_burraco"]  # the values stay the wire's
    assert close["choiceLabels"] == ["any burraco, clean or dirty", "a clean burraco"]
    target = next(o for o in listed["burraco"]["options"] if o["name"] == "target")
    assert target["choiceLabels"] is None
    assert listed["burraco"]["presets"] == [
        {
            "name": "italian_club",
            "label": "Italian club rules",
            "options": {"seats": 4},
            "help": game_named("burraco").presets[0].help,
        },
        {
            "name": "heads_up",
            "label": "heads-up",
            "options": {"seats": 2},
            "help": game_named("burraco").presets[1].help,
        },
    ]
    assert [p["label"] for p in listed["bourre"]["presets"]] == ["pagat standard"]
    assert listed["bourre"]["presets"][0]["options"] == {"seats": 5}
