"""Building Burraco tables in known positions for rule tests.

``stacked_deck`` lays out a 108-card deck by the dealing contract (rule 6), so a test names
the cards each seat holds, the pozzetti, the first discard and the top of the stock; the rest
of the pack fills the gaps. A position is what happened at the table: ``given(events)`` folds
a history with the game's ``evolve``, from ``opening(deck)`` (TableOpened, a PlayerSeated per
seat, hand 1's Dealt) through the moves of the turns (``draws``, ``melds``, ``discards``…),
checking every card comes from where the rules take it. ``seated_table`` is such an opening
decided by commands; ``play`` decides and applies commands like the write side does.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from domain.burraco import GAME
from domain.burraco.events import (
    CardDrawn,
    Discarded,
    Melded,
    MeldExtended,
    PileTaken,
    PozzettoOpened,
    PozzettoTaken,
)
from domain.burraco.melds import Layout, arrange_extension, arrange_new
from domain.burraco.state import Round, Table, team_of
from domain.cards import burraco_pack, codes, parse
from domain.table import OpenTable, TakeSeat


def stacked_deck(
    *,
    players: int = 4,
    dealer: int = 0,
    hands: Mapping[int, str] | None = None,
    pozzetti: Sequence[str] = ("", ""),
    discard: str | None = None,
    stock: str = "",
    stock_end: str = "",
) -> list[str]:
    """A full deck whose deal (rule 6) gives these cards (space-separated codes); ``stock``
    is the top of the stock, ``stock_end`` its last cards."""
    deck: list[str | None] = [None] * 108
    dealt = 11 * players
    for seat, text in (hands or {}).items():
        slots = [k for k in range(dealt) if (dealer + 1 + k) % players == seat]
        for k, code in zip(slots, text.split(), strict=False):
            deck[k] = code
    for index, text in enumerate(pozzetti):
        for i, code in enumerate(text.split()):
            deck[dealt + index + 2 * i] = code
    if discard is not None:
        deck[dealt + 22] = discard
    for i, code in enumerate(stock.split()):
        deck[dealt + 23 + i] = code
    ending = stock_end.split()
    for i, code in enumerate(ending):
        deck[108 - len(ending) + i] = code
    left = Counter(codes(burraco_pack()))
    left.subtract(code for code in deck if code is not None)
    extra = {code: -count for code, count in left.items() if count < 0}
    assert not extra, f"more copies than the pack holds: {extra}"
    spare = list(left.elements())
    return [code if code is not None else spare.pop() for code in deck]


def seated_table(
    deck: list[str] | None = None, options: Mapping[str, Any] | None = None, seed: int = 7
) -> Table:
    """Open a table (stacked ``deck`` for hand 1 if given) and fill every seat."""
    return given(opening(deck, seed=seed, **dict(options or {})))


def apply(table: Table | None, events: Iterable[Any]) -> Table:
    """``table`` with ``events`` folded in by the game's ``evolve``.

    Every card must come from where the rules take it: a draw is the top of the stock, a
    pozzetto or pile taken is the whole of it, a meld or discard comes from the seat's hand.
    """
    for event in events:
        if table is not None and table.round is not None:
            _check_cards(table.round, event)
        table = GAME.evolve(table, event)
    assert table is not None, "no events"
    return table


def given(events: Iterable[Any]) -> Table:
    """The table these events leave: a position is what happened at the table."""
    return apply(None, events)


def play(table: Table, *commands: Any) -> tuple[Table, list[Any]]:
    """Decide and apply each command in turn; returns the table and all events."""
    out: list[Any] = []
    for command in commands:
        events = GAME.decide(table, command)
        table = apply(table, events)
        out += events
    return table, out


def names(events: Iterable[Any]) -> list[str]:
    return [type(e).__name__ for e in events]


def hand_round(table: Table) -> Round:
    assert table.round is not None
    return table.round


def opening(deck: list[str] | None = None, *, seed: int = 7, **options: Any) -> list[Any]:
    """The events of a table opened with ``options`` (stacked ``deck`` for hand 1) and filled:
    TableOpened, a PlayerSeated per seat and hand 1's Dealt (seat 0 deals, seat 1 plays)."""
    opened = GAME.decide(
        None, OpenTable(game="burraco", options=options, seed=seed, decks=[deck] if deck else [])
    )
    table = apply(None, opened)
    events = list(opened)
    for seat in range(table.players):
        seated = GAME.decide(table, TakeSeat(name=f"p{seat}", token_hash=f"h{seat}"))
        table = apply(table, seated)
        events += seated
    return events


