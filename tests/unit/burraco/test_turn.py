"""The turn (spec §4, rules 7, 8, 9, 12–14): draw or take the pile, meld, discard."""

from __future__ import annotations

import pytest

from domain.burraco import GAME
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.burraco.events import CardDrawn, Discarded, Melded, MeldExtended, PileTaken
from domain.burraco.state import DRAW, PLAY, Table
from domain.errors import IllegalCommand, NotYourTurn
from domain.table import OpenTable, TakeSeat

from .helpers import (
    apply,
    discards,
    draws,
    given,
    hand_round,
    melds,
    names,
    opening,
    play,
    seated_table,
    stacked_deck,
    takes_pile,
    takes_pozzetto,
)

HAND_1 = "3H 4H 5H 7S 7H 7C KD QD JK 9C 2S"
DECK = stacked_deck(
    hands={1: HAND_1, 2: "8D 8D 8C 4C 5C 6C 10S JS QS KS AS", 3: "6H 7D 9D 10D AC"},
    discard="KS",
    stock="6H 8H 10C JC QC KC AD 3S 4S 5S",
)


@pytest.fixture
def table() -> Table:
    return seated_table(DECK)


def test_burraco_rule_12_a_turn_starts_by_drawing_the_top_of_the_stock(table) -> None:
    table, events = play(table, Draw(seat=1))
    assert events == [CardDrawn(hand=1, seat=1, card="6H", stock_left=40)]
    r = hand_round(table)
    assert r.phase == PLAY and "6H" in r.hands[1] and r.stock_count == 40


def test_burraco_rule_12_or_by_taking_the_whole_discard_pile(table) -> None:
    table, _ = play(table, Draw(seat=1), Discard(seat=1, card="2S"))
    table, events = play(table, TakePile(seat=2))
    assert events == [PileTaken(hand=1, seat=2, cards=["KS", "2S"])]
    assert hand_round(table).pile == ()
    assert {"KS", "2S"} <= set(hand_round(table).hands[2])


def test_burraco_rule_12_one_draw_per_turn(table) -> None:
    table, _ = play(table, Draw(seat=1))
    with pytest.raises(IllegalCommand, match="already drawn"):
        GAME.decide(table, Draw(seat=1))
    with pytest.raises(IllegalCommand, match="already drawn"):
        GAME.decide(table, TakePile(seat=1))


