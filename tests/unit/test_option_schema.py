"""Each game's option schema (``Game.option_schema``, served by ``GET /games``) agrees with its
rules document's options table — the docs are the source of truth: the same keys, types,
ranges, choices and defaults, and each option's rule is a numbered rule of the document that
speaks of the option — and with the game's own option parser: what the schema offers is
accepted, what lies outside it is refused naming the option."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from domain.errors import InvalidOption
from domain.game import Game
from domain.games import game_named
from domain.table.clock import CLOCK_SCHEMA
from domain.table.options import COMMON_SCHEMA
from domain.table.schema import BOOL, CHOICE, INT, NUMBER, Option
from tests.highcard import GAME as HIGHCARD

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
GAMES = ["bourre", "burraco"]
COMMON = {option.name for option in COMMON_SCHEMA}  # design §5, no game's rules document
# Options whose rule speaks of them without naming the key: the words it uses instead.
NAMED_OTHERWISE = {
    ("bourre", "seats"): "2–8 players",
    ("bourre", "ace_forces_dealer"): "Ace turned up",
    ("burraco", "bonuses"): "clean burraco",
    ("burraco", "set_ranks"): "same rank",
    ("burraco", "take_pile"): "whole discard pile",
}
# Accepted by a parser but offered by no form: reserved (Bourré rule 28, only null).
RESERVED = {("bourre", "buy_in")}


def options_table(text: str) -> dict[str, tuple[str, str]]:
    """The ``| `key` | values | default |`` rows of a rules document's options table."""
    rows = re.findall(r"^\| `(\w+)`[^|]* \| (.+) \| (.+) \|$", text, flags=re.MULTILINE)
    return {key: (values.strip(), default.strip().strip("`")) for key, values, default in rows}


def numbered_rules(text: str) -> dict[str, str]:
    """Each numbered rule's text (its continuation lines too) with its section's heading."""
    rules: dict[str, str] = {}
    heading, number = "", None
    for line in text.splitlines():
        if line.startswith("#"):
            heading, number = line, None
        elif found := re.match(r"^(\d+)\. ", line):
            number = found.group(1)
            rules[number] = f"{heading}\n{line}"
        elif number is not None and line.startswith(" "):
            rules[number] += f" {line.strip()}"
        else:
            number = None
    return rules


def cited(rule: str) -> list[str]:
    """The rule numbers of ``"15"`` or ``"19–22"``."""
    low, _, high = rule.partition("–")
    return [str(n) for n in range(int(low), int(high or low) + 1)]


def documented_default(text: str) -> Any:
    if text in ("required", "null"):
        return None
    if text in ("true", "false"):
        return text == "true"
    return int(text) if text.isdigit() else text


def own_options(game: Game[Any, Any, Any]) -> dict[str, Option]:
    return {o.name: o for o in game.option_schema if o.name not in COMMON}


@pytest.mark.parametrize("name", GAMES)
def test_the_schema_offers_the_options_table_of_the_rules(name: str) -> None:
    table = options_table((RULES / f"{name}.md").read_text(encoding="utf-8"))
    offered = own_options(game_named(name))
    # the rules' table names the game's own options, and may name the common ones (design §5)
    assert table and set(offered) == set(table) - COMMON
    for key, (values, default) in table.items():
        if key in COMMON:
            continue
        option = offered[key]
        assert option.required == (default == "required"), key
        assert option.default == documented_default(default), key
        assert option.nullable == ("`null` —" in values), key
        if option.type == CHOICE:
            # each value is written "`value` — its effect" (the rules' option tables)
            named = [v for v in re.findall(r"`(\w+)` —", values) if v != "null"]
            listed = [int(v) if v.isdigit() else v for v in named]
            assert list(option.choices or ()) == listed, key
        elif option.type == BOOL:
            assert "`true` —" in values and "`false` —" in values, key
        elif option.type == NUMBER:
            assert values.startswith("seconds (a positive number)"), key
        else:
            assert option.type == INT, key
            span = re.match(r"(\d+)–(\d+)", values)
            if span:
                assert (option.min, option.max) == (int(span[1]), int(span[2])), key
            else:
                assert values.startswith("positive integer") and option.min == 1, key


@pytest.mark.parametrize("name", GAMES)
def test_each_option_cites_the_rule_that_speaks_of_it(name: str) -> None:
    rules = numbered_rules((RULES / f"{name}.md").read_text(encoding="utf-8"))
    assert len(rules) > 20, "the rules document's numbered rules were read"
    for option in own_options(game_named(name)).values():
        naming = {n for n, text in rules.items() if f"`{option.name}`" in text}
        if option.rule is None:
            assert not naming, f"{option.name} is spoken of in rules {naming}: cite one"
            continue
        texts = [rules[n] for n in cited(option.rule)]  # every cited rule exists
        words = NAMED_OTHERWISE.get((name, option.name), f"`{option.name}`")
        assert any(words in text for text in texts), (option.name, option.rule)


@pytest.mark.parametrize("name", GAMES)
def test_every_option_has_a_one_line_label_and_its_clock_and_common_options(name: str) -> None:
    schema = game_named(name).option_schema
    tail = (*CLOCK_SCHEMA, *COMMON_SCHEMA)
    assert [o.name for o in schema[-len(tail) :]] == [o.name for o in tail]
    for option in schema:
        assert option.label and option.label[0].isupper() and "\n" not in option.label
        assert len(option.label) <= 64 and option.help, option.name


