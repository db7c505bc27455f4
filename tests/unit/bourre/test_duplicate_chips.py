"""Rule 36 (docs/rules/bourre.md, duplicate tournaments): a seat scores its chips won on a
board less the chips the same seat won at each other table of the board, summed; and the
chips won are the ratings' reading of a settled hand (payout less bourré payment)."""

from __future__ import annotations

from domain.bourre.events import HandSettled
from domain.bourre.readmodels import hand_ranking
from domain.tournament.events import Side
from domain.tournament.scoring import TableResult, duplicate_scores


def test_rule_36_seat_two_won_4_minus_2_and_1_at_three_tables_scores_9_minus_9_and_0() -> None:
    def board(table: str, entries: tuple[int, ...], won: tuple[int, ...]) -> TableResult:
        hand = tuple(Side((seat,), chips) for seat, chips in enumerate(won))
        return TableResult(table, 1, (1,), entries, (hand,))

    scores = duplicate_scores(
        [board("a", (0, 3, 6), (0, 0, 4)), board("b", (1, 4, 7), (0, 2, -2)),
         board("c", (2, 5, 8), (0, -1, 1))],
        "field",
    )  # fmt: skip
    assert (scores[6][0], scores[7][0], scores[8][0]) == (9, -9, 0)
    assert (scores[0][0], scores[1][0], scores[2][0]) == (0, 0, 0)  # seat 0 won nothing anywhere


def test_rule_36_chips_won_are_the_payout_less_the_bourre_payment() -> None:
    # seat 0 took the 6-chip pot, seat 2 was bourréd and pays 6 into the next pot
    settled = HandSettled(
        hand=1, pot=6, cap=6, winner=0, payouts=[6, 0, 0], tricks=[3, 2, 0], bourre=[2],
        bourre_payment=6, tied=[], carried=0, solo=False, deck=[], salt="",
    )  # fmt: skip
    assert hand_ranking(settled, 3) == [((0,), 6), ((1,), 0), ((2,), -6)]
