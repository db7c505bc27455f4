"""What Burraco shows of a table beyond its views (``House``, :mod:`domain.house`): its score
sheet (the ledger), lobby line, analytics counters, player statistics and the figures a
simulation keeps per bot.

* Ledger: ``{"teams": [{"team","total"}], "hands": [{"hand","scores":[…],"breakdown":[…]}],
  "winner"}`` — the score sheet per team per scored hand (rules 22–27).
* Lobby line: seats, names, its own status (``seating`` while it waits), the hand, and the
  match so far: each team's total and the target score (rule 27); no ``openSeats``.
* Counters: tables, deals, melds, pozzetti (rules 15–17), how hands end (rules 18, 20–21),
  scored hands with their clean and dirty burracos (rule 24), and matches won (rule 27).
* Player statistics (a team's facts count for both partners): ``hands``, ``won`` (the higher
  score of the hand), ``matches``, ``clean_burracos``, ``dirty_burracos``, ``closings``,
  ``pozzetti_first`` (pozzetto 0: the first taken in the hand); per game ``hands``,
  ``team_hands`` and ``score_points`` (summed team scores of each hand, from which
  ``GET /stats`` derives the average hand score), ``clean_burracos``, ``dirty_burracos``,
  ``matches``.
* Bot figures: per partnership, ``won`` the hands the team outscored the other (rules
  22–27), ``net`` the team's points (bots are seated alternately, so partners share a kind).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.burraco.events import HandScored
from domain.burraco.state import team_of
from domain.house import Counters, PlayerCounter, Ranking, SideFigures, departures

# The two partnerships (rule 1), named as the views name them.
TEAMS = ("A", "B")


def ledger(game: Any, table: Any) -> dict[str, Any]:
    """Each team's total, every scored hand with its breakdown, the winner, and who left
    (``left``, only when someone has: the house's ``departures``)."""
    if table is None:
        return {"teams": [], "hands": [], "winner": None}
    out = {
        "teams": [{"team": TEAMS[t], "total": table.totals[t]} for t in (0, 1)],
        "hands": [
            {
                "hand": scored.hand,
                "scores": [s.total for s in scored.scores],
                "breakdown": [
                    {
                        "team": TEAMS[t],
                        "melds": s.melds,
                        "inHand": s.in_hand,
                        "burracos": s.burracos,
                        "closing": s.closing,
                        "pozzetto": s.pozzetto,
                        "total": s.total,
                    }
                    for t, s in enumerate(scored.scores)
                ],
            }
            for scored in table.results
        ],
        "winner": TEAMS[table.winner] if table.winner is not None else None,
    }
    if table.departures:
        out["left"] = departures(table.departures)
    return out


def lobby_line(game: Any, table: Any) -> dict[str, Any]:
    """Seats, names, its own status (``seating`` while it waits), the hand, and the match so
    far: each team's total and the target score (rule 27)."""
    seating = game.seating(table)
    return {
        "game": game.name,
        "seats": seating.seats,
        "names": list(seating.names),
        "status": table.status,
        "hand": seating.hand,
        "totals": list(table.totals),
        "target": table.options.target,
    }


_HAND_ENDINGS = {"closed": "closings", "stock": "stock_exhausted", "stalemate": "stalemates"}


def counters(game: Any, tag: str, event: Any) -> Counters:
    """Tables, deals, melds, pozzetti (rules 15–17), how hands end (rules 18, 20–21), scored
    hands with their clean and dirty burracos (rule 24), and matches won (rule 27)."""
    if tag == "TableOpened":
        return {"tables": 1}
    if tag == "Dealt":
        return {"hands_dealt": 1}
    if tag == "Melded":
        return {"melds": 1}
    if tag == "PozzettoTaken":
        kind = "pozzetti_direct" if event.direct else "pozzetti_on_discard"
        return {"pozzetti": 1, kind: 1}
    if tag == "HandClosed":
        return {_HAND_ENDINGS.get(event.reason, "hands_ended"): 1}
    if tag == "HandScored":
        return {
            "hands": 1,
            "burracos_clean": sum(s.clean_burracos for s in event.scores),
            "burracos_dirty": sum(s.dirty_burracos for s in event.scores),
        }
    if tag == "MatchWon":
        return {"matches": 1}
    return {}


# The events whose counters depend on their fields (every other type counts alike).
COUNTED_BY_FIELDS = frozenset({"PozzettoTaken", "HandClosed", "HandScored"})


def statistics(
    game: Any, tag: str, event: Any, names: list[str | None], player: PlayerCounter, totals: Any
) -> None:
    """One event's player statistics and per-game totals (the module docstring)."""

    def team(team: int, counter: str, amount: int) -> None:
        for seat in range(len(names)):
            if seat % 2 == team:  # partners sit opposite; heads-up each seat is a team
                player(seat, counter, amount)

    if tag == "HandScored":
        scores = [score.total for score in event.scores]
        totals["hands"] += 1
        totals["team_hands"] += len(scores)
        totals["score_points"] += sum(scores)
        for index, score in enumerate(event.scores):
            totals["clean_burracos"] += score.clean_burracos
            totals["dirty_burracos"] += score.dirty_burracos
            team(index, "hands", 1)
            team(
                index, "won", 1 if scores[index] > max(scores[:index] + scores[index + 1 :]) else 0
            )
            team(index, "clean_burracos", score.clean_burracos)
            team(index, "dirty_burracos", score.dirty_burracos)
    elif tag == "MatchWon":
        totals["matches"] += 1
        team(event.team, "matches", 1)
    elif tag == "HandClosed" and event.reason == "closed" and event.seat is not None:
        player(event.seat, "closings", 1)
    elif tag == "PozzettoTaken":
        player(event.seat, "pozzetti_first", 1 if event.pozzetto == 0 else 0)


STATISTICS_EVENTS = frozenset({"HandScored", "MatchWon", "HandClosed", "PozzettoTaken"})
PLAYER_COUNTERS = (
    "hands", "won", "matches", "clean_burracos", "dirty_burracos", "closings", "pozzetti_first",
)  # fmt: skip


def figures(counts: Mapping[str, int]) -> dict[str, Any]:
    """The average hand score per team."""
    hands = counts.get("team_hands", 0)
    return {"averageHandScore": counts.get("score_points", 0) / hands if hands else None}


def seat_scores(view: dict[str, Any]) -> dict[int, int]:
    """Each seat's team score, from a finished table's spectator view (rule 27)."""
    return {
        int(seat): int(team["score"]) for team in view.get("teams", []) for seat in team["seats"]
    }


def hand_figures(event: Any, seats: int) -> list[SideFigures] | None:
    """Each team's scored hand: won if it outscored the other, net its points."""
    if not isinstance(event, HandScored):
        return None
    totals = [score.total for score in event.scores]
    return [
        (team, totals[team] > max(totals[:team] + totals[team + 1 :]), totals[team])
        for team in range(len(totals))
    ]


def hand_ranking(event: Any, seats: int) -> Ranking | None:
    """Ratings (design §2.2): each scored hand (rules 22–27) ranks the partnerships by their
    hand's points (seats 0 and 2 against 1 and 3; heads-up, each seat alone). Equal points
    share a rank."""
    if not isinstance(event, HandScored):
        return None
    return [
        (tuple(seat for seat in range(seats) if team_of(seat) == team), score.total)
        for team, score in enumerate(event.scores)
    ]