def test_burraco_rule_12_you_must_draw_before_you_meld_or_discard(table) -> None:
    with pytest.raises(IllegalCommand, match=r"you must draw .* before you meld"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    with pytest.raises(IllegalCommand, match="before you discard"):
        GAME.decide(table, Discard(seat=1, card="2S"))
    with pytest.raises(IllegalCommand, match="before you add to a meld"):
        GAME.decide(table, AddToMeld(seat=1, meld=1, cards=["6H"]))


def test_burraco_only_the_seat_to_act_may_play(table) -> None:
    with pytest.raises(NotYourTurn, match="seat 1's turn") as error:
        GAME.decide(table, Draw(seat=2))
    assert error.value.status == 403
    with pytest.raises(IllegalCommand, match="no seat 7"):
        GAME.decide(table, Draw(seat=7))


def test_burraco_rule_12_the_discard_ends_the_turn(table) -> None:
    table, events = play(table, Draw(seat=1), Discard(seat=1, card="9C"))
    assert events[-1] == Discarded(hand=1, seat=1, card="9C")
    r = hand_round(table)
    assert (r.turn, r.phase, r.pile) == (2, DRAW, ("KS", "9C"))


def test_burraco_rule_12_melds_are_laid_and_extended_any_number_of_times(table) -> None:
    table, events = play(
        table,
        Draw(seat=1),
        Meld(seat=1, cards=["3H", "4H", "5H"]),
        Meld(seat=1, cards=["7S", "7H", "7C"]),
        AddToMeld(seat=1, meld=1, cards=["6H"]),
    )
    assert names(events) == ["CardDrawn", "Melded", "Melded", "MeldExtended"]
    first = events[1]
    assert isinstance(first, Melded) and (first.meld, first.team, first.kind) == (1, 1, "sequence")
    extended = events[3]
    assert isinstance(extended, MeldExtended) and extended.cards == ["3H", "4H", "5H", "6H"]
    assert len(hand_round(table).hands[1]) == 12 - 7


def test_burraco_rule_7_partners_share_melds_and_opponents_may_not_touch_them() -> None:
    deck = stacked_deck(hands={1: "3H 4H 5H 9C", 2: "6H", 3: "6H"}, stock="KC KD QC")
    history = [*opening(deck), draws(1, "KC"), melds(1, 1, "3H 4H 5H"), discards(1, "9C"),
               draws(2, "KD")]  # fmt: skip
    with pytest.raises(IllegalCommand, match="opponents' melds"):
        GAME.decide(given(history), AddToMeld(seat=2, meld=1, cards=["6H"]))
    history += [discards(2, "KD"), draws(3, "QC")]
    _, events = play(given(history), AddToMeld(seat=3, meld=1, cards=["6H"]))
    assert isinstance(events[0], MeldExtended) and events[0].team == 1


def test_burraco_a_player_melds_only_cards_held(table) -> None:
    table, _ = play(table, Draw(seat=1))
    with pytest.raises(IllegalCommand, match="you do not hold 8S"):
        GAME.decide(table, Meld(seat=1, cards=["7S", "8S", "9S"]))
    with pytest.raises(IllegalCommand, match="you do not hold another 7S"):
        GAME.decide(table, Meld(seat=1, cards=["7S", "7S", "7H"]))
    with pytest.raises(IllegalCommand, match="not a card"):
        GAME.decide(table, Meld(seat=1, cards=["7S", "ZZ", "7H"]))
    with pytest.raises(IllegalCommand, match="no meld 42"):
        GAME.decide(table, AddToMeld(seat=1, meld=42, cards=["7S"]))


def test_burraco_rule_8_a_team_may_not_hold_two_sets_of_one_rank() -> None:
    deck = stacked_deck(hands={1: "7S 7H 7C 7D 7D JK 9C"}, stock="KC")
    table = given([*opening(deck), draws(1, "KC"), melds(1, 1, "7S 7H 7C")])
    with pytest.raises(IllegalCommand, match="already has a set of 7s"):
        GAME.decide(table, Meld(seat=1, cards=["7D", "7D", "JK"]))


def test_burraco_rule_9_a_team_may_hold_two_sequences_of_one_suit() -> None:
    deck = stacked_deck(hands={1: "3H 4H 5H 9H 10H JH 2C"}, stock="KC")
    table = given([*opening(deck), draws(1, "KC"), melds(1, 1, "3H 4H 5H")])
    table, _ = play(table, Meld(seat=1, cards=["9H", "10H", "JH"]))
    assert [m.layout.suit for m in hand_round(table).melds] == ["H", "H"]


def test_burraco_rule_13_a_single_card_pile_may_not_be_discarded_again(table) -> None:
    table, _ = play(table, TakePile(seat=1))
    with pytest.raises(IllegalCommand, match="single-card pile"):
        GAME.decide(table, Discard(seat=1, card="KS"))
    table, events = play(table, Discard(seat=1, card="KD"))
    assert events[0] == Discarded(hand=1, seat=1, card="KD")


def test_burraco_rule_13_option_allows_rediscarding_the_single_card() -> None:
    table = seated_table(DECK, options={"single_card_rediscard": True})
    table, events = play(table, TakePile(seat=1), Discard(seat=1, card="KS"))
    assert events[-1] == Discarded(hand=1, seat=1, card="KS")


def test_burraco_rule_13_another_copy_of_the_single_card_may_go() -> None:
    table = seated_table(stacked_deck(hands={1: "KS 4H 5H"}, discard="KS"))
    table, events = play(table, TakePile(seat=1), Discard(seat=1, card="KS"))
    assert events[-1] == Discarded(hand=1, seat=1, card="KS")


def test_burraco_rule_13_a_copy_left_after_melding_the_taken_card_may_go() -> None:
    # two 7H in hand, one of them from the pile; the player melds a 7H (which counts as the
    # pile card for take_pile=must_meld) and may then discard the other copy
    table = seated_table(stacked_deck(hands={1: "7H 7S 7C 4H 9C"}, discard="7H"))
    table, events = play(
        table,
        TakePile(seat=1),
        Meld(seat=1, cards=["7H", "7S", "7C"]),
        Discard(seat=1, card="7H"),
    )
    assert events[-1] == Discarded(hand=1, seat=1, card="7H")


def test_burraco_rule_14_a_wild_card_may_be_discarded(table) -> None:
    table, events = play(table, Draw(seat=1), Discard(seat=1, card="JK"))
    assert events[-1] == Discarded(hand=1, seat=1, card="JK")
    table, events = play(table, Draw(seat=2), Discard(seat=2, card=hand_round(table).hands[2][0]))
    assert names(events) == ["CardDrawn", "Discarded"]


def test_burraco_option_set_ranks_allows_only_sets_of_aces_and_threes() -> None:
    table = seated_table(DECK, options={"set_ranks": "aces_and_threes"})
    table, _ = play(table, Draw(seat=1))
    with pytest.raises(IllegalCommand, match="only of aces or threes"):
        GAME.decide(table, Meld(seat=1, cards=["7S", "7H", "7C"]))
    table, events = play(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert names(events) == ["Melded"]


def test_burraco_option_must_meld_takes_the_pile_only_to_meld_from_it() -> None:
    deck = stacked_deck(hands={1: "3H 4H 9C 9S KD QD 6C 7S 8D 10C JC"}, discard="KS")
    table = seated_table(deck, options={"take_pile": "must_meld"})
    with pytest.raises(IllegalCommand, match="only to meld a card from it"):
        GAME.decide(table, TakePile(seat=1))
    deck = stacked_deck(hands={1: "3H 4H 9C 9S KD QD 6C 7S 8D 10C JC"}, discard="5H")
    table = seated_table(deck, options={"take_pile": "must_meld"})
    table, _ = play(table, TakePile(seat=1))
    with pytest.raises(IllegalCommand, match="meld a card from it before you discard"):
        GAME.decide(table, Discard(seat=1, card="7S"))
    table, events = play(table, Meld(seat=1, cards=["3H", "4H", "5H"]), Discard(seat=1, card="7S"))
    assert names(events) == ["Melded", "Discarded"]


def test_burraco_nothing_is_played_before_every_seat_is_taken() -> None:
    table = GAME.evolve(None, GAME.decide(None, OpenTable(game="burraco", options={}, seed=3))[0])
    table = apply(table, GAME.decide(table, TakeSeat(name="Ada", token_hash="a")))
    with pytest.raises(IllegalCommand, match="every seat is taken"):
        GAME.decide(table, Draw(seat=0))
    assert GAME.legal_commands(table, 0) == []
    assert GAME.to_act(table) == frozenset()


def test_burraco_rule_9_a_meld_command_may_say_what_the_wild_stands_for(table) -> None:
    table, _ = play(table, Draw(seat=1))
    _, events = play(table, Meld(seat=1, cards=["3H", "4H", "JK"], wild_rank="2"))
    assert events[0].cards == ["JK", "3H", "4H"] and events[0].low == 2
    with pytest.raises(IllegalCommand, match="'Z' is not a rank"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "JK"], wild_rank="Z"))
    with pytest.raises(IllegalCommand, match="'middle' must be 'low' or 'high'"):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "JK"], ace="middle"))


