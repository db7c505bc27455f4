"""``GET /games``: the registered games with their options and board renderers (design §5);
``GET /games/{game}/board.js``: a game's board renderer, the ES module the web pages import."""

from __future__ import annotations

from typing import Annotated

from litestar import Response, get
from litestar.params import PathParameter

from api import catalogue
from api.problems import documented
from api.schemas import GameEntry

GameName = Annotated[str, PathParameter(max_length=64, description="a registered game")]


@get("/games", summary="Games and their options", sync_to_thread=False)
def list_games() -> list[GameEntry]:
    """Every game a table may be opened for: ``game`` (``POST /tables``' ``game``), ``title``,
    each option with its type, range, default, a one-line ``label`` and the ``rule`` of the
    game's rules document that defines it, and ``board``: the URL of its board renderer."""
    return catalogue.game_entries()


@get(
    "/games/{game:str}/board.js",
    summary="A game's board renderer",
    sync_to_thread=False,
    responses=documented(400, 404),
)
def board_module(game: GameName) -> Response[bytes]:
    """The game's board renderer: an ES module exporting what the web pages draw of it."""
    return Response(catalogue.board_source(game), media_type="text/javascript")


ROUTES = [list_games, board_module]
