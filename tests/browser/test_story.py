"""Issue 21, "see every move, read every result": the table's whole log beside the table
(``ol[data-log] > li[data-version]``, in words, never a raw event type), a hand's result panel
(``[data-result]``) whose figures equal the ledger's, the table's final standings, and the
watch page's chart (axes, one line per player, nothing later than the version on screen) and
its "ended" label — at a desktop's 1366×768 and a phone's 390×844. The new panels tell a
spectator nothing hidden: no hidden card's name is in the log or the result panel."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.pages import card_name, seat_token, take_seat, wait_until
from tests.browser.server import CardroomServer

VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}
# an event type as the server spells it (HandSettled, TrickWon, …): never shown to a person
RAW_TYPE = re.compile(r"\b[A-Z][a-z]+(?:[A-Z][a-z]+)+\b")


def new_page(browser: Browser, viewport: str) -> Page:
    width, height = VIEWPORTS[viewport]
    return browser.new_page(viewport={"width": width, "height": height})


def log_versions(page: Page) -> list[int]:
    versions: list[str] = page.eval_on_selector_all(
        "ol[data-log] > li[data-version]", "ns => ns.map(n => n.dataset.version)"
    )
    return [int(v) for v in versions]


def wait_for_version(page: Page, version: int) -> None:
    page.wait_for_selector(f".position:has-text('version {version} of')")
    page.wait_for_selector(f"ol[data-log] > li[data-version='{version}']")


def bot_table(server: CardroomServer, game: str, options: dict[str, Any], seats: int) -> str:
    """A table of ``seats`` basic bots, played to its end by the server's bots."""
    table = server.open_table(game, options)
    for _ in range(seats):
        answer = server.http.post(f"/tables/{table}/seats", json={"bot": "basic"})
        assert answer.status_code == 201, answer.text
    wait_until(
        lambda: server.view(table)["status"] == "ended", timeout=120, what="the bots' table to end"
    )
    return table


def settling_versions(server: CardroomServer, table: str, kinds: set[str]) -> list[dict[str, Any]]:
    return [e for e in server.timeline(table) if e["type"] in kinds]


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_watch_page_logs_every_event_and_tells_the_bourre_result_as_the_ledger_does(
    server: CardroomServer, browser: Browser, artifacts: Path, viewport: str
) -> None:
    table = server.open_table("bourre", {"seats": 3, "hands": 3}, seed=41)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    while server.view(table)["hand"] == 1:
        server.play(table, tokens, 1)
    server.play(table, tokens, 4)  # hand 2: the declarations and a first card, hidden hands
    timeline = server.timeline(table)  # as a spectator sees it
    head = server.view(table)["version"]
    page = new_page(browser, viewport)
    page.goto(f"{server.base}/watch/{table}")
    wait_for_version(page, head)

    # The whole log, one line per event, each a link to its version, told in words.
    assert log_versions(page) == [e["version"] for e in timeline]
    lines = page.eval_on_selector_all("ol[data-log] > li", "ns => ns.map(n => n.innerText)")
    raw = [line for line in lines if RAW_TYPE.search(line)]
    assert raw == [], f"raw event types in the log: {raw}"
    played = next(e for e in timeline if e["type"] == "CardPlayed" and e["hand"] == 2)
    assert f"plays the {card_name(played['card'])}" in lines[timeline.index(played)]
    assert page.get_attribute(f"li[data-version='{played['version']}'] a", "href") == (
        f"?at={played['version']}"
    )

    # Hand 1's result: the pot, its winner and the bourré players, as the ledger has them.
    hand = server.ledger(table)["hands"][0]
    result = page.locator("[data-result='hand'][data-hand='1']")
    headline = result.locator("[data-pot]")
    assert headline.get_attribute("data-pot") == str(hand["pot"])
    assert headline.get_attribute("data-winner") == (
        "" if hand["winner"] is None else str(hand["winner"])
    )
    owing = result.locator("tr[data-player]").evaluate_all(
        "rows => rows.filter(r => r.dataset.owes !== '0').map(r => Number(r.dataset.player))"
    )
    assert owing == hand["bourre"]
    if hand["winner"] is not None:
        assert "wins" in result.inner_text() and "pot 3" not in result.inner_text()

    # Nothing hidden from a spectator is named in the log or the result panel: hand 2's
    # lines name its trump card and the cards played, no card still held.
    held = set().union(*(set(server.view(table, t)["cards"]) for t in tokens.values()))
    now = server.replay(table, head)
    public = {now["trumpCard"]} | {p["card"] for p in now["trick"] + now["lastTrick"]}
    hidden = held - public
    assert hidden
    told = page.inner_text(".result-box") + "\n".join(
        line for line, e in zip(lines, timeline, strict=True) if e.get("hand") == 2
    )
    assert [c for c in hidden if re.search(rf"\b{card_name(c)}\b", told)] == []
    page.screenshot(path=str(artifacts / f"story-watch-bourre-{viewport}.png"), full_page=True)

    # A log line is a link to that version: the board goes there.
    settled = next(e for e in timeline if e["type"] == "HandSettled")
    page.click(f"li[data-version='{settled['version'] - 1}'] a")
    page.wait_for_selector(f".position:text-is('version {settled['version'] - 1} of {head}')")
    assert log_versions(page)[-1] == settled["version"] - 1  # nothing later on screen
    assert page.locator("[data-result]").count() == 0  # hand 1 not settled yet there
    page.close()