def _check_cards(r: Round, event: Any) -> None:
    if isinstance(event, CardDrawn):
        assert r.stock[:1] == (event.card,), f"{event.card} is not the top of the stock"
    elif isinstance(event, PileTaken):
        assert tuple(event.cards) == r.pile, f"the pile is {r.pile}"
    elif isinstance(event, PozzettoTaken):
        assert tuple(event.cards) == r.pozzetti[event.pozzetto], "not that pozzetto's cards"
    elif isinstance(event, PozzettoOpened):
        assert tuple(event.cards) == r.sealed[event.seat], "not the sealed pozzetto"
    elif isinstance(event, Melded | MeldExtended | Discarded):
        spent = [event.card] if isinstance(event, Discarded) else (
            event.cards if isinstance(event, Melded) else event.added
        )  # fmt: skip
        short = Counter(spent) - Counter(r.hands[event.seat])
        assert not short, f"seat {event.seat} does not hold {sorted(short.elements())}"


def draws(seat: int, card: str, hand: int = 1) -> CardDrawn:
    """Rule 12a: ``seat`` draws ``card``, the top of the stock."""
    return CardDrawn(hand=hand, seat=seat, card=card)


def takes_pile(seat: int, cards: str, hand: int = 1) -> PileTaken:
    """Rule 12a: ``seat`` takes the whole discard pile, ``cards`` bottom to top."""
    return PileTaken(hand=hand, seat=seat, cards=cards.split())


def melds(seat: int, meld: int, cards: str, hand: int = 1) -> Melded:
    """``seat`` lays ``cards`` as meld number ``meld`` of its team, laid out by rules 8–10."""
    layout = arrange_new(cards.split())
    return Melded(
        hand=hand, seat=seat, team=team_of(seat), meld=meld, kind=layout.kind,
        cards=list(layout.cards), suit=layout.suit, rank=layout.rank, low=layout.low,
        wild=layout.wild,
    )  # fmt: skip


def extends(seat: int, meld: int, added: str, cards: str, hand: int = 1) -> MeldExtended:
    """``seat`` adds ``added`` to meld ``meld`` of its team, which now reads ``cards``."""
    layout = arrange_new(cards.split())
    return MeldExtended(
        hand=hand, seat=seat, team=team_of(seat), meld=meld, added=added.split(),
        cards=list(layout.cards), low=layout.low, wild=layout.wild,
    )  # fmt: skip


def discards(seat: int, card: str, hand: int = 1) -> Discarded:
    """Rule 12c: ``seat`` discards ``card``, ending its turn."""
    return Discarded(hand=hand, seat=seat, card=card)


def takes_pozzetto(
    seat: int, pozzetto: int, cards: str, *, direct: bool = True, hand: int = 1
) -> PozzettoTaken:
    """Rules 15–17: ``seat`` takes pozzetto ``pozzetto`` (``cards``) for its team — at once to
    play on (``direct``), or on the discard, sealed until its next turn."""
    return PozzettoTaken(
        hand=hand, seat=seat, team=team_of(seat), pozzetto=pozzetto, cards=cards.split(),
        direct=direct,
    )  # fmt: skip


def quiet_turns(table: Table, count: int) -> list[Any]:
    """``count`` turns from ``table`` on, each seat drawing the top of the stock and
    discarding it again (the hands stay as they are; the stock runs down, the pile grows)."""
    r = hand_round(table)
    events: list[Any] = []
    for k, card in enumerate(r.stock[:count]):
        seat = (r.turn + k) % table.players
        events += [draws(seat, card, r.number), discards(seat, card, r.number)]
    return events


def lay(text: str, **hints: str) -> Layout:
    """A new meld laid from card literals (rules 8–10)."""
    return arrange_new(codes(parse(text)), **hints)


def extend(meld: Layout, text: str, **hints: str) -> Layout:
    """``meld`` after adding card literals to it (rule 10)."""
    return arrange_extension(meld, codes(parse(text)), **hints)
