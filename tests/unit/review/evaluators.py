"""A test evaluator for the review's wiring (tests only; production reviews use the search
bot): every move gets a value drawn from the generator the review hands it, so the values are
reproducible and differ from move to move, and the evaluator sees only what it is given."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def seeded_values(
    game: Any, state: Any, seat: int, moves: Sequence[Any], rng: random.Random
) -> list[tuple[Any, float]]:
    """Values in [-2, 2] drawn from ``rng``, one per move, in the order of ``moves``."""
    return [(move, rng.uniform(-2.0, 2.0)) for move in moves]
