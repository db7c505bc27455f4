"""The cinch (spec 5.2): rules 19 (what a cinch is), 20 (only the player's own knowledge),
21 (lead / follow with the highest trump unless last) and 22 (equivalent trumps, strict, off)."""

from __future__ import annotations

import pytest

from domain.bourre import GAME
from domain.bourre.cinch import apply_cinch, guaranteed_tricks, has_cinch, highest_trumps
from domain.bourre.commands import Declare, PlayCard
from domain.bourre.events import HandSettled
from domain.cards import Suit, parse
from domain.errors import IllegalCommand
from tests.unit.bourre.support import of_type, open_table, run, stack

S = Suit.SPADES


def table(deck, cinch="equivalent", **options):
    """Three seats, everyone plays keeping their cards; seat 1 leads."""
    state, _ = open_table({"seats": 3, "cinch": cinch, **options}, decks=[deck])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))
    return state


def cards_for(state, seat):
    return [c.card for c in GAME.legal_commands(state, seat)]


def test_rule_19_trump_ace_king_queen_is_a_cinch_from_the_start() -> None:
    assert guaranteed_tricks(parse("AS KS QS 2H 3H"), S, set()) == 3
    assert has_cinch(parse("AS KS QS 2H 3H"), S, 0, set())


def test_rule_19_trump_king_queen_ten_nine_eight_is_a_cinch_from_the_start() -> None:
    assert guaranteed_tricks(parse("KS QS 10S 9S 8S"), S, set()) == 3
    assert has_cinch(parse("KS QS 10S 9S 8S"), S, 0, set())


def test_rule_19_ace_king_alone_is_no_cinch_until_a_trick_is_won() -> None:
    hand = parse("AS KS 2H 3H")
    assert not has_cinch(hand, S, 0, set())
    assert has_cinch(hand, S, 1, set())


def test_rule_19_three_tricks_won_is_a_cinch_whatever_the_hand() -> None:
    assert has_cinch(parse("2H 3H"), S, 3, set())


def test_rule_20_guaranteed_tricks_count_cards_already_played_as_gone() -> None:
    hand = parse("KS JS 2H")
    assert guaranteed_tricks(hand, S, set()) == 0  # the A and Q can spoil both
    assert guaranteed_tricks(hand, S, set(parse("AS"))) == 1
    assert guaranteed_tricks(hand, S, set(parse("AS QS"))) == 2


def test_rule_22_equivalent_trumps_king_from_ace_king_and_jack_once_the_queen_is_gone() -> None:
    assert highest_trumps(parse("AS KS 3S"), S, set(), "equivalent") == parse("AS KS")
    assert highest_trumps(parse("KS JS 3S"), S, set(), "equivalent") == parse("KS")
    assert highest_trumps(parse("KS JS 3S"), S, set(parse("QS")), "equivalent") == parse("KS JS")
    assert highest_trumps(parse("AS KS 3S"), S, set(), "strict") == parse("AS")


# Spades trump (the dealer's face-up 9S). Seat 1 holds A-K-Q of trumps.
LEADER_CINCH = stack(["2C 3C 4C 5C 9S", "AS KS QS 2H 3H", "4D 5D 6D 7D 8D"])


def test_rule_21_with_a_cinch_the_leader_must_lead_the_highest_trump() -> None:
    state = table(LEADER_CINCH)
    with pytest.raises(
        IllegalCommand, match=r"must play your highest trump \(cinch\): AS or KS or QS"
    ):
        GAME.decide(state, PlayCard(seat=1, card="2H"))
    assert cards_for(state, 1) == ["AS", "KS", "QS"]


def test_rule_22_strict_accepts_only_the_very_highest_trump() -> None:
    state = table(LEADER_CINCH, cinch="strict")
    assert cards_for(state, 1) == ["AS"]
    with pytest.raises(IllegalCommand, match=r"\(cinch\): AS$"):
        GAME.decide(state, PlayCard(seat=1, card="KS"))


def test_rule_22_cinch_off_disables_the_cinch_rules() -> None:
    state = table(LEADER_CINCH, cinch="off")
    assert cards_for(state, 1) == ["AS", "KS", "QS", "2H", "3H"]


