"""Scoring (spec §7, rules 1, 3, 22–27) — full hands computed by hand."""

from __future__ import annotations

import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld
from domain.burraco.events import HandScored, MatchWon, TeamScore
from domain.burraco.melds import arrange_new
from domain.burraco.options import Options
from domain.burraco.scoring import burraco_bonus, match_winner, score_hand
from domain.burraco.state import PLAY, Table, team_of
from domain.cards import codes, parse

from .helpers import (
    hand_round,
    names,
    play,
    seated_table,
    stacked_deck,
    with_hand,
    with_melds,
    with_pozzetto_taken,
    with_round,
)


def spec_example(**options: object) -> Table:
    """Spec §7's example, about to close: seat 0 (team A) holds only 9C; its partner 6D.

    Team A has the clean run 3H…JH and 5D 2D 7D and its pozzetto; team B nothing melded, no
    pozzetto and 60 points in hand.
    """
    table = seated_table(stacked_deck(), options=dict(options))
    table = with_melds(table, 0, "3H 4H 5H 6H 7H 8H 9H 10H JH", "5D 2D 7D")
    table = with_pozzetto_taken(table, team=0, seat=0)
    table = with_hand(table, 0, "9C")
    table = with_hand(table, 2, "6D")
    table = with_hand(table, 1, "KS QS JS")
    table = with_hand(table, 3, "10S 9S 8S")
    return with_round(table, turn=0, phase=PLAY)


def test_burraco_spec_example_scores_390_and_minus_160() -> None:
    table, events = play(spec_example(), Discard(seat=0, card="9C"))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.scores[0] == TeamScore(
        melds=95, in_hand=-5, burracos=200, closing=100, pozzetto=0, total=390,
        clean_burracos=1, dirty_burracos=0,
    )  # fmt: skip
    assert scored.scores[1] == TeamScore(
        melds=0, in_hand=-60, burracos=0, closing=0, pozzetto=-100, total=-160
    )
    assert scored.totals == [390, -160]
    assert GAME.ledger(table)["hands"][0]["scores"] == [390, -160]


def test_burraco_rule_22_melds_count_every_card_whatever_its_role() -> None:
    # 5D 2D 7D: 5 + 20 + 5 — the wild 2 counts its own 20 (rule 3)
    assert sum(20 if c.code == "2D" else 5 for c in parse("5D 2D 7D")) == 30
    table = with_melds(seated_table(stacked_deck()), 1, "AS 2S 3S", "KD KC JK")
    scores = score_hand(hand_round(table), table.options)
    assert scores[1].melds == (15 + 20 + 5) + (10 + 10 + 30)


def test_burraco_rule_23_cards_in_hand_and_a_sealed_pozzetto_count_against_the_team() -> None:
    table = seated_table(stacked_deck())
    table = with_hand(with_hand(table, 1, "JK AS"), 3, "3C")
    r = hand_round(table)
    sealed = (r.sealed[0], ("KD", "2H"), r.sealed[2], r.sealed[3])
    table = with_pozzetto_taken(with_round(table, sealed=sealed), team=1, seat=1)
    scores = score_hand(hand_round(table), table.options)
    assert scores[1].in_hand == -(30 + 15 + 5 + 10 + 20)
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
    _, events = play(spec_example(), Discard(seat=0, card="9C"))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert [s.closing for s in scored.scores] == [100, 0]


def test_burraco_rule_26_an_untaken_pozzetto_costs_100_and_its_cards_do_not_count() -> None:
    table = seated_table(stacked_deck())
    for seat, cards in ((0, "KS"), (1, "3C"), (2, "QH"), (3, "4D")):
        table = with_hand(table, seat, cards)
    scores = score_hand(hand_round(table), Options())
    assert [s.pozzetto for s in scores] == [-100, -100]
    assert [s.in_hand for s in scores] == [-20, -10]  # the 22 pozzetto cards count nothing
    assert [s.total for s in scores] == [-120, -110]


def test_burraco_rule_27_a_team_reaching_the_target_wins_the_match() -> None:
    table, events = play(spec_example(target=300), Discard(seat=0, card="9C"))
    assert names(events)[-3:] == ["HandScored", "MatchWon", "TableEnded"]
    assert events[-2] == MatchWon(hand=1, team=0, totals=[390, -160])
    assert GAME.ledger(table)["winner"] == "A"
    assert table.status == "ended"


def test_burraco_rule_27_when_both_reach_the_target_the_higher_total_wins() -> None:
    assert match_winner([2100, 2050], 2000) == 0
    assert match_winner([2010, 2300], 2000) == 1
    assert match_winner([1990, 2300], 2000) == 1
    assert match_winner([1990, 1999], 2000) is None


def test_burraco_rule_27_an_exact_tie_over_the_target_plays_another_hand() -> None:
    assert match_winner([2100, 2100], 2000) is None
    table = seated_table(stacked_deck(), options={"target": 200})
    table = with_melds(table, 0, "3H 4H 5H 6H 7H 8H 9H 10H JH", "5D 2D 7D")  # 95 + 200
    table = with_melds(table, 1, "3C 4C 5C 6C 7C 8C 9C 10C JC", "5S 2S 7S")  # 95 + 200
    table = with_pozzetto_taken(with_pozzetto_taken(table, team=0, seat=0), team=1, seat=1)
    for seat, cards in ((0, "9H 5C"), (1, "5S"), (2, ""), (3, "")):
        table = with_hand(table, seat, cards)
    # the stock is down to two: seat 0's discard ends the hand, 5 points in hand each side
    table = with_round(table, turn=0, phase=PLAY, last_turn=True)
    _, events = play(table, Discard(seat=0, card="9H"))
    scored = next(e for e in events if isinstance(e, HandScored))
    assert scored.totals == [290, 290]
    assert names(events)[-2:] == ["HandScored", "Dealt"]  # no winner: another hand


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
    assert GAME.ledger(table)["teams"] == [{"team": "A", "total": -195},
                                           {"team": "B", "total": 675}]  # fmt: skip
