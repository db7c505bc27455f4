"""The playout path of Burraco, its checks (design §6.1, :mod:`domain.burraco.playout`): the
rules ``turn.py`` checks on a table (rules 7–12, 25–26), on a position, and laying a meld or
taking the pozzetto."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.burraco.candidates import (
    extensions,
    pile_melds,
)
from domain.burraco.layout import SET, Layout, MeldError
from domain.burraco.melds import arrange_extension, arrange_new
from domain.burraco.playout_position import (
    TWO_LEFT,
    Position,
    copy,
)
from domain.burraco.values import INFO

# --- the checks (turn.py's, on a position) ----------------------------------------------------


def _team_melds(pos: Position, team: int) -> list[tuple[int, Layout]]:
    return [(meld_id, layout) for meld_id, owner, layout in pos.melds if owner == team]


def _set_fault(pos: Position, team: int, layout: Layout) -> bool:
    """Rule 8 (one set per rank per team) and option ``set_ranks``."""
    if layout.kind != SET:
        return False
    if pos.rules.set_ranks_limited and layout.rank not in ("A", "3"):
        return True
    for _, owner, other in pos.melds:
        if owner == team and other.kind == SET and other.rank == layout.rank:
            return True
    return False


def _closing_fault(pos: Position, seat: int, code: str) -> bool:
    """Rule 18: whether ``seat`` may not go out by discarding ``code``."""
    team = seat % 2
    if pos.pozzetto_of_team[team] < 0:
        return True
    layouts = [layout for _, owner, layout in pos.melds if owner == team]
    if pos.rules.clean_close:
        if not any(lay.burraco and lay.clean for lay in layouts):
            return True
    elif not any(lay.burraco for lay in layouts):
        return True
    info = INFO[code]
    return info.wild  # the joker and every 2 (rule 18: never a wild)


def _discard_fault(pos: Position, seat: int, code: str, pile_rule: bool = True) -> bool:
    """Rules 13, 14, 18 and option ``take_pile`` (``turn.discard_fault``)."""
    took = pos.took_pile
    hand = pos.hands[seat]
    if (
        not pos.rules.rediscard
        and len(took) == 1
        and took[0] == code
        and hand.count(code) == 1
        and not pos.melded_from_pile
    ):
        return True
    if pile_rule and _must_still_meld(pos, seat):
        return True
    return (
        len(hand) == 1 and pos.pozzetto_of_team[seat % 2] >= 0 and _closing_fault(pos, seat, code)
    )


def _restricted(pos: Position, seat: int) -> bool:
    """Whether :func:`_discard_fault` could refuse any card (``turn.discards_restricted``)."""
    if len(pos.hands[seat]) == 1:
        return True
    took = pos.took_pile
    if not took:
        return False
    return (len(took) == 1 and not pos.rules.rediscard) or (
        pos.rules.must_meld and not pos.melded_from_pile
    )


def _owed(pos: Position) -> bool:
    """Option ``take_pile=must_meld``: a pile taken this turn is still owed a meld."""
    return pos.rules.must_meld and bool(pos.took_pile) and not pos.melded_from_pile


def _must_still_meld(pos: Position, seat: int) -> bool:
    return _owed(pos) and _pile_card_meldable(pos, seat)


def _pile_card_meldable(pos: Position, seat: int) -> bool:
    """Whether a meld using a card of this turn's pile take is accepted now."""
    team_melds = _team_melds(pos, seat % 2)
    for c in pile_melds(pos.hands[seat], team_melds, pos.took_pile):
        if _allowed(pos, seat, c.meld or 0, c.cards):
            return True
    return False


def _unrefusable(pos: Position, seat: int) -> int:
    """The most cards a meld may lay with nothing after it able to refuse it
    (``turn.unrefusable``)."""
    if _owed(pos):
        return -1
    return len(pos.hands[seat]) - TWO_LEFT


def _held(hand: list[str], cards: Sequence[str]) -> bool:
    if len(cards) == 1:
        return cards[0] in hand
    remaining = hand[:]
    for code in cards:
        if code not in remaining:
            return False
        remaining.remove(code)
    return True


def _reading(
    pos: Position, seat: int, meld: int, cards: Sequence[str], hints: tuple[Any, Any] = (None, None)
) -> Layout | None:
    """Rules 7–11: the layout the cards make (new, or joining meld ``meld``), or ``None``."""
    if not _held(pos.hands[seat], cards):
        return None
    team = seat % 2
    try:
        if meld == 0:
            layout = arrange_new(cards, wild_rank=hints[0], ace=hints[1])
            return None if _set_fault(pos, team, layout) else layout
        for meld_id, owner, old in pos.melds:
            if meld_id == meld:
                if owner != team:
                    return None
                return arrange_extension(old, cards, wild_rank=hints[0], ace=hints[1])
    except MeldError:
        return None
    return None


def _lay(pos: Position, seat: int, meld: int, cards: Sequence[str], layout: Layout) -> None:
    """The meld on the table and out of the hand (``evolve``'s ``Melded``/``MeldExtended``)."""
    hand = pos.hands[seat]
    for code in cards:
        hand.remove(code)
    if meld == 0:
        meld = pos.next_meld
        pos.melds.append((meld, seat % 2, layout))
        pos.next_meld = meld + 1
    else:
        melds = pos.melds
        for index, (meld_id, owner, _) in enumerate(melds):
            if meld_id == meld:
                melds[index] = (meld_id, owner, layout)
                break
    took = pos.took_pile
    if took and not pos.melded_from_pile:
        pos.melded_from_pile = any(code in took for code in cards)


def _take_pozzetto(pos: Position, seat: int, direct: bool) -> None:
    """Rule 15: the first of each team to empty the hand takes a pozzetto (0 if still there);
    directly to play on (rule 16) or sealed until the next turn (rule 17)."""
    index = 0 if pos.pozzetti[0] else 1
    cards = pos.pozzetti[index]
    if direct:
        pos.hands[seat] += cards
    else:
        pos.sealed[seat] = cards
    pos.pozzetti[index] = ()
    pos.pozzetto_of_team[seat % 2] = index


def _stands_after(after: Position, seat: int) -> bool:
    """Rules 16 and 19 and option ``must_meld`` on the position after a meld
    (``turn.after_meld``, before a pozzetto taken directly)."""
    if _owed(after) and not _pile_card_meldable(after, seat):
        return False
    hand = after.hands[seat]
    team = seat % 2
    if not hand:
        return after.pozzetto_of_team[team] < 0
    if any(not _discard_fault(after, seat, code, pile_rule=False) for code in hand):
        return True
    if len(hand) == 1 and after.pozzetto_of_team[team] >= 0:
        return False
    return len(hand) == 1 and any(extensions(hand, _team_melds(after, team)))


def _allowed(
    pos: Position, seat: int, meld: int, cards: Sequence[str], hints: tuple[Any, Any] = (None, None)
) -> bool:
    """Whether ``decide`` accepts this meld by the seat to act (``turn.meld_allowed``)."""
    layout = _reading(pos, seat, meld, cards, hints)
    if layout is None:
        return False
    if len(cards) <= _unrefusable(pos, seat):
        return True
    trial = copy(pos)
    _lay(trial, seat, meld, cards, layout)
    return _stands_after(trial, seat)
