"""Replay on the watch page (design §5 ``replay?at=N``): the slider at N shows exactly the
cards of ``GET /tables/{id}/replay?at=N`` as a spectator sees it, in both games; the URL
keeps the position; step and jump to a hand's start move it; after a hand settles the
perspective switch shows one seat's cards (option reveal: after_hand)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.api.test_burraco_hand import stacked_deck
from tests.browser.pages import shown_cards, view_cards
from tests.browser.server import CardroomServer


def slide(page: Page, version: int, *, live: bool = False) -> None:
    """Move the slider; the URL keeps the position (none when back at the live head)."""
    page.fill("input[type=range][name=version]", str(version))
    page.wait_for_function(
        "v => document.querySelector('.position').textContent.startsWith(`version ${v} of`)",
        arg=version,
    )
    page.wait_for_function(
        "v => new URL(location.href).searchParams.get('at') === v",
        arg=None if live else str(version),
    )


def at_version(page: Page, version: int) -> None:
    """The board shows version ``version`` (its log, oldest first, ends there)."""
    page.wait_for_selector(f"ol[data-log] li[data-version='{version}'] >> nth=0")
    page.wait_for_function(
        "v => document.querySelector('ol[data-log] > li:last-child').dataset.version === String(v)",
        arg=version,
    )


def test_the_bourre_replay_slider_shows_replay_at_n(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    table = server.open_table("bourre", {"seats": 3}, seed=5)
    tokens = {seat: server.sit(table, name) for seat, name in enumerate(["Ann", "Bob", "Cy"])}
    while server.view(table)["hand"] == 1:
        server.play(table, tokens, 1)
    server.play(table, tokens, 4)  # hand 2: three declarations and a first card
    events = server.timeline(table)
    head = events[-1]["version"]
    settled = next(e["version"] for e in events if e["type"] == "HandSettled")
    mid_trick = next(e["version"] for e in events if e["type"] == "CardPlayed")
    hand2 = next(e["version"] for e in events if e.get("hand") == 2)

    page = Browser.new_page(browser, viewport={"width": 1100, "height": 950})
    page.goto(f"{server.base}/watch/{table}?at={mid_trick + 1}")
    at_version(page, mid_trick + 1)
    assert shown_cards(page) == view_cards(server.replay(table, mid_trick + 1))
    page.screenshot(path=str(artifacts / "replay-bourre.png"), full_page=True)
    for version in (1, 4, 6, mid_trick, settled, hand2, head):
        slide(page, version, live=version == head)
        at_version(page, version)
        assert shown_cards(page) == view_cards(server.replay(table, version)), version

    # Step back, then jump to the start of hand 2.
    page.click("button[title^='step back']")
    at_version(page, head - 1)
    page.click("button[title^='start of the hand']")
    at_version(page, hand2)
    assert "at=" + str(hand2) in page.url

    # Hand 1 has settled: its replay holds every seat's cards; show Bob's only.
    slide(page, mid_trick)
    at_version(page, mid_trick)
    replayed = server.replay(table, mid_trick)
    assert all("cards" in seat for seat in replayed["seats"])
    page.select_option("select[name=perspective]", "1")
    bob = replayed["seats"][1]["cards"]
    for seat in (0, 2):
        assert set(shown_cards(page, f".board-box [data-seat='{seat}']")) == {"back"}
    assert sorted(shown_cards(page, ".board-box [data-seat='1']").elements()) == sorted(bob)
    page.close()


def test_the_burraco_replay_slider_shows_replay_at_n(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    # The API hand test's deck with a joker for seat 1's 6H: the run shows the wild as 6H.
    deck = stacked_deck()
    six = next(k for k in range(0, 22, 2) if deck[k] == "6H")
    joker = deck.index("JK")
    deck[six], deck[joker] = deck[joker], deck[six]
    table = server.open_table("burraco", {"players": 2, "target": 5000}, decks=[deck])
    ann, bob = server.sit(table, "Ann"), server.sit(table, "Bob")
    server.act(table, bob, {"type": "draw"})
    run = ["3H", "4H", "5H", "JK", "7H", "8H", "9H", "10H"]
    server.act(table, bob, {"type": "meld", "cards": run})
    server.act(table, bob, {"type": "meld", "cards": ["KC", "KD", "KS"]})
    server.act(table, bob, {"type": "discard", "card": "QC"})
    server.play(table, {0: ann}, 2)  # Ann draws and discards
    events = server.timeline(table)
    head = events[-1]["version"]
    melded = next(e["version"] for e in events if e["type"] == "Melded")

    page = Browser.new_page(browser, viewport={"width": 1100, "height": 1000})
    page.goto(f"{server.base}/watch/{table}")
    at_version(page, head)
    assert shown_cards(page) == view_cards(server.replay(table, head))
    wild = page.locator(".team[data-team=B] [data-card='JK']")
    assert wild.get_attribute("title") == "joker (= 6♥)"  # rule 10: the card it stands for
    page.screenshot(path=str(artifacts / "watch-burraco.png"), full_page=True)
    for version in (1, 4, melded, head - 1, head):
        slide(page, version, live=version == head)
        at_version(page, version)
        assert shown_cards(page) == view_cards(server.replay(table, version)), version
    page.close()
