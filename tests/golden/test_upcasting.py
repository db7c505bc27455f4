"""The upcasting path (design §3): an event whose shape changes gets ``class_version = 2`` and
an ``upcast_v1_v2``, and the rows stored at version 1 — here the golden store's — are read as
version 2 through every reader of the store.

The change is test-local: Bourré's ``TrickWon`` with ``seat`` renamed ``winner`` and a new
required field ``size`` (how many cards the trick held), put in place of the real class for the
stored topic ``bourre/TrickWon`` (and its module-path alias).
"""

from __future__ import annotations

import copy
import functools
import operator
import shutil
import typing
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar
from uuid import uuid4

import msgspec
import pytest
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent

import infra.transcoder
from domain.bourre.events import TrickWon as TrickWonV1
from domain.games import game_named, games
from domain.table import Event
from infra.logread import LogReader
from infra.settings import Settings
from infra.store import TableStore
from infra.topics import Topics, build
from infra.transcoder import MsgspecMapper, StoredTableEvent
from tests.golden.readmodels import table_ids

GOLDEN = Path(__file__).resolve().parent / "store.db"


class TrickWon(Event, frozen=True, tag="TrickWon", gc=False):
    """Version 2: ``seat`` is now ``winner``; ``size`` counts the trick's cards."""

    class_version: ClassVar[int] = 2

    hand: int
    trick: int
    winner: int
    card: str
    size: int
    cards: list[str] = msgspec.field(default_factory=list)

    @staticmethod
    def upcast_v1_v2(data: dict[str, Any]) -> None:
        data["winner"] = data.pop("seat")
        data["size"] = len(data.get("cards", []))


def with_trick_won_v2() -> Topics:
    """The registry's topics with Bourré's ``TrickWon`` replaced by version 2."""
    bourre = game_named("bourre")
    changed = typing.cast(Any, functools.reduce)(
        operator.or_,
        [TrickWon if cls is TrickWonV1 else cls for cls in typing.get_args(bourre.event_type)],
    )
    patched = copy.copy(bourre)
    patched.event_type = changed
    return build([patched if game is bourre else game for game in games()])


@pytest.fixture
def v2(monkeypatch: pytest.MonkeyPatch) -> Topics:
    named = with_trick_won_v2()
    monkeypatch.setattr(infra.transcoder, "topics", lambda: named)
    return named


@pytest.fixture
def golden(v2: Topics, tmp_path: Path) -> Iterator[TableStore]:
    copy = tmp_path / "golden.db"
    shutil.copyfile(GOLDEN, copy)
    settings = Settings(event_store=f"sqlite:///{copy}", var_dir=tmp_path / "var")
    with TableStore(settings) as store:
        yield store


def expected_v2(store: TableStore) -> dict[tuple[str, int], TrickWon]:
    """Each stored v1 ``TrickWon`` (read as plain JSON) as version 2 should read it."""
    found = {}
    for row in store.app.recorder.select_notifications(start=1, limit=10_000):
        if row.topic == "domain.bourre.events:TrickWon":
            v1 = msgspec.json.decode(row.state)["event"]
            assert "classVersion" not in msgspec.json.decode(row.state)
            found[(str(row.originator_id), row.originator_version)] = TrickWon(
                hand=v1["hand"],
                trick=v1["trick"],
                winner=v1["seat"],
                card=v1["card"],
                size=len(v1["cards"]),
                cards=v1["cards"],
            )
    return found


def test_v1_rows_of_the_golden_store_read_as_v2_through_the_store(golden: TableStore) -> None:
    expected = expected_v2(golden)
    assert len(expected) == 30
    read = {
        (str(table_id), recorded.version): recorded.event
        for table_id in table_ids(golden)
        for recorded in golden.events(table_id)
        if isinstance(recorded.event, TrickWon)
    }
    assert read == expected
    assert not any(
        isinstance(recorded.event, TrickWonV1)
        for table_id in table_ids(golden)
        for recorded in golden.events(table_id)
    )


def test_v1_rows_read_as_v2_through_the_log_readers(golden: TableStore) -> None:
    expected = expected_v2(golden)
    for _ in range(2):  # the second pass takes the log reader's prepared decoders
        notes = golden.notifications(1, 10_000)
        read = {(str(n.table_id), n.version): n.event for n in notes if type(n.event) is TrickWon}
        assert read == expected
    reader = LogReader(golden.app)
    for _ in range(2):
        texts = reader.notifications_at_text(1, 10_000)
        read = {(str(n.table_id), n.version): n.event for n in texts if type(n.event) is TrickWon}
        assert read == expected


def test_a_v2_event_is_stored_at_its_version_and_read_back_without_upcasting(v2: Topics) -> None:
    mapper = MsgspecMapper()
    event = TrickWon(hand=1, trick=2, winner=3, card="AS", size=2, cards=["AS", "2S"])
    envelope = StoredTableEvent(uuid4(), 9, datetime(2026, 1, 2, tzinfo=UTC), event)
    stored = mapper.to_stored_event(envelope)
    assert stored.topic == "bourre/TrickWon"
    body = msgspec.json.decode(stored.state)
    assert body["classVersion"] == 2 and body["event"]["winner"] == 3
    assert mapper.to_domain_event(stored) == envelope
    newer = stored.state.replace(b'"classVersion":2', b'"classVersion":3')
    with pytest.raises(MapperDeserialisationError, match="class_version 3"):
        mapper.to_domain_event(StoredEvent(uuid4(), 1, stored.topic, newer))
