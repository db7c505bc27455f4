"""Bot strategies: pure players deciding from what one seat may see (design §9, bots).

A strategy is ``choose(view, legal, rng) -> command``: ``view`` is the game's
``view(state, seat)`` for the bot's seat (never the full state), ``legal`` the seat's legal
commands, ``rng`` an explicit :class:`random.Random` seeded from data (:func:`rng_for`).
Strategies are not rules: the rules only ever offer legal commands, and a strategy picks one.
Each game lists its kinds, each with a one-line description, in its ``house.bots``
(:class:`domain.house.Bots`; a game without its own has ``random``), and keeps their strategies
in its own package; :func:`choose` is the one entry point the simulator and the bot process
manager call with a view, :func:`decide` the one they call with the state (a kind that
``searches`` reads it only through the game's determinization, :mod:`bots.search`).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.cards import derive_seed
from domain.errors import InvalidOption
from domain.games import game_named
from domain.house import RANDOM, Kind, Strategy, uniform

__all__ = [
    "RANDOM",
    "Kind",
    "Strategy",
    "UnknownBot",
    "choose",
    "decide",
    "kind_of",
    "kinds",
    "uniform",
]


def _kinds(game: str) -> dict[str, Kind]:
    """The bot kinds of the game called ``game`` (``house.bots``); an unknown game has none."""
    try:
        return {kind.name: kind for kind in game_named(game).house.bots.kinds}
    except InvalidOption:
        return {}


class UnknownBot(LookupError):
    """A bot kind that the game does not have."""


def kinds(game: str) -> dict[str, str]:
    """The bot kinds of ``game`` with their descriptions (a game without strategies of its own
    still has ``random``)."""
    return {name: kind.description for name, kind in _kinds(game).items()}


def kind_of(game: str, name: str) -> Kind:
    """The kind ``name`` of ``game``; raises :class:`UnknownBot` naming the known kinds."""
    known_kinds = _kinds(game)
    found = known_kinds.get(name)
    if found is None:
        known = ", ".join(sorted(known_kinds)) or "none"
        raise UnknownBot(f"no bot {name!r} for {game}; known: {known}")
    return found


def choose(
    game: str, kind: str, view: dict[str, Any], legal: Sequence[Any], rng: random.Random
) -> Any | None:
    """The command a bot of ``kind`` issues, or ``None`` when it has nothing legal to do."""
    if not legal:
        return None
    return kind_of(game, kind).choose(view, legal, rng)


def decide(
    game: Any, kind: str, state: Any, seat: int, legal: Sequence[Any], rng: random.Random
) -> Any | None:
    """The command a bot of ``kind`` issues at ``seat`` of ``state`` (``game`` a
    :class:`domain.game.Game`): a kind that ``searches`` asks :mod:`bots.search`, which reads
    the state only through the game's determinization (what the seat has seen); any other
    kind decides from the seat's view (:func:`choose`)."""
    if not legal:
        return None
    found = kind_of(game.name, kind)
    if found.searches and game.house.bots.search is not None:
        from bots.search import choose as search

        return search(game, state, seat, legal, rng)
    return found.choose(game.view(state, seat), legal, rng)


def rng_for(*labels: object) -> random.Random:
    """A generator seeded from data (e.g. table id, version and seat of the prompting event),
    so the same prompt always yields the same decision."""
    return random.Random(derive_seed("bot", *labels))
