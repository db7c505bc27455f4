"""Bourré's ``House`` (:mod:`domain.house`): what it shows beyond its rules — ledger, lobby
line, counters and statistics (:mod:`~domain.bourre.readmodels`), export rows
(:mod:`~domain.bourre.exportrows`), hand histories (:mod:`~domain.bourre.narration`) and bots
(:mod:`~domain.bourre.strategies`; ``search`` over :mod:`~domain.bourre.determinize`)."""

from __future__ import annotations

from domain.bourre import determinize, exportrows, playout, readmodels, strategies
from domain.bourre.narration import narrate
from domain.house import RANDOM, Bots, Counting, House, Kind, Search, Statistics

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
            RANDOM,
            Kind(
                "basic",
                "Declares from hand strength, position and pot; keeps trumps and aces; "
                "heads tricks it can win.",
                strategies.basic,
            ),
            Kind(
                "search",
                "Searches: plays each legal move out over many deals of the unseen cards that "
                "agree with what it has seen (voids included), and picks the best on average.",
                strategies.basic,
                searches=True,
            ),
        ),
        search=Search(
            determinize=determinize.determinize,
            playout=playout,  # random playouts on the fast path (design §6.1)
            policy=strategies.playout_policy,
            candidates=strategies.search_candidates,
            fork=determinize.fork,
        ),
        hand=readmodels.hand_figures,
        table=readmodels.table_nets,
        scores=readmodels.table_nets,
    ),
    ranking=readmodels.hand_ranking,
)