@pytest.fixture(scope="module")
def burraco_of_bots(server: CardroomServer) -> str:
    """One Burraco table of four bots played to 300 points, read at both windows."""
    return bot_table(server, "burraco", {"target": 300}, 4)


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_burraco_result_panel_equals_the_ledger_and_the_end_shows_the_standings(
    server: CardroomServer, browser: Browser, artifacts: Path, viewport: str, burraco_of_bots: str
) -> None:
    table = burraco_of_bots
    ledger = server.ledger(table)
    scored = settling_versions(server, table, {"HandScored"})
    assert scored and len(scored) == len(ledger["hands"])
    page = new_page(browser, viewport)
    for event, hand in zip(scored, ledger["hands"], strict=True):
        page.goto(f"{server.base}/watch/{table}?at={event['version']}")
        wait_for_version(page, event["version"])
        panel = page.locator(f"[data-result='hand'][data-hand='{hand['hand']}']")
        for line in hand["breakdown"]:
            for key in ("melds", "burracos", "inHand", "pozzetto", "closing", "total"):
                cell = panel.locator(f"td[data-team='{line['team']}'][data-line='{key}']")
                shown = cell.inner_text().splitlines()[0].replace("−", "-").replace("+", "")
                assert int(shown.replace(",", "")) == line[key], (hand["hand"], line["team"], key)
        totals = panel.locator("td[data-line='match']").all_inner_texts()
        running = [
            sum(h["scores"][t] for h in ledger["hands"] if h["hand"] <= hand["hand"])
            for t in (0, 1)
        ]
        assert [int(t.replace(",", "").replace("−", "-")) for t in totals] == running
    page.screenshot(path=str(artifacts / f"story-burraco-result-{viewport}.png"), full_page=True)

    # The end: the final standings equal the ledger's totals; the header says "ended".
    page.goto(f"{server.base}/watch/{table}")
    page.wait_for_selector("[data-result='table']")
    values = page.eval_on_selector_all(
        "[data-result='table'] li", "ns => ns.map(n => n.dataset.value)"
    )
    assert sorted(int(v) for v in values) == sorted(t["total"] for t in ledger["teams"])
    assert page.locator("[data-status='ended']").is_visible()
    page.screenshot(path=str(artifacts / f"story-burraco-ended-{viewport}.png"), full_page=True)
    page.close()