# --- the schema against the game's own parser ---------------------------------------------


def minimal(game: Game[Any, Any, Any]) -> dict[str, Any]:
    """The options a table must be given (each required one at its suggested value)."""
    return {o.name: o.suggested for o in game.option_schema if o.required}


def accepts(game: Game[Any, Any, Any], name: str, value: Any) -> bool:
    try:
        game.table.options({**minimal(game), name: value})
    except InvalidOption as refused:
        assert refused.key == name, (name, value, refused)
        return False
    return True


def inside_and_outside(option: Option) -> tuple[list[Any], list[Any]]:
    """Values the schema offers for ``option`` and values it does not."""
    inside: list[Any]
    outside: list[Any]
    if option.type == BOOL:
        inside, outside = [True, False], ["yes", 1]
    elif option.type == CHOICE:
        inside, outside = list(option.choices or ()), ["nope", None]
    else:
        assert option.min is not None and option.max is not None
        inside, outside = [option.min, option.max], [option.min - 1, option.max + 1, "1"]
    if option.nullable:
        inside.append(None)
    elif None not in outside:
        outside.append(None)
    if not option.required:
        inside.append(option.default)
    return inside, outside


@pytest.mark.parametrize("name", [*GAMES, HIGHCARD.name])
def test_the_parser_accepts_what_the_schema_offers_and_refuses_the_rest(name: str) -> None:
    game = HIGHCARD if name == HIGHCARD.name else game_named(name)  # high card: not registered
    for option in game.option_schema:
        inside, outside = inside_and_outside(option)
        for value in inside:
            assert accepts(game, option.name, value), (option.name, value)
        for value in outside:
            assert not accepts(game, option.name, value), (option.name, value)


@pytest.mark.parametrize("name", [*GAMES, HIGHCARD.name])
def test_the_parser_accepts_no_option_the_schema_leaves_out(name: str) -> None:
    game = HIGHCARD if name == HIGHCARD.name else game_named(name)  # high card: not registered
    with pytest.raises(InvalidOption) as unknown:
        game.table.options({**minimal(game), "no_such_option": 1})
    listed = set(unknown.value.message.split("accepted options: ", 1)[1].split(", "))
    offered = {o.name for o in game.option_schema}
    aliases = {"players"} if name == "burraco" else set()  # seats' older name (rule 1)
    # every parser takes the clock's options; a form offers them only where a turn can time out
    clock = {o.name for o in CLOCK_SCHEMA} if game.timeout_move is None else set()
    reserved = {key for game_, key in RESERVED if game_ == name}
    assert listed - offered == reserved | aliases | clock
    assert offered <= listed


# --- choices in words, and presets ----------------------------------------------------------


@pytest.mark.parametrize("name", GAMES)
def test_every_choice_is_offered_in_words(name: str) -> None:
    for option in game_named(name).option_schema:
        if option.type != CHOICE:
            assert option.words() is None and option.to_json()["choiceLabels"] is None
            continue
        words = option.words()
        assert words is not None and len(words) == len(option.choices or ()), option.name
        assert all(word and "_" not in word for word in words), (option.name, words)
        assert option.to_json()["choiceLabels"] == words


def test_a_choice_without_labels_reads_its_values_with_spaces() -> None:
    option = Option(name="mode", type=CHOICE, choices=("any_burraco", 2), default=2, label="M")
    assert option.words() == ["any burraco", "2"]


def test_a_choice_needs_one_label_per_value() -> None:
    with pytest.raises(ValueError, match="one label per choice"):
        Option(
            name="m", type=CHOICE, choices=("a", "b"), choice_labels=("A",), default="a", label="M"
        )


def test_the_presets_are_pagat_standard_italian_club_rules_and_heads_up() -> None:
    bourre, burraco = game_named("bourre"), game_named("burraco")
    assert [p.label for p in bourre.presets] == ["pagat standard"]
    assert [p.label for p in burraco.presets] == ["Italian club rules", "heads-up"]
    assert dict(burraco.presets[0].options) == {"seats": 4}
    assert dict(burraco.presets[1].options) == {"seats": 2}
    assert HIGHCARD.presets == ()


@pytest.mark.parametrize("name", GAMES)
def test_each_preset_sets_only_options_of_the_schema_and_the_parser_accepts_it(name: str) -> None:
    game = game_named(name)
    offered = {o.name: o for o in game.option_schema}
    for preset in game.presets:
        assert preset.label and preset.help and "_" not in preset.label, preset.name
        assert set(preset.options) <= set(offered), preset.name
        # every required option is set, so a preset alone opens a table
        assert {o.name for o in offered.values() if o.required} <= set(preset.options)
        normalised = game.table.options(dict(preset.options))
        # every option the preset leaves out is at its default (as the form fills it in)
        for option in offered.values():
            if option.name not in preset.options and option.name in normalised:
                assert normalised[option.name] == option.default, (preset.name, option.name)
        assert preset.to_json()["options"] == dict(preset.options)
