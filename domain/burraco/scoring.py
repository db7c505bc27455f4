"""Scoring a hand per partnership (rules 22–26) and the match (rule 27).

The FITAB option grades burracos: royal (a clean run of 13, A–K) 300, super (a clean set of
all eight cards of a rank) 250, semi-clean (a sequence whose only wild sits at an end) 150;
everything else stays clean 200 / dirty 100. Semi-clean applies to sequences only, since a
set's wild has no position. A clean run of 13 holds every rank once, so the royal is either
A–K with the ace low or 2–A with a natural 2 and the ace high (the same thirteen cards).
"""

from __future__ import annotations

from domain.burraco.events import TeamScore
from domain.burraco.melds import SEQUENCE, SET, Layout
from domain.burraco.options import Options
from domain.burraco.state import Round, team_of
from domain.burraco.values import points_of

CLEAN_BURRACO = 200  # rule 24
DIRTY_BURRACO = 100  # rule 24
SEMI_CLEAN_BURRACO = 150  # option bonuses=fitab
ROYAL_BURRACO = 300  # option bonuses=fitab: a clean A–K run of 13
SUPER_BURRACO = 250  # option bonuses=fitab: a clean set of 8
CLOSING = 100  # rule 25
NO_POZZETTO = -100  # rule 26
ROYAL_LENGTH = 13
SUPER_LENGTH = 8


def burraco_bonus(layout: Layout, bonuses: str) -> int:
    """Rule 24 (and the FITAB option's grades) for one meld; 0 if it is not a burraco."""
    if not layout.burraco:
        return 0
    if bonuses == "fitab":
        if layout.clean and layout.kind == SEQUENCE and len(layout.cards) >= ROYAL_LENGTH:
            return ROYAL_BURRACO
        if layout.clean and layout.kind == SET and len(layout.cards) >= SUPER_LENGTH:
            return SUPER_BURRACO
        if not layout.clean and layout.kind == SEQUENCE and layout.wild_at_end:
            return SEMI_CLEAN_BURRACO
    return CLEAN_BURRACO if layout.clean else DIRTY_BURRACO


def team_score(round_: Round, team: int, options: Options) -> TeamScore:
    """Rules 22–26 for one partnership."""
    layouts = [m.layout for m in round_.melds if m.team == team]
    melds = sum(points_of(layout.cards) for layout in layouts)
    in_hand = -sum(
        points_of(round_.hands[seat]) + points_of(round_.sealed[seat])
        for seat in range(len(round_.hands))
        if team_of(seat) == team
    )
    burracos = sum(burraco_bonus(layout, options.bonuses) for layout in layouts)
    closed = round_.end_reason == "closed" and round_.closed_by is not None
    closing = CLOSING if closed and team_of(round_.closed_by or 0) == team else 0
    pozzetto = 0 if round_.pozzetto_of_team[team] is not None else NO_POZZETTO
    return TeamScore(
        melds=melds,
        in_hand=in_hand,
        burracos=burracos,
        closing=closing,
        pozzetto=pozzetto,
        total=melds + in_hand + burracos + closing + pozzetto,
        clean_burracos=sum(1 for lay in layouts if lay.burraco and lay.clean),
        dirty_burracos=sum(1 for lay in layouts if lay.burraco and not lay.clean),
    )


def score_hand(round_: Round, options: Options) -> list[TeamScore]:
    return [team_score(round_, team, options) for team in (0, 1)]


def match_winner(totals: list[int] | tuple[int, ...], target: int) -> int | None:
    """Rule 27: a team at or over the target wins; both over: the higher total; a tie: none."""
    over = [team for team in (0, 1) if totals[team] >= target]
    if not over:
        return None
    if len(over) == 1:
        return over[0]
    if totals[0] == totals[1]:
        return None  # exact tie: another hand
    return 0 if totals[0] > totals[1] else 1