def test_burraco_rule_10_adding_the_natural_card_moves_the_wild_on_the_table(table) -> None:
    table, _ = play(table, Draw(seat=1), Meld(seat=1, cards=["3H", "JK", "5H"]))
    assert hand_round(table).melds[0].layout.cards == ("3H", "JK", "5H")
    table, events = play(table, AddToMeld(seat=1, meld=1, cards=["4H"]))
    assert events[0].cards == ["3H", "4H", "5H", "JK"]
    assert hand_round(table).melds[0].layout.wild_position == 6


def test_burraco_rule_2_a_two_is_wild_outside_its_own_place() -> None:
    table = seated_table(stacked_deck(hands={1: "7C 7D 2S 2S 3S 4S 9H"}))
    table, events = play(table, Draw(seat=1), Meld(seat=1, cards=["7C", "7D", "2S"]))
    assert events[-1].kind == "set" and events[-1].wild == 2  # a 2 in a set is wild
    _, events = play(table, Meld(seat=1, cards=["2S", "3S", "4S"]))
    assert events[-1].kind == "sequence" and events[-1].wild == -1  # natural in its place


def test_burraco_decide_never_changes_the_state_it_is_given(table) -> None:
    before = table
    snapshot = GAME.view(table, None, revealed=True)
    GAME.decide(table, Draw(seat=1))
    GAME.decide(table, TakePile(seat=1))
    with pytest.raises(IllegalCommand):
        GAME.decide(table, Meld(seat=1, cards=["3H", "4H", "5H"]))
    assert table is before and GAME.view(table, None, revealed=True) == snapshot


