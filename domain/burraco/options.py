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
from domain.table.schema import BOOL, CHOICE, INT, Option, Preset

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
MAX_HANDS = 10_000
# Options stored only when given (a table without them records what it always did).
OPTIONAL = ("hands",)
SEATS_ALIAS = "seats"  # the name every game gives the number of players

# The options table (§8) as a form shows it: a label, and the rule that defines each option.
SCHEMA = (
    Option(
        name=SEATS_ALIAS,
        type=CHOICE,
        choices=CHOICES["players"],
        choice_labels=("4: two partnerships of two", "2: heads-up"),
        default=DEFAULTS["players"],
        rule="1",
        label="Players: two partnerships of two, or heads-up",
        help="Four players in two partnerships, or two players head to head (older name: players).",
    ),
    Option(
        name="target",
        type=INT,
        min=1,
        max=MAX_TARGET,
        default=DEFAULTS["target"],
        rule="27",
        label="Points that win the match",
        help="The match goes to this many points.",
    ),
    Option(
        name="hands",
        type=INT,
        min=1,
        max=MAX_HANDS,
        default=None,
        nullable=True,
        rule="27",
        label="Hands the match lasts at most",
        help="The match also ends after this many hands: the higher total wins, a tie nobody; "
        "null — play to the target.",
    ),
    Option(
        name="bonuses",
        type=CHOICE,
        choices=CHOICES["bonuses"],
        choice_labels=("standard", "FITAB"),
        default=DEFAULTS["bonuses"],
        rule="24",
        label="Burraco bonuses: standard or FITAB",
        help="standard — clean burraco 200, dirty 100; fitab adds semi-clean 150 (only wild "
        "at an end), royal 300 (a clean run of 13: A 2 … K or 2 … K A), super 250 (clean set "
        "of 8).",
    ),
    Option(
        name="close_requires",
        type=CHOICE,
        choices=CHOICES["close_requires"],
        choice_labels=("any burraco, clean or dirty", "a clean burraco"),
        default=DEFAULTS["close_requires"],
        rule="18",
        label="The burraco a team needs before it may close",
        help="any_burraco — a clean or dirty one; clean_burraco — a clean one.",
    ),
    Option(
        name="set_ranks",
        type=CHOICE,
        choices=CHOICES["set_ranks"],
        choice_labels=("any rank", "aces and threes only"),
        default=DEFAULTS["set_ranks"],
        rule="8",
        label="Ranks that may form sets",
        help="Sets of any rank, or only of aces and threes.",
    ),
    Option(
        name="take_pile",
        type=CHOICE,
        choices=CHOICES["take_pile"],
        choice_labels=("freely", "only to meld a card of it"),
        default=DEFAULTS["take_pile"],
        rule="12",
        label="When the discard pile may be taken",
        help="Take the discard pile freely, or only if a card of it is melded this turn.",
    ),
    Option(
        name="single_card_rediscard",
        type=BOOL,
        default=DEFAULTS["single_card_rediscard"],
        rule="13",
        label="A one-card pile's card may be discarded again",
        help="Whether a player who took a one-card pile may discard that same card.",
    ),
    Option(
        name="stalemate_rounds",
        type=INT,
        min=1,
        max=MAX_STALEMATE_ROUNDS,
        default=DEFAULTS["stalemate_rounds"],
        rule="21",
        label="Rounds of one-card pile takes that end the hand",
        help="Full rounds of single-card pile takes, nobody drawing, that end the hand.",
    ),
)

# Named sets of options the lobby form fills in at once (design §5, GET /games ``presets``).
PRESETS = (
    Preset(
        name="italian_club",
        label="Italian club rules",
        options={SEATS_ALIAS: 4},
        help="Four players in two partnerships, every option at the rules' default.",
    ),
    Preset(
        name="heads_up",
        label="heads-up",
        options={SEATS_ALIAS: 2},
        help="Two players head to head, every other option at the rules' default.",
    ),
)


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
    hands: int | None = None
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
    common, own = split_options(raw, "burraco", [SEATS_ALIAS, *DEFAULTS, *OPTIONAL])
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
        elif key == "hands":
            if value is None:
                continue  # no limit: recorded as a table without the option
            _positive_int(key, value, MAX_HANDS)
        elif key == "single_card_rediscard" and not isinstance(value, bool):
            raise InvalidOption(key, "must be true or false")
        options[key] = value
    return {**options, **common}
