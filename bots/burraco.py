"""Burraco strategies (docs/rules/burraco.md), deciding from one seat's view.

``random``: draws (taking the pile now and then), melds a random listed meld most of the
time, discards a random legal card. ``basic``: takes the pile when its cards give at least two
uses — joining the team's melds or making new natural melds with the hand — or a short pile
holds a wild (a pile that adds one use only slows the race to the pozzetto); melds everything
it can, natural cards before wilds
and additions before new melds, so melds grow into burracos and the hand empties into the
pozzetto and the closing (the rules refuse a closing without a burraco); discards the card
that helps the next player least (never one that joins the opponents' melds, never a wild)
and keeps pairs and near-runs. Partners cooperate only through the table: the melds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.burraco.candidates import extensions, new_melds
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.melds import Layout, MeldError, arrange_new
from domain.burraco.values import INFO, points_of

MELD_BIAS = 0.9
WILDS_OUT_AT = 2


def random_play(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """Burraco ``random`` (see the module docstring)."""
    if view["phase"] == "draw":
        takes = [c for c in legal if isinstance(c, TakePile)]
        chance = 0.1 if len(view["discardPile"]) == 1 else 0.35
        if takes and rng.random() < chance:
            return takes[0]
        return next((c for c in legal if isinstance(c, Draw)), legal[0])
    melds = [c for c in legal if not isinstance(c, Discard)]
    discards = [c for c in legal if isinstance(c, Discard)]
    if melds and (not discards or rng.random() < MELD_BIAS):
        return rng.choice(melds)
    return rng.choice(discards)


def _layouts(view: dict[str, Any], team: str) -> list[tuple[int, Layout]]:
    """A team's melds as layouts, read again from the cards the view shows."""
    out: list[tuple[int, Layout]] = []
    for entry in view["teams"]:
        if entry["team"] != team:
            continue
        for meld in entry["melds"]:
            try:
                out.append((meld["id"], arrange_new(meld["cards"])))
            except MeldError:
                continue
    return out


def _hand(view: dict[str, Any]) -> list[str]:
    return list(view["seats"][view["yourSeat"]].get("cards", []))


def _teams(view: dict[str, Any]) -> tuple[str, str]:
    """The bot's team letter and the next player's."""
    seats = view["seats"]
    me = view["yourSeat"]
    return seats[me]["team"], seats[(me + 1) % len(seats)]["team"]


def _wilds(cards: Sequence[str]) -> int:
    return sum(1 for code in cards if INFO[code].wild)


def _pile_helps(view: dict[str, Any]) -> bool:
    pile = view["discardPile"]
    if not pile:
        return False
    hand = _hand(view)
    mine = _layouts(view, _teams(view)[0])
    pile_set = set(pile)
    joins = sum(1 for c in extensions(pile, mine) if not INFO[c.cards[0]].wild)
    made = sum(
        1
        for c in new_melds([*hand, *pile])
        if pile_set.intersection(c.cards) and _wilds(c.cards) == 0
    )
    wild = any(INFO[code].wild for code in pile)
    # A pile that adds one use is not worth the cards it brings: the hand must empty into the
    # pozzetto first (measured: it closes sooner and wins more hands against ``random``).
    return joins + made >= 2 or (wild and len(pile) <= 3)


def _meld_score(command: Any, view: dict[str, Any]) -> float:
    cards = command.cards
    wilds = _wilds(cards)
    naturals = len(cards) - wilds
    score = 2.0 * naturals - 3.0 * wilds + (1.0 if isinstance(command, AddToMeld) else 0.0)
    if len(_hand(view)) <= WILDS_OUT_AT or _has_burraco(view):
        score += 3.0 * wilds  # a short hand plays its wilds out rather than pay for them
    if isinstance(command, AddToMeld):
        meld = next((m for t in view["teams"] for m in t["melds"] if m["id"] == command.meld), None)
        if meld is not None and len(meld["cards"]) + len(cards) >= 7:
            score += 6.0  # completes or grows a burraco
    return score


def _has_burraco(view: dict[str, Any]) -> bool:
    """The bot's team already has a burraco: it may close, so it plays its hand out."""
    mine = _teams(view)[0]
    return any(m["burraco"] for t in view["teams"] if t["team"] == mine for m in t["melds"])


def _feeds(code: str, opponents: list[tuple[int, Layout]]) -> bool:
    return any(True for _ in extensions([code], opponents))


def _keep_value(code: str, hand: Sequence[str]) -> float:
    """How much a card helps the bot's own hand: pairs and near neighbours in its suit."""
    info = INFO[code]
    if info.wild:
        return 100.0
    value = 0.0
    for other in hand:
        o = INFO[other]
        if other is code or o.wild:
            continue
        if o.rank == info.rank:
            value += 3.0
        elif o.suit == info.suit and abs(o.rank - info.rank) <= 2:
            value += 2.0
    return value


def _discard(view: dict[str, Any], discards: Sequence[Any]) -> Any:
    hand = _hand(view)
    _, next_team = _teams(view)
    opponents = _layouts(view, next_team)

    def cost(command: Any) -> tuple[float, float]:
        code = command.card
        rest = list(hand)
        rest.remove(code)
        feeding = 50.0 if _feeds(code, opponents) else 0.0
        return (feeding + _keep_value(code, rest), points_of([code]))

    return min(discards, key=cost)


def basic(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """Burraco ``basic`` (see the module docstring)."""
    if view["phase"] == "draw":
        takes = [c for c in legal if isinstance(c, TakePile)]
        if takes and _pile_helps(view):
            return takes[0]
        return next((c for c in legal if isinstance(c, Draw)), legal[0])
    melds = [c for c in legal if isinstance(c, Meld | AddToMeld)]
    discards = [c for c in legal if isinstance(c, Discard)]
    clean = [c for c in melds if _meld_score(c, view) > 0]
    if clean or (melds and not discards):
        return max(clean or melds, key=lambda c: _meld_score(c, view))
    return _discard(view, discards)
