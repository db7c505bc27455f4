"""Rule 29 (docs/rules/burraco.md, duplicate tournaments): a pair's net on a board against the
same seats' net at every other table, each difference on the 20–0 scale of victory points."""

from __future__ import annotations

import pytest

from domain.tournament.events import Side
from domain.tournament.scoring import TableResult, duplicate_scores, victory_points


@pytest.mark.parametrize(
    ("difference", "ahead"),
    [(0, 10), (49, 10), (50, 11), (149, 11), (150, 12), (205, 12), (550, 16), (949, 19),
     (950, 20), (5000, 20)],
)  # fmt: skip
def test_rule_29_the_20_0_scale_in_bands_of_100_from_50(difference: int, ahead: int) -> None:
    assert victory_points(difference) == ahead
    assert victory_points(-difference) == 20 - ahead


def test_rule_29_nets_165_and_minus_40_differ_by_205_twelve_to_eight() -> None:
    def board(table: str, entries: tuple[int, ...], ns: int, ew: int) -> TableResult:
        return TableResult(table, 1, (1,), entries, ((Side((0, 2), ns), Side((1, 3), ew)),))

    scores = duplicate_scores(
        [board("a", (0, 2, 0, 2), 750, 585), board("b", (1, 3, 1, 3), 380, 420)], "vp"
    )
    assert {entry: vp for entry, (vp, _) in scores.items()} == {0: 12, 2: 8, 1: 8, 3: 12}
