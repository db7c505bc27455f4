"""A whole Burraco hand played in the browser (docs/rules/burraco.md rules 12–18), heads-up:
the page plays seat 1 by clicking — draw, meld by selecting cards, add to a meld, discard —
while the API plays seat 0. The stacked deck of the API's Burraco hand test lets seat 1 take
its pozzetto on the discard (rule 17) and close on its next turn (rule 18)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.api.test_burraco_hand import POZZETTO0, SEAT1, stacked_deck
from tests.browser.pages import clear_of_the_hand, hand_codes, inside, take_seat, wait_until
from tests.browser.server import CardroomServer


def select(page: Page, cards: list[str]) -> None:
    for code in cards:
        page.click(f".hand-panel [data-card='{code}'][data-legal=true]")
        page.wait_for_selector(f".hand-panel [data-card='{code}'][aria-pressed=true]")


def click_and_wait(page: Page, server: CardroomServer, table: str, selector: str) -> None:
    """Click, then wait for the command to be stored and for the page to have shown the
    table after it (the page is ``aria-busy`` from the click until then: a card picked
    meanwhile would lose its selection when the page clears it)."""
    before = server.view(table)["version"]
    page.click(selector)
    wait_until(lambda: server.view(table)["version"] > before, what=selector)
    page.wait_for_selector("#app:not([aria-busy])", state="attached")


def moving(page: Page) -> list[str]:
    """The cards the board shows moving in (motion.js marks them ``arriving``), sorted."""
    return sorted(hand_codes(page, ".board-box .card.arriving"))


def test_a_whole_burraco_hand_is_played_in_the_browser_against_the_api(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    table = server.open_table("burraco", {"players": 2, "target": 5000}, decks=[stacked_deck()])
    ann = server.sit(table, "Ann", 0)
    context = browser.new_context(viewport={"width": 1100, "height": 1000})
    page = context.new_page()
    assert take_seat(page, server.base, table, "Bob", seat=1) == 1
    page.wait_for_selector("button[name=draw]:enabled")
    # the view may trail the legal commands by a moment: wait for the dealt hand
    wait_until(lambda: sorted(hand_codes(page)) == sorted(SEAT1), 30, "seat 1's dealt hand")
    assert page.locator(".hand-panel [data-legal=true]").count() == 0  # rule 12: draw first

    # Turn 1: draw, meld the hearts run and the kings, discard the last card (rule 17).
    click_and_wait(page, server, table, "button[name=draw]")
    page.wait_for_selector("button[name=discard]")
    select(page, ["3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"])
    click_and_wait(page, server, table, "button[name=meld]")
    select(page, ["KC", "KD", "KS"])
    click_and_wait(page, server, table, "button[name=meld]")
    # Motion: the kings just melded move in; the run melded before them is at rest.
    page.wait_for_selector(".team[data-team=B] .meld:has([data-card='KC']) .card.arriving")
    assert moving(page) == ["KC", "KD", "KS"]
    page.screenshot(path=str(artifacts / "play-burraco.png"), full_page=True)
    # the keys hint names Burraco's shortcuts, none of Bourré's
    assert page.text_content(".hand-panel .keys") == (
        "Keys: Tab or ←/→ between cards, Enter picks; d draw, t pile, m meld, x discard."
    )
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    page.screenshot(path=str(artifacts / "play-burraco-phone.png"), full_page=True)
    # The hand panel sticks to the window's bottom, short: the team's melds, scrolled to,
    # lie above it, with the hand and its buttons still on screen.
    panel = page.eval_on_selector(".hand-panel", "n => n.getBoundingClientRect().height")
    assert panel <= 0.42 * 844, panel
    clear_of_the_hand(page, ".team[data-team=B]")
    inside(page, ".hand-panel [data-action]")
    page.screenshot(path=str(artifacts / "play-burraco-phone-melds.png"))
    page.evaluate("window.scrollTo(0, 0)")
    page.set_viewport_size({"width": 1100, "height": 1000})
    select(page, ["QC"])
    click_and_wait(page, server, table, "button[name=discard]")

    # The API plays seat 0: draw, then discard; the card it discards moves onto the pile.
    server.play(table, {0: ann}, 2)
    pile = server.view(table)["discardPile"]
    page.wait_for_selector(f".pile .card.arriving[data-card='{pile[-1]}']")
    assert moving(page) == [pile[-1]]

    # Turn 2: the pozzetto is the hand; meld it, add JH to the hearts, close on 5C.
    page.wait_for_selector("button[name=draw]:enabled")
    wait_until(lambda: sorted(hand_codes(page)) == sorted(POZZETTO0), 30, "the pozzetto in hand")
    click_and_wait(page, server, table, "button[name=draw]")
    select(page, ["4D", "5D", "6D", "7D", "8D", "9D", "10D"])
    click_and_wait(page, server, table, "button[name=meld]")
    select(page, ["JC", "JD", "JS"])
    click_and_wait(page, server, table, "button[name=meld]")
    select(page, ["JH"])
    click_and_wait(page, server, table, ".team[data-team=B] .meld:has([data-card='3H']) .meld-add")
    # A refused command is shown in words: 5C cannot be melded alone (rule 7).
    select(page, ["5C"])
    page.click("button[name=meld]")
    assert "at least 3 cards" in page.locator(".notice.error").inner_text()
    click_and_wait(page, server, table, "button[name=discard]")

    ledger = server.ledger(table)
    assert [h["hand"] for h in ledger["hands"]] == [1]
    totals = {t["team"]: t["total"] for t in ledger["teams"]}
    assert totals["B"] == 70 + 45 + 30 + 30 + 400 + 100  # as the API's hand test scores it
    page.wait_for_selector(".chart-box svg")
    context.close()
