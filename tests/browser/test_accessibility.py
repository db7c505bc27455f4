"""Issue 21, accessibility: axe-core (``axe-playwright-python``) finds no serious or critical
issue on the lobby, watch and play pages at 1366×768 and 390×844; every card has an
accessible name in words ("queen of hearts"); motion respects ``prefers-reduced-motion``;
the keyboard focus is visible."""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from tests.browser.pages import card_name, take_seat
from tests.browser.server import CardroomServer

VIEWPORTS = {"desktop": (1366, 768), "phone": (390, 844)}


def serious_issues(page: Page) -> list[str]:
    """axe-core's serious and critical violations on the page, one line each, once every card's
    motion has ended (a card caught mid-animation is half transparent, not a contrast issue)."""
    page.evaluate("() => Promise.all(document.getAnimations().map((a) => a.finished))")
    found = Axe().run(page).response["violations"]
    return [
        f"{v['impact']} {v['id']}: {[n['target'] for n in v['nodes'][:3]]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def bourre_mid_hand(server: CardroomServer) -> tuple[str, dict[int, str]]:
    """A Bourré table in hand 2's trick play (hand 1 settled: a result panel and a chart)."""
    table = server.open_table("bourre", {"seats": 3}, seed=47)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    while server.view(table)["hand"] == 1:
        server.play(table, tokens, 1)
    server.play(table, tokens, 4)
    return table, tokens


@pytest.mark.parametrize("viewport", ["desktop", "phone"])
def test_axe_finds_no_serious_issue_on_the_lobby_watch_and_play_pages(
    server: CardroomServer, browser: Browser, viewport: str
) -> None:
    width, height = VIEWPORTS[viewport]
    table, _ = bourre_mid_hand(server)
    burraco = server.open_table("burraco", {}, seed=5)
    burraco_tokens = {s: server.sit(burraco, n) for s, n in enumerate(["Ann", "Bob", "Cy", "Dee"])}
    server.play(burraco, burraco_tokens, 6)
    page = browser.new_page(viewport={"width": width, "height": height})

    page.goto(f"{server.base}/")
    page.wait_for_selector("form")
    assert serious_issues(page) == [], "lobby"

    for watched in (table, burraco):
        page.goto(f"{server.base}/watch/{watched}")
        page.wait_for_selector(".position:has-text('live')")
        page.wait_for_selector("ol[data-log] > li")
        assert serious_issues(page) == [], f"watch {watched}"

    seated = server.open_table("bourre", {"seats": 2}, seed=53)
    take_seat(page, server.base, seated, "Ann", 0)
    server.sit(seated, "Bob", 1)
    page.wait_for_selector("ol[data-log] > li")
    assert serious_issues(page) == [], "play"
    page.close()


def test_every_card_has_a_name_in_words_motion_can_be_reduced_and_focus_is_visible(
    server: CardroomServer, browser: Browser
) -> None:
    table, _ = bourre_mid_hand(server)
    burraco = burraco_after_a_discard(server)
    context = browser.new_context(viewport={"width": 1366, "height": 768}, reduced_motion="reduce")
    page = context.new_page()
    page.goto(f"{server.base}/watch/{table}")
    page.wait_for_selector(".trick [data-card]")
    named = page.eval_on_selector_all(
        "[data-card]", "ns => ns.map(n => [n.dataset.card, n.getAttribute('aria-label')])"
    )
    assert named
    for code, label in named:
        expected = "face-down card" if code == "back" else card_name(code)
        assert label.startswith(expected), (code, label)
    # the card reaching the trick does not move when the reader asks for reduced motion
    animation = page.eval_on_selector(
        ".trick figure:last-of-type .card", "n => getComputedStyle(n).animationName"
    )
    assert animation == "none"
    # the keyboard focus is drawn: a visible outline on the focused control
    page.focus("input[type=range][name=version]")
    page.keyboard.press("Tab")
    outline = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, s.outlineWidth]; }"
    )
    assert outline[0] != "none" and outline[1] != "0px", outline
    assert step_to_the_discard(page, server, burraco) == 0  # nothing moves onto the pile
    context.close()

    motion = browser.new_page(viewport={"width": 1366, "height": 768})
    motion.goto(f"{server.base}/watch/{table}")
    motion.wait_for_selector(".trick [data-card]")
    moving = motion.eval_on_selector(
        ".trick figure:last-of-type .card", "n => getComputedStyle(n).animationName"
    )
    assert moving == "card-in"
    assert step_to_the_discard(motion, server, burraco) == 1  # the discard moves in
    animation = motion.eval_on_selector(
        ".pile .card.arriving", "n => getComputedStyle(n).animationName"
    )
    assert animation == "card-arrive"
    motion.close()


def burraco_after_a_discard(server: CardroomServer) -> str:
    """A heads-up Burraco table whose last event is a discard onto the pile."""
    table = server.open_table("burraco", {"seats": 2}, seed=17)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob"])}
    server.play(table, tokens, 2)  # the first player draws, then discards
    return table


def step_to_the_discard(page: Page, server: CardroomServer, table: str) -> int:
    """On the watch page one version before the discard, step forward to it: how many cards
    the board marks as moving in (motion.js)."""
    head = server.view(table)["version"]
    page.goto(f"{server.base}/watch/{table}?at={head - 1}")
    page.wait_for_selector(f".position:has-text('version {head - 1} of')")
    page.click("button[title^='step forward']")
    page.wait_for_selector(f".position:has-text('version {head} of')")
    page.wait_for_selector(f"ol[data-log] > li[data-version='{head}']")
    return page.locator(".board-box .card.arriving").count()
