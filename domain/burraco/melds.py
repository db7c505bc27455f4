"""Melds: sets and sequences, and where each card of a meld stands (Burraco rules 7–11).

A meld's *layout* (:mod:`domain.burraco.layout`) says where each card stands. Everything here
is pure: :func:`arrange_new` reads a new meld from the cards laid, and
:func:`arrange_extension` re-reads a meld with cards added, moving its wild only as rule 10
allows. Both raise :class:`MeldError` with a message a player can act on.

Sets (rule 8) are read here; sequences (rules 9–10) in :mod:`domain.burraco.sequences`. Both
readings are remembered (bounded): listings try the same additions to the same melds again and
again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Final

from domain.burraco.layout import (
    ACE_HIGH,
    ACE_LOW,
    BURRACO,
    MAX_SEQUENCE,
    MAX_SET,
    MAX_SET_NATURALS,
    POSITION_SYMBOLS,
    SEQUENCE,
    SET,
    Layout,
    MeldError,
    position_name,
)
from domain.burraco.meld_shortcuts import plain_extension, plain_new
from domain.burraco.sequences import ACE_CHOICES, WILD_RANK_POSITIONS, TableWild, arrange_sequence
from domain.burraco.values import INFO
from domain.cards import CardError, card

__all__ = [  # the layout names are re-exported: callers import them from here
    "ACE_HIGH",
    "ACE_LOW",
    "BURRACO",
    "MAX_SEQUENCE",
    "MAX_SET",
    "SEQUENCE",
    "SET",
    "Layout",
    "MeldError",
    "arrange_extension",
    "arrange_new",
    "extends",
    "forget_readings",
    "position_name",
    "reads_new",
]


def _check_hints(wild_rank: str | None, ace: str | None) -> None:
    """A command's placement hints must name a rank and an end, whatever the meld."""
    if wild_rank is not None and (
        not isinstance(wild_rank, str) or wild_rank not in WILD_RANK_POSITIONS
    ):
        raise MeldError(f"wildRank {wild_rank!r} is not a rank (A K Q J 10 … 3 2)")
    if ace is not None and (not isinstance(ace, str) or ace not in ACE_CHOICES):
        raise MeldError(f"ace {ace!r} must be 'low' or 'high'")


def _code_tuple(codes_: Sequence[str]) -> tuple[str, ...]:
    """:func:`_codes` as a tuple (what readings are remembered by); codes that are all
    canonical already (as a command's are once ``decide`` has read them) are taken as they are."""
    if all(map(INFO.__contains__, codes_)):
        return tuple(codes_)
    return tuple(_codes(codes_))


def _codes(codes_: Sequence[str]) -> list[str]:
    """Canonical codes (``INFO`` keys); anything else is a :class:`MeldError`."""
    out: list[str] = []
    for code in codes_:
        if code not in INFO:
            try:
                code = card(code).code
            except CardError as error:
                raise MeldError(str(error)) from None
        out.append(code)
    return out


# --- sets (rule 8) --------------------------------------------------------------------------


def _arrange_set(symbol: str, cards: Sequence[str]) -> Layout:
    """Rule 8: naturals of rank ``symbol`` (8 at most: two packs hold no more) and at most one
    wild (its last card), 9 at most."""
    naturals = [code for code in cards if not INFO[code].wild]
    wilds = [code for code in cards if INFO[code].wild]
    for code in naturals:
        if INFO[code].symbol != symbol:
            raise MeldError(f"a set holds cards of one rank: {code} is not a {symbol}")
    if len(wilds) > 1:
        raise MeldError("a set may hold at most one wild card (a 2 in a set is always wild)")
    if len(naturals) > MAX_SET_NATURALS:
        raise MeldError(
            f"a set holds at most {MAX_SET_NATURALS} natural {symbol}s: two packs hold no more"
        )
    if len(cards) > MAX_SET:
        raise MeldError(f"a set holds at most {MAX_SET} cards")
    return Layout(SET, (*naturals, *wilds), rank=symbol, wild=len(naturals) if wilds else -1)


# --- public API ------------------------------------------------------------------------------


# Reading a meld is a pure function of the layout, the cards and the hints, and the same
# readings come back again and again (every listing tries the same additions to the same
# melds), so they are remembered: a layout, or the MeldError message. The bound only limits
# memory; what is remembered never changes an answer.
READINGS_KEPT = 1 << 15


