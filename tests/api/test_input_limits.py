"""Design §5 "Limits": no input yields a 500 and a refused request writes nothing — bodies
nested too deeply are the one 400 problem, bodies over 64 KiB a 413, a command naming more
cards than the pack is refused before any rule runs, a player's name is 1–32 characters with
nothing invisible in it (400 naming ``name``) and none that reads as a seated one (409);
integers are ASCII digits; odd static file names are 404s; ``HEAD`` answers on every ``GET``
route."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from tests.api.helpers import (
    assert_problem,
    auth,
    head,
    open_table,
    sit,
    two_seat_bourre_deck,
)

JSON = {"content-type": "application/json"}
DECK = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def seated_table(client: TestClient[Any]) -> tuple[str, dict[int, str]]:
    table = open_table(client, "bourre", {"seats": 2}, decks=[DECK])
    return table, sit(client, table, ["Ann", "Bob"])


def post_routes(table: str) -> dict[str, str]:
    return {
        "create": "/tables",
        "seat": f"/tables/{table}/seats",
        "command": f"/tables/{table}/commands",
    }


def bodies(inner: str) -> dict[str, str]:
    """A body for each POST route with ``inner`` where a value goes."""
    return {
        "create": f'{{"game": "bourre", "options": {{"seats": {inner}}}}}',
        "seat": f'{{"name": {inner}}}',
        "command": f'{{"type": "declare", "play": true, "discard": {inner}}}',
    }


def unchanged(client: TestClient[Any], table: str) -> int:
    """What a refused request must not change: the event log's head (nothing written)."""
    return head(client)


@pytest.mark.parametrize("depth", [1_000, 20_000])
def test_json_nested_too_deeply_is_the_malformed_request_problem(
    client: TestClient[Any], depth: int
) -> None:
    table, tokens = seated_table(client)
    before = unchanged(client, table)
    routes, sent = post_routes(table), bodies(nested(depth))
    for route, path in routes.items():
        response = client.post(path, content=sent[route], headers={**JSON, **auth(tokens[1])})
        assert_problem(response, 400, type="urn:cardroom:problem:malformed-request")
    assert unchanged(client, table) == before


def test_a_body_over_64_kib_is_a_413_problem(client: TestClient[Any]) -> None:
    table, tokens = seated_table(client)
    before = unchanged(client, table)
    routes, sent = post_routes(table), bodies(json.dumps("x" * 65_536))
    for route, path in routes.items():
        response = client.post(path, content=sent[route], headers={**JSON, **auth(tokens[1])})
        assert_problem(response, 413)
    assert unchanged(client, table) == before


def test_a_command_naming_more_cards_than_the_pack_is_refused_before_any_card_is_read(
    client: TestClient[Any],
) -> None:
    table, tokens = seated_table(client)
    # 53 codes that are not cards: the count is refused, no code is even looked at.
    command = {"type": "declare", "play": True, "discard": ["ZZ"] * 53}
    response = client.post(f"/tables/{table}/commands", json=command, headers=auth(tokens[1]))
    problem = assert_problem(response, 400, field="discard")
    assert "at most 52" in problem["detail"]


@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 33, "Ann\u202e", "Bo\u2066b", "Cy\x07", "De\ne", "Eve\x7f", 5, None],
)
def test_a_player_name_that_is_not_1_to_32_plain_characters_is_a_400_naming_name(
    client: TestClient[Any], name: Any
) -> None:
    table = open_table(client, "bourre", {"seats": 2})
    before = unchanged(client, table)
    response = client.post(f"/tables/{table}/seats", json={"name": name})
    assert_problem(response, 400, type="urn:cardroom:problem:malformed-request", field="name")
    assert unchanged(client, table) == before


def test_a_name_of_32_characters_with_accents_is_fine(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 2})
    name = "Zoé " + "ñ" * 28
    response = client.post(f"/tables/{table}/seats", json={"name": name})
    assert response.status_code == 201, response.text


def test_every_get_route_answers_head_with_the_same_status_and_no_body(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=10) as http:
        deck = two_seat_bourre_deck("AS KS QS JS 10S", "2H 3H 4H 5H 2S")
        body = {"game": "bourre", "options": {"seats": 2}, "decks": [deck]}
        table = http.post("/tables", json=body).json()["tableId"]
        token = http.post(f"/tables/{table}/seats", json={"name": "Ann"}).json()["token"]
        paths = http.get("/schema/openapi.json").json()["paths"]
        gets = [path for path, operations in paths.items() if "get" in operations]
        assert "/tables/{table_id}/stream" in gets and "/health" in gets
        for template in gets:
            path = template.replace("{table_id}", table).replace("{n}", "1")
            for headers in (auth(token), {}):
                with http.stream("GET", path, headers=headers) as got:
                    status = got.status_code
                head = http.head(path, headers=headers)
                assert (path, head.status_code) == (path, status)
                assert head.content == b""


VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)
RAW = st.one_of(
    VALUES.map(json.dumps),
    st.integers(min_value=1, max_value=5_000).map(nested),
    st.integers(min_value=1, max_value=5_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.text(min_size=1).map(lambda text: json.dumps(text * 500)),
    st.binary(max_size=64),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(route=st.sampled_from(["create", "seat", "command"]), raw=RAW, wrap=st.booleans())
def test_fuzzed_bodies_on_the_post_routes_never_yield_a_server_error(
    client: TestClient[Any], route: str, raw: str | bytes, wrap: bool
) -> None:
    table = client.get("/tables").json()
    table_id = table[0]["tableId"] if table else seated_table(client)[0]
    text = raw if isinstance(raw, bytes) else (bodies(raw)[route] if wrap else raw).encode()
    response = client.post(post_routes(table_id)[route], content=text, headers=JSON)
    assert response.status_code < 500, response.text


@pytest.mark.parametrize(
    ("path", "headers", "field"),
    [
        # digits ``str.isdigit`` knows and ``int`` refuses (or reads as another number)
        ("/tables/{table}/stream", {b"Last-Event-ID": "²".encode("latin-1")}, "Last-Event-ID"),
        ("/tables/{table}/stream", {b"Last-Event-ID": "٣".encode()}, "Last-Event-ID"),
        ("/events?after=%C2%B2", {}, "after"),
        ("/events?limit=%E2%91%A0", {}, "limit"),
        ("/events?after=%D9%A3", {}, "after"),  # Arabic-Indic three: not ASCII, refused too
        ("/tables/{table}?after=%C2%B2", {}, "after"),
        ("/tables/{table}/stream?from=%C2%B2", {}, "from"),
        ("/tables/{table}/replay?at=%C2%B2", {}, "at"),
    ],
)
def test_integers_are_ascii_digits_only(
    live_url: str, path: str, headers: dict[bytes, bytes], field: str
) -> None:
    with httpx.Client(base_url=live_url, timeout=10) as http:
        table = open_table(http, "bourre", {"seats": 2})
        response = http.get(path.format(table=table), headers=headers)
        assert_problem(response, 400, field=field)


@pytest.mark.parametrize(
    "path",
    [
        "/static/js/api.js%00.png",  # an embedded NUL
        "/static/js/" + "a" * 300 + ".js",  # longer than a file name may be
        "/static/" + "/".join(["js"] * 200),
        "/static/js/api.js%0A",
        "/static/%E2%80%AEjs/api.js",
    ],
)
def test_odd_static_file_names_are_404_problems(live_url: str, path: str) -> None:
    with httpx.Client(base_url=live_url, timeout=10) as http:
        assert http.get("/static/js/api.js").status_code == 200
        assert_problem(http.get(path), 404)
        assert http.head(path).status_code == 404


@pytest.mark.parametrize(
    "name", ["Bob\u200b", "Bob\ufeff", "\u3164", "Bo\u2028b", "\u200fBob", "\u0301\u0301"]
)
def test_an_invisible_name_is_a_400_naming_name(client: TestClient[Any], name: str) -> None:
    table = open_table(client, "bourre", {"seats": 3})
    before = unchanged(client, table)
    response = client.post(f"/tables/{table}/seats", json={"name": name})
    assert_problem(response, 400, type="urn:cardroom:problem:malformed-request", field="name")
    assert unchanged(client, table) == before


def test_names_that_read_as_a_seated_one_are_refused_naming_name(client: TestClient[Any]) -> None:
    table = open_table(client, "bourre", {"seats": 4})
    assert client.post(f"/tables/{table}/seats", json={"name": "Bob"}).status_code == 201
    for alike in ("BOB", "B0b", "\u0412ob", "\uff22ob"):
        response = client.post(f"/tables/{table}/seats", json={"name": alike})
        assert_problem(response, 409, field="name")
    assert client.post(f"/tables/{table}/seats", json={"name": "Rob"}).status_code == 201
