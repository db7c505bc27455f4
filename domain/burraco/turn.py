"""The turn (rules 7–17, 19): draw or take the pile, meld, add to a meld, the pozzetto; and
the checks ``decide`` and ``legal_commands`` share (legality is coded here once). The discard
and the end of the hand are :mod:`domain.burraco.closing`'s.

Each command gives its events and the table after them (a ``Decision``): the rules evolve the
table while checking, so the write side need not evolve the events again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from domain.burraco.candidates import extensions, pile_melds
from domain.burraco.commands import AddToMeld, Draw, Meld, TakePile
from domain.burraco.events import (
    CardDrawn,
    Melded,
    MeldExtended,
    PileTaken,
    PozzettoTaken,
)
from domain.burraco.evolve import evolve
from domain.burraco.melds import SET, Layout, MeldError, arrange_extension, arrange_new
from domain.burraco.state import (
    DRAW,
    ENDED,
    OVER,
    PLAY,
    PLAYING,
    WAITING,
    Round,
    Table,
    team_of,
)
from domain.burraco.values import INFO
from domain.cards import CardError, card
from domain.errors import DomainError, IllegalCommand, NotYourTurn, TableClosed

Decision = tuple[list[Any], Table]  # the events of a command and the table after them
TWO_LEFT: Final = 2  # rules 16 and 19 bite on a hand left with fewer cards than this


def apply(table: Table, events: Sequence[Any]) -> Table:
    for event in events:
        table = evolve(table, event)
    return table


# --- checks shared by decide and legal_commands ----------------------------------------------


def playing_round(table: Table, seat: int) -> Round:
    """The hand in play, and ``seat`` is to act in it."""
    r = table.round
    if (
        r is not None
        and type(seat) is int
        and seat == r.turn
        and table.status == PLAYING
        and r.phase != OVER
    ):
        return r  # the seat to act (else the checks below say what is wrong)
    if table.status == ENDED:
        raise TableClosed("the table is closed: the match is over")
    if table.status == WAITING or table.round is None:
        raise IllegalCommand("the hand starts when every seat is taken")
    players = table.options.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalCommand(f"there is no seat {seat!r} at this table")
    r = table.round
    if r.phase == OVER:
        raise IllegalCommand("the hand is over")
    if seat != r.turn:
        raise NotYourTurn(f"it is seat {r.turn}'s turn, not seat {seat}'s")
    return r


def canonical(codes_: Sequence[str]) -> list[str]:
    """The canonical codes of the cards a command names (``"10h"`` -> ``"10H"``)."""
    if not isinstance(codes_, (list, tuple)):
        raise IllegalCommand("cards must be a list of card codes")
    for code in codes_:
        if not isinstance(code, str):
            raise IllegalCommand("cards must be a list of card codes")
    if all(map(INFO.__contains__, codes_)):
        return list(codes_)  # canonical already
    try:
        return [code if code in INFO else card(code).code for code in codes_]
    except CardError as error:
        raise IllegalCommand(str(error)) from None


def require_held(hand: Sequence[str], wanted: Sequence[str]) -> None:
    """The seat holds every card named (with repeats)."""
    if len(wanted) == 1 and wanted[0] in hand:
        return
    remaining = list(hand)
    for code in wanted:
        if code not in remaining:
            more = " another" if code in hand else ""
            raise IllegalCommand(f"you do not hold{more} {code}")
        remaining.remove(code)


def closing_fault(table: Table, r: Round, seat: int, last_card: str) -> str:
    """Rule 18: why ``seat`` may not go out by discarding ``last_card`` ('' if it may)."""
    team = team_of(seat)
    if r.pozzetto_of_team[team] is None:
        return "your team must take its pozzetto before closing"
    layouts = [m.layout for m in r.melds if m.team == team]
    if table.options.close_requires == "clean_burraco":
        if not any(lay.burraco and lay.clean for lay in layouts):
            return "your team needs a clean burraco to close"
    elif not any(lay.burraco for lay in layouts):
        return "your team needs a burraco to close"
    c = card(last_card)
    if c.rank is None or c.rank.symbol == "2":
        return "the closing discard may not be a wild card"
    return ""


def discard_fault(table: Table, r: Round, seat: int, code: str, *, pile_rule: bool = True) -> str:
    """Why ``seat`` may not discard ``code`` now ('' if it may). Rules 13, 14, 18 and option
    ``take_pile``; ``pile_rule=False`` leaves the ``must_meld`` condition aside."""
    if (
        not table.options.single_card_rediscard
        and len(r.took_pile) == 1
        and r.took_pile[0] == code
        and r.hands[seat].count(code) == 1  # another copy of the same code may go,
        and not r.melded_from_pile  # and so may the copy left once one was melded
    ):
        return f"you took a single-card pile: you may not discard that same card ({code})"
    if pile_rule and must_still_meld_from_pile(table, r, seat):
        return "you took the pile: meld a card from it before you discard"
    if len(r.hands[seat]) == 1 and r.pozzetto_of_team[team_of(seat)] is not None:
        return closing_fault(table, r, seat, code)
    return ""


def discards_restricted(table: Table, r: Round, seat: int) -> bool:
    """Whether :func:`discard_fault` could refuse any card of ``seat``'s hand now: rule 13 only
    after a single-card pile take this turn (unless option ``single_card_rediscard``), option
    ``take_pile=must_meld`` only while the pile taken this turn is owed a meld, rule 18 only
    of a last card."""
    if len(r.hands[seat]) == 1:
        return True
    took = r.took_pile
    if not took:
        return False
    options = table.options
    return (len(took) == 1 and not options.single_card_rediscard) or (
        options.take_pile == "must_meld" and not r.melded_from_pile
    )


def must_still_meld_from_pile(table: Table, r: Round, seat: int) -> bool:
    """Option ``take_pile=must_meld``: a pile taken this turn must have a card melded — as long
    as one still can be (so a turn can always end)."""
    if table.options.take_pile != "must_meld" or not r.took_pile or r.melded_from_pile:
        return False
    return pile_card_meldable(table, seat)


def pile_card_meldable(table: Table, seat: int) -> bool:
    """Whether a meld or addition using a card of this turn's pile take is accepted now (it
    may not leave the player unable to discard: rule 19). The search is
    :func:`~domain.burraco.candidates.pile_melds`."""
    r = table.round
    assert r is not None
    team = team_of(seat)
    team_melds = [(m.id, m.layout) for m in r.melds if m.team == team]
    for c in pile_melds(r.hands[seat], team_melds, r.took_pile):
        try:
            if c.meld is None:
                meld(table, r, Meld(seat=seat, cards=list(c.cards)))
            else:
                add_to_meld(table, r, AddToMeld(seat=seat, meld=c.meld, cards=list(c.cards)))
        except DomainError:
            continue
        return True
    return False


def set_fault(table: Table, r: Round, team: int, layout: Layout) -> str:
    """Rule 8 (one set per rank per team) and option ``set_ranks``."""
    if layout.kind != SET:
        return ""
    if table.options.set_ranks == "aces_and_threes" and layout.rank not in ("A", "3"):
        return "at this table sets may be made only of aces or threes"
    for m in r.melds:
        if m.team == team and m.layout.kind == SET and m.layout.rank == layout.rank:
            return f"your team already has a set of {layout.rank}s"
    return ""


# --- the commands ----------------------------------------------------------------------------


def draw(table: Table, r: Round, command: Draw) -> Decision:
    """Rule 12a: draw the top card of the stock."""
    seat = command.seat
    if r.phase != DRAW:
        raise IllegalCommand("you have already drawn or taken the pile this turn")
    drawn = CardDrawn(
        hand=r.number, seat=seat, card=r.deck[r.stock_next], stock_left=r.stock_count - 1
    )
    return [drawn], evolve(table, drawn)


def take_pile(table: Table, r: Round, command: TakePile) -> Decision:
    """Rule 12a: take the whole discard pile (option ``take_pile=must_meld``: only when a card
    of the pile can be melded this turn)."""
    seat = command.seat
    if r.phase != DRAW:
        raise IllegalCommand("you have already drawn or taken the pile this turn")
    if not r.pile:
        raise IllegalCommand("the discard pile is empty: draw from the stock")
    taken = PileTaken(hand=r.number, seat=seat, cards=list(r.pile))
    after = evolve(table, taken)
    if table.options.take_pile == "must_meld" and not pile_card_meldable(after, seat):
        raise IllegalCommand(
            "at this table you may take the pile only to meld a card from it, and you cannot"
        )
    return [taken], after


def require_play_phase(r: Round, action: str) -> None:
    if r.phase != PLAY:
        raise IllegalCommand(f"you must draw (or take the pile) before you {action}")


def meld(table: Table, r: Round, command: Meld) -> Decision:
    """Rules 7–11: lay a new meld from hand."""
    return after_meld(table, command.seat, melded(table, r, command))


def melded(table: Table, r: Round, command: Meld) -> Melded:
    """The event of a new meld, once rules 7–11 allow it (rules 16 and 19 are
    :func:`after_meld`'s)."""
    require_play_phase(r, "meld")
    cards = canonical(command.cards)
    require_held(r.hands[command.seat], cards)
    team = team_of(command.seat)
    layout = new_layout(table, r, team, cards, wild_rank=command.wild_rank, ace=command.ace)
    return Melded(
        hand=r.number,
        seat=command.seat,
        team=team,
        meld=table.next_meld,
        kind=layout.kind,
        cards=list(layout.cards),
        suit=layout.suit,
        rank=layout.rank,
        low=layout.low,
        wild=layout.wild,
    )


def new_layout(
    table: Table,
    r: Round,
    team: int,
    cards: Sequence[str],
    *,
    wild_rank: str | None = None,
    ace: str | None = None,
) -> Layout:
    """How ``team`` would lay these cards as a new meld (rules 7–10, rule 8's one set per rank
    and option ``set_ranks``); a :class:`MeldError` says why it may not."""
    layout = arrange_new(cards, wild_rank=wild_rank, ace=ace)
    fault = set_fault(table, r, team, layout)
    if fault:
        raise MeldError(fault)
    return layout


def add_to_meld(table: Table, r: Round, command: AddToMeld) -> Decision:
    """Rules 7 and 10: add cards to one of the team's melds."""
    return after_meld(table, command.seat, extended(table, r, command))


def extended(table: Table, r: Round, command: AddToMeld) -> MeldExtended:
    """The event of an addition to a meld, once rules 7 and 10 allow it (rules 16 and 19 are
    :func:`after_meld`'s)."""
    require_play_phase(r, "add to a meld")
    cards = canonical(command.cards)
    require_held(r.hands[command.seat], cards)
    target = r.meld(command.meld) if isinstance(command.meld, int) else None
    team = team_of(command.seat)
    if target is None:
        raise IllegalCommand(f"there is no meld {command.meld!r} on the table this hand")
    if target.team != team:
        raise IllegalCommand("nobody adds to the opponents' melds (rule 7)")
    layout = arrange_extension(target.layout, cards, wild_rank=command.wild_rank, ace=command.ace)
    return MeldExtended(
        hand=r.number,
        seat=command.seat,
        team=team,
        meld=target.id,
        added=cards,
        cards=list(layout.cards),
        low=layout.low,
        wild=layout.wild,
    )


def after_meld(table: Table, seat: int, event: Melded | MeldExtended) -> Decision:
    """Rules 16 and 19: melding out takes the pozzetto at once, or — once the team has its
    pozzetto — is rejected when the player could not then discard legally. Under option
    ``take_pile=must_meld`` a meld that would leave no card of the pile meldable, before one
    has been melded, is rejected too: the turn could end without the meld the take required."""
    after = evolve(table, event)
    laid = event.cards if isinstance(event, Melded) else event.added
    if not refusable(table, seat, len(laid)):
        return [event], after
    r = after.round
    assert r is not None
    # Only while a pile meld is still owed. It was possible when the pile was taken, and every
    # meld since kept it possible, so only this meld's effect needs checking. (The trials of
    # pile_card_meldable all meld a pile card, so they never come back here.)
    if (
        table.options.take_pile == "must_meld"
        and r.took_pile
        and not r.melded_from_pile
        and not pile_card_meldable(after, seat)
    ):
        raise IllegalCommand(
            "you took the pile to meld a card from it: after this meld no card of the pile "
            "could be melded (option take_pile=must_meld)"
        )
    hand = r.hands[seat]
    team = team_of(seat)
    if not hand:
        if r.pozzetto_of_team[team] is not None:
            raise IllegalCommand(
                "you must keep a card to discard: your team has already taken its pozzetto "
                "(rule 19)"
            )
        pozzetto = take_pozzetto(r, seat, direct=True)
        return [event, pozzetto], evolve(after, pozzetto)
    if any(not discard_fault(after, r, seat, code, pile_rule=False) for code in hand):
        return [event], after
    fault = discard_fault(after, r, seat, hand[0], pile_rule=False)
    if len(hand) == 1 and r.pozzetto_of_team[team] is not None:
        raise IllegalCommand(f"you could not close after this meld: {fault} (rule 19)")
    if len(hand) == 1 and any(extensions(hand, [(m.id, m.layout) for m in r.team_melds(team)])):
        return [event], after  # rule 13's card, alone: it may still be melded out (rule 16)
    raise IllegalCommand(f"after this meld you could not discard: {fault}")


def refusable(table: Table, seat: int, laid: int) -> bool:
    """Whether :func:`after_meld` could refuse a meld of ``laid`` cards from ``seat``'s hand
    (see :func:`unrefusable`)."""
    return laid > unrefusable(table, seat)


def unrefusable(table: Table, seat: int) -> int:
    """The most cards a meld from ``seat``'s hand may lay with nothing in :func:`after_meld`
    able to refuse it: rules 16 and 19 bite only on a hand left with fewer than two cards (of
    two cards or more one can always be discarded: rule 13 bars only a lone copy of the single
    card taken), and option ``take_pile=must_meld`` only while a pile meld is owed (then
    every meld is checked: -1). Within it a meld stands as rules 7–11 allow it."""
    r = table.round
    assert r is not None
    if table.options.take_pile == "must_meld" and r.took_pile and not r.melded_from_pile:
        return -1
    return len(r.hands[seat]) - TWO_LEFT


def meld_allowed(table: Table, command: Meld | AddToMeld) -> bool:
    """Whether ``decide`` accepts this meld or addition by the seat to act — the same checks,
    without building the table after it when :func:`refusable` says nothing there can refuse
    it (what ``legal_commands`` asks of every meld it lists)."""
    try:
        r = playing_round(table, command.seat)
        if isinstance(command, Meld):
            event: Melded | MeldExtended = melded(table, r, command)
        else:
            event = extended(table, r, command)
        if refusable(table, command.seat, len(command.cards)):
            after_meld(table, command.seat, event)
    except DomainError:
        return False
    return True


def take_pozzetto(r: Round, seat: int, *, direct: bool) -> PozzettoTaken:
    """Rule 15: the first of each team to empty the hand takes a pozzetto — 0 if it is still
    there (the first player overall), else 1."""
    index = 0 if r.pozzetti[0] else 1
    return PozzettoTaken(
        hand=r.number,
        seat=seat,
        team=team_of(seat),
        pozzetto=index,
        cards=list(r.pozzetti[index]),
        direct=direct,
    )
