"""Scoring (spec §7, rules 1, 3, 22–27) — full hands computed by hand."""

from __future__ import annotations

from typing import Any

import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld
from domain.burraco.events import HandScored, MatchWon, TeamScore
from domain.burraco.melds import arrange_new
from domain.burraco.options import Options, normalise_options
from domain.burraco.scoring import burraco_bonus, match_winner, score_hand
from domain.burraco.state import Table, team_of
from domain.cards import codes, parse
from domain.errors import InvalidOption
from projections.ledger import Ledger

from .helpers import (
    discards,
    draws,
    given,
    hand_round,
    melds,
    names,
    opening,
    play,
    quiet_turns,
    seated_table,
    stacked_deck,
    takes_pozzetto,
)

POZZETTO = "9C QC QD QS QH QH 3C 4C 5C 6C 7C"


def about_to_close(**options: Any) -> Table:
    """Team A about to close on seat 0's discard of 9C; counted by hand in the tests below.

    Seat 2 melded 5D 2D 7D and the clean run 3S…9S and kept 6D; seat 0 melded the clean run
    3H…JH and KC KD KS, took the pozzetto at once and melded five queens and 3C…7C from it.
    Team B (seats 1 and 3) drew and discarded: no melds, no pozzetto, 11 cards each.
    """
    deck = stacked_deck(
        hands={
            2: "6D 5D 2D 7D 3S 4S 5S 6S 7S 8S 9S",
            0: "3H 4H 5H 6H 7H 8H 9H 10H KC KD KS",
            1: "3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 8D",  # 10 × 5 + 10 = 60
            3: "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",  # 5 × 5 + 6 × 10 = 85
        },
        pozzetti=(POZZETTO, ""), discard="AD", stock="KH KH AH JH",
    )  # fmt: skip
    return given([
        *opening(deck, **options),
        draws(1, "KH"), discards(1, "KH"),
        draws(2, "KH"), melds(2, 1, "5D 2D 7D"), melds(2, 2, "3S 4S 5S 6S 7S 8S 9S"),
        discards(2, "KH"),
        draws(3, "AH"), discards(3, "AH"),
        draws(0, "JH"), melds(0, 3, "3H 4H 5H 6H 7H 8H 9H 10H JH"), melds(0, 4, "KC KD KS"),
        takes_pozzetto(0, 0, POZZETTO), melds(0, 5, "QC QD QS QH QH"),
        melds(0, 6, "3C 4C 5C 6C 7C"),
    ])  # fmt: skip


def test_burraco_a_closing_hand_scores_as_counted_by_hand() -> None:
    table, events = play(about_to_close(), Discard(seat=0, card="9C"))
    scored = next(e for e in events if isinstance(e, HandScored))
    # hearts 3–J 65, 5D 2D 7D 30 (the wild 2 its own 20), spades 3–9 45, KKK 30, five queens
    # 50, clubs 3–7 25; two clean burracos; 6D left in the partner's hand; closed
    assert scored.scores[0] == TeamScore(
        melds=65 + 30 + 45 + 30 + 50 + 25, in_hand=-5, burracos=400, closing=100, pozzetto=0,
        total=740, clean_burracos=2, dirty_burracos=0,
    )  # fmt: skip
    assert scored.scores[1] == TeamScore(
        melds=0, in_hand=-(60 + 85), burracos=0, closing=0, pozzetto=-100, total=-245
    )
    assert scored.totals == [740, -245]
    assert Ledger.shape(GAME, table)["hands"][0]["scores"] == [740, -245]


def test_burraco_rule_22_melds_count_every_card_whatever_its_role() -> None:
    # 5D 2D 7D: 5 + 20 + 5 — the wild 2 counts its own 20 (rule 3)
    assert sum(20 if c.code == "2D" else 5 for c in parse("5D 2D 7D")) == 30
    deck = stacked_deck(hands={1: "AS 2S 3S KD KC JK"}, stock="9H")
    table = given([*opening(deck), draws(1, "9H"), melds(1, 1, "AS 2S 3S"),
                   melds(1, 2, "KD KC JK")])  # fmt: skip
    scores = score_hand(hand_round(table), table.options)
    assert scores[1].melds == (15 + 20 + 5) + (10 + 10 + 30)


def test_burraco_rule_23_cards_in_hand_and_a_sealed_pozzetto_count_against_the_team() -> None:
    # seat 1 melds all it holds but its draw, discards that and takes the pozzetto sealed
    pozzetto = "KD 2H 3S 4S 5S 6S 7S 3H 4H 5H 6H"
    deck = stacked_deck(
        hands={1: "8C 9C 10C JC QC KC 8D 9D 10D JD QD", 3: "3C 4C 5C 6C 7C 3D 4D 5D 6D 7D JK"},
        pozzetti=(pozzetto, ""), stock="AH",
    )  # fmt: skip
    table = given([
        *opening(deck),
        draws(1, "AH"), melds(1, 1, "8C 9C 10C JC QC KC"), melds(1, 2, "8D 9D 10D JD QD"),
        discards(1, "AH"), takes_pozzetto(1, 0, pozzetto, direct=False),
    ])  # fmt: skip
    scores = score_hand(hand_round(table), table.options)
    assert scores[1].in_hand == -((10 * 5 + 30) + (10 + 20 + 9 * 5))  # seat 3's hand, sealed
    assert scores[1].pozzetto == 0


