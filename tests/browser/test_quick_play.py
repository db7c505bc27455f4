"""Play now against bots, from the pages alone (issue 21): the lobby's quick-play form opens a
table with the person and server-side bots and lands seated on ``/play/{id}``; the person
plays a whole hand by clicking what the page offers (``data-action`` buttons, legal cards),
at a laptop's window and at a phone's. The test sends no API call: it reads only the page."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.browser.pages import clear_of_the_hand, inside, wait_until
from tests.browser.server import CardroomServer

LAPTOP: ViewportSize = {"width": 1366, "height": 768}
PHONE: ViewportSize = {"width": 390, "height": 844}
HAND_TIMEOUT = 120.0  # a hand of bots on a loaded machine


def quick_play(page: Page, base: str, game: str, players: int, name: str = "Ann") -> str:
    """Fill the game's quick-play form and land seated on its play page; the table's id."""
    page.goto(base + "/")
    form = page.locator(f"form[data-quick-play={game}]")
    form.locator("select[name=bot] option[value=basic]").wait_for(state="attached")
    assert form.locator("select[name=game]").input_value() == game
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=seats]").fill(str(players))
    form.locator("select[name=bot]").select_option("basic")
    form.locator("button[type=submit]").click()
    page.wait_for_url("**/play/*")
    page.wait_for_selector("[data-my-hand] [data-card]", timeout=30_000)
    return page.url.rsplit("/", 1)[1]


def phase(page: Page) -> str:
    return page.inner_text(".board-box .phase")


# The person's moves, clicked in the page itself (no API call, no round trip to the test per
# click): whenever the title says it is the seat's turn and the page is not busy, click what
# the page offers — Bourré: declare play keeping every card, else the first legal card;
# Burraco: draw from the stock, else pick the first legal card of the hand and discard it —
# until the board's phase line says `done` (or, given `last`, once a move of that action has
# been made). Answers the moves made (data-action of each, "pick" for a card picked).
AUTOPLAY = """async ([done, game, seconds, last]) => {
  const q = (selector) => document.querySelector(selector);
  const phase = () => (q(".board-box .phase") || {}).textContent || "";
  const settle = () => new Promise((go) => requestAnimationFrame(() => setTimeout(go, 0)));
  const deadline = Date.now() + seconds * 1000;
  const moves = [];
  const ended = () => last && moves.includes(last) && !q("#app[aria-busy]");
  while (!phase().includes(done) && !ended()) {
    if (Date.now() > deadline) throw new Error(`no ${done}: ${moves.length} moves, ${phase()}`);
    if (q("#app[aria-busy]") || !document.title.startsWith("●")) { await settle(); continue; }
    let button;
    if (game === "bourre") {
      button = q("button[data-action=declare][data-play=true]:enabled")
        || q(".hand-panel [data-action=play_card]");
    } else {
      button = q("button[data-action=draw]:enabled");
      const picked = q(".hand-panel [aria-pressed=true]");
      if (!button) button = picked ? q("button[data-action=discard]:enabled")
        : q(".hand-panel [data-legal=true]");
    }
    button = button || q(".hand-panel button[data-action]:enabled");
    if (button) {
      moves.push(button.dataset.action || "pick");
      button.click();
    }
    await settle();
  }
  return moves;
}"""


def play_my_turns(
    page: Page, done: str, game: str, artifacts: Path, shot: str, last: str = ""
) -> list[str]:
    """The person plays the seat until the board's phase line says ``done`` (or until a
    move of the action ``last`` is made): at the first turn the title says so and the hand
    and its buttons are measured inside the window (and shot); the moves are clicked in the
    page (:data:`AUTOPLAY`)."""
    page.wait_for_function(
        "([done]) => document.title.startsWith('●')"
        " || document.querySelector('.board-box .phase')?.textContent.includes(done)",
        arg=[done],
        timeout=HAND_TIMEOUT * 1000,
    )
    if done not in phase(page):
        page.wait_for_selector("#app:not([aria-busy])", state="attached")
        assert page.title() == "● your turn — cardroom"
        inside(page, "[data-my-hand]")
        inside(page, ".hand-panel [data-action]")
        page.screenshot(path=str(artifacts / f"{shot}-turn.png"))
    moves: list[str] = page.evaluate(AUTOPLAY, [done, game, HAND_TIMEOUT, last])
    assert last or done in phase(page)
    return moves


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_quick_play_plays_a_whole_bourre_hand_against_bots(
    server: CardroomServer, browser: Browser, artifacts: Path, size: ViewportSize
) -> None:
    context = browser.new_context(viewport=size)
    page = context.new_page()
    quick_play(page, server.base, "bourre", 3)
    assert page.locator("[data-my-hand]").count() == 1
    shot = f"quick-bourre-{size['width']}"
    moves = play_my_turns(page, "hand 2", "bourre", artifacts, shot)
    assert "declare" in moves
    page.screenshot(path=str(artifacts / f"{shot}-hand2.png"))
    context.close()


def test_quick_play_plays_a_burraco_hand_against_bots_at_a_laptop_and_a_phone(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    """One hand, both windows: the first turn is measured at 1366×768, the window then turns
    into a phone's 390×844 and the next turn is measured there, then the hand is played out."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    quick_play(page, server.base, "burraco", 4)
    moves = play_my_turns(page, "hand 2", "burraco", artifacts, "quick-burraco-1366", "discard")
    assert moves == ["draw", "pick", "discard"]
    page.set_viewport_size(PHONE)
    page.wait_for_function("document.title.startsWith('●')", timeout=HAND_TIMEOUT * 1000)
    for team in ("A", "B"):  # each team's melds, scrolled to, lie above the hand panel
        clear_of_the_hand(page, f".team[data-team={team}]")
    shot = "quick-burraco-390"
    moves = play_my_turns(page, "hand 2", "burraco", artifacts, shot)
    assert {"draw", "discard"} <= set(moves)
    page.screenshot(path=str(artifacts / f"{shot}-hand2.png"))
    context.close()


