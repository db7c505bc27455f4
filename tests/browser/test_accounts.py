"""Accounts in the web card room (design §2.2): register on the leaderboard page, take a seat
signed in, continue it from a second browser context of the same account, sign out (the seat
no longer answers that session), a guest claims its account; a cross-site write refused."""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.browser.pages import wait_until
from tests.browser.server import CardroomServer

PASSWORD = "correct horse battery"


def fetch(page: Page, method: str, path: str, body: Any = None) -> dict[str, Any]:
    """A same-site request of the page (its cookie goes with it): status and JSON body."""
    found: dict[str, Any] = page.evaluate(
        """async ([method, path, body]) => {
            const init = {method, headers: {"Content-Type": "application/json"}};
            if (body !== null) init.body = JSON.stringify(body);
            const response = await fetch(path, init);
            const text = await response.text();
            return {status: response.status, body: text ? JSON.parse(text) : null};
        }""",
        [method, path, body],
    )
    return found


def sign_in_form(page: Page, label: str, name: str) -> None:
    form = page.locator("form.account-form", has=page.locator(f"button:text('{label}')"))
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("button").click()
    page.wait_for_selector(f".signed-in >> text={name}", timeout=30_000)


def test_an_account_plays_from_two_browsers_signs_out_and_a_guest_claims(
    server: CardroomServer, browser: Browser
) -> None:
    name = f"Zoe{secrets.token_hex(3)}"
    first = browser.new_context().new_page()
    first.goto(server.base + "/leaderboard")
    sign_in_form(first, "Register", name)
    table_id = server.open_table("bourre", {"seats": 2})
    seated = fetch(first, "POST", f"/tables/{table_id}/seats", {})
    assert seated["status"] == 201, seated
    second = browser.new_context().new_page()
    second.goto(server.base + f"/players/{name}")
    sign_in_form(second, "Sign in", name)
    again = fetch(second, "POST", f"/tables/{table_id}/seats", {})
    assert again["body"]["seat"] == seated["body"]["seat"]
    assert fetch(second, "GET", "/me")["body"] == {"name": name, "kind": "player"}

    cross = first.request.post(
        server.base + f"/tables/{table_id}/seats",
        data="{}",
        headers={"Origin": "https://elsewhere.example", "Content-Type": "application/json"},
    )
    assert cross.status == 403

    first.locator("button:text('Sign out')").click()
    first.wait_for_selector("form.account-form")
    assert fetch(first, "GET", "/me")["status"] == 401
    assert fetch(second, "GET", "/me")["status"] == 200

    guest = browser.new_context().new_page()
    guest.goto(server.base + "/leaderboard")
    guest.locator("button:text('Play as a guest')").click()
    guest.wait_for_selector(".signed-in >> text=guest-")
    claimed = f"Kit{secrets.token_hex(3)}"
    sign_in_form(guest, "Claim", claimed)
    assert fetch(guest, "GET", "/me")["body"] == {"name": claimed, "kind": "player"}


def test_a_profile_page_lists_the_accounts_recent_tables(
    server: CardroomServer, browser: Browser
) -> None:
    name = f"Pia{secrets.token_hex(3)}"
    page = browser.new_context().new_page()
    page.goto(server.base + "/leaderboard")
    sign_in_form(page, "Register", name)
    older, newer = server.open_table("bourre", {"seats": 2}), server.open_table("burraco", {})
    for table_id in (older, newer):
        assert fetch(page, "POST", f"/tables/{table_id}/seats", {})["status"] == 201
    caught_up = fetch(page, "GET", f"/players/{name}?after={server.head()}")
    assert [t["tableId"] for t in caught_up["body"]["recentTables"]] == [newer, older]
    page.goto(server.base + f"/players/{name}")
    rows = page.locator("table.recent-tables tbody tr")
    rows.first.wait_for(timeout=30_000)
    assert rows.count() == 2
    assert rows.nth(0).locator("td").first.inner_text() == "Burraco"  # the game's title
    assert rows.nth(0).locator("a").get_attribute("href") == f"/watch/{newer}"
    assert rows.nth(1).locator("a").get_attribute("href") == f"/watch/{older}"


def test_a_seat_taken_signed_in_is_played_from_a_second_device_of_the_account(
    server: CardroomServer, browser: Browser
) -> None:
    """The play page of a second browser context signed in to the same account finds the
    account's seat from the session cookie (``GET /me/seats/{id}``; no seat token kept in that
    browser) and acts for it; signed out, that browser no longer holds the seat."""
    name = f"Ida{secrets.token_hex(3)}"
    table_id = server.open_table("bourre", {"seats": 2}, seed=3)
    first = browser.new_context().new_page()
    first.goto(server.base + "/leaderboard")
    sign_in_form(first, "Register", name)
    first.goto(f"{server.base}/play/{table_id}")
    typed = first.locator("form.seat-form input[name=name]")
    assert typed.input_value() == name and typed.get_attribute("readonly") is not None
    first.click("form.seat-form button[type=submit]")
    first.wait_for_selector(".hand-panel h2")
    mine = int(first.evaluate(f"JSON.parse(localStorage.getItem('cardroom:seat:{table_id}')).seat"))
    other = {1 - mine: server.sit(table_id, "Bob")}
    first.wait_for_selector("[data-my-hand] [data-card]")

    second = browser.new_context().new_page()
    second.goto(server.base + "/leaderboard")
    sign_in_form(second, "Sign in", name)
    assert fetch(second, "GET", f"/me/seats/{table_id}")["body"]["seat"] == mine
    assert (
        fetch(second, "GET", f"/me/seats/{server.open_table('bourre', {'seats': 2})}")["status"]
        == 404
    )
    second.goto(f"{server.base}/play/{table_id}")
    second.wait_for_selector("[data-my-hand] [data-card]")
    assert name in second.inner_text(".hand-panel h2")
    assert second.locator("form.seat-form").count() == 0
    while server.view(table_id)["toAct"] != [mine]:
        server.play(table_id, other, 1)
    before = server.view(table_id)["version"]
    second.wait_for_function("document.title.startsWith('●')")
    second.click("button[data-action=declare][data-play=true]:enabled")
    second.wait_for_function(
        f"() => [...document.querySelectorAll('ol[data-log] > li')]"
        f".some(li => Number(li.dataset.version) > {before})"
    )
    assert server.view(table_id)["version"] > before

    second.goto(server.base + "/leaderboard")
    second.locator("button:text('Sign out')").click()
    second.wait_for_selector("form.account-form")
    assert second.evaluate(f"localStorage.getItem('cardroom:seat:{table_id}')") is None