# --- audit (round 2): option take_pile=must_meld accepts every way of melding a pile card --


def test_burraco_option_must_meld_the_pile_card_may_go_into_part_of_a_run() -> None:
    # the whole run 4H-7H would leave KD alone, and closing is impossible without a burraco
    # (rule 19), but 5H 6H 7H leaves 4H KD: the pile may be taken
    deck = stacked_deck(
        hands={1: "4H 5H 6H KD 8C 9C 10C JC QS QC QD", 3: "3S 4S 5S 6S 7S 8S 3D 4D 5D 6D 7D",
               0: "7H"},
        pozzetti=("AS KS 9S 10S JS AD KD 9D 10D JD AC", ""),
        discard="3C", stock="10H JH 8D 4C",
    )  # fmt: skip
    table = given([
        *opening(deck, take_pile="must_meld"),
        draws(1, "10H"), melds(1, 1, "8C 9C 10C JC"), melds(1, 2, "QS QC QD"), discards(1, "10H"),
        draws(2, "JH"), discards(2, "JH"),
        draws(3, "8D"), melds(3, 3, "3S 4S 5S 6S 7S 8S"), melds(3, 4, "3D 4D 5D 6D 7D 8D"),
        takes_pozzetto(3, 0, "AS KS 9S 10S JS AD KD 9D 10D JD AC"), discards(3, "AC"),
        takes_pile(0, "3C 10H JH AC"), discards(0, "7H"),
    ])  # fmt: skip
    assert hand_round(table).hands[1] == ("4H", "5H", "6H", "KD")
    assert TakePile(seat=1) in GAME.legal_commands(table, 1)
    table, _ = play(table, TakePile(seat=1))
    with pytest.raises(IllegalCommand, match="meld a card from it before you discard"):
        GAME.decide(table, Discard(seat=1, card="KD"))
    assert GAME.legal_commands(table, 1) == [Meld(seat=1, cards=["5H", "6H", "7H"])]
    table, events = play(table, Meld(seat=1, cards=["5H", "6H", "7H"]), Discard(seat=1, card="KD"))
    assert names(events) == ["Melded", "Discarded"]


def test_burraco_option_must_meld_the_pile_card_may_join_a_meld_with_a_card_from_hand() -> None:
    # 9H joins 5H 6H 7H only together with the 8H from hand
    deck = stacked_deck(hands={1: "8H KD QC", 3: "5H 6H 7H", 0: "9H"}, discard="3C",
                        stock="10S JD 4C")  # fmt: skip
    table = given([
        *opening(deck, take_pile="must_meld"),
        draws(1, "10S"), discards(1, "10S"), draws(2, "JD"), discards(2, "JD"),
        draws(3, "4C"), melds(3, 1, "5H 6H 7H"), discards(3, "4C"),
        takes_pile(0, "3C 10S JD 4C"), discards(0, "9H"),
    ])  # fmt: skip
    assert TakePile(seat=1) in GAME.legal_commands(table, 1)
    table, _ = play(table, TakePile(seat=1))
    assert AddToMeld(seat=1, meld=1, cards=["8H", "9H"]) in GAME.legal_commands(table, 1)
    table, events = play(table, AddToMeld(seat=1, meld=1, cards=["8H", "9H"]))
    assert names(events) == ["MeldExtended"]
    assert Discard(seat=1, card="KD") in GAME.legal_commands(table, 1)


def test_burraco_option_must_meld_a_meld_may_not_spoil_the_meld_from_the_pile() -> None:
    # taking 7H to meld 5H 6H 7H, the player may not first spend the 5H on a set of fives:
    # the pile card could then never be melded, and the turn would end without it
    deck = stacked_deck(hands={1: "5H 6H 5S 5C KD QD 9S JC 3D 10S 4C"}, discard="7H")
    table, _ = play(seated_table(deck, options={"take_pile": "must_meld"}), TakePile(seat=1))
    with pytest.raises(IllegalCommand, match="no card of the pile could be melded"):
        GAME.decide(table, Meld(seat=1, cards=["5H", "5S", "5C"]))
    assert Meld(seat=1, cards=["5H", "5S", "5C"]) not in GAME.legal_commands(table, 1)
    table, events = play(table, Meld(seat=1, cards=["5H", "6H", "7H"]), Discard(seat=1, card="KD"))
    assert names(events) == ["Melded", "Discarded"]