# Seat 2 holds A-K-Q-4-3 of trumps and no heart; the dealer plays last.
FOLLOWER_CINCH = stack(["AH KH QH 5C 9S", "2H 3H 4H 5H 6H", "AS KS QS 4S 3S"])


def test_rule_21_following_with_a_cinch_and_able_to_trump_play_the_highest_trump() -> None:
    state = table(FOLLOWER_CINCH)
    state, _ = run(state, PlayCard(seat=1, card="2H"))
    assert cards_for(state, 2) == ["AS", "KS", "QS"]
    with pytest.raises(IllegalCommand, match=r"must play your highest trump \(cinch\)"):
        GAME.decide(state, PlayCard(seat=2, card="4S"))


def test_rule_21_a_cinch_holder_who_breaks_5_1_is_told_the_cards_the_cinch_leaves() -> None:
    deck = stack(["AH KH QH 5C 9S", "2H 3H 4H 5H 6H", "AS KS QS 4S 2C"])
    state = table(deck)
    state, _ = run(state, PlayCard(seat=1, card="2H"))
    with pytest.raises(IllegalCommand, match=r"must trump: .*; with your cinch: AS or KS or QS"):
        GAME.decide(state, PlayCard(seat=2, card="2C"))


def test_rule_21_following_when_trumps_are_led_the_cinch_asks_the_highest_trump() -> None:
    deck = stack(["AH KH QH 5C 9S", "2S 3H 4H 5H 6H", "AS KS QS 4S 3S"])
    state = table(deck)
    state, _ = run(state, PlayCard(seat=1, card="2S"))
    assert cards_for(state, 2) == ["AS", "KS", "QS"]


# The dealer (last to play) holds A-K-Q-5-3 of trumps and no heart.
LAST_CINCH = stack(["AS KS QS 3S 5S", "2H 4H 6H 8H 10H", "3H 5H 7H 9H JH"])


def test_rule_21_the_last_to_play_follows_the_normal_rules_even_with_a_cinch() -> None:
    state = table(LAST_CINCH)
    state, _ = run(state, PlayCard(seat=1, card="2H"), PlayCard(seat=2, card="3H"))
    assert cards_for(state, 0) == ["AS", "KS", "QS", "3S", "5S"]
    state, _ = run(state, PlayCard(seat=0, card="3S"))
    assert state.hand is not None and state.hand.tricks[0] == 1


def test_rule_21_a_follower_with_the_suit_led_plays_by_the_normal_rules() -> None:
    deck = stack(["AS KS QS 3S 5S", "2H 4H 6H 8H 10H", "3H 5H 7H 9H JH"])
    state = table(deck)
    state, _ = run(state, PlayCard(seat=1, card="2H"))
    assert cards_for(state, 2) == ["3H", "5H", "7H", "9H", "JH"]  # cannot trump


def test_rule_19_a_hand_becomes_a_cinch_after_winning_a_trick_with_two_sure_tricks() -> None:
    # given seat 1 with A-K of trumps and the AD: no cinch yet
    deck = stack(["5D 2C 3C 4C 9S", "AD AS KS 2H 3H", "4D 5H 6H 7H 8H"])
    state = table(deck)
    assert "2H" in cards_for(state, 1)
    # when it wins the first trick
    state, _ = run(state, PlayCard(seat=1, card="AD"), PlayCard(seat=2, card="4D"))
    state, _ = run(state, PlayCard(seat=0, card="5D"))
    # then it has a cinch and must lead its highest trump
    assert state.hand is not None and state.hand.tricks[1] == 1
    assert cards_for(state, 1) == ["AS", "KS"]


def test_rule_20_a_turned_card_that_belongs_to_nobody_is_known_but_a_hidden_hand_is_not() -> None:
    # given seat 1 holds K-Q-J of trumps and the ace of trumps is the turned card (nobody's)
    separate = stack(["2C 3C 4C 5C 6C", "KS QS JS 2H 3H", "4D 5D 6D 7D 8D"], turned="AS")
    state = table(separate, trump_card="separate")
    # then K-Q-J are three sure tricks: a cinch
    assert cards_for(state, 1) == ["KS", "QS", "JS"]
    # given instead the ace of trumps sits hidden in seat 2's hand
    hidden = stack(["2C 3C 4C 5C 6C", "KS QS JS 2H 3H", "AS 5D 6D 7D 8D"], turned="9S")
    state = table(hidden, trump_card="separate")
    # then seat 1 cannot know it is out of reach: no cinch, any card may be led
    assert cards_for(state, 1) == ["KS", "QS", "JS", "2H", "3H"]


