"""The option tables of docs/rules/*.md name every option each game accepts, and every value of
every enumerated option with its effect, written "`value` — effect": no value is defined only
in code. The values are read from the domain (the games' and the tables' option modules)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pytest

from domain.bourre import options as bourre_options
from domain.burraco import options as burraco_options
from domain.errors import InvalidOption
from domain.table.options import REVEAL_VALUES

RULES = Path(__file__).resolve().parents[3] / "docs" / "rules"
BOGUS = "§not-a-value§"


def enumerated(game: str) -> dict[str, tuple[Any, ...]]:
    """Each enumerated option of ``game`` and its allowed values, as the domain defines them
    (booleans: true and false)."""
    common = {"reveal": REVEAL_VALUES}
    if game == "bourre":
        b = bourre_options
        return {
            "declaration": b.DECLARATIONS,
            "trump_card": b.TRUMP_CARDS,
            "cinch": b.CINCH_MODES,
            "tie": b.TIE_MODES,
            "reshuffle_pool": b.RESHUFFLE_POOLS,
            **{k: (True, False) for k, v in b.DEFAULTS.items() if isinstance(v, bool)},
            **common,
        }
    u = burraco_options
    return {
        **u.CHOICES,
        u.SEATS_ALIAS: u.CHOICES["players"],  # one option, two names
        **{k: (True, False) for k, v in u.DEFAULTS.items() if isinstance(v, bool)},
        **common,
    }


PARSERS: dict[str, tuple[Callable[[Mapping[str, Any]], Any], dict[str, Any]]] = {
    "bourre": (bourre_options.parse_options, {"seats": 3}),
    "burraco": (burraco_options.normalise_options, {}),
}


def refusal(game: str, options: Mapping[str, Any]) -> str:
    parse, base = PARSERS[game]
    with pytest.raises(InvalidOption) as refused:
        parse({**base, **options})
    return str(refused.value)


def accepted_keys(game: str) -> list[str]:
    """Every option key the game accepts, as its unknown-key error lists them."""
    message = refusal(game, {"no_such_option": 1})
    return message.split("accepted options: ", 1)[1].split(", ")


def options_section(game: str) -> str:
    """The Options section of the game's rules."""
    text = (RULES / f"{game}.md").read_text()
    heading = re.search(r"^## \d+\. Options$", text, re.MULTILINE)
    assert heading, f"docs/rules/{game}.md has no Options section"
    return text[heading.end() :].split("\n## ", 1)[0]


def option_rows(game: str) -> dict[str, str]:
    """The options table of the game's rules: each key named in a row's first cell → the row."""
    section = options_section(game)
    rows: dict[str, str] = {}
    for line in section.splitlines():
        if line.startswith("| `"):
            first = line.split("|")[1]
            for key in re.findall(r"`([a-z_]+)`", first):
                rows[key] = line
    return rows


def shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def reserved(game: str, key: str) -> bool:
    """An option that accepts only null (Bourré's ``buy_in``): no value to choose."""
    parse, base = PARSERS[game]
    try:
        parse({**base, key: 1})
    except InvalidOption as refused:
        return "only null is accepted" in str(refused)
    return False


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_every_accepted_option_has_a_row_in_the_options_table(game: str) -> None:
    """A reserved option, which has no value to choose, is named in the section instead."""
    rows = option_rows(game)
    unlisted = set(accepted_keys(game)) - set(rows)
    section = options_section(game)
    assert {key for key in unlisted if not (reserved(game, key) and f"`{key}`" in section)} == set()


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_every_value_of_every_enumerated_option_is_named_with_its_effect(game: str) -> None:
    rows = option_rows(game)
    missing = [
        f"{key}: {shown(value)}"
        for key, values in enumerated(game).items()
        for value in values
        if f"`{shown(value)}` — " not in rows.get(key, "")
    ]
    assert missing == []


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_the_enumerated_options_read_here_are_all_the_games_choices(game: str) -> None:
    """An option the game refuses with "must be one of …" or "must be true or false" is one
    this test reads the values of, with the same values."""
    known = enumerated(game)
    for key in accepted_keys(game):
        message = refusal(game, {key: BOGUS})
        if "must be true or false" in message:
            assert known.get(key) == (True, False), key
        elif "must be one of" in message:
            listed = message.split("must be one of ", 1)[1].split(", got")[0].split(", ")
            assert [shown(v) for v in known.get(key, ())] == listed, key
