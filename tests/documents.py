"""What the tests look for in JSON documents (views, events, replays) — no tests here."""

from __future__ import annotations

from typing import Any

from domain.cards import is_code


def card_codes(document: Any) -> set[str]:
    """Every card code anywhere in a JSON document — string values and object keys — so a
    leak check misses no card, however a view nests or keys it."""
    found: set[str] = set()
    stack = [document]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            stack.extend(item.values())
            found.update(key for key in item if is_code(key))
        elif isinstance(item, list):
            stack.extend(item)
        elif is_code(item):
            found.add(item)
    return found
