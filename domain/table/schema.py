"""The schema of a table option, as a form or a client shows it (design §5, ``GET /games``).

Each game lists its own options (``Game(options=...)``); the options every game accepts —
``reveal`` and ``spectator_delay`` (:mod:`domain.table.options`) and the turn clock's
(:mod:`domain.table.clock`, for games with a timeout move) — are added by the
:class:`domain.game.Game`. The schema describes what the game's own validation accepts (a test
holds each game's parser to it) and cites the rule of the game's rules document that defines
the option (a test holds it to ``docs/rules/<game>.md``). A choice's values are shown in
words (``choice_labels``), and a game may offer presets (:class:`Preset`): named sets of
options a form fills in at once (``Game(presets=...)``, each game's ``PRESETS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
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
    value a form starts from); ``help``: a longer explanation, a tooltip's text;
    ``choice_labels``: each of ``choices`` in words, in the same order (by default the value
    with its underscores read as spaces)."""

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
    choice_labels: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.choice_labels is not None and len(self.choice_labels) != len(self.choices or ()):
            raise ValueError(f"option {self.name}: one label per choice")

    def words(self) -> list[str] | None:
        """Each choice in words (``choice_labels``, or the value with spaces for ``_``)."""
        if self.choices is None:
            return None
        if self.choice_labels is not None:
            return list(self.choice_labels)
        return [str(value).replace("_", " ") for value in self.choices]

    def to_json(self) -> dict[str, Any]:
        """The option as ``GET /games`` serves it (every key present, ``null`` when unset)."""
        return {
            "name": self.name,
            "type": self.type,
            "default": self.default,
            "min": self.min,
            "max": self.max,
            "choices": None if self.choices is None else list(self.choices),
            "choiceLabels": self.words(),
            "nullable": self.nullable,
            "required": self.required,
            "suggested": self.suggested,
            "label": self.label,
            "rule": self.rule,
            "help": self.help,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Preset:
    """A named set of options a form fills in at once (``pagat standard``, ``heads-up``):
    ``name`` its key, ``label`` its name in words, ``options`` the values it sets (every other
    option keeps its default) and ``help`` what it is, a tooltip's text. A test holds each
    game's presets to its option parser."""

    name: str
    label: str
    options: Mapping[str, Any]
    help: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", MappingProxyType(dict(self.options)))

    def to_json(self) -> dict[str, Any]:
        """The preset as ``GET /games`` serves it."""
        return {
            "name": self.name,
            "label": self.label,
            "options": dict(self.options),
            "help": self.help,
        }
