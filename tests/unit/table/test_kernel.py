"""The table kernel, the same for both games: opening (seed, options, stacked decks), seats
and names, and the table's status."""

from __future__ import annotations

from typing import Any

import pytest

from domain.bourre.evolve import replay
from domain.errors import InvalidName, InvalidOption, NameTaken
from domain.games import game_named
from domain.table import OpenTable, TableOpened, TakeSeat

GAMES = ("bourre", "burraco")
SEATS = {"bourre": {"seats": 2}, "burraco": {"seats": 2}}


def opened(game: str, **options: Any) -> Any:
    command = OpenTable(game=game, options={**SEATS[game], **options}, seed=3)
    return game_named(game).decision(None, command)[1]


def seated(game: str, *names: str) -> Any:
    rules = game_named(game)
    state = opened(game)
    for number, name in enumerate(names):
        state = rules.decision(state, TakeSeat(name=name, token_hash=f"t{number}"))[1]
    return state


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("seed", [-1, 2**63, True])
def test_a_seed_is_an_integer_from_0_to_2_63_minus_1_for_every_game(game: str, seed: Any) -> None:
    with pytest.raises(InvalidOption) as error:
        game_named(game).decide(None, OpenTable(game=game, options=SEATS[game], seed=seed))
    assert error.value.key == "seed"


def test_a_table_stored_with_a_negative_seed_still_replays() -> None:
    options = game_named("bourre").decide(
        None, OpenTable(game="bourre", options={"seats": 2}, seed=1)
    )
    stored = TableOpened(game="bourre", options=options[0].options, seed=-5)
    state = replay([stored])
    assert state is not None and state.seed == -5


@pytest.mark.parametrize("game", GAMES)
def test_an_unknown_option_lists_every_option_of_the_game_common_ones_included(game: str) -> None:
    with pytest.raises(InvalidOption) as error:
        opened(game, colour="red")
    assert error.value.key == "colour"
    assert "seats" in error.value.message
    assert "reveal, spectator_delay" in error.value.message


def test_seats_sets_burracos_number_of_players_and_players_stays_its_alias() -> None:
    assert opened("burraco").raw_options["players"] == 2
    both = OpenTable(game="burraco", options={"seats": 2, "players": 2}, seed=1)
    assert game_named("burraco").decide(None, both)[0].options["players"] == 2
    clash = OpenTable(game="burraco", options={"seats": 2, "players": 4}, seed=1)
    with pytest.raises(InvalidOption) as error:
        game_named("burraco").decide(None, clash)
    assert error.value.key == "seats" and "differ" in error.value.message
    with pytest.raises(InvalidOption) as error:
        opened("burraco", seats=3)
    assert error.value.key == "seats"


@pytest.mark.parametrize("game", GAMES)
def test_a_table_waits_for_players_then_plays(game: str) -> None:
    rules = game_named(game)
    assert rules.seating(seated(game, "Ann")).status == "waiting"
    assert rules.seating(seated(game, "Ann", "Bob")).status == "playing"


@pytest.mark.parametrize("game", GAMES)
def test_a_name_already_seated_at_the_table_is_refused_naming_it(game: str) -> None:
    state = seated(game, "Ann")
    with pytest.raises(NameTaken, match="'Ann' is already seated") as error:
        game_named(game).decide(state, TakeSeat(name="Ann", token_hash="other"))
    assert error.value.status == 409 and error.value.field == "name"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    "name",
    ["", "   ", "x" * 33, "Ann\x00", "Ann\nBob", "\u202eAnn", "Ann\u2066", "Bob\u202a"],
)
def test_a_name_is_1_to_32_characters_without_control_or_bidi_override_characters(
    game: str, name: str
) -> None:
    with pytest.raises(InvalidName) as error:
        game_named(game).decide(opened(game), TakeSeat(name=name, token_hash="t"))
    assert error.value.field == "name" and error.value.status == 400  # malformed, not illegal


@pytest.mark.parametrize("game", GAMES)
def test_a_name_of_32_characters_with_accents_and_inner_spaces_is_seated(game: str) -> None:
    name = "Zoë de la Tour " + "é" * 17
    state = seated(game, f"  {name}  ")
    assert game_named(game).seating(state).names[0] == name


@pytest.mark.parametrize("game", GAMES)
def test_a_table_waiting_past_the_limit_is_abandoned(game: str) -> None:
    from domain.table import AbandonTable, TableEnded

    command = AbandonTable(idle_seconds=3600.0, limit_seconds=3600.0)
    events, state = game_named(game).decision(seated(game, "Ann"), command)
    assert events == [TableEnded(reason="abandoned")]
    assert game_named(game).seating(state).status == "ended"


@pytest.mark.parametrize("game", GAMES)
def test_a_table_not_waiting_long_enough_or_in_play_is_not_abandoned(game: str) -> None:
    from domain.errors import IllegalCommand
    from domain.table import AbandonTable

    rules = game_named(game)
    with pytest.raises(IllegalCommand, match="waited 59s of 60s"):
        rules.decide(opened(game), AbandonTable(idle_seconds=59.0, limit_seconds=60.0))
    with pytest.raises(IllegalCommand, match="only a table waiting for players"):
        rules.decide(seated(game, "Ann", "Bob"), AbandonTable(idle_seconds=1e6, limit_seconds=1))
