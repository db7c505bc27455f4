"""Settlement and the pot across hands: antes (rules 5–7), winning (23), the split pot (24),
bourré (25), the pot limit (26), the money flow (27), conservation (28), tie split (34)."""

from __future__ import annotations

from domain.bourre import GAME
from domain.bourre.commands import Declare
from domain.bourre.events import Anted, HandSettled
from domain.bourre.settlement import settle
from projections.ledger import Ledger
from tests.unit.bourre.support import of_type, open_table, run, stack

# Spades trump (the dealer's 9S); seat 1's five top trumps take every trick.
SWEEP = stack(["2C 3C 4C 5C 9S", "AS KS QS JS 10S", "2H 3H 4H 5H 6H"])
# Clubs trump (turned 2C, nobody's); with the first legal card each time: 2-2-1.
TIE = stack(["QH JH AS 5S 6S", "AH KH 2D 3D 4D", "AD KD 2H 3H 4S"], turned="2C")


def play_out(state):
    """Every seat to act plays its first legal command until the hand is settled."""
    number = state.hand.number
    events = []
    while state.status == "playing" and state.hand.number == number:
        seat = min(GAME.to_act(state))
        state, more = run(state, GAME.legal_commands(state, seat)[0])
        events += more
    return state, events


def everyone_plays(deck, **options):
    state, _ = open_table({"seats": 3, "cinch": "off", **options}, decks=[deck])
    return run(state, *(Declare(seat=s, play=True) for s in (1, 2, 0)))[0]


def test_rule_23_the_player_with_most_tricks_takes_the_whole_pot() -> None:
    _state, events = play_out(everyone_plays(SWEEP))
    (settled,) = of_type(events, HandSettled)
    assert settled.winner == 1 and settled.tricks == [0, 5, 0]
    assert settled.pot == 3 and settled.payouts == [0, 3, 0]


def test_rule_23_two_tricks_can_win_when_nobody_else_has_two() -> None:
    result = settle(7, [2, 1, 1, 1], [0, 1, 2, 3], pot_limit=None, tie="carry")
    assert result.winner == 0 and result.payouts == [7, 0, 0, 0] and result.carried == 0


def test_rule_25_a_player_without_a_trick_is_bourre_and_pays_the_pot_into_the_next_hand() -> None:
    state, events = play_out(everyone_plays(SWEEP))
    (settled,) = of_type(events, HandSettled)
    assert settled.bourre == [0, 2] and settled.bourre_payment == 3
    # the next pot is the two bourré payments plus the winner's ante (rule 6)
    assert state.pot == 3 + 3 + 1
    assert state.nets == (-1 - 3, -1 + 3 - 1, -1 - 3)


def test_rule_6_bourre_players_skip_the_next_ante_and_the_winner_antes() -> None:
    _, events = play_out(everyone_plays(SWEEP))
    second_hand_ante = of_type(events, Anted)[-1]
    assert second_hand_ante == Anted(hand=2, seats=[1], amount=1)


def test_rule_24_a_tie_for_most_tricks_leaves_the_pot_for_the_next_hand() -> None:
    state, events = play_out(everyone_plays(TIE, trump_card="separate"))
    (settled,) = of_type(events, HandSettled)
    assert settled.tricks == [1, 2, 2]
    assert settled.winner is None and settled.tied == [1, 2] and settled.carried == 3
    assert settled.payouts == [0, 0, 0] and settled.bourre == []
    # rule 6: the tied players do not ante; the pot carried over and the dealer's ante joined
    assert of_type(events, Anted)[-1] == Anted(hand=2, seats=[0], amount=1)
    assert state.pot == 4


def test_rule_24_a_bourre_player_pays_the_full_pot_also_when_the_pot_is_split() -> None:
    result = settle(9, [2, 2, 1, 0], [0, 1, 2, 3], pot_limit=None, tie="carry")
    assert result.tied == [0, 1] and result.bourre == [3]
    assert result.bourre_payment == 9 and result.carried == 9