def test_rule_20_a_higher_trump_in_the_trick_still_takes_a_trump_so_it_makes_no_cinch() -> None:
    # given seat 1 won trick 1, lost trick 2 and holds K-Q-2 of trumps, and seat 0 leads the AS
    deck = stack(["AS AH 4C 5D 3S", "KS QS 2S AC 2H", "5C 3H 6D 7D 8D"])
    state = table(deck)
    state, _ = run(state, PlayCard(seat=1, card="AC"), PlayCard(seat=2, card="5C"))
    state, _ = run(state, PlayCard(seat=0, card="4C"), PlayCard(seat=1, card="2H"))
    state, _ = run(state, PlayCard(seat=2, card="3H"), PlayCard(seat=0, card="AH"))
    state, _ = run(state, PlayCard(seat=0, card="AS"))
    # then the AS in the trick will take whichever trump seat 1 plays: one won trick plus
    # K-Q is not yet three sure tricks, so no cinch forces a high trump under the ace
    assert cards_for(state, 1) == ["KS", "QS", "2S"]
    # and keeping K-Q wins the pot: 2S under the ace, then K and Q are the top trumps
    state, _ = run(state, PlayCard(seat=1, card="2S"), PlayCard(seat=2, card="6D"))
    state, _ = run(state, PlayCard(seat=0, card="5D"), PlayCard(seat=1, card="KS"))
    state, _ = run(state, PlayCard(seat=2, card="7D"), PlayCard(seat=1, card="QS"))
    state, events = run(state, PlayCard(seat=2, card="8D"), PlayCard(seat=0, card="3S"))
    (settled,) = of_type(events, HandSettled)
    assert settled.tricks == [2, 3, 0] and settled.winner == 1


def test_rule_22_a_trump_already_in_the_trick_makes_the_next_lower_trump_equivalent() -> None:
    # given seat 1 has won three tricks (a cinch) and holds K-J of trumps; the AS was led and
    # the QS followed, so neither of seat 1's trumps can head the trick
    trick = parse("AS QS")
    hand = parse("KS JS")
    legal, top = apply_cinch(hand, hand, S, trick, 3, trick, last_to_play=False, mode="equivalent")
    # then the QS is already played: the JS is as good as the KS (rule 22)
    assert legal == parse("KS JS") and top == parse("KS JS")
    legal, _ = apply_cinch(hand, hand, S, trick, 3, trick, last_to_play=False, mode="strict")
    assert legal == parse("KS")


def test_rule_20_a_trump_in_the_trick_that_you_overtrump_is_gone_for_your_cinch() -> None:
    # given four seats, spades trump (the dealer's 9S); seat 1 won trick 1 with the AS (the JS
    # fell under it) and seat 3 won trick 2; seat 3 leads a heart and the dealer trumps it
    deck = stack(["3S 4C 5D 6D 9S", "AS 2C KS 10S 8S", "JS 5C 7D 8D 9D", "AC 2H 4H 5H 6H"])
    state, _ = open_table({"seats": 4}, decks=[deck])
    state, _ = run(state, *(Declare(seat=s, play=True) for s in (1, 2, 3, 0)))
    state, _ = run(state, PlayCard(seat=1, card="AS"), PlayCard(seat=2, card="JS"))
    state, _ = run(state, PlayCard(seat=3, card="6H"), PlayCard(seat=0, card="3S"))
    state, _ = run(state, PlayCard(seat=1, card="2C"), PlayCard(seat=2, card="5C"))
    state, _ = run(state, PlayCard(seat=3, card="AC"), PlayCard(seat=0, card="4C"))
    state, _ = run(state, PlayCard(seat=3, card="2H"), PlayCard(seat=0, card="9S"))
    # then seat 1 (K-10-8, void in hearts) must overtrump the 9S, so it can never take one of
    # seat 1's trumps: one trick won, the KS and the 8S sure (only the QS is out, against the
    # 10S) make a cinch, and the KS is the highest trump (the QS is out between it and the 10S)
    assert cards_for(state, 1) == ["KS"]
