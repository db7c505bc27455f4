"""Burraco strategies (docs/rules/burraco.md), deciding from one seat's view.

``random``: draws (taking the pile now and then), melds a random listed meld most of the
time, discards a random legal card. ``basic``:

- **takes the pile** when it helps: a wild in it, a big pile, or its cards give uses —
  joining the team's melds or making new natural melds with the hand (two uses for a pile
  of one or two cards, one for a longer pile). A hand of one or two cards that may go out
  (into the pozzetto, or closing once the team has its pozzetto and a burraco) takes the
  pile only when it can go out with it this turn, and otherwise draws: a pile it cannot
  meld would only keep it from going out;
- **melds** everything it can, natural cards before wilds and additions before new melds, so
  melds grow into burracos and the hand empties into the pozzetto and the closing (the rules
  refuse a closing without a burraco); it **keeps its wilds** for completing a burraco, and
  plays them out once the team has one (then it may close) or the hand is nearly empty, but
  never onto a clean burraco (that would turn 200 points into 100);
- **discards** the card that helps the next player least: never one that joins the
  opponents' melds, never a wild; it keeps pairs and near-runs.

Partners cooperate only through the table: the melds. Measured against ``random`` (design
§9): what each rule adds was kept only if it won more hands.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cached_property
from typing import Any

from domain.burraco.candidates import extensions, new_melds
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.melds import Layout, MeldError, arrange_new
from domain.burraco.values import INFO, points_of

MELD_BIAS = 0.9
WILDS_OUT_AT = 2  # a hand this short plays its wilds out rather than pay for them
BIG_PILE = 6  # a pile this long is taken whatever it holds
ONE_USE_PILE = 3  # a pile this long is taken for one use; a shorter one needs two
BURRACO = 7  # cards in a burraco (rule 11)
SHORT_HAND = 2  # a hand this short takes the pile only to go out with it
SPOIL_BURRACO = 20.0  # what a wild on a clean burraco costs: never worth it


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


def _layouts(melds: Sequence[dict[str, Any]]) -> list[tuple[int, Layout]]:
    """Melds as layouts, read again from the cards the view shows."""
    out: list[tuple[int, Layout]] = []
    for meld in melds:
        try:
            out.append((meld["id"], arrange_new(meld["cards"])))
        except MeldError:
            continue
    return out


class Seat:
    """What the bot reads from its seat's view (nothing else: other hands are hidden); the
    melds are read as layouts only when a decision needs them."""

    def __init__(self, view: dict[str, Any]) -> None:
        seats = view["seats"]
        me = view["yourSeat"]
        team = seats[me]["team"]
        ours = next(entry for entry in view["teams"] if entry["team"] == team)
        other = next(entry for entry in view["teams"] if entry["team"] != team)
        self.hand: list[str] = list(seats[me].get("cards", []))
        self.pile: list[str] = list(view["discardPile"])
        self.ours: dict[int, dict[str, Any]] = {m["id"]: m for m in ours["melds"]}
        self.other_melds: list[dict[str, Any]] = other["melds"]
        # the team may close once it has its pozzetto and a burraco
        self.has_burraco = any(m["burraco"] for m in ours["melds"])
        self.pozzetto = ours.get("pozzetto") is not None

    @cached_property
    def mine(self) -> list[tuple[int, Layout]]:
        """The team's melds."""
        return _layouts(list(self.ours.values()))

    @cached_property
    def theirs(self) -> list[tuple[int, Layout]]:
        """The next player's team's melds."""
        return _layouts(self.other_melds)

    def size(self, meld_id: int) -> int:
        meld = self.ours.get(meld_id)
        return len(meld["cards"]) if meld is not None else 0

    def clean(self, meld_id: int) -> bool:
        """The team's meld has no wild (as the view says; else read from its cards)."""
        meld = self.ours.get(meld_id)
        if meld is None:
            return False
        return bool(meld["clean"]) if "clean" in meld else _wilds(meld["cards"]) == 0


