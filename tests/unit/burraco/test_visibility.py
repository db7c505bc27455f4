"""Visibility (design §5): own hand only, partners blind to each other, spectators public
facts only; everything shown once a settled hand is revealed."""

from __future__ import annotations

import json

from domain.burraco import GAME
from domain.burraco.commands import Discard, Draw, Meld
from domain.burraco.events import CardDrawn, Dealt, HandScored, PozzettoOpened, PozzettoTaken
from domain.table import OpenTable, PlayerSeated

from .helpers import hand_round, play, seated_table, stacked_deck

DECK = stacked_deck(
    hands={0: "AC AC KC", 1: "3H 4H 5H 9C", 2: "QD QD JD", 3: "7S 7S 8S"},
    pozzetti=("AS KS QS JS 10S 9S 8S 6S 5S 4S 3S", ""),
    discard="KH",
    stock="6H",
)


def test_burraco_a_seat_sees_its_own_hand_and_nobody_elses() -> None:
    table = seated_table(DECK)
    for seat in range(4):
        shown = GAME.view(table, seat)
        assert shown["yourSeat"] == seat
        assert shown["seats"][seat]["cards"] == list(hand_round(table).hands[seat])
        others = [s for s in shown["seats"] if s["seat"] != seat]
        assert all("cards" not in s for s in others)  # partners too
        assert [s["cardCount"] for s in shown["seats"]] == [11, 11, 11, 11]


def test_burraco_a_spectator_sees_public_facts_only() -> None:
    table = seated_table(DECK)
    shown = GAME.view(table, None)
    assert shown["yourSeat"] is None
    assert all("cards" not in s for s in shown["seats"])
    assert shown["discardPile"] == ["KH"]
    assert shown["stockCount"] == 41
    assert shown["pozzettiLeft"] == [0, 1]
    assert shown["toAct"] == [1]
    assert "deck" not in shown and "salt" not in shown
    text = json.dumps(shown)
    assert "tokenHash" not in text and "seed" not in text


def test_burraco_melds_and_the_pile_are_public() -> None:
    table, _ = play(seated_table(DECK), Draw(seat=1), Meld(seat=1, cards=["3H", "4H", "5H"]))
    melds = GAME.view(table, None)["teams"][1]["melds"]
    assert melds == [{"id": 1, "kind": "sequence", "cards": ["3H", "4H", "5H"], "suit": "H",
                      "rank": None, "low": 3, "wild": -1, "clean": True, "burraco": False,
                      "points": 15}]  # fmt: skip


def test_burraco_a_drawn_card_is_seen_by_the_drawer_only() -> None:
    event = CardDrawn(hand=1, seat=1, card="6H", stock_left=40)
    assert GAME.redact(event, 1, False)["card"] == "6H"
    for viewer in (0, 2, 3, None):
        assert "card" not in GAME.redact(event, viewer, False)
    assert GAME.redact(event, None, True)["card"] == "6H"


def test_burraco_the_deal_shows_each_seat_its_cards_and_hides_deck_and_salt() -> None:
    table = seated_table(DECK)
    r = hand_round(table)
    dealt = Dealt(hand=1, dealer=0, deck=list(r.deck), salt=r.salt, commitment=r.commitment,
                  first_discard="KH", players=4)  # fmt: skip
    for seat in range(4):
        seen = GAME.redact(dealt, seat, False)
        assert seen["cards"] == list(r.hands[seat])
        assert "deck" not in seen and "salt" not in seen
        assert seen["commitment"] == r.commitment
    spectator = GAME.redact(dealt, None, False)
    assert "cards" not in spectator and "deck" not in spectator
    revealed = GAME.redact(dealt, None, True)
    assert revealed["deck"] == list(r.deck) and revealed["salt"] == r.salt
    assert revealed["hands"] == [list(h) for h in r.hands]


def test_burraco_rule_17_a_pozzetto_taken_on_the_discard_is_hidden_even_from_the_taker() -> None:
    sealed = PozzettoTaken(hand=1, seat=1, team=1, pozzetto=0, cards=["AS"] * 11, direct=False)
    for viewer in (0, 1, 2, 3, None):
        seen = GAME.redact(sealed, viewer, False)
        assert "cards" not in seen and seen["cardCount"] == 11
    direct = PozzettoTaken(hand=1, seat=1, team=1, pozzetto=0, cards=["AS"] * 11, direct=True)
    assert GAME.redact(direct, 1, False)["cards"] == ["AS"] * 11
    assert "cards" not in GAME.redact(direct, 3, False)  # not even the partner
    opened = PozzettoOpened(hand=1, seat=1, cards=["AS"] * 11)
    assert GAME.redact(opened, 1, False)["cards"] == ["AS"] * 11
    assert "cards" not in GAME.redact(opened, 2, False)


def test_burraco_secrets_of_the_table_never_show() -> None:
    opened = OpenTable(game="burraco", options={}, seed=42, decks=[DECK])
    event = GAME.decide(None, opened)[0]
    for revealed in (False, True):
        seen = GAME.redact(event, None, revealed)
        assert "seed" not in seen and "decks" not in seen
    seated = PlayerSeated(seat=0, name="Ada", token_hash="secret")
    assert "tokenHash" not in GAME.redact(seated, 0, True)


def test_burraco_the_scored_hand_reveals_deck_and_salt_when_allowed() -> None:
    table = seated_table(DECK)
    r = hand_round(table)
    scored = HandScored(hand=1, scores=[], totals=[0, 0], deck=list(r.deck), salt=r.salt)
    assert GAME.redact(scored, None, True)["deck"] == list(r.deck)
    assert "deck" not in GAME.redact(scored, None, False)  # reveal=never


def test_burraco_a_revealed_view_shows_every_hand() -> None:
    table = seated_table(DECK)
    shown = GAME.view(table, None, revealed=True)
    assert [s["cards"] for s in shown["seats"]] == [list(h) for h in hand_round(table).hands]
    assert shown["deck"] == list(hand_round(table).deck)


def test_burraco_a_view_never_leaks_another_seats_cards() -> None:
    table, _ = play(
        seated_table(DECK),
        Draw(seat=1),
        Meld(seat=1, cards=["3H", "4H", "5H"]),
        Discard(seat=1, card="9C"),
    )
    shown = GAME.view(table, 3)
    hidden = set(hand_round(table).hands[1]) - set(hand_round(table).hands[3])
    visible = json.dumps({k: v for k, v in shown.items() if k != "seats"})
    assert all(f'"{code}"' not in visible for code in hidden - {"9C", "KH"})
    assert "cards" not in shown["seats"][1]
