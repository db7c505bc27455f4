"""The ``GAME`` contract (domain/game.py): wire format of commands and events, read-model
helpers (ledger, lobby, counters), tokens and the registry."""

from __future__ import annotations

import msgspec

from domain.bourre import GAME, BourreEvent
from domain.bourre.commands import Declare, PlayCard
from domain.bourre.events import CardPlayed, HandSettled
from domain.bourre.evolve import replay
from domain.games import game_named
from domain.table import CloseTable, OpenTable
from projections.ledger import Ledger
from projections.lobby import Lobby
from tests.unit.bourre.support import open_table, run


def test_the_registry_names_the_bourre_game() -> None:
    assert game_named("bourre") is GAME and GAME.name == "bourre"


def test_commands_decode_from_the_wire_with_snake_case_tags_and_camel_case_fields() -> None:
    decode = msgspec.json.Decoder(GAME.command_type).decode
    assert decode(b'{"type":"declare","seat":2,"play":true,"discard":["AS"]}') == Declare(
        seat=2, play=True, discard=["AS"]
    )
    assert decode(b'{"type":"declare","seat":0,"play":true,"takeTrump":true}').take_trump
    assert decode(b'{"type":"play_card","seat":1,"card":"10H"}') == PlayCard(seat=1, card="10H")
    assert decode(b'{"type":"close_table","seat":1}') == CloseTable(seat=1)
    assert isinstance(
        decode(b'{"type":"open_table","game":"bourre","options":{"seats":2},"seed":1}'), OpenTable
    )


def test_events_round_trip_through_json_and_replay_to_the_same_state() -> None:
    state, events = open_table({"seats": 4}, seed=3)
    for _ in range(40):
        seat = min(GAME.to_act(state))
        state, more = run(state, GAME.legal_commands(state, seat)[-1])
        events += more
    wire = msgspec.json.encode(events)
    decoded = msgspec.json.decode(wire, type=list[BourreEvent])
    assert decoded == events
    assert replay(decoded) == state
    assert b'"type":"Dealt"' in wire and b'"trumpCard"' in wire


def test_every_bourre_event_carries_its_hand() -> None:
    _state, events = open_table({"seats": 2}, seed=3)
    numbered = [e for e in events if GAME.hand_of(e) > 0]
    assert [type(e).__name__ for e in numbered] == ["Anted", "Dealt"]
    assert all(GAME.hand_of(e) == 1 for e in numbered)
    assert GAME.hand_of(events[0]) == 0


def test_a_hand_settles_with_its_settlement_and_not_before() -> None:
    settled = HandSettled(
        hand=3, pot=9, cap=9, winner=None, payouts=[0, 0, 0], tricks=[2, 2, 1], bourre=[2],
        bourre_payment=9, tied=[0, 1], carried=9, solo=False, deck=[], salt="",
    )  # fmt: skip
    assert GAME.settles_hand(settled)
    assert not GAME.settles_hand(CardPlayed(hand=1, seat=0, card="AS"))


def test_the_lobby_line_and_the_seat_for_a_token() -> None:
    state, _ = open_table({"seats": 2}, seed=3)
    assert Lobby.shape(GAME, state) == {
        "game": "bourre", "seats": 2, "names": ["P0", "P1"], "openSeats": [],
        "status": "playing", "hand": 1, "pot": 2,
    }  # fmt: skip
    assert GAME.seat_for_token(state, "tok1") == 1
    assert GAME.seat_for_token(state, "nope") is None


def test_nobody_is_waited_for_and_nothing_is_legal_before_the_table_fills() -> None:
    assert GAME.to_act(None) == frozenset()
    assert GAME.legal_commands(None, 0) == []
    assert Ledger.shape(GAME, None) == {"pot": 0, "players": [], "hands": []}
