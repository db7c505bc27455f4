"""A whole Bourré hand played by clicking (docs/rules/bourre.md rules 11–18): three browser
contexts take the three seats of a real ``cardroom serve`` and play only what the page offers
— the cards of ``GET /legal``, marked ``data-legal="true"``. Some moves are made from the
keyboard (``p`` declares play; → and Enter play a card)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.browser.pages import hand_codes, seat_token, take_seat, wait_until
from tests.browser.server import CardroomServer


def hand_cards(page: Page) -> tuple[set[str], set[str]]:
    """The player's cards in the hand panel: (all, the clickable ones)."""
    return set(hand_codes(page)), set(hand_codes(page, ".hand-panel [data-legal=true]"))


def test_a_whole_bourre_hand_is_played_by_clicking_from_three_seats(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    table = server.open_table("bourre", {"seats": 3, "hands": 1}, seed=11)
    contexts = [browser.new_context(viewport={"width": 1100, "height": 900}) for _ in range(3)]
    pages: dict[int, Page] = {}
    for name, context in zip(["Ann", "Bob", "Cy"], contexts, strict=True):
        page = context.new_page()
        pages[take_seat(page, server.base, table, name)] = page
    assert sorted(pages) == [0, 1, 2]
    tokens = {seat: seat_token(page, table)["token"] for seat, page in pages.items()}

    first_declaration = True
    shot = False
    for _ in range(40):
        view = server.view(table)
        if view["status"] == "ended" or view["hand"] > 1:
            break
        seat = view["toAct"][0]
        page = pages[seat]
        before = view["version"]
        legal = server.legal(table, tokens[seat])
        if view["phase"] == "declare":
            page.wait_for_selector("button[name=play]:enabled")
            if first_declaration:
                # Rule 13: the first declarer discards one card and draws a replacement.
                page.click(".hand-panel [data-legal=true] >> nth=0")
                page.wait_for_selector("button[name=play]:has-text('discarding 1'):enabled")
                first_declaration = False
                page.click("button[name=play]")
            else:
                page.keyboard.press("p")  # play, keeping the cards, from the keyboard
        else:
            page.wait_for_selector(".hand-panel [data-legal=true]")
            cards, clickable = hand_cards(page)
            # Only the legal cards are clickable (rule 14's obligations come from /legal).
            assert clickable == {m["card"] for m in legal if m["type"] == "play_card"}
            assert page.locator(".hand-panel span[data-card]").count() == len(cards - clickable)
            if view["tricksPlayed"] == 2 and not shot:
                page.screenshot(path=str(artifacts / "play-bourre.png"), full_page=True)
                # the keys hint names Bourré's shortcuts, none of Burraco's
                assert page.text_content(".hand-panel .keys") == (
                    "Keys: Tab or ←/→ between cards, Enter picks; p play, s pass."
                )
                shot = True
            if view["tricksPlayed"] == 1:  # the keyboard: → to the first legal card, Enter
                page.keyboard.press("ArrowRight")
                page.wait_for_selector(".hand-panel [data-legal=true]:focus")
                page.keyboard.press("Enter")
            else:
                page.click(".hand-panel [data-legal=true] >> nth=0")
        try:
            wait_until(lambda: server.view(table)["version"] > before)  # noqa: B023
        except AssertionError:
            refusal = page.locator(".notice").all_inner_texts()
            raise AssertionError(f"seat {seat}'s click sent no command: {refusal}") from None
        page.wait_for_selector("#app:not([aria-busy])", state="attached")  # the page caught up

    ledger = server.ledger(table)
    assert [h["hand"] for h in ledger["hands"]] == [1]
    assert server.view(table)["status"] == "ended"  # option hands: 1
    # Every seat's page followed the table to its end.
    for page in pages.values():
        page.wait_for_selector(".hand-panel h2:has-text('the table has ended')")
    assert shot
    for context in contexts:
        context.close()
