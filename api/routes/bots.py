"""``GET /bots``: the kinds of server-side bots a seat may hold, per game (design §9)."""

from __future__ import annotations

from litestar import get

from api import reads


@get("/bots", summary="Bot kinds", sync_to_thread=False)
def bot_kinds() -> dict[str, dict[str, str]]:
    """Each game's bot kinds with a one-line description; seat one with ``POST
    /tables/{id}/seats {"bot": "<kind>"}``."""
    return reads.bot_kinds()


ROUTES = [bot_kinds]
