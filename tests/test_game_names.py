"""A game is one plug-in (design §2, "A game is one plug-in"): the layers outside ``domain/``
name no game. Everything a game adds — rules, visibility, ledger, lobby line, counters,
statistics, export rows, history text, bots — is reached through its registered ``Game``
entry (``domain.games``, the one place that lists the built-in games), so these modules must
not spell a built-in game's name, not even in a docstring."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("projections", "infra", "api", "bots")  # every Python module under each
NAMES = re.compile(r"bourr|burraco", re.IGNORECASE)  # "bourr" also finds "Bourré"
# The few modules allowed to name a game, each with its reason (none today: the registration
# point, domain/games.py, lies outside these layers).
ALLOWED: dict[str, str] = {}


def test_the_layers_outside_the_domain_name_no_game() -> None:
    files = sorted(path for layer in LAYERS for path in (ROOT / layer).rglob("*.py"))
    assert len(files) > 50, "the layers moved: update LAYERS"
    naming = {
        str(path.relative_to(ROOT)): sorted({m.group(0).lower() for m in NAMES.finditer(text)})
        for path in files
        if NAMES.search(text := path.read_text(encoding="utf-8"))
    }
    assert {path: found for path, found in naming.items() if path not in ALLOWED} == {}
    assert set(ALLOWED) <= set(naming), "an allowed module no longer names a game: drop it"


def test_the_registry_lists_the_built_in_games_in_one_place() -> None:
    registry = (ROOT / "domain" / "games.py").read_text(encoding="utf-8")
    assert re.search(r"for game in \(bourre, burraco\)", registry)
