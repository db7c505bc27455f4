"""Options in words (issue 21): the lobby's create-table form shows each choice in words
(``choiceLabels`` of ``GET /games``), offers the game's presets beside an "all options" fold,
and a preset fills the form; the four-colour deck (a header checkbox on every page, kept in
localStorage) colours clubs green and diamonds blue."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.browser.pages import take_seat
from tests.browser.server import CardroomServer

SUITS = "CDHS"  # clubs first: a stacked deck deals every hand clubs
RANKS = ["A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2"]
GREEN, BLACK = "rgb(43, 138, 62)", "rgb(17, 17, 17)"  # --four-clubs, a black suit


def colour(page: Page, selector: str) -> str:
    return str(page.eval_on_selector(selector, "n => getComputedStyle(n).color"))


def test_a_preset_fills_the_form_and_the_choices_read_in_words(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1366, "height": 900})
    page.goto(server.base + "/")
    page.select_option("form.create select[name=game]", "burraco")
    presets = page.locator("form.create [data-presets] button[data-preset]")
    presets.first.wait_for()
    assert presets.all_inner_texts() == ["Italian club rules", "heads-up"]
    # the first preset is chosen, and the fold of every option is closed
    assert page.get_attribute("button[data-preset=italian_club]", "aria-pressed") == "true"
    assert not page.is_visible("form.create input[name=opt-target]")

    page.click("form.create details.all-options > summary")
    close = page.locator("form.create select[name=opt-close_requires] option")
    assert close.all_inner_texts() == ["any burraco, clean or dirty", "a clean burraco"]
    assert [close.nth(i).get_attribute("value") for i in range(2)] == [
        "any_burraco",
        "clean_burraco",
    ]
    words = page.eval_on_selector_all("form.create select option", "ns => ns.map(n => n.text)")
    assert words and not [word for word in words if "_" in word]

    # an option changed by hand, then a preset: the preset's values, every other at its default
    page.fill("form.create input[name=opt-target]", "3000")
    assert page.get_attribute("button[data-preset=italian_club]", "aria-pressed") == "false"
    page.click("button[data-preset=heads_up]")
    assert page.input_value("form.create select[name=opt-seats]") == "2"
    assert page.input_value("form.create input[name=opt-target]") == "2000"
    assert page.get_attribute("button[data-preset=heads_up]", "aria-pressed") == "true"
    page.screenshot(path=str(artifacts / "lobby-presets.png"), full_page=True)
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    options = server.view(page.url.rsplit("/", 1)[1])["options"]
    assert (options["players"], options["target"], options["close_requires"]) == (
        2,
        2000,
        "any_burraco",
    )

    # Bourré's preset: the rules' defaults, five players
    page.goto(server.base + "/")
    page.select_option("form.create select[name=game]", "bourre")
    page.click("button[data-preset=pagat_standard]")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    options = server.view(page.url.rsplit("/", 1)[1])["options"]
    assert (options["seats"], options["declaration"], options["cinch"]) == (
        5,
        "sequential",
        "equivalent",
    )
    page.close()


def test_the_four_colour_deck_colours_clubs_green_and_is_kept(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    deck = [rank + suit for suit in SUITS for rank in RANKS]
    table = server.open_table("bourre", {"seats": 2}, decks=[deck])
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    take_seat(page, server.base, table, "Ann")
    server.sit(table, "Bob")
    club = ".hand-panel .card.suit-clubs"
    page.wait_for_selector(club)
    box = page.locator("header input[data-four-colour]")
    assert not box.is_checked()
    assert colour(page, club) == BLACK
    box.check()
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('{club}')).color === '{GREEN}'"
    )
    page.screenshot(path=str(artifacts / "play-four-colour.png"))
    # kept in this browser: the next page (the lobby too) starts with it on
    page.reload()
    page.wait_for_selector(club)
    assert page.locator("header input[data-four-colour]").is_checked()
    assert colour(page, club) == GREEN
    box = page.locator("header input[data-four-colour]")
    box.uncheck()
    page.wait_for_function(
        f"getComputedStyle(document.querySelector('{club}')).color === '{BLACK}'"
    )
    context.close()
