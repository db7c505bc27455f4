"""Burraco's ``House`` (:mod:`domain.house`): what it shows beyond its rules — score sheet,
lobby line, counters and statistics (:mod:`~domain.burraco.readmodels`), export rows
(:mod:`~domain.burraco.exportrows`), hand histories (:mod:`~domain.burraco.narration`) and
bots (:mod:`~domain.burraco.strategies`; ``search`` over :mod:`~domain.burraco.determinize`)."""

from __future__ import annotations

from domain.burraco import determinize, exportrows, readmodels, strategies
from domain.burraco.narration import narrate
from domain.house import Bots, Counting, House, Kind, Search, Statistics

HOUSE = House(
    ledger=readmodels.ledger,
    lobby=readmodels.lobby_line,
    counting=Counting(readmodels.counters, readmodels.COUNTED_BY_FIELDS),
    statistics=Statistics(
        count=readmodels.statistics,
        events=readmodels.STATISTICS_EVENTS,
        player_counters=readmodels.PLAYER_COUNTERS,
        figures=readmodels.figures,
    ),
    rows=exportrows.ROWS,
    narrate=narrate,
    bots=Bots(
        kinds=(
            Kind(
                "random",
                "Draws, melds and discards at random among its legal moves.",
                strategies.random_play,
            ),
            Kind(
                "basic",
                "Takes useful piles, melds toward burracos and the pozzetto, discards what "
                "feeds nobody.",
                strategies.basic,
            ),
            Kind(
                "search",
                "Searches: weighs drawing against the pile and its best discards over many "
                "deals of the unseen cards that agree with what it has seen.",
                strategies.basic,
                searches=True,
            ),
        ),
        search=Search(
            determinize=determinize.determinize,
            policy=strategies.playout_policy,
            candidates=strategies.search_candidates,
            fork=determinize.fork,
        ),
        hand=readmodels.hand_figures,
        scores=readmodels.seat_scores,
    ),
    ranking=readmodels.hand_ranking,
)
