"""Table options (spec §8) and their validation.

``seats`` sets the number of players (2 or 4), as at every table; ``players`` is its older
name and stays accepted (both at once must agree). The recorded options keep the key
``players``, so stored tables replay unchanged. An unknown key is refused naming it, with
every accepted option in the message.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from domain.errors import InvalidOption
from domain.table.options import split_options

DEFAULTS: dict[str, Any] = {
    "players": 4,
    "target": 2000,
    "bonuses": "standard",
    "close_requires": "any_burraco",
    "set_ranks": "any",
    "take_pile": "free",
    "single_card_rediscard": False,
    "stalemate_rounds": 1,
}
CHOICES: dict[str, tuple[Any, ...]] = {
    "players": (4, 2),
    "bonuses": ("standard", "fitab"),
    "close_requires": ("any_burraco", "clean_burraco"),
    "set_ranks": ("any", "aces_and_threes"),
    "take_pile": ("free", "must_meld"),
}
MAX_TARGET = 1_000_000
MAX_STALEMATE_ROUNDS = 100
SEATS_ALIAS = "seats"  # the name every game gives the number of players


@dataclass(frozen=True, slots=True)
class Options:
    """The normalised options of one table (spec §8 plus the common visibility keys)."""

    players: int = 4
    target: int = 2000
    bonuses: str = "standard"
    close_requires: str = "any_burraco"
    set_ranks: str = "any"
    take_pile: str = "free"
    single_card_rediscard: bool = False
    stalemate_rounds: int = 1
    reveal: str = "after_hand"
    spectator_delay: int = 0

    @classmethod
    def from_dict(cls, normalised: Mapping[str, Any]) -> Options:
        """From a ``TableOpened.options`` dict (already validated)."""
        known = {k: v for k, v in normalised.items() if k in cls.__dataclass_fields__}
        return cls(**known)


def _positive_int(key: str, value: Any, limit: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= limit:
        raise InvalidOption(key, f"must be an integer from 1 to {limit}")
    return value


def _seats_as_players(own: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``seats`` read as ``players``; the name the caller used, for error messages."""
    if SEATS_ALIAS not in own:
        return own, "players"
    seats = own.pop(SEATS_ALIAS)
    if "players" in own and own["players"] != seats:
        raise InvalidOption(
            SEATS_ALIAS,
            f"seats ({seats!r}) and players ({own['players']!r}) differ: they are one option "
            "(players is its older name); give one of them",
        )
    own["players"] = seats
    return own, SEATS_ALIAS


def normalise_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``raw`` (spec §8) and return every key with defaults filled in.

    Unknown keys and out-of-range values raise :class:`InvalidOption` naming the key.
    """
    common, own = split_options(raw, "burraco", [SEATS_ALIAS, *DEFAULTS])
    own, players_key = _seats_as_players(own)
    options = dict(DEFAULTS)
    for key, value in own.items():
        named = players_key if key == "players" else key
        if key in CHOICES:
            if type(value) is not type(CHOICES[key][0]) or value not in CHOICES[key]:
                allowed = ", ".join(str(v) for v in CHOICES[key])
                raise InvalidOption(named, f"must be one of {allowed}")
        elif key == "target":
            _positive_int(key, value, MAX_TARGET)
        elif key == "stalemate_rounds":
            _positive_int(key, value, MAX_STALEMATE_ROUNDS)
        elif key == "single_card_rediscard" and not isinstance(value, bool):
            raise InvalidOption(key, "must be true or false")
        options[key] = value
    return {**options, **common}
