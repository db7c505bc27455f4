"""The watch page's "play from here" (design §9.3): it forks the table at the version on screen
for the perspective shown and opens the fork's play page, where this browser holds the seat:
the hand dealt anew from what a spectator saw, the trick on the table as it was."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser

from tests.browser.pages import hand_codes
from tests.browser.server import CardroomServer


def test_play_from_here_opens_a_fork_at_the_version_on_screen(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    table = server.open_table("bourre", {"seats": 3, "hands": 1}, seed=5)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    server.play(table, tokens, 4)  # three declarations and a first card
    at = server.view(table)["version"]
    shown = server.replay(table, at)
    seat = shown["toAct"][0]

    page = Browser.new_page(browser, viewport={"width": 1100, "height": 950})
    page.goto(f"{server.base}/watch/{table}?at={at}")
    button = page.locator("button[data-fork]")
    button.wait_for()
    page.wait_for_function("() => !document.querySelector('button[data-fork]').disabled")
    assert button.inner_text() == "play from here"
    button.click()
    page.wait_for_url(f"{server.base}/play/*")
    fork = page.url.rsplit("/", 1)[-1].split("?")[0]
    assert fork != table
    page.wait_for_function(
        "n => document.querySelectorAll('.hand-panel [data-card]').length === n",
        arg=shown["seats"][seat]["cardCount"],
    )
    view = server.view(fork)
    assert (view["forkOf"], view["at"]) == (table, at)
    assert view["trick"] == shown["trick"] and view["toAct"] == [seat]
    assert len(hand_codes(page)) == shown["seats"][seat]["cardCount"]
    page.screenshot(path=str(artifacts / "play-from-here.png"), full_page=True)
    page.close()