def test_a_seat_resumes_in_a_new_browser_context_and_the_lobby_lists_it(
    server: CardroomServer, browser: Browser, artifacts: Path, tmp_path: Path
) -> None:
    first = browser.new_context(viewport=LAPTOP)
    page = first.new_page()
    table = quick_play(page, server.base, "bourre", 2, name="Cy")
    held = page.locator("[data-my-hand] [data-card]").count()
    state = tmp_path / "state.json"
    first.storage_state(path=str(state))
    first.close()  # the browser closed

    again = browser.new_context(viewport=LAPTOP, storage_state=str(state))
    lobby = again.new_page()
    lobby.goto(server.base + "/")
    resume = lobby.locator(f"#your-tables a[data-resume='{table}']")
    resume.wait_for()
    assert "Cy" in resume.inner_text()
    lobby.screenshot(path=str(artifacts / "lobby-your-tables.png"), full_page=True)
    resume.click()
    lobby.wait_for_url(f"**/play/{table}")
    lobby.wait_for_selector("[data-my-hand] [data-card]")
    assert "Cy" in lobby.inner_text(".hand-panel h2")
    assert lobby.locator("form.seat-form").count() == 0
    assert held > 0
    again.close()


def test_a_waiting_table_offers_a_bot_for_every_empty_seat(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    page.locator("form.create select[name=game]").select_option("bourre")
    page.click("form.create details.all-options > summary")  # the fold of every option
    page.fill("form.create input[name=opt-seats]", "3")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    page.fill("input[name=name]", "Di")
    page.click("form.seat-form button[type=submit]")
    page.wait_for_selector(".hand-panel h2")
    page.wait_for_selector("button[data-add-bot]")
    assert page.locator("button[data-add-bot]").count() == 2
    assert "null" not in page.inner_text(".hand-panel")
    page.screenshot(path=str(artifacts / "play-waiting-bots.png"), full_page=True)
    page.locator("button[data-add-bot]").first.click()
    wait_until(lambda: page.locator("button[data-add-bot]").count() == 1, 30, "one seat left")
    page.locator("button[data-add-bot]").first.click()
    page.wait_for_selector("[data-my-hand] [data-card]", timeout=30_000)
    page.wait_for_selector("button[data-add-bot]", state="detached")
    context.close()


def test_a_refusal_shows_beside_the_actions_and_clears_on_the_next_accepted_command(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    quick_play(page, server.base, "burraco", 2, name="Eve")
    page.wait_for_function("document.title.startsWith('●')", timeout=HAND_TIMEOUT * 1000)
    page.click("button[data-action=draw]:enabled")
    page.wait_for_selector(".hand-panel [data-legal=true]")
    page.wait_for_selector("#app:not([aria-busy])", state="attached")
    # One card is no meld (rule 7): refused, in words, beside the actions.
    page.locator(".hand-panel [data-legal=true]").first.click()
    page.click("button[data-action=meld]:enabled")
    alert = page.locator(".hand-panel [role=alert]")
    alert.wait_for()
    assert "at least 3 cards" in alert.inner_text()
    page.screenshot(path=str(artifacts / "play-refusal.png"))
    page.click("button[data-action=discard]:enabled")
    alert.wait_for(state="hidden")
    context.close()


def test_leaving_hands_the_seat_to_a_bot_and_the_table_of_bots_ends(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    table = quick_play(page, server.base, "bourre", 3, name="Flo")
    page.screenshot(path=str(artifacts / "play-before-leave.png"))
    page.click("button[data-leave]")
    page.wait_for_url(f"**/watch/{table}")
    # A bot plays the seat now, under a bot's name; the person holds no seat here any more.
    seat0 = page.locator(".board-box [data-seat='0'] .name, [data-seat='0'] .name").first
    wait_until(lambda: "Bot 0" in seat0.inner_text(), 30, "the bot's name on seat 0")
    assert page.evaluate(f"localStorage.getItem('cardroom:seat:{table}')") is None
    # Every person has left: the bots finish the hand and the table ends.
    page.goto(f"{server.base}/play/{table}")
    page.wait_for_selector("form.seat-form, .notice.info", timeout=30_000)
    wait_until(
        lambda: (
            "ended"
            in page.evaluate(f"fetch('/tables/{table}').then(r => r.json()).then(v => v.status)")
        ),
        HAND_TIMEOUT,
        "the table of bots to end",
    )
    context.close()


def test_a_rematch_opens_a_new_table_with_the_same_options_and_seats(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(server.base + "/")
    page.locator("form.create select[name=game]").select_option("bourre")
    page.click("form.create details.all-options > summary")  # the fold of every option
    page.fill("form.create input[name=opt-seats]", "2")
    page.fill("form.create input[name=opt-hands]", "1")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    first = page.url.rsplit("/", 1)[1]
    page.fill("input[name=name]", "Gus")
    page.click("form.seat-form button[type=submit]")
    page.wait_for_selector(".hand-panel h2")
    page.locator("button[data-add-bot='1']").click()
    play_my_turns(page, "table ended", "bourre", artifacts, "rematch-first")
    rematch = page.locator("button[data-rematch]")
    rematch.wait_for()
    # Where the hand was: the final result and the rematch; no hand, no keys hint.
    final = page.locator(".hand-panel [data-result='table']")
    assert "Gus" in final.inner_text()
    inside(page, ".hand-panel button[data-rematch]")
    assert page.locator("[data-my-hand], .hand-panel .keys").count() == 0
    page.screenshot(path=str(artifacts / "play-ended-rematch.png"))
    rematch.click()
    page.wait_for_url(lambda url: "/play/" in url and first not in url)
    page.wait_for_selector("[data-my-hand] [data-card]", timeout=30_000)
    assert "Gus" in page.inner_text(".hand-panel h2")
    seat1 = page.locator(".board-box [data-seat='1'] .name")
    assert seat1.inner_text() == "Bot 1 (basic)"
    context.close()


def test_the_turn_clock_is_large_beside_the_hand_when_it_is_the_seat_s_turn(
    server: CardroomServer, browser: Browser, artifacts: Path
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server.base + "/")
    page.locator("form.create select[name=game]").select_option("burraco")
    page.click("form.create details.all-options > summary")  # the fold of every option
    page.locator("form.create select[name=opt-seats]").select_option("2")
    page.fill("form.create input[name=opt-turn_seconds]", "600")
    page.click("form.create button[type=submit]")
    page.wait_for_url("**/play/*")
    page.fill("input[name=name]", "Hal")
    page.click("form.seat-form button[type=submit]")
    page.wait_for_selector(".hand-panel h2")
    page.locator("button[data-add-bot]").first.click()
    page.wait_for_function("document.title.startsWith('●')", timeout=HAND_TIMEOUT * 1000)
    clock = page.locator(".hand-panel h2 .countdown.big")
    clock.wait_for()
    # read in one task: the page may draw the hand again between finding a node and reading it
    size = float(
        page.evaluate(
            "parseFloat(getComputedStyle(document.querySelector("
            "'.hand-panel h2 .countdown.big')).fontSize)"
        )
    )
    assert size >= 24, size
    assert clock.inner_text().endswith(" s")
    inside(page, ".hand-panel h2 .countdown.big")
    page.screenshot(path=str(artifacts / "play-turn-clock.png"))
    context.close()
