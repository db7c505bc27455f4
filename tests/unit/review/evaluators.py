"""A test evaluator for the review's wiring (tests only; production reviews use the search
bot): every move gets a value drawn from the generator the review hands it, so the values are
reproducible and differ from move to move, and the evaluator sees only what it is given."""

from __future__ import annotations

import random
from typing import Any


def seeded_values(game: Any, state: Any, seat: int, rng: random.Random) -> list[tuple[Any, float]]:
    """Values in [-2, 2] drawn from ``rng``, one per legal move of ``seat``, in their order."""
    return [(move, rng.uniform(-2.0, 2.0)) for move in game.legal_commands(state, seat)]


ENGINE = {"bot": "test", "rounds": 0}