def account_session(server: CardroomServer, name: str) -> str:
    """A registered account's session token (``Authorization: Bearer``), over the API."""
    assert server.http.post("/accounts", json={"name": name, "password": PASSWORD}).is_success
    answer = server.http.post("/sessions", json={"name": name, "password": PASSWORD})
    server.http.cookies.clear()  # the test's client keeps no session of its own
    return str(answer.json()["token"])


def test_seat_boxes_show_ratings_and_a_claimed_guest_s_name_at_its_earlier_table(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    """Issue 22: each rated account's seat box shows its rating; a guest's seat at a table
    played before the guest claimed a name shows the claimed name (the table's events keep
    the guest name: a read through the account, GET /players/{name}, names it now)."""
    names = [f"Ray{secrets.token_hex(3)}", f"Sue{secrets.token_hex(3)}"]
    sessions = [account_session(server, name) for name in names]
    # no seed: a table of chosen deals is never rated
    opened = server.http.post("/tables", json={"game": "bourre", "options": {"seats": 2}})
    rated = str(opened.json()["tableId"])
    tokens: dict[int, str] = {}
    for session in sessions:
        answer = server.http.post(
            f"/tables/{rated}/seats", json={}, headers={"Authorization": f"Bearer {session}"}
        )
        assert answer.status_code == 201, answer.text
        tokens[int(answer.json()["seat"])] = str(answer.json()["token"])
    while server.view(rated)["hand"] == 1:
        server.play(rated, tokens, 1)
    wait_until(
        lambda: "bourre" in server.http.get(f"/players/{names[1]}").json()["ratings"],
        30,
        "the hand rated",
    )
    ray = browser.new_context().new_page()
    ray.goto(server.base + "/leaderboard")
    sign_in_form(ray, "Sign in", names[0])
    ray.goto(f"{server.base}/play/{rated}")
    ray.wait_for_selector("[data-my-hand] [data-card]")
    badges = ray.locator(".board-box section[data-seat] .badge.rating")
    badges.nth(1).wait_for()
    for seat in (0, 1):
        shown = ray.locator(f".board-box section[data-seat='{seat}'] .badge.rating")
        rating = server.http.get(f"/players/{server.view(rated)['seats'][seat]['name']}").json()
        assert shown.get_attribute("data-rating") == str(rating["ratings"]["bourre"]["ordinal"])
    ray.screenshot(path=str(artifacts / "play-ratings.png"))
    spectator = browser.new_context().new_page()  # the watch page's seat boxes too
    spectator.goto(f"{server.base}/watch/{rated}")
    spectator.locator(".board-box section[data-seat] .badge.rating").nth(1).wait_for()
    spectator.close()

    # Signed in, quick play seats the account under its own name.
    ray.goto(server.base + "/")
    form = ray.locator("form[data-quick-play=bourre]")
    form.locator("select[name=bot] option[value=basic]").wait_for(state="attached")
    typed = form.locator("input[name=name]")
    assert typed.input_value() == names[0] and typed.get_attribute("readonly") is not None
    form.locator("button[type=submit]").click()
    ray.wait_for_url("**/play/*")
    ray.wait_for_selector("[data-my-hand] [data-card]")
    assert names[0] in ray.inner_text(".hand-panel h2")

    # A guest sits at a table, then claims a name: that table shows the name it holds now.
    early = server.open_table("bourre", {"seats": 2}, seed=9)
    guest = browser.new_context().new_page()
    guest.goto(server.base + "/leaderboard")
    guest.locator("button:text('Play as a guest')").click()
    guest.wait_for_selector(".signed-in >> text=guest-")
    assert fetch(guest, "POST", f"/tables/{early}/seats", {})["status"] == 201
    server.sit(early, "Bob")
    claimed = f"Kim{secrets.token_hex(3)}"
    sign_in_form(guest, "Claim", claimed)
    assert server.view(early)["seats"][0]["name"].startswith("guest-")  # the history stays
    profile = server.http.get(f"/players/{claimed}", params={"after": server.head()}).json()
    assert profile["recentTables"][0]["players"] == [claimed, "Bob"]
    guest.goto(f"{server.base}/play/{early}")
    guest.wait_for_selector(f".board-box section[data-seat='0'] .name:text-is('{claimed}')")
    assert claimed in guest.inner_text(".hand-panel h2")
    guest.screenshot(path=str(artifacts / "play-claimed-guest.png"))
    assert "guest-" in str(guest.get_attribute(".board-box section[data-seat='0'] .name", "title"))