def test_the_watch_chart_has_axes_a_line_per_player_and_no_spoilers_and_an_ended_table_says_so(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    table = bot_table(server, "bourre", {"seats": 3, "hands": 3}, 3)
    ledger = server.ledger(table)
    settled = settling_versions(server, table, {"HandSettled"})
    assert len(settled) == 3
    page = new_page(browser, "desktop")

    # Version 1: nothing has settled, so the chart and the result panel tell nothing yet.
    page.goto(f"{server.base}/watch/{table}?at=1")
    wait_for_version(page, 1)
    page.wait_for_selector(".chart-section :text('no hand has settled yet')")
    assert page.locator("[data-result]").count() == 0
    assert page.locator("a[href^='/play/']").count() == 0  # an ended table offers no seat
    assert page.locator("[data-status='ended']").is_visible()

    assert page.inner_text("select[name=perspective] option >> nth=0") == "public cards only"

    # At hand 1's settlement: two points per line (the start and hand 1), no later hand; the
    # hands revealed, the perspective switch says it shows every hand.
    first = settled[0]["version"]
    page.fill("input[type=range][name=version]", str(first))
    wait_for_version(page, first)
    page.wait_for_selector(
        "select[name=perspective] option:text-is('every hand')", state="attached"
    )
    page.wait_for_selector(".chart .y-axis", state="attached")
    assert page.locator(".chart .x-axis").count() == 1
    assert page.locator(".chart path[data-series]").count() == len(ledger["players"])
    dashes = page.eval_on_selector_all(
        ".chart path[data-series]", "ps => ps.map(p => p.getAttribute('stroke-dasharray'))"
    )
    assert len(set(dashes)) == len(dashes)  # each line drawn apart, colour aside
    ticks = page.eval_on_selector_all(".chart text.tick", "ts => ts.map(t => t.textContent)")
    assert "2" not in ticks and "3" not in ticks  # no later hand on the x axis
    assert f"at version {first}" in page.inner_text(".legend")

    # At the end: the last version is "ended", never "live"; the standings equal the ledger.
    page.goto(f"{server.base}/watch/{table}")
    head = server.view(table)["version"]
    page.wait_for_selector(f".position:text-is('version {head} of {head} · ended')")
    assert "live" not in page.inner_text(".position")
    values = page.eval_on_selector_all(
        "[data-result='table'] li", "ns => ns.map(n => [n.dataset.place, n.dataset.value])"
    )
    assert {int(seat): int(net) for seat, net in values} == {
        p["seat"]: p["net"] for p in ledger["players"]
    }
    page.screenshot(path=str(artifacts / "story-watch-ended.png"), full_page=True)
    page.close()


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_the_play_page_logs_every_event_of_the_hand_and_shows_the_result(
    server: CardroomServer, browser: Browser, artifacts: Path, viewport: str
) -> None:
    table = server.open_table("bourre", {"seats": 3, "hands": 2}, seed=43)
    page = new_page(browser, viewport)
    take_seat(page, server.base, table, "Ann", 0)
    tokens = {0: str(seat_token(page, table)["token"])}
    tokens |= {seat: server.sit(table, name, seat) for seat, name in ((1, "Bob"), (2, "Cy"))}
    while server.view(table)["hand"] == 1:
        server.play(table, tokens, 1)
    seen = server.timeline(table, tokens[0])  # as Ann's seat sees it
    last = seen[-1]["version"]
    page.wait_for_selector(f"ol[data-log] > li[data-version='{last}']")
    assert log_versions(page) == [e["version"] for e in seen]
    assert [
        line
        for line in page.locator("ol[data-log] > li").all_inner_texts()
        if RAW_TYPE.search(line)
    ] == []
    hand = server.ledger(table)["hands"][0]
    headline = page.locator("[data-result='hand'][data-hand='1'] [data-pot]")
    assert headline.get_attribute("data-pot") == str(hand["pot"])
    assert headline.get_attribute("data-winner") == (
        "" if hand["winner"] is None else str(hand["winner"])
    )
    # the chart at the table's head: each line's value "now", not "at version …"
    page.wait_for_selector(".legend li")
    legend = page.inner_text(".legend")
    assert "now" in legend and "at version" not in legend, legend
    page.screenshot(path=str(artifacts / f"story-play-bourre-{viewport}.png"), full_page=True)
    page.close()


def test_following_live_a_finished_trick_stays_on_the_table_a_moment(
    server: CardroomServer, browser: Browser
) -> None:
    table = server.open_table("bourre", {"seats": 3}, seed=59)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    page = new_page(browser, "desktop")
    page.goto(f"{server.base}/watch/{table}")
    page.wait_for_selector(".position:has-text('live')")
    # three declarations, the three cards of trick 1, and trick 2's first card at once
    server.play(table, tokens, 7)
    page.wait_for_function(
        "() => document.querySelector('.position').textContent.includes('a moment to see it')"
        " && document.querySelectorAll('.trick.last [data-card]').length === 3"
    )
    head = server.view(table)["version"]
    page.wait_for_selector(f".position:text-is('version {head} of {head} · live')")
    assert page.locator(".trick:not(.last) [data-card]").count() == 1  # trick 2's first card
    page.close()


def test_a_pot_taken_without_play_is_told_in_words_not_as_0_tricks(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    """Bourré rule 16: everyone else passes, the last player takes the pot without play —
    the result panel says so, and never that the winner took "0" tricks."""
    table = server.open_table("bourre", {"seats": 3, "hands": 1}, seed=61)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    while server.view(table)["status"] != "ended":
        seat = server.view(table)["toAct"][0]
        declares = [m for m in server.legal(table, tokens[seat]) if m["type"] == "declare"]
        passing = [m for m in declares if not m["play"]]
        keeping = [m for m in declares if m["play"] and not m["discard"]]
        server.act(table, tokens[seat], (passing or keeping)[0])
    hand = server.ledger(table)["hands"][0]
    winner = hand["winner"]
    assert winner is not None
    page = new_page(browser, "desktop")
    page.goto(f"{server.base}/watch/{table}")
    result = page.locator("[data-result='hand'][data-hand='1']")
    result.wait_for()
    told = result.inner_text()
    assert "everyone else passed" in told and "without play (rule 16)" in told, told
    row = result.locator(f"tr[data-player='{winner}'] td").first
    assert row.inner_text() == "all five, without play (rule 16)"
    headline = result.locator("[data-pot]")
    assert headline.get_attribute("data-winner") == str(winner)
    assert headline.get_attribute("data-pot") == str(hand["pot"])
    assert not re.search(r"\b0 tricks\b", told)
    seat_box = page.locator(f".board-box [data-seat='{winner}'] .tricks")
    assert seat_box.inner_text() == " · took the pot without play"
    page.screenshot(path=str(artifacts / "story-bourre-rule-16.png"))
    page.close()