def _wilds(cards: Sequence[str]) -> int:
    return sum(1 for code in cards if INFO[code].wild)


def pile_uses(seat: Seat) -> int:
    """How many of the pile's natural cards join the team's melds or make new natural melds
    with the hand."""
    pile_set = set(seat.pile)
    joins = sum(1 for c in extensions(seat.pile, seat.mine) if not INFO[c.cards[0]].wild)
    made = sum(
        1
        for c in new_melds([*seat.hand, *seat.pile])
        if pile_set.intersection(c.cards) and _wilds(c.cards) == 0
    )
    return joins + made


def _joined(code: str, melds: list[tuple[int, Layout]]) -> bool:
    """Add ``code`` to the first of ``melds`` it joins (in place); whether it joined."""
    for index, (meld_id, layout) in enumerate(melds):
        if any(True for _ in extensions([code], [(meld_id, layout)])):
            try:
                melds[index] = (meld_id, arrange_new([*layout.cards, code]))
            except MeldError:
                continue
            return True
    return False


def _laid(rest: list[str], melds: list[tuple[int, Layout]]) -> bool:
    """Lay the first new meld ``rest`` holds (in place); whether one was laid."""
    for candidate in new_melds(rest):
        try:
            layout = arrange_new(candidate.cards)
        except MeldError:
            continue
        for code in candidate.cards:
            rest.remove(code)
        melds.append((-1, layout))
        return True
    return False


def leftover(cards: Sequence[str], seat: Seat) -> list[str]:
    """The cards still in hand after melding ``cards`` greedily: additions to the team's
    melds first, then new melds (what the bot itself would play)."""
    rest = list(cards)
    melds = list(seat.mine)
    while True:
        joined = next((code for code in dict.fromkeys(rest) if _joined(code, melds)), None)
        if joined is not None:
            rest.remove(joined)
        elif not _laid(rest, melds):
            return rest


def may_go_out(seat: Seat) -> bool:
    """Playing the hand out now takes the pozzetto (the team has not taken it) or closes
    (it has, and has a burraco); in between the rules keep two cards in hand (rule 19)."""
    return not seat.pozzetto or seat.has_burraco


def goes_out_with_pile(seat: Seat) -> bool:
    """The pile lets the hand go out this turn: melding the hand and the pile leaves at
    most one card to discard (a closing discard must be one card, not a wild)."""
    rest = leftover([*seat.hand, *seat.pile], seat)
    if seat.pozzetto:
        return len(rest) == 1 and _wilds(rest) == 0
    return len(rest) <= 1


def pile_helps(seat: Seat) -> bool:
    """Take the pile to go out with it, for a wild, for its size or for its uses; a hand
    short enough to go out draws instead (see the module docstring)."""
    pile = seat.pile
    if not pile:
        return False
    if len(seat.hand) <= SHORT_HAND and may_go_out(seat):
        return goes_out_with_pile(seat)
    if _wilds(pile) or len(pile) >= BIG_PILE:
        return True
    return pile_uses(seat) >= (1 if len(pile) >= ONE_USE_PILE else 2)


def meld_score(command: Any, seat: Seat) -> float:
    """How much a meld or addition is worth playing now; not worth it at 0 or below.

    Naturals count for more than wilds; a wild is kept for completing a burraco (or played
    out once the team has one, or the hand is nearly empty), but never spoils a clean
    burraco (200 points, against 100 for a dirty one)."""
    cards = command.cards
    wilds = _wilds(cards)
    score = 2.0 * (len(cards) - wilds) - 3.0 * wilds
    if len(seat.hand) <= WILDS_OUT_AT or seat.has_burraco:
        score += 3.0 * wilds
    if isinstance(command, AddToMeld):
        score += 1.0
        size = seat.size(command.meld)
        if wilds and size >= BURRACO and seat.clean(command.meld):
            return score - SPOIL_BURRACO
        if size + len(cards) >= BURRACO:
            score += 6.0  # completes or grows a burraco
    return score


