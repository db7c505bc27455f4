"""Profiles and leaderboards (design §2.2): the service layer of ``GET /players/{name}`` and
``GET /leaderboard``, read from the ratings read model (:mod:`projections.ratings`) and the
accounts' streams. No answer holds anything of an account but its name and kind."""

from __future__ import annotations

from typing import Any

from api.problems import ApiProblem
from api.services import Services
from domain.games import game_named
from projections.ratings import POOLS


def profile(services: Services, name: str) -> dict[str, Any]:
    """An account's (or a rated bot's) name, kind and ratings per game; 404 for neither."""
    holder = services.accounts.holder(name) if 0 < len(name) <= 64 else None
    account = services.accounts.load(holder)[0] if holder is not None else None
    shown = account.name if account is not None else name
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
        "links": {"stats": f"/players/{shown}/stats", "leaderboard": "/leaderboard"},
    }


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
