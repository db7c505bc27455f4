"""Table options of Bourré (spec §9) and their validation.

Every key of the options table is accepted with its default; unknown keys (the message lists
every accepted option) and out-of-range values raise :class:`InvalidOption` naming the key.
The normalised dictionary (every key present, common visibility keys included) is what
``TableOpened.options`` records, so a replay never depends on defaults that might change
later.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from domain.errors import InvalidOption
from domain.table.options import split_options

DECLARATIONS = ("sequential", "two_round", "simultaneous")
TRUMP_CARDS = ("dealer_card", "separate", "separate_dealer_may_take")
CINCH_MODES = ("equivalent", "strict", "off")
TIE_MODES = ("carry", "split")
RESHUFFLE_POOLS = ("served_discards", "all_discards")

DEFAULTS: dict[str, Any] = {
    "ante": 1,
    "pot_limit": None,
    "double_ante": False,
    "declaration": "sequential",
    "trump_card": "dealer_card",
    "four_card": False,
    "max_discard": 5,
    "ace_forces_dealer": True,
    "cinch": "equivalent",
    "tie": "carry",
    "reshuffle_pool": "served_discards",
    "hands": None,
    "buy_in": None,
}
# Bounds the ante and the pot limit. Without a pot_limit the pot itself is unbounded: each
# bourré player pays the whole pot into the next one (rule 25), so it can compound past int64.
MAX_CHIPS = 10**9


class Options(msgspec.Struct, frozen=True, kw_only=True):
    """The validated rule options of one table (spec §9)."""

    seats: int
    ante: int = 1
    pot_limit: int | None = None
    double_ante: bool = False
    declaration: str = "sequential"
    trump_card: str = "dealer_card"
    four_card: bool = False
    max_discard: int = 5
    ace_forces_dealer: bool = True
    cinch: str = "equivalent"
    tie: str = "carry"
    reshuffle_pool: str = "served_discards"
    hands: int | None = None
    target_chips: int | None = None  # the table ends once a player's net reaches it

    @property
    def hand_size(self) -> int:
        """Five cards each; four with ``four_card`` (rule 33)."""
        return 4 if self.four_card else 5

    @property
    def dealer_owns_trump_card(self) -> bool:
        """Rule 8: the dealer's last card is the face-up trump card (``dealer_card`` mode)."""
        return self.trump_card == "dealer_card"


def _int(key: str, value: Any, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidOption(key, f"must be an integer from {low} to {high}, got {value!r}")
    return value


def _optional_int(key: str, value: Any, low: int, high: int) -> int | None:
    return None if value is None else _int(key, value, low, high)


def _bool(key: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise InvalidOption(key, f"must be true or false, got {value!r}")
    return value


def _choice(key: str, value: Any, choices: tuple[str, ...]) -> str:
    if value not in choices:
        raise InvalidOption(key, f"must be one of {', '.join(choices)}, got {value!r}")
    return str(value)


def normalise_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The normalised options ``TableOpened`` records (see :func:`parse_options`)."""
    return parse_options(raw)[0]


def parse_options(raw: Mapping[str, Any]) -> tuple[dict[str, Any], Options]:
    """Validate ``raw`` (spec §9); return the normalised dict and the typed options.

    ``four_card`` (rule 33) implies a separate trump card that belongs to nobody and at most
    three discards: those defaults follow from it, and a contradicting explicit value is
    rejected rather than silently changed.
    """
    common, rest = split_options(raw, "bourre", ["seats", *DEFAULTS, "target_chips"])
    if "seats" not in rest:
        raise InvalidOption("seats", "is required (2 to 8 players)")
    seats = _int("seats", rest["seats"], 2, 8)
    four_card = _bool("four_card", rest.get("four_card", False))
    values = dict(DEFAULTS, **rest)
    trump_card = _choice("trump_card", values["trump_card"], TRUMP_CARDS)
    max_discard = _int("max_discard", values["max_discard"], 0, 5)
    if four_card:
        if "trump_card" in rest and trump_card != "separate":
            raise InvalidOption(
                "trump_card", "four_card uses a separate trump card: use 'separate'"
            )
        if "max_discard" in rest and max_discard > 3:
            raise InvalidOption("max_discard", "four_card allows at most 3 discards (rule 33)")
        trump_card = "separate"
        max_discard = min(max_discard, 3)
    if values["buy_in"] is not None:
        raise InvalidOption("buy_in", "is reserved (rule 28); only null is accepted")
    options = Options(
        seats=seats,
        ante=_int("ante", values["ante"], 1, MAX_CHIPS),
        pot_limit=_optional_int("pot_limit", values["pot_limit"], 1, MAX_CHIPS),
        double_ante=_bool("double_ante", values["double_ante"]),
        declaration=_choice("declaration", values["declaration"], DECLARATIONS),
        trump_card=trump_card,
        four_card=four_card,
        max_discard=max_discard,
        ace_forces_dealer=_bool("ace_forces_dealer", values["ace_forces_dealer"]),
        cinch=_choice("cinch", values["cinch"], CINCH_MODES),
        tie=_choice("tie", values["tie"], TIE_MODES),
        reshuffle_pool=_choice("reshuffle_pool", values["reshuffle_pool"], RESHUFFLE_POOLS),
        hands=_optional_int("hands", values["hands"], 1, 1_000_000),
        target_chips=_optional_int("target_chips", rest.get("target_chips"), 1, MAX_CHIPS),
    )
    normalised = {**common, **msgspec.structs.asdict(options), "buy_in": None}
    if options.target_chips is None:
        del normalised["target_chips"]  # recorded only when given: older tables read the same
    return normalised, options


OPTION_FIELDS = tuple(field.name for field in msgspec.structs.fields(Options))


def options_from_record(recorded: Mapping[str, Any]) -> Options:
    """The typed options of a recorded ``TableOpened.options`` (already validated when the
    table opened). Replay does not validate again: a key added later takes its default."""
    return Options(**{name: recorded[name] for name in OPTION_FIELDS if name in recorded})