def test_burraco_rule_24_clean_burraco_200_dirty_100() -> None:
    standard = "standard"
    assert burraco_bonus(arrange_new(codes(parse("3H 4H 5H 6H 7H 8H 9H"))), standard) == 200
    assert burraco_bonus(arrange_new(codes(parse("3H 4H 5H JK 7H 8H 9H"))), standard) == 100
    assert burraco_bonus(arrange_new(codes(parse("9C 9C 9S 9S 9H 9H 9D"))), standard) == 200
    assert burraco_bonus(arrange_new(codes(parse("9C 9C 9S 9S 9H 9H 2D"))), standard) == 100
    assert burraco_bonus(arrange_new(codes(parse("3H 4H 5H 6H 7H 8H"))), standard) == 0


@pytest.mark.parametrize(
    ("meld", "bonus"),
    [
        ("3H 4H 5H 6H 7H 8H 9H", 200),  # clean
        ("3H 4H 5H JK 7H 8H 9H", 100),  # dirty, wild inside
        ("3H 4H 5H 6H 7H 8H 9H JK", 150),  # semi-clean: the only wild at an end
        ("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH", 300),  # royal: clean A–K
        ("9C 9C 9S 9S 9H 9H 9D 9D", 250),  # super: a clean set of 8
        ("9C 9C 9S 9S 9H 9H 9D", 200),  # a clean set of 7 stays clean
        ("2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH", 300),  # royal: every rank, the ace high
        ("9C 9C 9S 9S 9H 9H 9D JK", 100),  # a set's wild has no end: dirty, not semi-clean
    ],
)
def test_burraco_option_fitab_bonuses(meld: str, bonus: int) -> None:
    assert burraco_bonus(arrange_new(codes(parse(meld))), "fitab") == bonus


def test_burraco_rule_25_the_closing_team_gets_100() -> None:
    _, events = play(about_to_close(), Discard(seat=0, card="9C"))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert [s.closing for s in scored.scores] == [100, 0]


def test_burraco_rule_26_an_untaken_pozzetto_costs_100_and_its_cards_do_not_count() -> None:
    deck = stacked_deck(
        hands={
            0: "3C 4C 5C 6C 7C 3D 4D 5D 6D 7D KS",  # 60
            2: "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S QH",  # 60
            1: "3C 4C 5C 6C 7C 3D 4D 5D 6D 7D 8D",  # 60
            3: "3H 4H 5H 6H 7H 3S 4S 5S 6S 7S AS",  # 65
        },
        pozzetti=("JK JK JK JK 2H 2S 2C 2D AS AH AC", "2H 2S 2C 2D AH AC AD AD KD KD QD"),
    )  # fmt: skip
    scores = score_hand(hand_round(given(opening(deck))), Options())
    assert [s.pozzetto for s in scores] == [-100, -100]
    assert [s.in_hand for s in scores] == [-120, -125]  # the 22 pozzetto cards count nothing
    assert [s.total for s in scores] == [-220, -225]


def test_burraco_rule_27_a_team_reaching_the_target_wins_the_match() -> None:
    table, events = play(about_to_close(target=300), Discard(seat=0, card="9C"))
    assert names(events)[-3:] == ["HandScored", "MatchWon", "TableEnded"]
    assert events[-2] == MatchWon(hand=1, team=0, totals=[740, -245])
    assert Ledger.shape(GAME, table)["winner"] == "A"
    assert table.status == "ended"


def test_burraco_rule_27_when_both_reach_the_target_the_higher_total_wins() -> None:
    assert match_winner([2100, 2050], 2000) == 0
    assert match_winner([2010, 2300], 2000) == 1
    assert match_winner([1990, 2300], 2000) == 1
    assert match_winner([1990, 1999], 2000) is None


