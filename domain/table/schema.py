"""The schema of a table option, as a form or a client shows it (design §5, ``GET /games``).

Each game lists its own options (``Game(options=...)``); the options every game accepts —
``reveal`` and ``spectator_delay`` (:mod:`domain.table.options`) and the turn clock's
(:mod:`domain.table.clock`, for games with a timeout move) — are added by the
:class:`domain.game.Game`. The schema describes what the game's own validation accepts (a test
holds each game's parser to it) and cites the rule of the game's rules document that defines
the option (a test holds it to ``docs/rules/<game>.md``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

INT = "int"
NUMBER = "number"  # an integer or a fraction (seconds)
BOOL = "bool"
CHOICE = "choice"


@dataclass(frozen=True, slots=True, kw_only=True)
class Option:
    """One option: its key, its type and range, its default, a one-line ``label`` and the
    ``rule`` that defines it (a number or a range such as ``"19–22"`` of the game's rules
    document; ``None`` where only the options table or the design speak of it).

    ``nullable``: ``null`` is accepted (``None`` means "no limit", "no clock", …);
    ``required``: the option must be given (``default`` is then ``None`` and ``suggested`` the
    value a form starts from); ``help``: a longer explanation, a tooltip's text."""

    name: str
    type: str
    default: Any
    label: str
    rule: str | None = None
    min: int | None = None
    max: int | None = None
    choices: tuple[Any, ...] | None = None
    nullable: bool = False
    required: bool = False
    suggested: Any = None
    help: str = ""

    def to_json(self) -> dict[str, Any]:
        """The option as ``GET /games`` serves it (every key present, ``null`` when unset)."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "min": self.min,
            "max": self.max,
            "choices": None if self.choices is None else list(self.choices),
            "nullable": self.nullable,
            "required": self.required,
            "suggested": self.suggested,
            "label": self.label,
            "rule": self.rule,
            "help": self.help,
        }
