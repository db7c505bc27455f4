"""Bot strategies: pure players deciding from what one seat may see (design §9, bots).

A strategy is ``choose(view, legal, rng) -> command``: ``view`` is the game's
``view(state, seat)`` for the bot's seat (never the full state), ``legal`` the seat's legal
commands, ``rng`` an explicit :class:`random.Random` seeded from data (:func:`rng_for`).
Strategies are not rules: the rules only ever offer legal commands, and a strategy picks one.
Each game lists its kinds in :data:`KINDS` with a one-line description; :func:`choose` is the
one entry point the simulator and the bot process manager call.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bots import bourre, burraco
from domain.cards import derive_seed

Strategy = Callable[[dict[str, Any], Sequence[Any], random.Random], Any]


@dataclass(frozen=True)
class Kind:
    """One kind of bot for one game: its strategy and a one-line description."""

    name: str
    description: str
    choose: Strategy


def uniform(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """Any legal command, uniformly."""
    return rng.choice(list(legal))


RANDOM = Kind("random", "Plays any legal command at random.", uniform)
KINDS: dict[str, dict[str, Kind]] = {
    "bourre": {
        "random": RANDOM,
        "basic": Kind(
            "basic",
            "Declares from hand strength, position and pot; keeps trumps and aces; "
            "heads tricks it can win.",
            bourre.basic,
        ),
    },
    "burraco": {
        "random": Kind(
            "random",
            "Draws, melds and discards at random among its legal moves.",
            burraco.random_play,
        ),
        "basic": Kind(
            "basic",
            "Takes useful piles, melds toward burracos and the pozzetto, discards what "
            "feeds nobody.",
            burraco.basic,
        ),
    },
}


class UnknownBot(LookupError):
    """A bot kind that the game does not have."""


def kinds(game: str) -> dict[str, str]:
    """The bot kinds of ``game`` with their descriptions (a game without strategies of its own
    still has ``random``)."""
    return {name: kind.description for name, kind in KINDS.get(game, {"random": RANDOM}).items()}


def kind_of(game: str, name: str) -> Kind:
    """The kind ``name`` of ``game``; raises :class:`UnknownBot` naming the known kinds."""
    found = KINDS.get(game, {"random": RANDOM}).get(name)
    if found is None:
        known = ", ".join(sorted(KINDS.get(game, {}))) or "none"
        raise UnknownBot(f"no bot {name!r} for {game}; known: {known}")
    return found


def choose(
    game: str, kind: str, view: dict[str, Any], legal: Sequence[Any], rng: random.Random
) -> Any | None:
    """The command a bot of ``kind`` issues, or ``None`` when it has nothing legal to do."""
    if not legal:
        return None
    return kind_of(game, kind).choose(view, legal, rng)


def rng_for(*labels: object) -> random.Random:
    """A generator seeded from data (e.g. table id, version and seat of the prompting event),
    so the same prompt always yields the same decision."""
    return random.Random(derive_seed("bot", *labels))
