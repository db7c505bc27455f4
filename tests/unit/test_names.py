"""The rule of names (design §2, "Names"; ``domain/names.py``): a name shows — nothing
invisible or ignorable in it, a letter or a digit among it — and names that read alike (NFKC,
UTS #39 confusable skeleton, case folded) are one name: they cannot sit at one table."""

from __future__ import annotations

import pytest

from domain.errors import InvalidName, NameTaken
from domain.games import game_named
from domain.names import check_name, name_key
from domain.table import TakeSeat
from tests.unit.table.test_kernel import GAMES, seated

INVISIBLE = {
    "zero-width space": "Bob\u200b",
    "zero-width joiner": "Bo\u200db",
    "byte-order mark": "Bob\ufeff",
    "line separator": "Bob\u2028Ann",
    "paragraph separator": "Bob\u2029Ann",
    "tag characters": "Bob\U000e0041\U000e007f",
    "Hangul filler alone": "\u3164",
    "Hangul filler inside": "Bo\u3164b",
    "halfwidth Hangul filler": "Bob\uffa0",
    "left-to-right mark": "\u200eBob",
    "right-to-left mark": "Bob\u200f",
    "arabic letter mark": "Bob\u061c",
    "soft hyphen": "Bo\u00adb",
    "word joiner": "Bo\u2060b",
    "variation selector": "Bob\ufe0f",
    "combining grapheme joiner": "Bo\u034fb",
    "braille blank": "\u2800\u2800",
    "private use": "Bob\ue000",
    "unassigned": "Bob\U000effff",
}


@pytest.mark.parametrize("name", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_a_name_holding_an_invisible_or_ignorable_character_is_refused(name: str) -> None:
    with pytest.raises(InvalidName) as error:
        check_name(name)
    assert error.value.field == "name" and error.value.status == 400


@pytest.mark.parametrize("name", ["\u0301\u0301", "\u0301Bob", "...", "-_-", "  ★  "])
def test_a_name_shows_a_letter_or_a_digit_and_begins_with_no_combining_mark(name: str) -> None:
    with pytest.raises(InvalidName, match=r"letter or a digit|combining mark"):
        check_name(name)


@pytest.mark.parametrize("name", ["Zoë", "Zoe\u0308", "李小龍", "Ann Lee", "R2-D2", "7", "Åsa"])
def test_names_in_any_script_with_inner_spaces_and_marks_are_fine(name: str) -> None:
    assert check_name(f" {name} ") == name


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("Bob", "BOB"),  # case
        ("Bob", "\uff22\uff4f\uff42"),  # full-width (NFKC)
        ("Bob", "B0b"),  # digit zero for O (UTS #39: 0 -> O)
        ("Bob", "\u0412ob"),  # Cyrillic capital ve
        ("Bob", "B\u043eb"),  # Cyrillic small o
        ("Al", "AI"),  # capital I for small l
        ("Al", "A1"),
        ("Kim", "Kirn"),  # rn for m
        ("Ivy", "ivy"),  # case, where the capital I is also a look-alike of l
        ("ivy", "lvy"),  # small i is capital I is l
        ("Zoë", "Zoe\u0308"),  # composed or not
    ],
)
def test_names_that_read_alike_have_one_key(one: str, other: str) -> None:
    assert name_key(one) == name_key(other)


@pytest.mark.parametrize(("one", "other"), [("Bob", "Rob"), ("Ann", "Anne"), ("Zoë", "Zoe")])
def test_names_that_read_differently_have_different_keys(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("alike", ["Bob", "bob", "B0b", "\u0412ob", "\uff22ob", " BOB "])
def test_a_name_that_reads_as_a_seated_one_cannot_sit_at_the_table(game: str, alike: str) -> None:
    state = seated(game, "Bob")
    with pytest.raises(NameTaken, match="'Bob'") as error:
        game_named(game).decide(state, TakeSeat(name=alike, token_hash="other"))
    assert error.value.status == 409 and error.value.field == "name"


@pytest.mark.parametrize("game", GAMES)
def test_names_that_read_differently_sit_together(game: str) -> None:
    state = seated(game, "Bob", "Rob")
    assert tuple(game_named(game).seating(state).names[:2]) == ("Bob", "Rob")
