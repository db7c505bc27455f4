"""Bourré strategies (docs/rules/bourre.md), deciding from one seat's view.

``basic``: declares play when the hand's expected tricks (trumps, high cards, the cards it
will draw) clear a bar that rises with the number of opponents still in (position) and with
the pot at stake — a bourré pays the pot (rule 25); keeps trumps and aces and draws for the
rest (rule 13); in trick play heads the trick with its highest winner, or its cheapest one when
it plays last (rules 17–18), and otherwise throws its lowest card. The rules force the cinch
(rules 19–22): only legal commands are offered, so the bot simply chooses among them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.cards import Card, Rank, Suit, card

# Expected tricks from one card kept (rough frequencies for five-card Bourré).
TRUMP_VALUE = {Rank.ACE: 1.0, Rank.KING: 0.85, Rank.QUEEN: 0.7, Rank.JACK: 0.55}
SMALL_TRUMP = 0.4
SIDE_VALUE = {Rank.ACE: 0.55, Rank.KING: 0.2}
DRAWN_CARD = 0.17  # expected tricks of one card drawn blind
BASE_BAR = 0.9  # expected tricks needed against one opponent
BAR_PER_OPPONENT = 0.22


def _value(c: Card, trump: Suit) -> float:
    assert c.rank is not None
    if c.suit == trump:
        return TRUMP_VALUE.get(c.rank, SMALL_TRUMP)
    return SIDE_VALUE.get(c.rank, 0.0)


def _keeps(c: Card, trump: Suit) -> bool:
    """Cards worth keeping at the draw: trumps, side aces (and kings with few cards out)."""
    return c.suit == trump or c.rank == Rank.ACE


def wanted_discards(hand: Sequence[Card], trump: Suit, limit: int) -> set[str]:
    """The cards to throw: everything not kept, the weakest first, at most ``limit``."""
    thrown = sorted((c for c in hand if not _keeps(c, trump)), key=lambda c: _value(c, trump))
    return {c.code for c in thrown[:limit]}


def expected_tricks(hand: Sequence[Card], trump: Suit, discards: set[str]) -> float:
    kept = [c for c in hand if c.code not in discards]
    return sum(_value(c, trump) for c in kept) + DRAWN_CARD * len(discards)


def _opponents(view: dict[str, Any], me: int) -> int:
    """Opponents who may still play: seats not known to have passed."""
    return sum(1 for s in view["seats"] if s["seat"] != me and s["passed"] is not True)


def _bar(view: dict[str, Any], me: int) -> float:
    opponents = max(1, _opponents(view, me))
    ante = int(view["options"].get("ante", 1)) or 1
    pot_factor = min(0.3, 0.02 * (view["pot"] / ante))  # a big pot makes a bourré costly
    return BASE_BAR + BAR_PER_OPPONENT * (opponents - 1) + pot_factor


def _closest(options: Sequence[Any], discards: set[str]) -> Any:
    """The option whose discard is nearest to the wanted one (the turned card never taken)."""
    return min(
        options,
        key=lambda c: (len(set(c.discard) ^ discards), c.take_trump, len(c.discard)),
    )


def basic(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """Bourré ``basic`` (see the module docstring)."""
    me = view["yourSeat"]
    trump = Suit(view["trump"])
    hand = [card(code) for code in view.get("cards", [])]
    limit = int(view["options"].get("max_discard", 5))
    discards = wanted_discards(hand, trump, limit)
    strong = expected_tricks(hand, trump, discards) >= _bar(view, me)
    first = legal[0]
    if isinstance(first, Declare):
        plays = [c for c in legal if c.play]
        passes = [c for c in legal if not c.play]
        if passes and not strong:
            return passes[0]
        with_discard = [c for c in plays if c.discard or c.take_trump]
        return _closest(with_discard, discards) if with_discard else plays[0]
    if isinstance(first, Draw):
        return _closest(legal, discards)
    if isinstance(first, SecondChance):
        now = expected_tricks(hand, trump, set()) >= _bar(view, me)
        wanted = [c for c in legal if c.play == now]
        return wanted[0] if wanted else legal[0]
    if isinstance(first, PlayCard):
        return _play(view, legal, trump)
    return rng.choice(list(legal))


def _beats(challenger: Card, best: Card, led: Suit | None, trump: Suit) -> bool:
    """Rule 18: a trump beats any non-trump; otherwise only a higher card of the led suit."""
    assert challenger.rank is not None and best.rank is not None
    if challenger.suit == best.suit:
        return challenger.rank > best.rank
    return challenger.suit == trump


def _play(view: dict[str, Any], legal: Sequence[Any], trump: Suit) -> Any:
    options = [(card(c.card), c) for c in legal]

    def strength(c: Card) -> tuple[bool, int]:
        assert c.rank is not None
        return (c.suit == trump, int(c.rank))

    trick = [card(entry["card"]) for entry in view["trick"]]
    if not trick:
        # Leading: a sure-looking winner (top trump or a side ace), else the cheapest card.
        tops = [
            o
            for o in options
            if o[0].rank == Rank.ACE or (o[0].suit == trump and o[0].rank == Rank.KING)
        ]
        if tops:
            return max(tops, key=lambda o: strength(o[0]))[1]
        return min(options, key=lambda o: strength(o[0]))[1]
    led = trick[0].suit
    best = trick[0]
    for c in trick[1:]:
        if _beats(c, best, led, trump):
            best = c
    winners = [o for o in options if _beats(o[0], best, led, trump)]
    active = sum(1 for s in view["seats"] if s["passed"] is False)
    last = len(trick) + 1 >= active
    if winners:
        pick = min if last else max
        return pick(winners, key=lambda o: strength(o[0]))[1]
    return min(options, key=lambda o: strength(o[0]))[1]


def playout_view(state: Any, seat: int) -> dict[str, Any]:
    """The few keys of ``seat``'s view that :func:`basic` reads, built straight from a state
    (a determinized one, in the search bot's playouts: design §9.2) — the same decisions as
    from the full view at a fraction of its cost."""
    hand = state.hand
    seats = []
    for s in range(state.seats):
        decided = hand.decisions[s]
        seats.append({"seat": s, "passed": None if decided is None else not hand.active(s)})
    return {
        "yourSeat": seat,
        "trump": hand.trump.value,
        "cards": [c.code for c in hand.holdings[seat]],
        "options": state.raw_options,
        "pot": state.pot,
        "seats": seats,
        "trick": [{"seat": s, "card": c.code} for s, c in hand.trick],
    }


def playout_policy(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
    """:func:`basic` as the search bot's playout policy (design §9.2)."""
    return basic(playout_view(state, seat), legal, rng)


def search_candidates(state: Any, seat: int, legal: Sequence[Any]) -> list[Any]:
    """The moves the search bot weighs (design §9.2): every card in trick play; at a
    declaration or draw, passing and, for playing, only the discards that throw the k weakest
    cards (k = 0 … the limit, weakest by :func:`_value`) — the others' discards never keep a
    weaker card over a stronger one of the same use, and fewer moves give each more deals."""
    first = legal[0]
    if not isinstance(first, Declare | Draw):
        return list(legal)
    hand = state.hand
    trump = hand.trump
    ranked = sorted(hand.holdings[seat], key=lambda c: (_value(c, trump), c.code))
    wanted = [frozenset(c.code for c in ranked[:k]) for k in range(len(ranked) + 1)]
    kept = []
    for command in legal:
        if (isinstance(command, Declare) and not command.play) or (
            not command.take_trump and frozenset(command.discard) in wanted
        ):
            kept.append(command)
    return kept or list(legal)
