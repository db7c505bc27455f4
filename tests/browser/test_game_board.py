"""A game registered at run time brings its own board to the web pages: the test-only high
card game (``tests/highcard``) names its board module (``board.js`` in its package), the
server serves it at ``/games/highcard/board.js`` and the watch page draws the table with it —
nothing outside the game's package names the game."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser

from domain.games import register
from tests.api.conftest import make_settings, serving
from tests.api.helpers import open_table, sit
from tests.browser.pages import shown_cards
from tests.highcard import GAME
from tests.highcard.support import stack


@pytest.fixture
def highcard_base(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[str]:
    """The real app under uvicorn in this process, with high card registered as any game."""
    register(GAME)
    with serving(make_settings(tmp_path, redis_url, redis_prefix)) as base:
        yield base


def test_the_watch_page_draws_a_registered_game_with_its_own_board_module(
    highcard_base: str, browser: Browser, artifacts: Path
) -> None:
    first = stack("AS 2C 3D", "KH 4S 5S")
    second = stack("QD 7C 8C", "JH 9S 10S", dealer=1)
    with httpx.Client(base_url=highcard_base, timeout=15) as http:

        def play(seat: int, card: str) -> dict[str, int]:
            answer = http.post(
                f"/tables/{table}/commands",
                json={"type": "play_card", "card": card},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            assert answer.status_code == 200, answer.text
            return {key: int(answer.json()[key]) for key in ("version", "position")}

        listed = {entry["game"]: entry for entry in http.get("/games").json()}
        assert listed["highcard"]["board"] == "/games/highcard/board.js"
        table = open_table(http, "highcard", {"seats": 2, "hands": 2}, decks=[first, second])
        tokens = sit(http, table, ["Ann", "Bob"])
        play(1, "KH")  # rule 2: from the dealer's left
        play(0, "AS")  # rule 3: Ann wins
        last = play(0, "QD")  # hand 2: Ann leads
        head = last["version"]
        # read your writes: the read models hold the table as of that command
        assert http.get(f"/tables/{table}?after={last['position']}").json()["version"] == head

    page = browser.new_page(viewport={"width": 1100, "height": 800})
    modules: list[tuple[str, int]] = []
    page.on("response", lambda r: modules.append((r.url, r.status)) if "/games/" in r.url else None)
    page.goto(f"{highcard_base}/watch/{table}")
    page.wait_for_selector(f".position:has-text('version {head} of {head}')")
    page.wait_for_selector(".board.highcard[data-game='highcard'] [data-seat='1']")
    assert (f"{highcard_base}/games/highcard/board.js", 200) in modules

    assert "high card table" in page.inner_text("h1")
    ann = page.inner_text("[data-seat='0']")
    assert "Ann" in ann and "1 hand won" in ann  # rule 3: hand 1 went to the ace
    # Hand 2 as a spectator sees it: the card played, every card in hand face down.
    assert shown_cards(page) == {"QD": 1, "back": 5}
    assert "Ann wins hand 1 with ace of spades" in page.inner_text(".event-log")
    page.screenshot(path=str(artifacts / "watch-highcard.png"), full_page=True)
    page.close()


def test_the_lobby_opens_a_registered_game_s_table_with_its_own_options(
    highcard_base: str, browser: Browser
) -> None:
    page = browser.new_page(viewport={"width": 1100, "height": 900})
    page.goto(f"{highcard_base}/")
    page.select_option("form.create select[name=game]", "highcard")
    offered = page.eval_on_selector_all("form.create fieldset [name]", "ns => ns.map(n => n.name)")
    assert offered == [f"opt-{o.name}" for o in GAME.option_schema]
    assert "Cards dealt to each player" in page.inner_text("label:has(input[name=opt-hand_size])")
    page.fill("input[name=opt-hand_size]", "2")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    table = page.url.rsplit("/", 1)[1]
    with httpx.Client(base_url=highcard_base, timeout=15) as http:
        options = http.get(f"/tables/{table}").json()["options"]
    assert (options["hand_size"], options["seats"]) == (2, 2)
    # the play page's seat form draws the empty table with the game's own board
    page.wait_for_selector(".board.highcard [data-seat='1']")
    assert "high card table" in page.inner_text("h1")
    page.close()