def _remembered(read: Callable[..., Layout]) -> Callable[..., Layout | str]:
    @lru_cache(maxsize=READINGS_KEPT)
    def reading(*key: object) -> Layout | str:
        try:
            return read(*key)
        except MeldError as error:
            return error.message

    return reading


def _layout(found: Layout | str) -> Layout:
    if isinstance(found, str):
        raise MeldError(found)
    return found


def arrange_new(
    codes_: Sequence[str], *, wild_rank: str | None = None, ace: str | None = None
) -> Layout:
    """Read a new meld (rules 7–9): a set if its natural cards share a rank, else a sequence.

    ``wild_rank`` (a rank symbol) says what an end wild stands for; ``ace`` (``low``/``high``)
    where an ace goes when either end would do. Without them rule 10's defaults apply:
    same-suit 2s natural where possible, an end wild at the high end, an ace that fits either
    end high (in a run of 14 the wild then stands for the ace low).
    """
    if wild_rank is not None or ace is not None:
        _check_hints(wild_rank, ace)
    return _layout(_new_reading(_code_tuple(codes_), wild_rank, ace))


def _read_new(cards: tuple[str, ...], wild_rank: str | None, ace: str | None) -> Layout:
    if wild_rank is None and ace is None:
        found = plain_new(cards)  # one reading only: no search (domain.burraco.meld_shortcuts)
        if found is not None:
            return found
    if len(cards) < 3:
        raise MeldError("a meld needs at least 3 cards")
    plain = [code for code in cards if not INFO[code].wild]
    if not plain:
        raise MeldError(
            "no sets of 2s (a 2 in a set is always wild), and a meld needs natural cards"
        )
    ranks = {INFO[code].symbol for code in plain}
    if len(ranks) == 1 and len(plain) >= 2:
        symbol = INFO[plain[0]].symbol
        if wild_rank is not None and wild_rank != symbol:
            raise MeldError(f"in a set of {symbol}s the wild stands for a {symbol}")
        return _arrange_set(symbol, cards)
    suits = {INFO[code].suit for code in plain}
    if len(suits) > 1:
        if len(ranks) == 1:
            raise MeldError("a set may hold at most one wild card (a 2 in a set is always wild)")
        shown = " ".join(plain)
        raise MeldError(f"a sequence is of one suit and a set of one rank: {shown} are neither")
    try:
        return arrange_sequence(INFO[plain[0]].suit, cards, {}, wild_rank=wild_rank, ace=ace)
    except MeldError:
        if len(plain) == 1:  # one natural: neither a sequence nor a set can be made
            raise MeldError(
                "a meld may hold at most one wild card (besides a natural 2 in a sequence)"
            ) from None
        raise


def reads_new(cards: tuple[str, ...]) -> Layout | None:
    """:func:`arrange_new` without hints for canonical codes: the layout, or ``None`` where
    rules 7–10 refuse the meld (what listings ask of every new meld they propose)."""
    found = _new_reading(cards, None, None)
    return None if isinstance(found, str) else found


def arrange_extension(
    meld: Layout,
    codes_: Sequence[str],
    *,
    wild_rank: str | None = None,
    ace: str | None = None,
) -> Layout:
    """Re-read ``meld`` with cards added (rules 8–10).

    Naturals stay where they are. The meld's wild stays where it stands unless rule 10 moves
    it: replaced by its natural card it goes to an end; at an end it crosses to the other end
    to make room for a card beyond it; a same-suit 2 reads as natural once its place is
    reached. Cards added together count as added one at a time. The hints choose among the
    placements rule 10 allows (``ace`` places the natural ace when there is one).
    """
    if wild_rank is not None or ace is not None:
        _check_hints(wild_rank, ace)
    if meld.kind == SET:  # read at once: a set's suits make nearly every reading a new one
        return _read_extension(*_fields(meld), _code_tuple(codes_), wild_rank, ace)
    return _layout(_extension_reading(*_fields(meld), _code_tuple(codes_), wild_rank, ace))


def extends(meld: Layout, code: str) -> bool:
    """Whether the card ``code`` (a canonical code) alone can be added to ``meld`` (what
    :func:`arrange_extension` accepts without hints)."""
    if meld.kind == SET:
        return _set_takes(meld.rank, meld.wild >= 0, len(meld.cards), code)
    if plain_extension(*_fields(meld), code) is not None:
        return True
    suit = meld.suit
    info = INFO[code]
    if not info.wild and info.suit != suit:
        return False  # rule 9: a sequence's naturals are of its suit
    own_two = f"2{suit}"
    added = (OWN_TWO if code == own_two else JOKER) if info.wild else code[:-1] + CANONICAL_SUIT
    wild = meld.wild
    shape = (meld.low, len(meld.cards), wild, wild >= 0 and meld.cards[wild] == own_two)
    return _sequence_takes(*shape, added)


