"""What the browser tests read off a page: the cards shown (the test contract: ``data-card``,
``data-seat``, ``data-legal``) and the same cards computed from a view of the API."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from tests import waiting

RANKS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}
SUITS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def card_name(code: str) -> str:
    """A card as the pages name it: "queen of hearts" (cards.js cardName)."""
    if code == "JK":
        return "joker"
    return f"{RANKS.get(code[:-1], code[:-1])} of {SUITS[code[-1]]}"


def shown_cards(page: Page, scope: str = ".board-box") -> Counter[str]:
    """The face-up cards drawn in ``scope`` (``back`` counted apart)."""
    codes = page.eval_on_selector_all(
        f"{scope} [data-card]", "nodes => nodes.map(n => n.dataset.card)"
    )
    return Counter(codes)


def hand_codes(page: Page, selector: str = ".hand-panel [data-card]") -> list[str]:
    """The codes of the cards ``selector`` finds (the player's hand by default)."""
    codes: list[str] = page.eval_on_selector_all(selector, "ns => ns.map(n => n.dataset.card)")
    return codes


def view_cards(view: dict[str, Any]) -> Counter[str]:
    """The cards a spectator's board shows for ``view`` with every hand the view holds face
    up, and a back for each card it does not hold (and for a Burraco stock)."""
    found: Counter[str] = Counter()
    for seat in view["seats"]:
        if "cards" in seat:
            found.update(seat["cards"])
            found.update(seat.get("discarded", []))  # Bourré: a seat's discards, once known
        else:
            found["back"] += seat.get("cardCount", 0)
    if view["game"] == "bourre":
        if view["trumpCard"]:
            found[view["trumpCard"]] += 1
        # the trick in progress, or the last trick while the next has no card yet
        found.update(played["card"] for played in view["trick"] or view["lastTrick"])
    else:
        found.update(view["discardPile"])
        for team in view["teams"]:
            for meld in team["melds"]:
                found.update(meld["cards"])
        if view["stockCount"]:
            found["back"] += 1
    return found


def wait_until(check: Callable[[], bool], timeout: float = 15.0, what: str = "") -> None:
    """:func:`tests.waiting.wait_until` with the browser tests' default bound."""
    waiting.wait_until(check, timeout, f"timed out waiting for {what}")


def seat_token(page: Page, table: str) -> dict[str, Any]:
    """The seat and token the play page keeps in localStorage (keyed by table)."""
    stored = page.evaluate(f"JSON.parse(localStorage.getItem('cardroom:seat:{table}'))")
    assert stored, "the play page kept no seat"
    return dict(stored)


def take_seat(page: Page, base: str, table: str, name: str, seat: int | None = None) -> int:
    page.goto(f"{base}/play/{table}")
    page.fill("input[name=name]", name)
    if seat is not None:
        page.select_option("select[name=seat]", str(seat))
    page.click("button[type=submit]")
    page.wait_for_selector(".hand-panel h2")
    return int(seat_token(page, table)["seat"])


def inside(page: Page, selector: str) -> None:
    """Every element ``selector`` finds lies wholly inside the window, unscrolled."""
    size = page.viewport_size
    assert size is not None
    boxes = page.eval_on_selector_all(
        selector,
        "ns => ns.map(n => { const r = n.getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; })",
    )
    assert boxes, f"nothing matches {selector}"
    for left, top, right, bottom in boxes:
        assert left >= 0 and top >= 0, (selector, left, top)
        assert right <= size["width"] + 0.5 and bottom <= size["height"] + 0.5, (
            selector,
            right,
            bottom,
            size,
        )


def clear_of_the_hand(page: Page, selector: str) -> None:
    """What ``selector`` finds, scrolled into view as a browser does it (the nearest edge),
    lies inside the window and wholly above the sticky hand panel (which hides no part of it)."""
    page.eval_on_selector(selector, "n => n.scrollIntoView({block: 'nearest'})")
    inside(page, selector)
    bottom = page.eval_on_selector(selector, "n => n.getBoundingClientRect().bottom")
    panel = page.eval_on_selector(".hand-panel", "n => n.getBoundingClientRect().top")
    assert bottom <= panel, (selector, bottom, panel)
