"""The result pause (option ``result_pause``, domain/table/clock.py, issue 21): after a hand
settles the next hand's turn clock starts once the pause has passed; the option is checked."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from domain.errors import InvalidOption
from domain.table.clock import check_clock_options, result_pause, turn_starts
from projections.views import turn_deadline

SETTLED = datetime(2026, 1, 1, 12, 0, 0, tzinfo=UTC)


def test_a_turn_prompted_by_the_next_deal_starts_after_the_pause() -> None:
    at = SETTLED.timestamp()
    assert turn_starts(at, at, 3.0) == at + 3.0
    assert turn_starts(at + 10, at, 3.0) == at + 10  # a later turn: the pause has passed
    assert turn_starts(at, None, 3.0) == at  # no hand settled yet


def test_the_live_view_s_deadline_counts_from_the_end_of_the_pause() -> None:
    view = {"status": "playing", "toAct": [1], "options": {"turn_seconds": 20, "result_pause": 4}}
    deadline = turn_deadline(view, SETTLED, SETTLED)
    assert deadline == SETTLED + timedelta(seconds=24)
    later = SETTLED + timedelta(seconds=30)
    assert turn_deadline(view, later, SETTLED) == later + timedelta(seconds=20)


def test_the_pause_defaults_to_three_seconds_and_is_checked() -> None:
    assert result_pause({}) == 3.0
    assert result_pause({"result_pause": 0}) == 0.0
    assert check_clock_options({"result_pause": 10}) == {"result_pause": 10}
    for bad in (-1, 61, True, "3"):
        with pytest.raises(InvalidOption, match="result_pause"):
            check_clock_options({"result_pause": bad})
