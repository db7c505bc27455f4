"""The card room in its seven languages (issue 26; design §5, "Languages"): the lobby, the
watch page of an ended table, its replay at a settled hand and a seat's play page, for both
games, opened with ``?lang=<code>`` in each of ``en``, ``it``, ``kn``, ``bn``, ``fa``, ``mn``,
``gu``. Each page carries ``<html lang dir>``; no text is a raw catalog key; outside English no
text is an English message the language words otherwise (the page's text nodes, titles, labels
and placeholders against the English catalog: whole messages and the literal runs of messages
with placeholders); no button and no seat box has text overflowing it (measured: scroll size
against client size); Persian runs right to left (the table's columns, the hand, the log, the
replay slider) with the cards themselves not mirrored. The language is kept (cookie) and
follows the browser's languages when none is chosen. Screenshots: ``artifacts/lang-*.png``.

A language whose catalog is not merged yet fails here by its English leftovers."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from api.i18n import LANGUAGES
from tests.browser.server import CardroomServer
from tests.waiting import wait_until

LANGS = list(LANGUAGES)
WIDTH, HEIGHT = 1280, 900

# Words a page may show in any language: the brand, and what is no word at all.
ALLOWED = {"♠ cardroom", "cardroom", "API", "D", "—", "·", "–", "★", "JK"}
# Every text node, title, aria-label and placeholder of the page (select options included),
# outside [hidden]; the brand and the language picker's own names apart.
TEXTS_JS = """() => {
  const out = [];
  const skip = (el) => el.closest('[hidden], script, style, [data-lang-picker]');
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent.replace(/[\\u2066-\\u2069]/g, '').trim();
    if (text && !skip(node.parentElement)) out.push(text);
  }
  for (const el of document.body.querySelectorAll('[title], [aria-label], [placeholder]')) {
    if (skip(el)) continue;
    for (const a of ['title', 'aria-label', 'placeholder']) {
      const v = (el.getAttribute(a) || '').replace(/[\\u2066-\\u2069]/g, '').trim();
      if (v) out.push(v);
    }
  }
  return out;
}"""
# Buttons and seat boxes whose content is wider or taller than the box.
OVERFLOW_JS = """() => [...document.querySelectorAll('button, .seat')]
  .filter((el) => el.offsetParent !== null)
  .filter((el) => el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)
  .map((el) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent.trim().slice(0, 60)}`
    + ` (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`)"""
KEY = re.compile(r"[a-z]+(?:\.[A-Za-z0-9_-]+)+")


@dataclass(frozen=True)
class Room:
    """The tables the pages show: per game an ended table of bots with the version its first
    hand settled at, and a table where Ann (this browser) holds seat 0."""

    ended: dict[str, str]
    settled_at: dict[str, int]
    playing: dict[str, tuple[str, str]]  # game -> (table, Ann's token)


def _bots_table(server: CardroomServer, game: str) -> str:
    table = server.open_table(game, {"seats": 2, "hands": 1, "result_pause": 0})
    for _ in range(2):
        answer = server.http.post(f"/tables/{table}/seats", json={"bot": "basic"})
        assert answer.status_code == 201, answer.text
    return table


@pytest.fixture(scope="module")
def room(server: CardroomServer) -> Room:
    games = ("bourre", "burraco")
    ended = {game: _bots_table(server, game) for game in games}
    playing = {}
    for game in games:
        table = server.open_table(game, {"seats": 2})
        token = server.sit(table, "Ann", 0)
        assert server.http.post(f"/tables/{table}/seats", json={"bot": "basic"}).status_code == 201
        playing[game] = (table, token)

    def all_ended() -> bool:
        return all(server.view(table)["status"] == "ended" for table in ended.values())

    wait_until(all_ended, 60, "the bots' tables end")
    settled_at = {}
    for game, table in ended.items():
        kinds = {"HandSettled", "HandScored", "HandAbandoned"}
        settled_at[game] = next(e["version"] for e in server.timeline(table) if e["type"] in kinds)
    return Room(ended, settled_at, playing)


@dataclass(frozen=True)
class Words:
    """What the English catalog says, against one language's catalog."""

    keys: frozenset[str]
    translated: int  # how many messages the language has of its own
    whole: frozenset[str]  # English messages without placeholders the language words otherwise
    runs: tuple[str, ...]  # literal runs (two words or more) of such messages with placeholders


def _runs(message: str) -> list[str]:
    """The literal text of a message outside its braces, in runs of two words or more."""
    depth = 0
    out: list[str] = []
    current: list[str] = []
    for char in message:
        if char == "{":
            depth += 1
            out.append("".join(current))
            current = []
        elif char == "}":
            depth -= 1
        elif depth == 0:
            current.append(char)
    out.append("".join(current))
    runs = []
    for run in out:
        run = run.strip(" .,:;()·—-")
        if len(re.findall(r"[A-Za-z]{2,}", run)) >= 2:
            runs.append(run)
    return runs


def words_of(server: CardroomServer, code: str) -> Words:
    english = server.http.get("/i18n/en.json").json()["messages"]
    own = server.http.get(f"/i18n/{code}.json").json()
    translated = own["messages"]
    differs = {k: v for k, v in english.items() if translated.get(k) != v}
    whole = frozenset(v for v in differs.values() if "{" not in v and re.search("[A-Za-z]{2}", v))
    runs = tuple(sorted({r for v in differs.values() if "{" in v for r in _runs(v)}, key=len))
    return Words(frozenset(english), len(translated), whole - ALLOWED, runs)


def leftovers(texts: list[str], words: Words, code: str) -> list[str]:
    """Raw keys anywhere; English the language words otherwise (not in English itself)."""
    found = []
    for text in texts:
        if text in words.keys or KEY.fullmatch(text):
            found.append(f"raw key: {text}")
        elif code != "en" and text in words.whole:
            found.append(f"English: {text}")
        elif code != "en":
            run = next((r for r in words.runs if r in text), None)
            if run:
                found.append(f"English {run!r} in: {text[:80]}")
    return found


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    made = browser.new_context(viewport={"width": WIDTH, "height": HEIGHT}, locale="en-US")
    yield made
    made.close()


def _open(page: Page, server: CardroomServer, path: str, code: str, ready: str) -> None:
    joiner = "&" if "?" in path else "?"
    page.goto(f"{server.base}{path}{joiner}lang={code}", wait_until="domcontentloaded")
    page.wait_for_selector(ready, state="attached")


def _check(page: Page, code: str, words: Words, where: str) -> list[str]:
    problems = []
    lang, direction = page.evaluate("[document.documentElement.lang, document.documentElement.dir]")
    if (lang, direction) != (code, LANGUAGES[code].dir):
        problems.append(f"{where}: <html lang={lang} dir={direction}>")
    problems += [f"{where}: {p}" for p in leftovers(page.evaluate(TEXTS_JS), words, code)]
    problems += [f"{where}: overflows: {p}" for p in page.evaluate(OVERFLOW_JS)]
    return problems


def _right_to_left(page: Page, selector: str) -> bool:
    """Whether the first two elements ``selector`` finds run right to left."""
    boxes: list[dict[str, float]] = page.eval_on_selector_all(
        selector, "ns => ns.slice(0, 2).map(n => n.getBoundingClientRect().toJSON())"
    )
    return len(boxes) == 2 and boxes[0]["left"] > boxes[1]["left"]


def _rtl_checks(page: Page, where: str) -> list[str]:
    problems = []
    if page.evaluate("getComputedStyle(document.querySelector('main')).direction") != "rtl":
        problems.append(f"{where}: the page does not run right to left")
    if where == "lobby" and not _right_to_left(page, "#live-tables >> xpath=.. >> th"):
        problems.append("lobby: the table's columns do not run right to left")
    if where.startswith("play") and not _right_to_left(page, ".hand-panel .cards.hand > .card"):
        problems.append(f"{where}: the hand does not run right to left")
    if where.startswith(("play", "watch", "replay")):
        # a card keeps its face: its corner index on its left, its text left to right
        card = page.evaluate(
            """() => { const c = document.querySelector('.card:not(.back)');
              if (!c) return ['ltr', 0, 1];
              const k = c.querySelector('.corner');
              return [getComputedStyle(c).direction,
                k.getBoundingClientRect().left - c.getBoundingClientRect().left,
                c.getBoundingClientRect().width]; }"""
        )
        if card[0] != "ltr" or card[1] > card[2] / 2:
            problems.append(f"{where}: a card is mirrored ({card})")
        log = page.evaluate("getComputedStyle(document.querySelector('[data-log]')).direction")
        if log != "rtl":
            problems.append(f"{where}: the log does not run right to left")
    if where.startswith("replay"):
        slider = "getComputedStyle(document.querySelector('input[name=version]')).direction"
        if page.evaluate(slider) != "rtl":
            problems.append(f"{where}: the replay slider does not run right to left")
    return problems


@pytest.mark.parametrize("code", LANGS)
def test_every_page_speaks_the_language_fits_its_boxes_and_persian_runs_right_to_left(
    server: CardroomServer, room: Room, context: BrowserContext, artifacts: Path, code: str
) -> None:
    words = words_of(server, code)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems: list[str] = []

    def visit(where: str, path: str, ready: str, shot: bool = False) -> None:
        _open(page, server, path, code, ready)
        problems.extend(_check(page, code, words, where))
        if code == "fa":
            problems.extend(_rtl_checks(page, where))
        if shot:
            page.screenshot(path=str(artifacts / f"lang-{code}-{where}.png"), full_page=True)

    visit("lobby", "/", "form.create button[type=submit]", shot=True)
    for game in ("bourre", "burraco"):
        # an ended table: its log tells every event, its last hand's result, the standings
        table = room.ended[game]
        visit(f"watch-{game}", f"/watch/{table}", "[data-result='table'] li")
        if game == "bourre":  # the replay of a settled hand (the same page, ?at=N)
            at = room.settled_at[game]
            visit("replay-bourre", f"/watch/{table}?at={at}", f"[data-log] li[data-version='{at}']")
        seat_table, token = room.playing[game]
        held = {"seat": 0, "token": token, "name": "Ann", "game": game}
        page.evaluate(
            "([key, value]) => localStorage.setItem(key, value)",
            [f"cardroom:seat:{seat_table}", json.dumps(held)],
        )
        ready = ".hand-panel .cards.hand .card"
        visit(f"play-{game}", f"/play/{seat_table}", ready, shot=game == "bourre" or code == "fa")
    page.close()
    assert errors == []
    if code != "en" and not words.translated:
        problems.insert(0, f"{code}: no catalog merged yet (api/web/i18n/{code}/): all English")
    assert problems == [], f"{len(problems)} problems:\n" + "\n".join(problems[:40])


def test_the_language_is_kept_chosen_in_the_header_and_follows_the_browser(
    server: CardroomServer, browser: Browser
) -> None:
    persian_browser = browser.new_context(locale="fa-IR")
    page = persian_browser.new_page()
    page.goto(f"{server.base}/", wait_until="domcontentloaded")
    page.wait_for_selector("html[lang='fa'][dir='rtl']")
    assert "lang=fa" in page.url  # a shared address opens in the same language
    persian_browser.close()

    context = browser.new_context(locale="en-US")
    page = context.new_page()
    page.goto(f"{server.base}/?lang=kn", wait_until="domcontentloaded")
    page.wait_for_selector("html[lang='kn'][dir='ltr']")
    page.goto(f"{server.base}/", wait_until="domcontentloaded")  # kept in a cookie
    page.wait_for_selector("html[lang='kn']")
    with page.expect_navigation():
        page.select_option("select[data-lang-picker]", "gu")
    page.wait_for_selector("html[lang='gu']")
    assert "lang=gu" in page.url
    shown: Any = page.eval_on_selector_all(
        "select[data-lang-picker] option", "os => os.map(o => [o.value, o.textContent])"
    )
    assert shown == [[lang.code, lang.name] for lang in LANGUAGES.values()]
    context.close()
