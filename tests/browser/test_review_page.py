"""The review page (design §9.4): ``/review/{id}/{n}?seat=S`` shows the seat's settled hand
replayed from its side, every decision marked as the API's review marks it, each move with the
API's value, and a "play from here" button on each decision."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from tests.api.helpers import SPADES_SWEEP_DECK
from tests.browser.pages import hand_codes, shown_cards
from tests.browser.server import CardroomServer
from tests.waiting import wait_until


def review_of(server: CardroomServer, table: str, seat: int) -> dict[str, Any]:
    """The API's review of hand 1 for ``seat``, once the server's reviewer has stored it."""

    def stored() -> Any:
        answer = server.http.get(f"/tables/{table}/hands/1/review", params={"seat": seat})
        assert answer.status_code in (200, 202), answer.text
        return answer.json() if answer.status_code == 200 else None

    found: dict[str, Any] = wait_until(stored, 60, "the server's reviewer stored no review")
    return found


@pytest.fixture(scope="module")
def reviewed(server: CardroomServer, browser: Browser) -> Any:
    """One settled heads-up hand — Bob (seat 1) sweeps with the top spades, Ann (seat 0)
    discards 2H 3H and answers with her highest legal card — and a page on Ann's review."""
    table = server.open_table("bourre", {"seats": 2, "max_discard": 2}, decks=[SPADES_SWEEP_DECK])
    tokens = {0: server.sit(table, "Ann"), 1: server.sit(table, "Bob")}
    server.act(table, tokens[1], {"type": "declare", "play": True, "discard": []})
    server.act(table, tokens[0], {"type": "declare", "play": True, "discard": ["2H", "3H"]})
    for lead in ["AS", "KS", "QS", "JS", "10S"]:
        server.act(table, tokens[1], {"type": "play_card", "card": lead})
        server.act(table, tokens[0], server.legal(table, tokens[0])[-1])
    page = Browser.new_page(browser, viewport={"width": 1200, "height": 1000})
    page.goto(f"{server.base}/review/{table}/1?seat=0")
    # this browser holds Ann's seat, as when she sat here (seats.js): forks keep her cards
    page.evaluate(
        "([table, token]) => localStorage.setItem(`cardroom:seat:${table}`,"
        " JSON.stringify({seat: 0, token, name: 'Ann', game: 'bourre'}))",
        [table, tokens[0]],
    )
    page.reload()
    page.wait_for_selector("[data-review-summary]", timeout=60_000)
    yield table, page, review_of(server, table, 0)
    page.close()


def test_the_review_page_marks_each_decision_as_the_api_does(
    reviewed: Any, artifacts: Path
) -> None:
    _, page, review = reviewed
    items = page.eval_on_selector_all(
        "ol[data-decisions] > li", "ns => ns.map(n => [Number(n.dataset.decision), n.dataset.mark])"
    )
    assert items == [[d["version"], d["mark"]] for d in review["decisions"]]
    assert len(items) == 6  # her declaration and a card to each of Bob's five leads
    accuracy = page.get_attribute("[data-review-summary]", "data-accuracy")
    assert accuracy == (
        "" if review["summary"]["accuracy"] is None else str(review["summary"]["accuracy"])
    )
    assert page.locator("[data-review-summary]").inner_text().strip() != ""
    page.screenshot(path=str(artifacts / "review-page.png"), full_page=True)


def test_a_decision_shows_every_move_with_its_value_and_the_seats_side_of_the_board(
    reviewed: Any,
) -> None:
    _, page, review = reviewed
    declaration = review["decisions"][0]
    version = declaration["version"]
    page.click(f"li[data-decision='{version}'] button")
    rows = page.locator(f"table[data-moves='{version}'] tbody tr")
    rows.first.wait_for()
    assert rows.count() == len(declaration["moves"])
    shown = page.eval_on_selector_all(
        f"table[data-moves='{version}'] tbody tr", "ns => ns.map(n => Number(n.dataset.value))"
    )
    assert shown == [m["value"] for m in declaration["moves"]]
    played = page.locator(f"table[data-moves='{version}'] tr[data-played]")
    assert played.count() == 1
    assert set(shown_cards(page, "tr[data-played]")) == {"2H", "3H"}  # the discards she named
    # the board as Ann saw it then: her five cards, Bob's face down
    page.wait_for_function(
        "v => document.querySelector('input[name=version]').value === String(v)", arg=version
    )
    page.wait_for_selector(".board-box [data-seat='0'] [data-card='2H']")
    assert set(shown_cards(page, ".board-box [data-seat='1']")) == {"back"}
    assert page.locator(f"button[data-fork='{version}']").is_visible()


def test_the_watch_pages_hand_result_links_to_each_seats_review(
    server: CardroomServer, reviewed: Any
) -> None:
    table, page, review = reviewed
    page.goto(f"{server.base}/watch/{table}")
    link = page.locator("[data-result='hand'][data-hand='1'] a[data-review='0']")
    link.wait_for()
    assert link.inner_text() == "Ann"
    link.click()
    page.wait_for_url(f"**/review/{table}/1?seat=0")
    page.wait_for_selector("ol[data-decisions] > li")
    assert page.locator("ol[data-decisions] > li").count() == len(review["decisions"])


def test_play_from_here_forks_the_table_at_the_decision_and_plays_it(
    server: CardroomServer, reviewed: Any
) -> None:
    table, page, review = reviewed
    page.goto(f"{server.base}/review/{table}/1?seat=0")
    second = review["decisions"][1]["version"]  # Ann answers Bob's first lead
    page.click(f"li[data-decision='{second}'] button")
    page.click(f"button[data-fork='{second}']")
    page.wait_for_url(re.compile(r".*/play/[0-9a-f-]{36}$"))
    fork = page.url.rsplit("/", 1)[1]
    held = page.evaluate("id => JSON.parse(localStorage.getItem(`cardroom:seat:${id}`))", fork)
    assert held["seat"] == 0
    view = server.http.get(f"/tables/{fork}", headers={"Authorization": f"Bearer {held['token']}"})
    assert view.status_code == 200
    assert view.json()["forkOf"] == table and view.json()["at"] == second
    # she plays on with the cards she held then
    then = server.replay(table, second)["seats"][0]["cards"]
    page.wait_for_selector(".hand-panel [data-card]")
    assert sorted(hand_codes(page)) == sorted(then)
