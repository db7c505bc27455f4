"""Design §5 visibility: a seat sees its own cards, others see counts and public facts,
spectators public facts only; seed, stacked decks and token hashes are never shown; a
settled hand reveals its cards, deck and salt (option ``reveal``)."""

from __future__ import annotations

import msgspec

from domain.bourre import GAME
from domain.bourre.commands import Declare
from domain.bourre.events import Dealt, Discarded, HandSettled, Reshuffled
from domain.cards import deck_commitment
from domain.table import PlayerSeated, TableOpened
from tests.unit.bourre.support import of_type, open_table, run, stack

DECK = stack(["AH KH QH 5C 9S", "2H 3H 4H 5H 6H", "AS KS QS 4S 3S"], stock="2D 3D 4D 5D 6D 7D 8D")


def test_the_seed_the_stacked_decks_and_token_hashes_are_never_shown() -> None:
    _, events = open_table({"seats": 3}, decks=[DECK])
    for viewer in (None, 0, 1):
        for revealed in (False, True):
            opened = GAME.redact(of_type(events, TableOpened)[0], viewer, revealed)
            assert "seed" not in opened and "decks" not in opened
            seated = GAME.redact(of_type(events, PlayerSeated)[0], viewer, revealed)
            assert "tokenHash" not in seated and seated["name"] == "P0"


def test_a_seat_sees_its_own_dealt_cards_and_only_counts_of_the_others() -> None:
    _, events = open_table({"seats": 3}, decks=[DECK])
    (dealt,) = of_type(events, Dealt)
    mine = GAME.redact(dealt, 1, False)
    assert mine["type"] == "Dealt"
    assert mine["hands"] == [None, ["2H", "3H", "4H", "5H", "6H"], None]
    assert mine["cardCounts"] == [5, 5, 5]
    assert "deck" not in mine and "salt" not in mine
    assert mine["commitment"] == dealt.commitment and mine["trumpCard"] == "9S"
    spectator = GAME.redact(dealt, None, False)
    assert spectator["hands"] == [None, None, None]


def test_the_draw_shows_its_cards_to_the_drawer_and_counts_to_everyone_else() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    _, events = run(state, Declare(seat=1, play=True, discard=["2H", "3H"]))
    (drawn,) = of_type(events, Discarded)
    assert GAME.redact(drawn, 1, False)["drawn"] == ["2D", "3D"]
    other = GAME.redact(drawn, 2, False)
    assert other["drawn"] is None and other["discarded"] is None
    assert (other["discardCount"], other["drawnCount"]) == (2, 2)


def test_a_reshuffle_shows_only_the_size_of_the_pool() -> None:
    event = Reshuffled(hand=1, round=1, pool=["2H", "3H"], order=["3H", "2H"])
    assert GAME.redact(event, 0, False) == {
        "type": "Reshuffled", "hand": 1, "round": 1, "poolSize": 2,
    }  # fmt: skip
    assert GAME.redact(event, 0, True)["order"] == ["3H", "2H"]


def test_a_settled_hand_reveals_deck_and_salt_so_the_commitment_can_be_checked() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    _, events = run(
        state, Declare(seat=1, play=True), Declare(seat=2, play=False), Declare(seat=0, play=False)
    )
    (settled,) = of_type(events, HandSettled)
    hidden = GAME.redact(settled, None, False)
    assert "deck" not in hidden and "salt" not in hidden
    shown = GAME.redact(settled, None, True)
    dealt = of_type(open_table({"seats": 3}, decks=[DECK])[1], Dealt)[0]
    assert deck_commitment(shown["deck"], shown["salt"]) == dealt.commitment
    assert GAME.redact(dealt, None, True)["hands"][1] == ["2H", "3H", "4H", "5H", "6H"]


def test_the_view_shows_the_viewers_cards_and_public_facts() -> None:
    state, _ = open_table({"seats": 3}, decks=[DECK])
    view = GAME.view(state, 1)
    assert view["yourSeat"] == 1 and view["cards"] == ["2H", "3H", "4H", "5H", "6H"]
    assert view["status"] == "playing" and view["phase"] == "declare"
    assert (view["hand"], view["dealer"], view["trump"], view["trumpCard"]) == (1, 0, "S", "9S")
    assert view["pot"] == 3 and view["toAct"] == [1]
    assert [s.get("cards") for s in view["seats"]] == [None, view["cards"], None]
    assert [s["cardCount"] for s in view["seats"]] == [5, 5, 5]
    spectator = GAME.view(state, None)
    assert "cards" not in spectator and spectator["yourSeat"] is None
    assert all("cards" not in s for s in spectator["seats"])
    everything = GAME.view(state, None, revealed=True)
    assert [s["cards"][0] for s in everything["seats"]] == ["AH", "2H", "AS"]
    msgspec.json.encode(everything)  # JSON-ready


def test_the_view_hides_sealed_simultaneous_decisions_until_revealed() -> None:
    state, _ = open_table({"seats": 3, "declaration": "simultaneous"}, decks=[DECK])
    state, _ = run(state, Declare(seat=2, play=False))
    assert GAME.view(state, 0)["seats"][2]["passed"] is None
    assert GAME.view(state, 2)["seats"][2]["passed"] is True
    assert GAME.view(state, 0)["decided"] == [False, False, True]
    state, _ = run(state, Declare(seat=0, play=True), Declare(seat=1, play=True))
    assert GAME.view(state, 0)["seats"][2]["passed"] is True


def test_the_view_shows_the_trick_in_progress_to_everyone() -> None:
    state, _ = open_table({"seats": 3, "cinch": "off"}, decks=[DECK])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    state, _ = run(state, GAME.legal_commands(state, 1)[0])
    assert GAME.view(state, None)["trick"] == [{"seat": 1, "card": "2H"}]
