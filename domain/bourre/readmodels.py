"""What Bourré shows of a table beyond its views (``House``, :mod:`domain.house`): its ledger,
lobby line, analytics counters, player statistics and the figures a simulation keeps per bot.

* Ledger: ``{"pot", "players": [{"seat","name","net"}], "hands": [{"hand","pot","winner",
  "bourre":[seats],"tied":[seats]}]}`` — chips per player per settled hand (rules 23–28).
* Lobby line: the kernel's facts and the chips in the pot.
* Counters: settled hands and their pots, bourrés, split pots, solo wins (rules 16, 23–25),
  plays and passes (rules 11–12), cards, tricks, reshuffles (rule 14), antes (rules 5–6).
* Player statistics: ``hands`` dealt in and settled, ``won`` (the pot alone), ``split`` (a
  tied share), ``chips`` net (antes, payouts and bourré payments, rules 5–7 and 23–27),
  ``bourres`` (rule 24), ``played`` and ``passed`` (rules 11–12); per game ``hands``,
  ``pot_chips`` (summed pots), ``hands_seats_{n}`` and ``bourre_hands_seats_{n}`` (hands with
  a bourré, by seat count), from which ``GET /stats`` derives the average pot and the bourré
  rate by seat count.
* Bot figures: per seat, ``won`` the hands whose pot it took (rule 23), ``net`` its chips
  (rules 27–28, read from the finished table).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.bourre.events import HandSettled
from domain.house import Counters, PlayerCounter, Ranking, SideFigures, departures, seating_line


def ledger(game: Any, state: Any) -> dict[str, Any]:
    """The pot, each player's net, every settled hand (``state.history``), and who left
    (``left``: the person who played a seat until that hand, a bot from then; only when
    someone has)."""
    if state is None:
        return {"pot": 0, "players": [], "hands": []}
    seating = game.seating(state)
    out = {
        "pot": state.pot,
        "players": [
            {"seat": seat, "name": seating.names[seat], "net": state.nets[seat]}
            for seat in range(seating.seats)
        ],
        "hands": [
            {
                "hand": record.hand,
                "pot": record.pot,
                "winner": record.winner,
                "bourre": list(record.bourre),
                "tied": list(record.tied),
            }
            for record in state.history
        ],
    }
    if state.departures:
        out["left"] = departures(state.departures)
    return out


def lobby_line(game: Any, state: Any) -> dict[str, Any]:
    """The kernel's facts and the chips in the pot."""
    line = seating_line(game, state)
    line["pot"] = state.pot
    return line


def counters(game: Any, tag: str, event: Any) -> Counters:
    """Settled hands and their pots, bourrés, split pots, solo wins (rules 16, 23–25), plays
    and passes (rules 11–12), cards, tricks, reshuffles (rule 14), antes (rules 5–6)."""
    if tag == "HandSettled":
        return {
            "hands": 1,
            "pot_chips": event.pot,
            "bourres": len(event.bourre),
            "split_pots": 1 if event.tied else 0,
            "solo_wins": 1 if event.solo else 0,
        }
    if tag == "PlayerSeated":
        return {"players_seated": 1}
    if tag == "Declared" and not event.sealed:
        return {"plays": 1} if event.play else {"passes": 1}
    if tag == "DecisionsRevealed":
        plays = sum(event.plays)
        return {"plays": plays, "passes": len(event.plays) - plays}
    if tag == "CardPlayed":
        return {"cards_played": 1}
    if tag == "TrickWon":
        return {"tricks": 1}
    if tag == "Reshuffled":
        return {"reshuffles": 1}
    if tag == "Anted":
        return {"ante_chips": event.amount * len(event.seats)}
    return {}


# The events whose counters depend on their fields (every other type counts alike).
COUNTED_BY_FIELDS = frozenset({"HandSettled", "Declared", "DecisionsRevealed", "Anted"})


def statistics(
    game: Any, tag: str, event: Any, names: list[str | None], player: PlayerCounter, totals: Any
) -> None:
    """One event's player statistics and per-game totals (the module docstring)."""
    if tag == "Anted":
        for seat in event.seats:
            player(seat, "chips", -event.amount)
    elif tag == "Declared" and not event.sealed:
        player(event.seat, "played" if event.play else "passed", 1)
    elif tag == "DecisionsRevealed":
        for seat, play in enumerate(event.plays):
            player(seat, "played" if play else "passed", 1)
    elif tag == "HandSettled":
        seats = len(names)
        totals["hands"] += 1
        totals["pot_chips"] += event.pot
        totals[f"hands_seats_{seats}"] += 1
        totals[f"bourre_hands_seats_{seats}"] += 1 if event.bourre else 0
        for seat in range(seats):
            player(seat, "hands", 1)
            player(seat, "won", 1 if seat == event.winner else 0)
            player(seat, "split", 1 if seat in event.tied else 0)
            player(seat, "bourres", 1 if seat in event.bourre else 0)
            paid = event.bourre_payment if seat in event.bourre else 0
            player(seat, "chips", event.payouts[seat] - paid)


STATISTICS_EVENTS = frozenset({"Anted", "Declared", "DecisionsRevealed", "HandSettled"})
PLAYER_COUNTERS = ("hands", "won", "split", "chips", "bourres", "played", "passed")


def _ratio(part: int, whole: int) -> float | None:
    return part / whole if whole else None


def figures(counts: Mapping[str, int]) -> dict[str, Any]:
    """The average pot and the bourré rate by seat count."""
    return {
        "averagePot": _ratio(counts.get("pot_chips", 0), counts.get("hands", 0)),
        "bourreRateBySeats": {
            counter.removeprefix("hands_seats_"): _ratio(counts.get(f"bourre_{counter}", 0), hands)
            for counter, hands in sorted(counts.items())
            if counter.startswith("hands_seats_")
        },
    }


def hand_figures(event: Any, seats: int) -> list[SideFigures] | None:
    """Each seat's hand, and whether it took the pot (rule 23)."""
    if not isinstance(event, HandSettled):
        return None
    return [(seat, event.winner == seat, 0) for seat in range(seats)]


def table_nets(view: dict[str, Any]) -> dict[int, int]:
    """Each seat's chips, from a finished table's spectator view (rules 27–28)."""
    return {int(entry["seat"]): int(entry["net"]) for entry in view["seats"]}


def hand_ranking(event: Any, seats: int) -> Ranking | None:
    """Ratings (design §2.2): each seat of a settled hand by the chips it won — its payout
    (rules 23–25) less its bourré payment (rule 26); every seat anted alike, so the ante
    changes no rank. Equal chips share a rank."""
    if not isinstance(event, HandSettled):
        return None
    return [
        ((seat,), event.payouts[seat] - (event.bourre_payment if seat in event.bourre else 0))
        for seat in range(seats)
    ]
