"""High card: a tiny game that lives only in the tests, to prove that a game is one package
plus one ``register`` call (the fixture in ``conftest.py``). Its rules are in ``rules``;
seats, tokens, the deck of each hand and closing are the table kernel's.

Modules: ``commands`` / ``events`` — the wire types; ``state`` — the state and ``evolve``;
``rules`` — options, deal, ``decide``, ``to_act``, ``legal_commands``, the kernel plug;
``visibility`` — ``view`` and ``redact``; ``house`` — what it shows beyond its rules (ledger,
lobby line, counters, export rows, history, bots); ``board.js`` — its board on the web pages.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from domain.game import Game
from tests.highcard import rules, visibility
from tests.highcard.commands import HighCardCommand
from tests.highcard.events import HandWon, HighCardEvent
from tests.highcard.house import HOUSE
from tests.highcard.state import Table, evolve


class Rules:
    decide = staticmethod(rules.decide)
    evolve = staticmethod(evolve)
    legal_commands = staticmethod(rules.legal_commands)
    to_act = staticmethod(rules.to_act)


GAME: Game[Table, Any, Any] = Game(
    name="highcard",
    command_type=HighCardCommand,
    event_type=HighCardEvent,
    rules=Rules(),
    visibility=visibility,
    table=rules.TABLE,
    settles_hand=lambda event: isinstance(event, HandWon),
    options=rules.SCHEMA,  # its options as a form shows them (GET /games)
    board=Path(__file__).with_name("board.js"),  # its board on the web pages (board.js)
    house=HOUSE,
)
