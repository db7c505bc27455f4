"""Table options (spec §8) and the stacked-deck check for ``OpenTable``."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.cards import burraco_pack, codes, is_code
from domain.errors import InvalidOption
from domain.table import split_common_options

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
PACK_COUNTS = Counter(codes(burraco_pack()))


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


def normalise_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate ``raw`` (spec §8) and return every key with defaults filled in.

    Unknown keys and out-of-range values raise :class:`InvalidOption` naming the key.
    """
    common, own = split_common_options(raw)
    options = dict(DEFAULTS)
    for key, value in own.items():
        if key not in DEFAULTS:
            known = ", ".join(sorted([*DEFAULTS, *common]))
            raise InvalidOption(key, f"unknown option for burraco (known: {known})")
        if key in CHOICES:
            if type(value) is not type(CHOICES[key][0]) or value not in CHOICES[key]:
                allowed = ", ".join(str(v) for v in CHOICES[key])
                raise InvalidOption(key, f"must be one of {allowed}")
        elif key == "target":
            _positive_int(key, value, MAX_TARGET)
        elif key == "stalemate_rounds":
            _positive_int(key, value, MAX_STALEMATE_ROUNDS)
        elif key == "single_card_rediscard" and not isinstance(value, bool):
            raise InvalidOption(key, "must be true or false")
        options[key] = value
    return {**options, **common}


def check_decks(decks: Sequence[Sequence[str]]) -> list[list[str]]:
    """Rule 6: each stacked deck is an order of the 108-card pack (every non-joker code twice,
    ``JK`` four times). The error names the deck index and the card."""
    if not isinstance(decks, Sequence) or isinstance(decks, str):
        raise InvalidOption("decks", "must be a list of decks")
    checked: list[list[str]] = []
    for index, deck in enumerate(decks):
        if not isinstance(deck, Sequence) or isinstance(deck, str):
            raise InvalidOption("decks", f"deck {index} must be a list of card codes")
        for code in deck:
            if not is_code(code):
                raise InvalidOption("decks", f"deck {index}: {code!r} is not a card code")
        counts = Counter(deck)
        for code, count in counts.items():
            if count > PACK_COUNTS[code]:
                raise InvalidOption(
                    "decks",
                    f"deck {index}: {code} occurs {count} times (the pack has {PACK_COUNTS[code]})",
                )
        for code, count in PACK_COUNTS.items():
            if counts[code] < count:
                raise InvalidOption(
                    "decks",
                    f"deck {index}: {code} is missing (occurs {counts[code]} of {count} times)",
                )
        checked.append(list(deck))
    return checked
