"""Turn clocks in the web client (design §9): on a table with ``turn_seconds`` the seat to
act shows the seconds left before its deadline — from the view's ``deadline`` and the
browser's clock — on the watch page and the play page, and no other seat shows one."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.pages import take_seat
from tests.browser.server import CardroomServer

TURN_SECONDS = 600


def seconds_shown(page: Page, seat: int) -> int:
    badge = page.locator(f"[data-seat='{seat}'] .countdown")
    try:
        badge.wait_for(timeout=15_000)
    except Exception:
        heads = page.eval_on_selector_all("[data-seat] header", "ns => ns.map(n => n.outerHTML)")
        raise AssertionError(f"{page.url}: {heads}") from None
    text = badge.inner_text()
    found = re.fullmatch(r"(\d+) s", text)
    assert found, f"countdown reads {text!r}"
    return int(found.group(1))


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("bourre", {"seats": 2, "ante": 10, "turn_seconds": TURN_SECONDS}),
        ("burraco", {"players": 2, "target": 5000, "turn_seconds": TURN_SECONDS}),
    ],
)
def test_the_seat_to_act_shows_its_countdown_to_the_deadline(
    server: CardroomServer, browser: Browser, artifacts: Path, game: str, options: dict
) -> None:
    table = server.open_table(game, options)
    server.sit(table, "Ann", 0)
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    player = context.new_page()
    take_seat(player, server.base, table, "Bob", seat=1)
    view = server.view(table)
    assert "deadline" in view
    (to_act,) = view["toAct"]
    idle = 1 - to_act

    watch = context.new_page()
    watch.goto(f"{server.base}/watch/{table}")
    for page in (watch, player):
        left = seconds_shown(page, to_act)
        assert 0 < left <= TURN_SECONDS  # a plausible time left, from the browser's clock
        assert page.locator(f"[data-seat='{idle}'] .countdown").count() == 0
    watch.screenshot(path=str(artifacts / f"turn-clock-{game}.png"), full_page=True)
    before = seconds_shown(watch, to_act)
    watch.wait_for_function(  # the badge counts down by itself, without a new view
        f"document.querySelector(\"[data-seat='{to_act}'] .countdown\").textContent"
        f" !== '{before} s'"
    )
    assert seconds_shown(watch, to_act) < before
    context.close()
