"""The watch page shows how many spectators watch the table ("n watching", design §5
Spectators): its own stream counts, another spectator's stream joins the count live, and
leaves it when it closes."""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser, expect

from tests.browser.server import CardroomServer

WAIT_MS = 40_000  # the page re-reads when its stream delivers, and every 15 s in any case


def test_the_watch_page_shows_the_spectator_count_live(
    server: CardroomServer, browser: Browser
) -> None:
    table = server.open_table("bourre", {"seats": 4}, seed=29)
    tokens = {
        seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy", "Dee"])
    }
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{server.base}/watch/{table}")
    watching = page.locator("[data-watching]")
    expect(watching).to_have_text("1 watching", timeout=WAIT_MS)  # the page's own stream

    with (
        httpx.Client(base_url=server.base, timeout=15) as other,
        other.stream("GET", f"/tables/{table}/stream") as stream,
    ):
        assert stream.status_code == 200
        server.play(table, tokens, 1)  # the page's stream delivers: it reads the count again
        expect(watching).to_have_text("2 watching", timeout=WAIT_MS)
        expect(watching).to_have_attribute("data-watching", "2")
    server.play(table, tokens, 1)
    expect(watching).to_have_text("1 watching", timeout=WAIT_MS)
    context.close()
