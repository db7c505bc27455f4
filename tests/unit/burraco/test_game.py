"""The ``Game`` contract for Burraco: wire types, legal commands, read models, closing."""

from __future__ import annotations

import msgspec
import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.events import HandAbandoned, HandScored, TeamScore
from domain.errors import IllegalCommand, TableClosed
from domain.games import game_named
from domain.table import CloseTable, TableEnded, TakeSeat
from projections.ledger import Ledger
from projections.lobby import Lobby

from .helpers import hand_round, names, play, seated_table, stacked_deck


def test_burraco_is_registered_by_name() -> None:
    assert game_named("burraco") is GAME
    assert GAME.name == "burraco"


def test_burraco_commands_decode_from_the_wire_in_camel_case() -> None:
    decoder = msgspec.json.Decoder(GAME.command_type)
    meld = decoder.decode(b'{"type":"meld","seat":1,"cards":["8C","9C","JK"],"wildRank":"7"}')
    assert meld == Meld(seat=1, cards=["8C", "9C", "JK"], wild_rank="7")
    add = decoder.decode(b'{"type":"add_to_meld","seat":2,"meld":3,"cards":["AH"],"ace":"low"}')
    assert add == AddToMeld(seat=2, meld=3, cards=["AH"], ace="low")
    assert decoder.decode(b'{"type":"draw","seat":0}') == Draw(seat=0)
    assert decoder.decode(b'{"type":"take_pile","seat":0}') == TakePile(seat=0)
    assert decoder.decode(b'{"type":"discard","seat":0,"card":"KS"}') == Discard(seat=0, card="KS")
    assert isinstance(decoder.decode(b'{"type":"close_table","seat":0}'), CloseTable)


def test_burraco_every_event_of_a_match_round_trips_through_json() -> None:
    from .playouts import play_match

    _, events = play_match(seed=3, options={"target": 500})
    decoder = msgspec.json.Decoder(GAME.event_type)
    kinds = set()
    for event in events:
        assert decoder.decode(msgspec.json.encode(event)) == event
        kinds.add(type(event).__name__)
    assert {"Dealt", "CardDrawn", "Discarded", "Melded", "HandScored", "MatchWon"} <= kinds


def test_burraco_legal_commands_list_draws_then_melds_and_discards_all_accepted() -> None:
    deck = stacked_deck(hands={1: "3H 4H 5H 7S 7H 7C KD QD JK 9C 2S"}, stock="6H")
    table = seated_table(deck)
    assert GAME.legal_commands(table, 2) == []
    assert GAME.legal_commands(table, 1) == [Draw(seat=1), TakePile(seat=1)]
    table, _ = play(table, Draw(seat=1))
    listed = GAME.legal_commands(table, 1)
    assert Meld(seat=1, cards=["3H", "4H", "5H", "6H", "7H"]) in listed  # the maximal run
    assert Meld(seat=1, cards=["7S", "7H", "7C"]) in listed
    discards = [c.card for c in listed if isinstance(c, Discard)]
    assert sorted(discards) == sorted(set(hand_round(table).hands[1]))
    for command in listed:
        GAME.decide(table, command)  # never raises


def test_burraco_decide_accepts_legal_melds_that_legal_commands_does_not_list() -> None:
    deck = stacked_deck(hands={1: "3H 4H 5H 7S 7H 7C KD QD JK 9C 2S"}, stock="6H")
    table, _ = play(seated_table(deck), Draw(seat=1))
    _, events = play(table, Meld(seat=1, cards=["4H", "5H", "JK"], wild_rank="3"))
    assert events[0].cards == ["JK", "4H", "5H"]


def test_burraco_lobby_counters_and_tokens() -> None:
    table = seated_table()
    line = Lobby.shape(GAME, table)
    assert line["game"] == "burraco" and line["seats"] == 4 and line["hand"] == 1
    assert line["names"] == ["p0", "p1", "p2", "p3"] and line["status"] == "playing"
    assert GAME.seat_for_token(table, "h2") == 2
    assert GAME.seat_for_token(table, "nobody") is None
    score = TeamScore(melds=0, in_hand=0, burracos=300, closing=0, pozzetto=0, total=300,
                      clean_burracos=1, dirty_burracos=1)  # fmt: skip
    scored = HandScored(hand=1, scores=[score, score], totals=[0, 0], deck=[], salt="")
    assert GAME.hand_of(scored) == 1 and GAME.settles_hand(scored)
    assert GAME.hand_of(TableEnded(reason="match")) == 0


def test_burraco_closing_by_agreement_abandons_the_unfinished_hand() -> None:
    table = seated_table()
    with pytest.raises(IllegalCommand, match="only a seated player"):
        GAME.decide(table, CloseTable(seat=9))
    table, events = play(table, *(CloseTable(seat=s) for s in (2, 0, 1, 3)))
    assert names(events)[-2:] == ["HandAbandoned", "TableEnded"]
    abandoned = events[-2]
    assert isinstance(abandoned, HandAbandoned) and abandoned.deck == list(hand_round(table).deck)
    assert GAME.settles_hand(abandoned)
    assert table.status == "ended" and GAME.to_act(table) == frozenset()
    assert Ledger.shape(GAME, table)["winner"] is None
    for command in (Draw(seat=1), TakeSeat(name="x", token_hash="y"), CloseTable(seat=0)):
        with pytest.raises(TableClosed):
            GAME.decide(table, command)
    assert GAME.legal_commands(table, 1) == []


def test_burraco_views_of_an_unopened_table_are_empty() -> None:
    assert GAME.view(None, None)["status"] == "unopened"
    assert Ledger.shape(GAME, None) == {"teams": [], "hands": [], "winner": None}
    assert GAME.to_act(None) == frozenset()
    assert GAME.legal_commands(None, 0) == []
    with pytest.raises(IllegalCommand, match="not open"):
        GAME.decide(None, Draw(seat=0))
