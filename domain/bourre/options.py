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
from domain.table.schema import BOOL, CHOICE, INT, Option, Preset

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
MAX_HANDS = 1_000_000
MIN_SEATS, MAX_SEATS = 2, 8

# The options table (§9) as a form shows it: a label, and the rule that defines each option.
SCHEMA = (
    Option(
        name="seats",
        type=INT,
        min=MIN_SEATS,
        max=MAX_SEATS,
        default=None,
        required=True,
        suggested=5,
        rule="1",
        label="Players at the table",
        help="2–8 players (7 is best).",
    ),
    Option(
        name="ante",
        type=INT,
        min=1,
        max=MAX_CHIPS,
        default=DEFAULTS["ante"],
        rule="5–7",
        label="Ante: chips each player puts in the pot",
        help="Chips each player puts into the pot before a hand.",
    ),
    Option(
        name="pot_limit",
        type=INT,
        min=1,
        max=MAX_CHIPS,
        nullable=True,
        default=DEFAULTS["pot_limit"],
        rule="26",
        label="Pot limit (empty: none)",
        help="When the pot exceeds the limit the winner takes only the limit and a bourré "
        "player pays only the limit. Empty: no limit (the pot can grow past 2^53).",
    ),
    Option(
        name="double_ante",
        type=BOOL,
        default=DEFAULTS["double_ante"],
        rule="30",
        label="Double ante: players who play ante again",
        help="Every player antes, then each player who plays pays a second ante.",
    ),
    Option(
        name="declaration",
        type=CHOICE,
        choices=DECLARATIONS,
        choice_labels=("in turn", "in two rounds", "all at once, sealed"),
        default=DEFAULTS["declaration"],
        rule="31",
        label="How players declare play or pass",
        help="sequential — each in turn plays or passes and discards; two_round — everyone "
        "plays or passes, then the players in discard and draw; simultaneous — sealed "
        "decisions revealed together.",
    ),
    Option(
        name="trump_card",
        type=CHOICE,
        choices=TRUMP_CARDS,
        choice_labels=(
            "the dealer's last card",
            "a separate card",
            "a separate card the dealer may take",
        ),
        default=DEFAULTS["trump_card"],
        rule="32",
        label="The trump card: the dealer's or a separate card",
        help="dealer_card — the dealer's last card is turned for trump; separate — an extra "
        "card that belongs to nobody; separate_dealer_may_take — the dealer who plays may "
        "take it.",
    ),
    Option(
        name="four_card",
        type=BOOL,
        default=DEFAULTS["four_card"],
        rule="33",
        label="Four-card Bourré",
        help="4 cards each, a separate trump card, at most 3 discards, and a second chance "
        "to pass after the draw.",
    ),
    Option(
        name="max_discard",
        type=INT,
        min=0,
        max=5,
        default=DEFAULTS["max_discard"],
        rule="11",
        label="Most cards a player who plays may discard",
        help="How many cards a player who plays may discard and replace (0–5).",
    ),
    Option(
        name="ace_forces_dealer",
        type=BOOL,
        default=DEFAULTS["ace_forces_dealer"],
        rule="15",
        label="An ace turned up forces the dealer to play",
        help="If the face-up trump card is an ace, the dealer must play.",
    ),
    Option(
        name="cinch",
        type=CHOICE,
        choices=CINCH_MODES,
        choice_labels=("an equivalent trump will do", "strictly the highest trump", "off"),
        default=DEFAULTS["cinch"],
        rule="19–22",
        label="Cinch: a player sure to win must lead the highest trump",
        help="equivalent accepts a trump equal in effect, strict only the highest, off "
        "disables the cinch.",
    ),
    Option(
        name="tie",
        type=CHOICE,
        choices=TIE_MODES,
        choice_labels=("carries to the next hand", "is split"),
        default=DEFAULTS["tie"],
        rule="34",
        label="A tie for most tricks carries or splits the pot",
        help="Tied for most tricks: carry the pot to the next hand, or split it.",
    ),
    Option(
        name="reshuffle_pool",
        type=CHOICE,
        choices=RESHUFFLE_POOLS,
        choice_labels=("of the players already served", "all discards"),
        default=DEFAULTS["reshuffle_pool"],
        rule="14",
        label="Discards reshuffled when the stock runs out",
        help="When the stock runs out, reshuffle the discards of the players already served, "
        "or all discards (a player is never served their own).",
    ),
    Option(
        name="hands",
        type=INT,
        min=1,
        max=MAX_HANDS,
        nullable=True,
        default=DEFAULTS["hands"],
        rule="35",
        label="Hands to play (empty: until the table is closed)",
        help="Play this many hands, then the table ends; empty: until the table is closed.",
    ),
    Option(
        name="target_chips",
        type=INT,
        min=1,
        max=MAX_CHIPS,
        nullable=True,
        default=None,
        rule="35",
        label="Chips that end the table (empty: no target)",
        help="The table ends after the hand that takes a player's net to this many chips; "
        "empty: no target.",
    ),
)

# Named sets of options the lobby form fills in at once (design §5, GET /games ``presets``).
PRESETS = (
    Preset(
        name="pagat_standard",
        label="pagat standard",
        options={"seats": 5},
        help="The rules as pagat.com gives them: every option at its default, five players.",
    ),
)


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
    seats = _int("seats", rest["seats"], MIN_SEATS, MAX_SEATS)
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
        hands=_optional_int("hands", values["hands"], 1, MAX_HANDS),
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
