"""Accounts and sessions over HTTP (design §2.2): register, sign in, sit as the account and
continue from a second client, sign out, claim a guest; taken and confusable names refused;
a cross-site cookie write refused; the password hash shown nowhere."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.accounts import COOKIE
from infra.export import export
from tests.api.helpers import assert_problem, auth, open_table

PASSWORD = "correct horse battery"


def register(client: TestClient[Any], name: str, password: str = PASSWORD) -> Any:
    return client.post("/accounts", json={"name": name, "password": password})


def sign_in(client: TestClient[Any], name: str, password: str = PASSWORD) -> str:
    response = client.post("/sessions", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    token: str = response.json()["token"]
    return token


def test_a_player_registers_signs_in_and_out(client: TestClient[Any]) -> None:
    created = register(client, "Ann_01")
    assert created.status_code == 201, created.text
    assert created.json() == {"name": "Ann_01", "kind": "player"}
    response = client.post("/sessions", json={"name": "ann_01", "password": PASSWORD})
    assert response.status_code == 201, response.text
    token = response.json()["token"]
    assert response.json()["name"] == "Ann_01"
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert client.get("/me", headers=auth(token)).json() == {"name": "Ann_01", "kind": "player"}
    assert client.delete("/sessions/current", headers=auth(token)).status_code == 204
    assert_problem(client.get("/me", headers=auth(token)), 401)
    client.cookies.clear()
    assert_problem(client.get("/me"), 401)


def test_a_wrong_name_and_a_wrong_password_are_one_answer(client: TestClient[Any]) -> None:
    assert register(client, "Bea").status_code == 201
    wrong_password = client.post("/sessions", json={"name": "Bea", "password": "x" * 12})
    unknown = client.post("/sessions", json={"name": "Nobody", "password": PASSWORD})
    first = assert_problem(wrong_password, 401)
    second = assert_problem(unknown, 401)
    assert first == second


def test_taken_and_confusable_names_are_refused(client: TestClient[Any]) -> None:
    assert register(client, "Bob").status_code == 201
    for alike in ("Bob", "BOB", "bob", "B0b", "\u0412ob", "\uff22ob"):
        assert_problem(register(client, alike), 409, field="name")
    assert_problem(register(client, "x"), 400, field="name")
    assert_problem(register(client, "has space"), 400, field="name")
    assert_problem(register(client, "guest-1234"), 400, field="name")
    assert_problem(register(client, "Carl", "short"), 400, field="password")


def test_one_of_two_racing_registrations_of_a_name_wins(client: TestClient[Any]) -> None:
    answers: list[int] = []
    lock = threading.Lock()

    def race(name: str) -> None:
        status = register(client, name).status_code
        with lock:
            answers.append(status)

    threads = [threading.Thread(target=race, args=(n,)) for n in ("Dora", "DORA", "D0ra", "dora")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [201, 409, 409, 409]


def test_an_account_sits_and_continues_from_a_second_client(client: TestClient[Any]) -> None:
    assert register(client, "Eve").status_code == 201
    first = sign_in(client, "Eve")
    client.cookies.clear()
    second = sign_in(client, "Eve")
    client.cookies.clear()
    table_id = open_table(client, "bourre", {"seats": 2})
    seated = client.post(f"/tables/{table_id}/seats", headers=auth(first))
    assert seated.status_code == 201, seated.text
    body = seated.json()
    assert body["token"] and body["seat"] == 0
    again = client.post(f"/tables/{table_id}/seats", json={}, headers=auth(second))
    assert again.json()["seat"] == 0 and again.json()["token"] == body["token"]
    assert client.post(f"/tables/{table_id}/seats", json={"name": "Fred"}).status_code == 201
    for token in (first, second, body["token"]):
        legal = client.get(f"/tables/{table_id}/legal", headers=auth(token))
        assert legal.status_code == 200, legal.text
    assert client.delete("/sessions/current", headers=auth(first)).status_code == 204
    assert_problem(client.get(f"/tables/{table_id}/legal", headers=auth(first)), 401)
    assert client.get(f"/tables/{table_id}/legal", headers=auth(second)).status_code == 200
    assert client.get(f"/tables/{table_id}/legal", headers=auth(body["token"])).status_code == 200
    view = client.get(f"/tables/{table_id}").json()
    assert [seat["name"] for seat in view["seats"]] == ["Eve", "Fred"]


def test_a_guest_plays_and_claims_its_account(client: TestClient[Any]) -> None:
    response = client.post("/guests")
    assert response.status_code == 201, response.text
    name = response.json()["name"]
    assert name.startswith("guest-")
    assert client.get("/me").json() == {"name": name, "kind": "guest"}  # the cookie
    table_id = open_table(client, "bourre", {"seats": 2})
    seated = client.post(f"/tables/{table_id}/seats", json={})
    assert seated.status_code == 201, seated.text
    claimed = client.post("/me/claim", json={"name": "Gil", "password": PASSWORD})
    assert claimed.json() == {"name": "Gil", "kind": "player"}
    assert client.get("/me").json() == {"name": "Gil", "kind": "player"}
    again = client.post(f"/tables/{table_id}/seats", json={})
    assert again.json()["seat"] == seated.json()["seat"]
    client.cookies.clear()
    assert sign_in(client, "gil")


def test_a_cross_site_write_by_cookie_is_refused(client: TestClient[Any]) -> None:
    assert client.post("/guests").status_code == 201
    table_id = open_table(client, "bourre", {"seats": 2})
    evil = {"Origin": "https://evil.example"}
    assert_problem(client.post(f"/tables/{table_id}/seats", json={}, headers=evil), 403)
    assert_problem(client.delete("/sessions/current", headers=evil), 403)
    same = {"Origin": "http://testserver.local"}
    assert client.post(f"/tables/{table_id}/seats", json={}, headers=same).status_code == 201


def test_nobody_sits_under_an_accounts_name_without_signing_in(client: TestClient[Any]) -> None:
    assert register(client, "Hal").status_code == 201
    table_id = open_table(client, "bourre", {"seats": 2})
    for typed in ("Hal", "HAL", "Ha1"):
        refused = client.post(f"/tables/{table_id}/seats", json={"name": typed})
        assert_problem(refused, 409, field="name")


def test_the_password_hash_is_found_nowhere_but_in_its_stream(
    client: TestClient[Any], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    answers: list[str] = []

    def kept(response: Any) -> Any:
        answers.append(response.text + str(response.headers))
        return response

    kept(register(client, "Ivy"))
    token = kept(client.post("/sessions", json={"name": "Ivy", "password": PASSWORD})).json()
    kept(client.post("/sessions", json={"name": "Ivy", "password": "wrong password"}))
    assert (
        kept(client.post("/accounts", json={"name": "ivy", "password": PASSWORD})).status_code
        == 409
    )
    table_id = open_table(client, "bourre", {"seats": 2, "hands": 1})
    kept(client.post(f"/tables/{table_id}/seats", headers=auth(token["token"])))
    kept(client.post(f"/tables/{table_id}/seats", json={"bot": "random"}))
    kept(client.get("/me", headers=auth(token["token"])))
    kept(client.get("/players/Ivy"))
    kept(client.get(f"/tables/{table_id}", headers=auth(token["token"])))
    kept(client.get("/events?limit=1000"))
    services = client.app.state.services
    holder = services.accounts.holder("Ivy")
    account = services.accounts.load(holder)[0]
    secret_hash = account.password_hash
    assert secret_hash and secret_hash.startswith("$argon2id$")
    digest = secret_hash.rsplit("$", 1)[1]  # the hash proper, without its parameters
    export(services.store, tmp_path / "export", "ndjson")
    out = tmp_path / "export"
    files = [
        path.read_bytes().decode(errors="replace") for path in out.rglob("*") if path.is_file()
    ]
    logged = [record.getMessage() for record in caplog.records]
    for where, texts in (("answers", answers), ("export", files), ("log", logged)):
        for text in texts:
            assert digest not in text, where
            assert account.seat_key not in text, where
    assert answers and files


def test_sign_in_attempts_are_limited_per_name(client: TestClient[Any]) -> None:
    assert register(client, "Jo").status_code == 201
    for _ in range(10):
        wrong = client.post("/sessions", json={"name": "Jo", "password": "not the password"})
        assert_problem(wrong, 401)
    limited = client.post("/sessions", json={"name": "jo", "password": PASSWORD})
    assert_problem(limited, 429)
    assert int(limited.headers["retry-after"]) >= 1
    assert register(client, "Kim").status_code == 201
    assert sign_in(client, "Kim")  # another name has its own budget


def test_a_new_password_ends_every_session(client: TestClient[Any]) -> None:
    assert register(client, "Lou").status_code == 201
    first, second = sign_in(client, "Lou"), sign_in(client, "Lou")
    client.cookies.clear()
    body = {"password": "not the password", "newPassword": "a new long password"}
    assert_problem(client.post("/me/password", json=body, headers=auth(first)), 401)
    body["password"] = PASSWORD
    short = {**body, "newPassword": "short"}
    assert_problem(client.post("/me/password", json=short, headers=auth(first)), 400)
    assert client.post("/me/password", json=body, headers=auth(first)).status_code == 204
    for token in (first, second):
        assert_problem(client.get("/me", headers=auth(token)), 401)
    assert_problem(client.post("/sessions", json={"name": "Lou", "password": PASSWORD}), 401)
    assert sign_in(client, "Lou", "a new long password")


def test_lone_surrogates_are_refused_not_failed(client: TestClient[Any]) -> None:
    json = {"content-type": "application/json"}
    name = b'{"name": "\\ud800x", "password": "correct horse battery"}'
    password = b'{"name": "Mo", "password": "\\ud800 correct horse"}'
    for path in ("/accounts", "/sessions"):
        for body in (name, password):
            assert_problem(client.post(path, content=body, headers=json), 400)
    assert client.get("/players/%ED%A0%80x").status_code in (400, 404)