@lru_cache(maxsize=READINGS_KEPT)
def _sequence_takes(low: int, size: int, wild: int, own_two: bool, code: str) -> bool:
    """:func:`extends` for a sequence, by its shape: rules 9–10 name no suit, and tell its
    wild and a wild added apart only as the sequence's own 2 or any other wild (a joker or
    another suit's 2). So a card is tried once per shape, on such a sequence of spades from
    position ``low`` with ``size`` cards, its wild (if any) at index ``wild``: its own 2
    (``own_two``) or a joker; ``code`` is the card added as played in spades (a natural of
    spades, ``2S`` for the sequence's own 2, ``JK`` for any other wild). A refusal needs no
    message here."""
    cards = tuple(
        (OWN_TWO if own_two else JOKER)
        if index == wild
        else f"{POSITION_SYMBOLS[position]}{CANONICAL_SUIT}"
        for index, position in enumerate(range(low, low + size))
    )
    shape = (SEQUENCE, cards, CANONICAL_SUIT, None, low, wild, (code,), None, None)
    return not isinstance(_spades_extension_reading(*shape), str)


@lru_cache(maxsize=READINGS_KEPT)
def _set_takes(rank: str | None, wild: bool, size: int, code: str) -> bool:
    """:func:`extends` for a set. Rule 8 asks of a set only its rank, whether it holds its wild
    and how many cards it holds (not which suits), so a card is tried once per shape, on a set
    of that shape: naturals of the rank in suits taken in turn, then a joker if it has a wild."""
    naturals = size - wild
    cards = tuple(f"{rank}{SET_SUITS[i % len(SET_SUITS)]}" for i in range(naturals))
    shape = (SET, (*cards, JOKER) if wild else cards, None, rank, 0, naturals if wild else -1)
    return not isinstance(_extension_reading(*shape, (code,), None, None), str)


SET_SUITS, JOKER = "SHDC", "JK"  # the suits and the joker of the shapes above


def _fields(meld: Layout) -> tuple[str, tuple[str, ...], str | None, str | None, int, int]:
    """A layout as plain values (what the readings are remembered by: cheaper to hash and
    compare than the layout itself)."""
    return meld.kind, meld.cards, meld.suit, meld.rank, meld.low, meld.wild


def _read_extension(
    kind: str,
    cards: tuple[str, ...],
    suit: str | None,
    rank: str | None,
    low: int,
    wild: int,
    added_: tuple[str, ...],
    wild_rank: str | None,
    ace: str | None,
) -> Layout:
    if len(added_) == 1 and wild_rank is None and ace is None:
        found = plain_extension(kind, cards, suit, rank, low, wild, added_[0])
        if found is not None:  # one reading only: no search (domain.burraco.meld_shortcuts)
            return found
    meld = Layout(kind, cards, suit, rank, low, wild)
    added = list(added_)
    if not added:
        raise MeldError("add at least one card to the meld")
    if meld.kind == SET:
        assert meld.rank is not None
        if wild_rank is not None and wild_rank != meld.rank:
            raise MeldError(f"in a set of {meld.rank}s the wild stands for a {meld.rank}")
        if meld.wild >= 0 and any(INFO[code].wild for code in added):
            raise MeldError("a set may hold at most one wild card and this one has its wild")
        return _arrange_set(meld.rank, [*meld.cards, *added])
    assert meld.suit is not None
    fixed = {meld.low + i: code for i, code in enumerate(meld.cards) if i != meld.wild}
    table_wild = None
    if meld.wild >= 0:
        table_wild = TableWild(
            meld.cards[meld.wild],
            meld.low + meld.wild,
            meld.wild in (0, len(meld.cards) - 1),  # Layout.wild_at_end
            fixed.keys(),
        )
        added = [meld.cards[meld.wild], *added]  # read again with the cards added
    return arrange_sequence(
        meld.suit, added, fixed, wild_rank=wild_rank, ace=ace, table_wild=table_wild
    )


# --- suit symmetry ---------------------------------------------------------------------------

