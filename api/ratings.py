"""Profiles and leaderboards (design §2.2): the service layer of ``GET /players/{name}`` and
``GET /leaderboard``, read from the ratings read model (:mod:`projections.ratings`) and the
accounts' streams. No answer holds anything of an account but its name and kind."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from api.problems import ApiProblem
from api.services import Services
from domain.games import game_named
from projections.ratings import POOLS

RECENT_TABLES = 10  # the tables a profile lists, newest first


def profile(services: Services, name: str) -> dict[str, Any]:
    """An account's (or a rated bot's) name, kind, ratings per game and its last
    :data:`RECENT_TABLES` tables; 404 for neither."""
    holder = services.accounts.holder(name) if 0 < len(name) <= 64 else None
    account = services.accounts.load(holder)[0] if holder is not None else None
    shown = account.name if account is not None else name
    names = services.accounts.names(holder) if holder is not None else [shown]
    kind, ratings = services.read_models.ratings.player(shown)
    if account is not None:
        kind = account.kind
    if kind is None:
        raise ApiProblem(404, "unknown-player", f"no account or rated player named {name!r}")
    return {
        "name": shown,
        "kind": kind,
        "bot": kind.startswith("bot:"),
        "ratings": ratings,
        "recentTables": recent_tables(services, names, shown),
        "links": {"stats": f"/players/{shown}/stats", "leaderboard": "/leaderboard"},
    }


def recent_tables(services: Services, names: list[str], now: str) -> list[dict[str, Any]]:
    """The last tables an account sat at (under any of its ``names``), newest first, as
    spectators see them now: id, game, status, hand, the names seated — the account's under
    the name it holds ``now`` (a claimed guest's earlier tables too; the tables' events keep
    the name it sat under) — and links."""
    found = []
    for table_id in services.read_models.accounts.recent_tables(names, RECENT_TABLES):
        view = services.read_models.view(UUID(table_id), None)
        if view is None:
            continue  # not projected (another shard's)
        found.append({
            "tableId": table_id,
            "game": view.get("game"),
            "status": view.get("status"),
            "hand": view.get("hand"),
            "players": [now if seat.get("name") in names else seat.get("name")
                        for seat in view.get("seats", [])],
            "links": {"table": f"/tables/{table_id}", "watch": f"/watch/{table_id}"},
        })  # fmt: skip
    return found


def leaderboard(
    services: Services, game: str | None, pool: str, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of ``game``'s leaderboard in ``pool`` and the next page's cursor (None: last)."""
    if game is None:
        raise ApiProblem(400, "malformed-request", "send ?game= with a game's name", field="game")
    game_named(game)  # 400 naming the game when there is none
    if pool not in POOLS:
        raise ApiProblem(400, "bad-pool", f"pool is one of {', '.join(POOLS)}", field="pool")
    offset = 0
    if cursor is not None:
        if not cursor.isdigit() or len(cursor) > 9:
            raise ApiProblem(
                400, "bad-cursor", "the cursor is not one this server gave", field="cursor"
            )
        offset = int(cursor)
    page = services.read_models.ratings.board(game, pool, offset, limit)
    return page, (str(offset + limit) if len(page) == limit else None)
