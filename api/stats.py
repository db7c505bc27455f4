"""What the statistics and hand-history routes call (design §8, "Analytics").

Player statistics and per-game totals come from their read models
(:mod:`projections.players`); derived figures (averages, rates) are computed here from the
stored sums. Names are not identities, and every statistics answer says so. A hand history is
the hand's events as spectators see them (the query service's timeline, so ``reveal`` and
``spectator_delay`` hold) told by :mod:`infra.history`; a hand still in play is a 409.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from api import embargo
from api.problems import ApiProblem
from api.services import Services
from domain.errors import InvalidOption
from domain.games import game_named
from infra.errors import HandNotDealt
from infra.history import tell, text_of

NOTE = (
    "Names are not identities: a name is whatever a player typed when taking a seat, so "
    "several people may share one and one person may use several."
)


def camel(counters: dict[str, int]) -> dict[str, int]:
    """Counter names as the API spells keys (``pot_chips`` -> ``potChips``)."""
    out = {}
    for name, value in counters.items():
        head, *rest = name.split("_")
        out[head + "".join(part.title() for part in rest)] = value
    return out


ACCOUNT_NOTE = (
    "An account's statistics: the seats it took signed in (under each name it has had), not "
    "a name typed at a seat by someone not signed in."
)


def account_names(services: Services, name: str) -> tuple[str, list[str]] | None:
    """The account holding ``name``: its name now and every name it sat under (None: no
    account holds it)."""
    holder = services.accounts.holder(name) if 0 < len(name) <= 64 else None
    if holder is None:
        return None
    account, _ = services.accounts.load(holder)
    if account is None:
        return None
    return account.name, services.accounts.names(holder)


def player_stats(services: Services, name: str) -> dict[str, Any]:
    """``name``'s statistics over every table, per game; 404 for a name never seated. A name
    an account holds answers the account's seats (design §2.2): a typed name is nobody's."""
    held = account_names(services, name)
    if held is not None:
        shown, names = held
        found = services.read_models.accounts.read(names)
        if found is None:
            raise ApiProblem(404, "unknown-player", f"{shown!r} has not sat at a table yet")
        games = {g: camel(c) for g, c in found.items()}
        return {"name": shown, "note": ACCOUNT_NOTE, "account": True, "games": games}
    found = services.read_models.player_stats(name)
    if found is None:
        raise ApiProblem(404, "unknown-player", f"no player named {name!r} has sat at a table")
    return {"name": name, "note": NOTE, "games": {g: camel(c) for g, c in found.items()}}


def _figures(game: str, counts: dict[str, int]) -> dict[str, Any]:
    """What the game called ``game`` derives from its totals (nothing for a game not known)."""
    try:
        return game_named(game).house.statistics.figures(counts)
    except InvalidOption:
        return {}


def game_stats(services: Services) -> dict[str, Any]:
    """Per-game totals: hands, every counter, and the figures each game derives from them
    (``house.statistics.figures``: averages, rates)."""
    totals = services.read_models.game_totals()
    games: dict[str, Any] = {}
    for game, counts in totals.items():
        answer: dict[str, Any] = {"hands": counts.get("hands", 0), "counts": camel(counts)}
        answer.update(_figures(game, counts))
        games[game] = answer
    return {"note": NOTE, "games": games}


def hand_history(services: Services, table_id: UUID, hand: int) -> dict[str, Any]:
    """Hand ``hand`` told in order, as spectators see it; 409 while it is in play."""
    queries = services.queries
    facts = queries.facts(table_id)
    embargo.require_open(services, table_id)  # a tournament's board (design §10)
    version, hands = services.store.hands(table_id)
    span = hands.span(hand, facts.visible_version(None, version))
    if span is None:
        raise HandNotDealt(f"hand {hand} has not been dealt at this table")
    if span.settled is None:
        raise ApiProblem(
            409, "hand-in-play", f"hand {hand} is still in play; its history follows once it "
            "has settled", field="n",
        )  # fmt: skip
    events = [
        event
        for event in queries.timeline(table_id, None, span.start, span.settled)
        if event.get("hand") == hand
    ]
    state = services.store.get(table_id, span.settled).state
    names = list(facts.game.seating(state).names)
    lines = tell(facts.game.name, names, events)
    return {
        "tableId": str(table_id),
        "game": facts.game.name,
        "hand": hand,
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(names)],
        "events": events,
        "lines": lines,
        "text": text_of(lines),
    }