def test_burraco_rule_27_an_exact_tie_over_the_target_plays_another_hand() -> None:
    assert match_winner([2100, 2100], 2000) is None
    # heads-up to 100: each lays a clean burraco (45 + 200) and keeps four 5s, neither takes
    # a pozzetto (-100); then the stock runs out: 125 each
    deck = stacked_deck(
        players=2,
        hands={1: "3C 4C 5C 6C 7C 8C 9C 3S 4S 5S 6S", 0: "3D 4D 5D 6D 7D 8D 9D 3H 4H 5H 6H"},
        stock="KH KH", stock_end="QS 2C 2C",
    )  # fmt: skip
    history = [
        *opening(deck, players=2, target=100),
        draws(1, "KH"), melds(1, 1, "3C 4C 5C 6C 7C 8C 9C"), discards(1, "KH"),
        draws(0, "KH"), melds(0, 2, "3D 4D 5D 6D 7D 8D 9D"), discards(0, "KH"),
    ]  # fmt: skip
    history += quiet_turns(given(history), 58)
    table = given([*history, draws(1, "QS")])
    assert hand_round(table).last_turn  # the stock is down to two
    _, events = play(table, Discard(seat=1, card="QS"))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.totals == [125, 125]
    assert names(events)[-2:] == ["HandScored", "Dealt"]  # no winner: another hand


def test_burraco_rule_27_option_hands_the_last_hand_ends_the_match_to_the_higher_total() -> None:
    table, events = play(about_to_close(hands=1), Discard(seat=0, card="9C"))
    assert names(events)[-3:] == ["HandScored", "MatchWon", "TableEnded"]  # no hand 2 dealt
    assert events[-2] == MatchWon(hand=1, team=0, totals=[740, -245])
    assert events[-1].reason == "hands"
    assert Ledger.shape(GAME, table)["winner"] == "A"
    assert table.status == "ended"


def test_burraco_rule_27_option_hands_before_the_last_hand_the_next_is_dealt() -> None:
    _, events = play(about_to_close(hands=2), Discard(seat=0, card="9C"))
    assert names(events)[-2:] == ["HandScored", "Dealt"]


def test_burraco_option_hands_is_a_positive_integer_or_null() -> None:
    assert normalise_options({"hands": 3})["hands"] == 3
    assert "hands" not in normalise_options({"hands": None})  # no limit: stored as before
    for bad in (0, -1, 1.5, "3", True):
        with pytest.raises(InvalidOption, match="hands"):
            normalise_options({"hands": bad})


def test_burraco_rule_1_four_players_play_in_partnerships_of_opposite_seats() -> None:
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]
    view = GAME.view(seated_table(), None)
    assert [t["seats"] for t in view["teams"]] == [[0, 2], [1, 3]]


def test_burraco_rule_1_heads_up_each_player_is_a_team() -> None:
    view = GAME.view(seated_table(options={"players": 2}), None)
    assert [t["seats"] for t in view["teams"]] == [[0], [1]]


def test_burraco_a_whole_hand_played_by_commands_scores_as_counted_by_hand() -> None:
    """Heads-up, every move a command: rules 12, 16–18, 22–26 end to end."""
    deck = stacked_deck(
        players=2,
        hands={
            1: "3H 4H 5H 6H 7H 8H 9H KC KD KS QC",
            0: "2S 5C 9D JS 4S 6D 8C 10S QD 3D 7S",
        },
        pozzetti=("4D 5D 6D 7D 8D 9D 10D JC JD JS JH", ""),
        discard="AC",
        stock="10H 6C 5C",
    )
    table = seated_table(deck, options={"players": 2})
    table, _ = play(
        table,
        Draw(seat=1),  # 10H
        Meld(seat=1, cards=codes(parse("3H 4H 5H 6H 7H 8H 9H 10H"))),
        Meld(seat=1, cards=codes(parse("KC KD KS"))),
        Discard(seat=1, card="QC"),  # rule 17: the pozzetto, sealed
        Draw(seat=0),  # 6C
        Discard(seat=0, card="6C"),  # seat 1's pozzetto opens
        Draw(seat=1),  # 5C
        Meld(seat=1, cards=codes(parse("4D 5D 6D 7D 8D 9D 10D"))),
        Meld(seat=1, cards=codes(parse("JC JD JS"))),
        AddToMeld(seat=1, meld=1, cards=["JH"]),
    )
    table, events = play(table, Discard(seat=1, card="5C"))  # rule 18: closing
    assert names(events) == ["Discarded", "HandClosed", "HandScored", "Dealt"]
    scored = events[2]
    # team B: hearts 3–J 65, KKK 30, diamonds 4–10 50, JJJ 30; two clean burracos; closed
    assert scored.scores[1] == TeamScore(
        melds=65 + 30 + 50 + 30, in_hand=0, burracos=400, closing=100, pozzetto=0, total=675,
        clean_burracos=2,
    )  # fmt: skip
    # team A: 2S 20, 5C 5, 9D 10, JS 10, 4S 5, 6D 5, 8C 10, 10S 10, QD 10, 3D 5, 7S 5
    assert scored.scores[0] == TeamScore(
        melds=0, in_hand=-95, burracos=0, closing=0, pozzetto=-100, total=-195
    )
    assert Ledger.shape(GAME, table)["teams"] == [{"team": "A", "total": -195},
                                           {"team": "B", "total": 675}]  # fmt: skip
