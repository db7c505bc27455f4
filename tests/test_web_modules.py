"""The web card room's shared modules name no game (issue 20): each game's board, hand panel,
narration and chart live in its own board module, found through the registry (``GET /games``:
``board``) and served from the game's package."""

from __future__ import annotations

import re
from pathlib import Path

from domain.games import games

WEB_JS = Path(__file__).resolve().parents[1] / "api" / "web" / "js"
GAME_NAMES = re.compile(r"bourr[eé]|burraco", re.IGNORECASE)


def test_the_shared_web_modules_name_no_game() -> None:
    shared = sorted(WEB_JS.glob("*.js"))
    assert len(shared) >= 10, "the shared modules were found"
    naming = {
        f"{path.name}:{n}": line.strip()
        for path in shared
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if GAME_NAMES.search(line)
    }
    assert naming == {}


def test_every_built_in_game_has_a_board_module_in_its_package() -> None:
    for game in games():
        assert game.board is not None and game.board.is_file(), game.name
        assert game.board.parent.name == game.name  # the game's own package
        source = game.board.read_text(encoding="utf-8")
        assert "export function renderBoard(" in source, game.name
        # it reaches the shared modules by their served URLs, wherever it is served from
        assert not re.search(r'from "\./', source), game.name