# Rules 7–10 name no suit: a sequence of hearts reads as the same sequence of spades would,
# card for card. So a reading of one suit is remembered once, as spades (the hearts, diamonds
# or clubs swapped with the spades, a permutation that is its own inverse), and the layout is
# swapped back; a refusal is read again as played, since its message names the cards.
CANONICAL_SUIT: Final = "S"
OWN_TWO: Final = f"2{CANONICAL_SUIT}"  # the own 2 of a sequence read as spades (_sequence_takes)


def _swapped_code(code: str, suit: str) -> str:
    """``code`` with the suits ``suit`` and spades exchanged (the joker stays)."""
    own = INFO[code].suit
    if own == suit:
        return code[:-1] + CANONICAL_SUIT
    if own == CANONICAL_SUIT:
        return code[:-1] + suit
    return code


SWAPS: dict[str, dict[str, str]] = {
    suit: {code: _swapped_code(code, suit) for code in INFO} for suit in "HDC"
}


def _one_suit(cards: tuple[str, ...]) -> str | None:
    """The suit of every natural card in ``cards`` (wilds aside), if they share one."""
    suits = {INFO[code].suit for code in cards if not INFO[code].wild}
    return suits.pop() if len(suits) == 1 else None


def _swapped(layout: Layout, swap: dict[str, str], suit: str | None) -> Layout:
    cards = tuple(map(swap.__getitem__, layout.cards))
    return Layout(layout.kind, cards, suit, layout.rank, layout.low, layout.wild)


def _read_new_as_spades(cards: tuple[str, ...], wild_rank: str | None, ace: str | None) -> Layout:
    """:func:`_read_new`, remembered once for the four suits (see above)."""
    if wild_rank is None and ace is None:
        plain = plain_new(cards)  # read at once: nothing to share between suits
        if plain is not None:
            return plain
    suit = _one_suit(cards)
    if suit is None or suit == CANONICAL_SUIT:
        return _layout(_spades_new_reading(cards, wild_rank, ace))
    swap = SWAPS[suit]
    found = _spades_new_reading(tuple(map(swap.__getitem__, cards)), wild_rank, ace)
    if isinstance(found, str):
        return _read_new(cards, wild_rank, ace)  # the refusal, naming the cards played
    return _swapped(found, swap, suit if found.suit is not None else None)


def _read_extension_as_spades(
    kind: str,
    cards: tuple[str, ...],
    suit: str | None,
    rank: str | None,
    low: int,
    wild: int,
    added: tuple[str, ...],
    wild_rank: str | None,
    ace: str | None,
) -> Layout:
    """:func:`_read_extension`, a sequence's remembered once for the four suits (see above)."""
    key = (kind, cards, suit, rank, low, wild, added, wild_rank, ace)
    if len(added) == 1 and wild_rank is None and ace is None:
        plain = plain_extension(kind, cards, suit, rank, low, wild, added[0])
        if plain is not None:  # read at once: nothing to share between suits
            return plain
    if kind != SEQUENCE:
        return _read_extension(*key)  # a set: read at once (its suits make every key new)
    if suit is None or suit not in SWAPS:
        return _layout(_spades_extension_reading(*key))
    found = _sequence_as_spades(kind, cards, suit, rank, low, wild, added, wild_rank, ace)
    if isinstance(found, str):
        return _read_extension(*key)  # the refusal, naming the cards played
    return _swapped(found, SWAPS[suit], suit)


def _sequence_as_spades(
    kind: str,
    cards: tuple[str, ...],
    suit: str,
    rank: str | None,
    low: int,
    wild: int,
    added: tuple[str, ...],
    wild_rank: str | None,
    ace: str | None,
) -> Layout | str:
    """The reading of a sequence of ``suit`` with cards added, as read in spades (swapped)."""
    swap = SWAPS[suit]
    return _spades_extension_reading(
        kind,
        tuple(map(swap.__getitem__, cards)),
        CANONICAL_SUIT,
        rank,
        low,
        wild,
        tuple(map(swap.__getitem__, added)),
        wild_rank,
        ace,
    )


_spades_new_reading = _remembered(_read_new)
_spades_extension_reading = _remembered(_read_extension)
# the readings as played (what arrange_new and arrange_extension answer)
_new_reading = _remembered(_read_new_as_spades)
_extension_reading = _remembered(_read_extension_as_spades)


def forget_readings() -> None:
    """Forget every remembered reading (answers stay the same; benchmarks start cold)."""
    for remembered in (
        _new_reading,
        _extension_reading,
        _spades_new_reading,
        _spades_extension_reading,
    ):
        remembered.cache_clear()  # type: ignore[attr-defined]
    _set_takes.cache_clear()
    _sequence_takes.cache_clear()