def _keep_value(code: str, hand: Sequence[str]) -> float:
    """How much a card helps the bot's own hand: pairs and near neighbours in its suit."""
    info = INFO[code]
    if info.wild:
        return 100.0
    value = 0.0
    for other in hand:
        o = INFO[other]
        if o.wild:
            continue
        if o.rank == info.rank:
            value += 3.0
        elif o.suit == info.suit and abs(o.rank - info.rank) <= 2:
            value += 2.0
    return value


def _feeds(code: str, melds: Sequence[tuple[int, Layout]]) -> bool:
    return any(True for _ in extensions([code], melds))


def discard_cost(code: str, seat: Seat) -> tuple[float, int]:
    """What discarding ``code`` costs: feeding the opponents, then breaking the bot's own
    pairs and runs; ties go to the lower card (measured: keeping high cards wins more)."""
    rest = list(seat.hand)
    rest.remove(code)
    feeding = 50.0 if _feeds(code, seat.theirs) else 0.0
    return (feeding + _keep_value(code, rest), points_of([code]))


def basic(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """Burraco ``basic`` (see the module docstring)."""
    seat = Seat(view)
    if view["phase"] == "draw":
        takes = [c for c in legal if isinstance(c, TakePile)]
        if takes and pile_helps(seat):
            return takes[0]
        return next((c for c in legal if isinstance(c, Draw)), legal[0])
    melds = [c for c in legal if isinstance(c, Meld | AddToMeld)]
    discards = [c for c in legal if isinstance(c, Discard)]
    scored = [(meld_score(c, seat), c) for c in melds]
    clean = [(s, c) for s, c in scored if s > 0]
    if clean or (melds and not discards):
        return max(clean or scored, key=lambda sc: sc[0])[1]
    return min(discards, key=lambda c: discard_cost(c.card, seat))


def playout_view(state: Any, seat: int) -> dict[str, Any]:
    """The keys of ``seat``'s view that :func:`basic` reads, built straight from a state (a
    determinized one, in the search bot's playouts: design §9.2), at a fraction of the cost
    of the full view."""
    r = state.round
    names = ("A", "B")
    seats: list[dict[str, Any]] = [{"team": names[s % 2]} for s in range(state.players)]
    seats[seat]["cards"] = list(r.hands[seat])
    teams = [
        {
            "team": names[team],
            "pozzetto": r.pozzetto_of_team[team],
            "melds": [
                {
                    "id": m.id,
                    "cards": list(m.layout.cards),
                    "burraco": m.layout.burraco,
                    "clean": m.layout.clean,
                }
                for m in r.melds
                if m.team == team
            ],
        }
        for team in (0, 1)
    ]
    return {"phase": r.phase, "discardPile": list(r.pile), "yourSeat": seat, "seats": seats,
            "teams": teams}  # fmt: skip


def playout_policy(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
    """:func:`basic` as the search bot's playout policy (design §9.2)."""
    return basic(playout_view(state, seat), legal, rng)


SEARCHED_DISCARDS = 3


def search_candidates(state: Any, seat: int, legal: Sequence[Any]) -> list[Any]:
    """The moves the search bot weighs (design §9.2): drawing or taking the pile; in play, the
    meld :func:`basic` would lay (melding what it can is rarely wrong), else the
    ``SEARCHED_DISCARDS`` discards it likes best."""
    view = playout_view(state, seat)
    if view["phase"] == "draw":
        return list(legal)
    table_seat = Seat(view)
    melds = [c for c in legal if isinstance(c, Meld | AddToMeld)]
    discards = [c for c in legal if isinstance(c, Discard)]
    scored = [(meld_score(c, table_seat), c) for c in melds]
    clean = [(s, c) for s, c in scored if s > 0]
    if clean or (melds and not discards):
        return [max(clean or scored, key=lambda sc: sc[0])[1]]
    ranked = sorted(discards, key=lambda c: discard_cost(c.card, table_seat))
    return ranked[:SEARCHED_DISCARDS] or list(legal)
