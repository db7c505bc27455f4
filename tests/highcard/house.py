"""What high card shows beyond its rules — its ``House`` (:mod:`domain.house`), supplied by its
own entry like any game's: a ledger of wins, a lobby line, counters and statistics, export
rows, a hand history and a bot that plays its highest card.

* Ledger: ``{"players": [{"seat","name","wins"}], "hands": n}`` — the hands each seat won
  (rule 3) and the hands to play (rule 4).
* Lobby line: the kernel's facts and ``handsToPlay`` (rule 4).
* Counters: ``hands`` won (rule 3), ``cards_played`` (rule 2), ``players_seated``; statistics:
  per name ``hands`` and ``won``, per game ``hands`` and ``cards``, from which ``GET /stats``
  derives ``cardsPerHand``.
* Export rows: the dealer (rule 1), ``winners`` and each seat's ``won`` (rule 3) — columns
  every table has or another game declared already, so registering high card leaves the
  export's schema as it is.
* History: "Bob deals · Ann plays A♠ · Bob plays K♥ · Ann wins with A♠".
* Bots: ``random`` and ``high`` (plays its highest card, rule 3); per seat ``won`` the hands
  it won.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from domain.house import (
    RANDOM,
    Bots,
    Counting,
    HandFacts,
    HandRows,
    House,
    Kind,
    PlayerCounter,
    SideFigures,
    Statistics,
    dealer_row,
    seating_line,
)
from domain.narration import Event, Teller, card
from tests.highcard.events import HandWon
from tests.highcard.rules import strength
from tests.highcard.state import Table


def ledger(game: Any, state: Table | None) -> dict[str, Any]:
    """Each seat's wins (rule 3) and the hands the table plays (rule 4)."""
    if state is None:
        return {"players": [], "hands": 0}
    return {
        "players": [
            {"seat": seat, "name": state.names[seat], "wins": state.wins[seat]}
            for seat in range(state.seats)
        ],
        "hands": int(state.options["hands"]),
    }


def lobby_line(game: Any, state: Table) -> dict[str, Any]:
    """The kernel's facts and the hands the table plays (rule 4)."""
    return {**seating_line(game, state), "handsToPlay": int(state.options["hands"])}


def counters(game: Any, tag: str, event: Any) -> dict[str, int]:
    """Hands won (rule 3), cards played (rule 2), players seated."""
    return {"HandWon": {"hands": 1}, "CardPlayed": {"cards_played": 1}}.get(
        tag, {"players_seated": 1} if tag == "PlayerSeated" else {}
    )


def statistics(
    game: Any, tag: str, event: Any, names: list[str | None], player: PlayerCounter, totals: Any
) -> None:
    """Per name the hands played and won (rule 3); per game the hands and cards played."""
    if tag == "CardPlayed":
        totals["cards"] += 1
    elif tag == "HandWon":
        totals["hands"] += 1
        for seat in range(len(names)):
            player(seat, "hands", 1)
            player(seat, "won", 1 if seat == event.seat else 0)


def figures(counts: Mapping[str, int]) -> dict[str, Any]:
    hands = counts.get("hands", 0)
    return {"cardsPerHand": counts.get("cards", 0) / hands if hands else None}


def summarise(hand: HandFacts, row: dict[str, Any], seats: list[dict[str, Any]]) -> None:
    """The dealer (rule 1) and who won (rule 3)."""
    dealer_row(hand, row, seats)
    won = hand.first.get("HandWon")
    if won is None:
        return
    row["winners"] = [won["seat"]]
    for result in seats:
        result["won"] = result["seat"] == won["seat"]


def narrate(teller: Teller, event: Event) -> str | None:
    """Rules 1–3 in words."""
    kind = event["type"]
    if kind == "Dealt":
        return f"{teller.who(event['dealer'])} deals"
    if kind == "CardPlayed":
        return f"{teller.who(event['seat'])} plays {card(event['card'])}"
    if kind == "HandWon":
        return f"{teller.who(event['seat'])} wins with {card(event['card'])}"
    return None


def highest(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """The highest card it holds (rule 3)."""
    return max(legal, key=lambda command: strength(command.card))


def hand_figures(event: Any, seats: int) -> list[SideFigures] | None:
    if not isinstance(event, HandWon):
        return None
    return [(seat, seat == event.seat, 0) for seat in range(seats)]


HOUSE = House(
    ledger=ledger,
    lobby=lobby_line,
    counting=Counting(counters, by_fields=frozenset()),
    statistics=Statistics(
        count=statistics,
        events=frozenset({"CardPlayed", "HandWon"}),
        player_counters=("hands", "won"),
        figures=figures,
    ),
    rows=HandRows(
        summarise=summarise,
        reads=frozenset({"Dealt", "HandWon"}),
        hand_columns={"winners": "INTEGER[]"},
    ),
    narrate=narrate,
    bots=Bots(
        kinds=(RANDOM, Kind("high", "Plays its highest card.", highest)),
        hand=hand_figures,
        scores=lambda view: {seat["seat"]: seat["wins"] for seat in view["seats"]},
    ),
)