def test_rule_34_tie_split_the_tied_players_share_the_pot_and_the_remainder_stays() -> None:
    state, events = play_out(everyone_plays(TIE, trump_card="separate", tie="split"))
    (settled,) = of_type(events, HandSettled)
    assert settled.payouts == [0, 1, 1] and settled.carried == 1
    # with the pot shared nothing carried for the tied, so everyone antes the next hand
    assert of_type(events, Anted)[-1] == Anted(hand=2, seats=[0, 1, 2], amount=1)
    assert state.pot == 1 + 3


def test_rule_26_pot_limit_caps_the_winnings_and_the_bourre_payment() -> None:
    state, events = play_out(everyone_plays(SWEEP, pot_limit=2))
    (settled,) = of_type(events, HandSettled)
    assert (settled.pot, settled.cap) == (3, 2)
    assert settled.payouts == [0, 2, 0] and settled.carried == 1
    assert settled.bourre_payment == 2
    assert state.pot == 1 + 2 + 2 + 1  # carried, two bourré payments, the winner's ante


def test_rule_27_the_pot_at_stake_is_carry_plus_antes_plus_last_hands_bourre_payments() -> None:
    # given hand 1 ends with two bourré players (pot 3, each pays 3) and hand 2 is dealt
    state, _ = play_out(everyone_plays(SWEEP))
    # then hand 2 (dealt by seat 1) has 0 carried + 1 ante + 6 bourré payments at stake
    assert state.hand is not None and state.hand.number == 2
    assert state.pot == 7
    state, _ = run(state, Declare(seat=2, play=False), Declare(seat=0, play=False))
    state, events = run(state, Declare(seat=1, play=True))
    (settled,) = of_type(events, HandSettled)
    assert settled.pot == 7 and settled.winner == 1 and settled.solo


def test_rule_7_antes_come_before_the_deal_and_a_passer_loses_the_ante_and_nothing_more() -> None:
    state, events = open_table({"seats": 3, "cinch": "off"}, decks=[SWEEP])
    assert [type(e).__name__ for e in events[-2:]] == ["Anted", "Dealt"]
    state, _ = run(state, Declare(seat=1, play=True), Declare(seat=2, play=False))
    state, events = play_out(run(state, Declare(seat=0, play=True))[0])
    (settled,) = of_type(events, HandSettled)
    assert settled.bourre == [0]  # the passer (seat 2) is never bourré (rule 12)
    assert state.nets[2] == -1 - 1  # hand 1's lost ante, then hand 2's ante


def test_rule_28_chips_are_conserved_and_players_may_go_into_debt() -> None:
    state, _ = play_out(everyone_plays(SWEEP))
    assert sum(state.nets) + state.pot == 0
    assert min(state.nets) < 0
    ledger = Ledger.shape(GAME, state)
    assert sum(p["net"] for p in ledger["players"]) + ledger["pot"] == 0


def test_rule_27_the_ledger_records_each_hands_pot_winner_bourre_and_tied_players() -> None:
    state, _ = play_out(everyone_plays(SWEEP))
    assert Ledger.shape(GAME, state) == {
        "pot": 7,
        "players": [
            {"seat": 0, "name": "P0", "net": -4},
            {"seat": 1, "name": "P1", "net": 1},
            {"seat": 2, "name": "P2", "net": -4},
        ],
        "hands": [{"hand": 1, "pot": 3, "winner": 1, "bourre": [0, 2], "tied": []}],
    }


def test_rule_30_with_double_ante_nobody_is_exempt_from_the_next_ante() -> None:
    _, events = play_out(everyone_plays(SWEEP, double_ante=True))
    assert of_type(events, Anted)[-1] == Anted(hand=2, seats=[0, 1, 2], amount=1)


def test_rule_26_with_a_split_tie_the_tied_share_only_the_capped_pot() -> None:
    result = settle(10, [2, 2, 1], [0, 1, 2], pot_limit=5, tie="split")
    assert result.payouts == [2, 2, 0] and result.carried == 6 and result.tied == [0, 1]


def test_rule_26_a_solo_winner_also_takes_at_most_the_pot_limit() -> None:
    result = settle(10, [0, 0, 0], [2], pot_limit=4, tie="carry", solo=True)
    assert result.payouts == [0, 0, 4] and result.carried == 6 and result.bourre == []
