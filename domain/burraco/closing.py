"""The end of a turn and of a hand (rules 12c, 17, 18, 20–27): the discard, the pozzetto taken
on the discard, closing, the exhausted stock and the stalemate; then the score and the next
deal, or the end of the match. Each gives its events and the table after them."""

from __future__ import annotations

from typing import Any

from domain.burraco.commands import Discard
from domain.burraco.deal import deal_hand
from domain.burraco.events import Discarded, HandClosed, HandScored, MatchWon, PozzettoOpened
from domain.burraco.evolve import evolve
from domain.burraco.scoring import match_winner, score_hand
from domain.burraco.state import Round, Table, team_of
from domain.burraco.turn import (
    Decision,
    apply,
    canonical,
    discard_fault,
    discards_restricted,
    require_held,
    require_play_phase,
    take_pozzetto,
)
from domain.burraco.values import INFO
from domain.errors import IllegalCommand
from domain.table import TableEnded


def discard(table: Table, r: Round, command: Discard) -> Decision:
    """Rules 12c–21: discard one card; then the pozzetto, the closing or the next turn."""
    require_play_phase(r, "discard")
    seat = command.seat
    if not isinstance(command.card, str):
        raise IllegalCommand("card must be a card code")
    code = command.card if command.card in INFO else canonical([command.card])[0]
    require_held(r.hands[seat], [code])
    fault = discard_fault(table, r, seat, code) if discards_restricted(table, r, seat) else ""
    if fault:
        raise IllegalCommand(fault)
    events: list[Any] = [Discarded(hand=r.number, seat=seat, card=code)]
    team = team_of(seat)
    if len(r.hands[seat]) == 1:
        if r.pozzetto_of_team[team] is not None:  # rule 18: the closing discard
            events.append(HandClosed(hand=r.number, reason="closed", seat=seat, team=team))
            return end_hand(events, apply(table, events))
        events.append(take_pozzetto(r, seat, direct=False))  # rule 17
    if r.last_turn:  # rule 20
        events.append(HandClosed(hand=r.number, reason="stock"))
        return end_hand(events, apply(table, events))
    if r.single_streak >= table.players * table.options.stalemate_rounds:  # rule 21
        events.append(HandClosed(hand=r.number, reason="stalemate"))
        return end_hand(events, apply(table, events))
    following = (seat + 1) % table.players
    sealed = r.sealed[following]
    if sealed:  # rule 17: the pozzetto taken on the discard is theirs from this turn
        events.append(PozzettoOpened(hand=r.number, seat=following, cards=list(sealed)))
    return events, apply(table, events)


def end_hand(events: list[Any], table: Table) -> Decision:
    """Rules 22–27: after ``events`` (which left ``table``), score the hand, then deal the
    next one or end the match."""
    r = table.round
    assert r is not None
    scores = score_hand(r, table.options)
    totals = [table.totals[team] + scores[team].total for team in (0, 1)]
    scored = HandScored(hand=r.number, scores=scores, totals=totals, deck=list(r.deck), salt=r.salt)
    table = evolve(table, scored)
    winner = match_winner(totals, table.options.target)
    if winner is not None:
        ending = [MatchWon(hand=r.number, team=winner, totals=totals), TableEnded(reason="match")]
        return [*events, scored, *ending], apply(table, ending)
    last = table.options.hands
    if last is not None and r.number >= last:  # rule 27, option hands: the last hand
        leader = None if totals[0] == totals[1] else 0 if totals[0] > totals[1] else 1
        won = [] if leader is None else [MatchWon(hand=r.number, team=leader, totals=totals)]
        ending = [*won, TableEnded(reason="hands")]
        return [*events, scored, *ending], apply(table, ending)
    dealt = deal_hand(table, r.number + 1)
    return [*events, scored, dealt], evolve(table, dealt)
