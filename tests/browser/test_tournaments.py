"""The tournament pages (design §10): ``/tournaments`` lists the events and creates one;
``/tournaments/{id}`` starts it, keeps the standings live while its bots play, and opens a
board's traveller only once every table of its round has played it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.browser.server import CardroomServer


def test_a_duplicate_event_runs_on_its_page_and_its_board_opens_after_the_round(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 1300})
    page.goto(server.base + "/tournaments")
    page.wait_for_selector("form.create-tournament")
    page.fill("input[name=name]", "Club night")
    page.select_option("form.create-tournament select[name=game]", "burraco")
    page.select_option("select[name=format]", "duplicate")
    page.fill("input[name=tables]", "2")
    page.fill("input[name=rounds]", "1")
    page.fill("input[name=boardsPerRound]", "1")
    page.select_option("select[name=bots]", "basic")
    page.click("form.create-tournament button[type=submit]")
    page.wait_for_url("**/tournaments/*")
    tid = page.url.rsplit("/", 1)[1]
    page.wait_for_selector("#status[data-status=waiting]")
    # before the event starts the board is closed, its commitment not yet published
    assert server.http.get(f"/tournaments/{tid}/boards/1").status_code == 403
    page.click("#start")
    page.wait_for_selector("#boards li[data-board='1']")
    closed = server.http.get(f"/tournaments/{tid}").json()
    if not closed["rounds"][0]["ended"]:
        assert page.locator("#boards li[data-board='1'] .closed").count() == 1
    # the standings move on the page by themselves as the round ends: 2 tables, 1 board,
    # 4 pairs of 10 victory points a comparison
    page.wait_for_selector("#status[data-status=ended]", timeout=60_000)
    page.wait_for_selector("#standings tbody tr[data-entry]")
    scores = page.eval_on_selector_all(
        "#standings td.score", "cells => cells.map(c => c.textContent)"
    )
    assert sum(int(score) for score in scores) == 2 * 20
    page.click("#boards li[data-board='1'] button.traveller")
    page.wait_for_selector("#traveller table.traveller-table tbody tr[data-table]")
    rows = page.locator("#traveller tbody tr[data-table]")
    assert rows.count() == 2
    assert "commitment checks" in page.inner_text("#traveller")
    page.screenshot(path=str(artifacts / "tournament.png"), full_page=True)
    page.goto(server.base + "/tournaments")
    page.wait_for_selector(f"#tournaments li[data-tournament='{tid}'] a[href='/tournaments/{tid}']")
    assert "Club night" in page.inner_text(f"#tournaments li[data-tournament='{tid}']")
