"""The msgspec mapper stores every game event as it is and gives it back with its types."""

from __future__ import annotations

import copy
import functools
import operator
import typing
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, ClassVar
from uuid import UUID, uuid4

import msgspec
import pytest
from eventsourcing.persistence import MapperDeserialisationError, StoredEvent
from eventsourcing.utils import resolve_topic
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.bourre.events import Anted
from domain.bourre.state import Table as BourreTable
from domain.burraco.events import Dealt as BurracoDealt
from domain.burraco.state import Table as BurracoTable
from domain.games import game_named, game_names, games
from domain.table import CloseTable, Event, OpenTable, PlayerSeated, TableOpened, TakeSeat
from domain.table.clock import TurnTimedOut
from infra.snapshots import SnapshotMapper, StaleSnapshot, TableSnapshot
from infra.topics import (
    KERNEL_EVENTS,
    DuplicateTopic,
    build,
    check_upcasters,
    topics,
)
from infra.transcoder import (
    MsgspecMapper,
    StoredTableEvent,
    UnknownEventTopic,
    fingerprint_of,
    keyed,
    registered_event_classes,
    stable_topic,
    topic_of,
)


def _event_classes() -> list[type]:
    """Every event class of every registered game, the table's own included."""
    return sorted(set(registered_event_classes().values()), key=stable_topic)


EVENT_CLASSES = _event_classes()

_json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
_json = st.recursive(
    _json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)


def _strategy(info: msgspec.inspect.Type) -> st.SearchStrategy[Any]:
    """A strategy for any value of a msgspec-described type (the fields our events use)."""
    inspect = msgspec.inspect
    if isinstance(info, inspect.IntType):
        return st.integers(min_value=-(2**63), max_value=2**63 - 1)
    if isinstance(info, inspect.StrType):
        return st.text(max_size=12)
    if isinstance(info, inspect.BoolType):
        return st.booleans()
    if isinstance(info, inspect.FloatType):
        return st.floats(allow_nan=False, allow_infinity=False)
    if isinstance(info, inspect.NoneType):
        return st.none()
    if isinstance(info, inspect.AnyType):
        return _json
    if isinstance(info, inspect.UnionType):
        return st.one_of([_strategy(t) for t in info.types])
    if isinstance(info, (inspect.ListType, inspect.VarTupleType)):
        items = st.lists(_strategy(info.item_type), max_size=4)
        return items if isinstance(info, inspect.ListType) else items.map(tuple)
    if isinstance(info, inspect.TupleType):
        return st.tuples(*[_strategy(t) for t in info.item_types])
    if isinstance(info, inspect.DictType):
        return st.dictionaries(_strategy(info.key_type), _strategy(info.value_type), max_size=4)
    if isinstance(info, inspect.LiteralType):
        return st.sampled_from(info.values)
    if isinstance(info, inspect.StructType):
        return st.builds(info.cls, **{f.name: _strategy(f.type) for f in info.fields})
    raise NotImplementedError(f"no strategy for {info!r}: extend the round-trip test")


def _events() -> st.SearchStrategy[Any]:
    return st.one_of([_strategy(msgspec.inspect.type_info(cls)) for cls in EVENT_CLASSES])


_moments = st.datetimes(
    min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
)


def test_every_event_class_of_a_games_modules_is_in_its_union_so_it_can_be_stored() -> None:
    modules = {cls.__module__ for cls in EVENT_CLASSES}
    defined: set[type] = set()
    pending = list(Event.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__ in modules:
            defined.add(cls)
    assert defined == set(EVENT_CLASSES)
    names = {cls.__name__ for cls in EVENT_CLASSES}
    assert {"Anted", "Dealt", "Discarded", "TrickWon", "Melded", "PozzettoTaken"} <= names


@pytest.mark.parametrize("cls", EVENT_CLASSES, ids=stable_topic)
def test_each_event_type_round_trips_with_its_types(cls: type) -> None:
    mapper = MsgspecMapper()

    @settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(
        event=_strategy(msgspec.inspect.type_info(cls)),
        at=_moments,
        key=st.none() | st.text(min_size=1, max_size=20),
    )
    def round_trip(event: Any, at: datetime, key: str | None) -> None:
        envelope = StoredTableEvent(uuid4(), 7, at, event, key)
        stored = mapper.to_stored_event(envelope)
        assert stored.topic == stable_topic(cls)
        back = mapper.to_domain_event(stored)
        assert back == envelope
        assert type(back.event) is cls
        assert isinstance(back.originator_id, UUID)
        assert back.at.tzinfo is not None

    round_trip()


@settings(max_examples=60, deadline=None)
@given(event=_events())
def test_the_union_of_both_games_events_round_trips(event: Any) -> None:
    mapper = MsgspecMapper()
    envelope = StoredTableEvent(uuid4(), 1, datetime.now(UTC), event)
    assert mapper.to_domain_event(mapper.to_stored_event(envelope)) == envelope


def test_stored_bytes_are_the_event_as_json_with_its_envelope() -> None:
    at = datetime(2026, 1, 2, 3, 4, 5, 678000, tzinfo=UTC)
    event = PlayerSeated(seat=2, name="Ann", token_hash="ab")
    stored = MsgspecMapper().to_stored_event(StoredTableEvent(uuid4(), 3, at, event, "key-1"))
    assert stored.topic == "table/PlayerSeated"
    assert msgspec.json.decode(stored.state) == {
        "at": "2026-01-02T03:04:05.678000Z",
        "event": {"type": "PlayerSeated", "seat": 2, "name": "Ann", "tokenHash": "ab"},
        "key": "key-1",
    }


def test_a_datetime_in_another_zone_comes_back_as_the_same_instant() -> None:
    at = datetime(2026, 5, 1, 12, 0, tzinfo=timezone(timedelta(hours=2)))
    mapper = MsgspecMapper()
    envelope = StoredTableEvent(uuid4(), 1, at, PlayerSeated(seat=0, name="a", token_hash="b"))
    assert mapper.to_domain_event(mapper.to_stored_event(envelope)).at == at


def test_a_field_added_later_with_a_default_still_decodes_old_rows() -> None:
    # Schema evolution (design §2): an old row lacks TableOpened.decks, a newer one has an
    # extra field this code does not know; both decode.
    mapper = MsgspecMapper()
    old = (
        b'{"at":"2026-01-01T00:00:00Z",'
        b'"event":{"type":"TableOpened","game":"bourre","options":{},"seed":1}}'
    )
    newer = old.replace(b'"seed":1', b'"seed":1,"futureField":[1,2]')
    for state in (old, newer):
        stored = StoredEvent(uuid4(), 1, topic_of(TableOpened), state)
        event = mapper.to_domain_event(stored).event
        assert event == TableOpened(game="bourre", options={}, seed=1, decks=[])


def test_a_table_id_stored_as_text_comes_back_as_a_uuid() -> None:
    table_id = uuid4()
    mapper = MsgspecMapper()
    stored = mapper.to_stored_event(
        StoredTableEvent(
            table_id, 1, datetime.now(UTC), PlayerSeated(seat=0, name="a", token_hash="b")
        )
    )
    text_row = StoredEvent(str(table_id), 1, stored.topic, stored.state)
    assert mapper.to_domain_event(text_row).originator_id == table_id


@pytest.mark.parametrize(
    "topic",
    [
        "os:system",
        "domain.cards:Card",
        "domain.table:NoSuchEvent",
        "domain.nowhere:Event",
        "nonsense",
        "table/NoSuchEvent",
        "bourre/Table",  # a state, not an event
        "poker/Dealt",
        "eventsourcing.domain:Aggregate.Event",
    ],
)
def test_a_stored_topic_that_is_not_one_of_our_events_is_refused(topic: str) -> None:
    stored = StoredEvent(uuid4(), 1, topic, b'{"at":"2026-01-01T00:00:00Z","event":{}}')
    with pytest.raises(UnknownEventTopic):
        MsgspecMapper().to_domain_event(stored)


def test_corrupt_bytes_name_the_table_and_version() -> None:
    table_id = uuid4()
    stored = StoredEvent(table_id, 4, topic_of(PlayerSeated), b'{"at": "yesterday"}')
    with pytest.raises(MapperDeserialisationError, match=f"{table_id} version 4"):
        MsgspecMapper().to_domain_event(stored)


def test_only_game_events_can_be_stored() -> None:
    with pytest.raises(TypeError, match="not a game event"):
        MsgspecMapper().to_stored_event(
            StoredTableEvent(uuid4(), 1, datetime.now(UTC), {"type": "x"})
        )
    with pytest.raises(TypeError, match="StoredTableEvent"):
        MsgspecMapper().to_stored_event(PlayerSeated(seat=0, name="a", token_hash="b"))


@pytest.mark.parametrize("name", game_names())
def test_the_round_trips_cover_every_event_of_each_games_union(name: str) -> None:
    members = set(typing.get_args(game_named(name).event_type))
    assert members, f"{name}'s event_type is not a union of event classes"
    assert members <= set(EVENT_CLASSES)


def test_a_keyed_command_stores_its_fingerprint_next_to_its_key() -> None:
    at = datetime(2026, 1, 2, tzinfo=UTC)
    event = PlayerSeated(seat=2, name="Ann", token_hash="ab")
    pair = keyed("key-1", TakeSeat(name="Ann", token_hash="ab"), None)
    assert pair is not None
    key, fingerprint = pair
    envelope = StoredTableEvent(uuid4(), 3, at, event, key, fingerprint)
    stored = MsgspecMapper().to_stored_event(envelope)
    assert msgspec.json.decode(stored.state)["fingerprint"] == fingerprint
    assert MsgspecMapper().to_domain_event(stored) == envelope
    assert keyed(None, TakeSeat(name="Ann", token_hash="ab"), None) is None


def test_a_fingerprint_tells_apart_every_part_of_the_request() -> None:
    seat = TakeSeat(name="Ann", token_hash="ab", seat=1)
    assert fingerprint_of(seat) == fingerprint_of(TakeSeat(name="Ann", token_hash="ab", seat=1))
    others = [
        TakeSeat(name="Bob", token_hash="ab", seat=1),
        TakeSeat(name="Ann", token_hash="ab", seat=2),
        CloseTable(seat=1),
    ]
    assert fingerprint_of(seat) not in {fingerprint_of(other) for other in others}
    assert fingerprint_of(seat, expected_version=4) != fingerprint_of(seat)
    # Options are compared by content, whatever order their keys arrived in.
    a = OpenTable(game="bourre", options={"seats": 2, "reveal": "never"}, seed=1)
    b = OpenTable(game="bourre", options={"reveal": "never", "seats": 2}, seed=1)
    assert fingerprint_of(a) == fingerprint_of(b)


# -- stable topics (infra.topics, design §3) ------------------------------------------------


def test_each_event_is_written_under_its_games_name_or_the_tables_and_its_class_name() -> None:
    kernel = set(KERNEL_EVENTS)
    for game in games():
        for cls in typing.get_args(game.event_type):
            expected = f"table/{cls.__name__}" if cls in kernel else f"{game.name}/{cls.__name__}"
            assert stable_topic(cls) == expected
    assert stable_topic(Anted) == "bourre/Anted"
    assert stable_topic(BurracoDealt) == "burraco/Dealt"
    assert stable_topic(TurnTimedOut) == "table/TurnTimedOut"


def test_a_games_state_is_named_like_its_events_for_its_snapshots() -> None:
    states = topics().states
    assert states[BourreTable] == "bourre/Table"
    assert states[BurracoTable] == "burraco/Table"


def test_rows_stored_under_module_paths_still_load_and_new_rows_use_stable_names() -> None:
    mapper = MsgspecMapper()
    at = datetime(2026, 1, 2, tzinfo=UTC)
    event = Anted(hand=1, seats=[0, 1], amount=2, reason="ante")
    stored = mapper.to_stored_event(StoredTableEvent(uuid4(), 3, at, event))
    assert stored.topic == "bourre/Anted"
    legacy = StoredEvent(stored.originator_id, 3, "domain.bourre.events:Anted", stored.state)
    assert mapper.to_domain_event(legacy).event == event
    named = topics()
    assert named.event_class("domain.table.clock:TurnTimedOut") is TurnTimedOut
    assert named.event_class("domain.table:TableOpened") is TableOpened
    assert named.event_class("domain.burraco.events:Dealt") is BurracoDealt
    assert named.state_class("domain.burraco.state:Table") is BurracoTable
    assert named.event_class("domain.burraco.state:Table") is None  # a state, not an event


def test_moving_an_event_class_to_another_module_strands_no_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(Anted, "__module__", "domain.bourre.facts")
    moved = build(games())
    assert moved.events[Anted] == "bourre/Anted"
    assert moved.event_class("domain.bourre.events:Anted") is Anted  # the old rows' topic
    assert moved.event_class("domain.bourre.facts:Anted") is None  # never stored: unknown


def test_a_class_renamed_with_its_tag_kept_keeps_its_rows() -> None:
    class Ante(Event, frozen=True, tag="Anted"):
        hand: int
        seats: list[int]
        amount: int
        reason: str = "ante"

    renamed = copy.copy(game_named("bourre"))
    members = [Ante if cls is Anted else cls for cls in typing.get_args(renamed.event_type)]
    renamed.event_type = functools.reduce(operator.or_, members)
    named = build([renamed])
    assert named.events[Ante] == "bourre/Anted"
    assert named.event_class("bourre/Anted") is Ante
    assert named.event_class("domain.bourre.events:Anted") is Ante


def test_the_library_resolves_the_stable_names_to_our_classes() -> None:
    topics()
    assert resolve_topic("bourre/Anted") is Anted
    assert resolve_topic("table/TableOpened") is TableOpened
    assert resolve_topic("burraco/Table") is BurracoTable


def test_a_new_game_gets_stable_names_for_free() -> None:
    from tests.highcard import GAME as highcard
    from tests.highcard.events import HandWon
    from tests.highcard.state import Table as HighCardTable

    named = build([*games(), highcard])
    assert named.events[HandWon] == "highcard/HandWon"
    assert named.states[HighCardTable] == "highcard/Table"
    assert named.events[PlayerSeated] == "table/PlayerSeated"


def test_two_classes_under_one_name_are_refused() -> None:
    twice = copy.copy(game_named("bourre"))
    twice.event_type = twice.event_type | BurracoDealt  # a second "Dealt" in bourre's events
    with pytest.raises(DuplicateTopic, match="'bourre/Dealt'"):
        build([twice])


def test_a_games_event_borrowed_by_another_game_is_refused() -> None:
    borrower = copy.copy(game_named("burraco"))
    borrower.event_type = borrower.event_type | Anted
    with pytest.raises(DuplicateTopic, match="stored as 'bourre/Anted' already"):
        build([game_named("bourre"), borrower])


def test_a_class_version_without_its_upcasters_is_refused() -> None:
    class Renamed(Event, frozen=True, tag="Renamed"):
        class_version: ClassVar[int] = 3
        seat: int

        @staticmethod
        def upcast_v1_v2(data: dict[str, Any]) -> None:
            data["seat"] = data.pop("player")

    with pytest.raises(TypeError, match=r"lacks \['upcast_v2_v3'\]"):
        check_upcasters(Renamed)


def test_a_snapshot_is_written_under_its_states_stable_name_and_old_ones_still_load() -> None:
    game = game_named("bourre")
    opened = OpenTable(game="bourre", options={"seats": 3}, seed=5, secret="ab" * 16)
    state = game.decision(None, opened)[1]
    snapshot = TableSnapshot(uuid4(), 1, "bourre", state, datetime(2026, 1, 1, tzinfo=UTC),
                             {}, {}, {})  # fmt: skip
    mapper = SnapshotMapper(MsgspecMapper().transcoder)
    stored = mapper.to_stored_event(snapshot)
    assert stored.topic == "bourre/Table"
    assert mapper.to_domain_event(stored) == snapshot
    legacy = StoredEvent(stored.originator_id, 1, "domain.bourre.state:Table", stored.state)
    assert mapper.to_domain_event(legacy) == snapshot
    with pytest.raises(StaleSnapshot):
        mapper.to_domain_event(StoredEvent(stored.originator_id, 1, "os:system", stored.state))


def test_every_event_the_table_kernel_defines_is_named_for_the_table() -> None:
    """An event every game may emit is ``table/<Class>``, not one game's (a new kernel event
    must join KERNEL_EVENTS before a second game uses it, or DuplicateTopic says so)."""
    kernel_modules = {cls.__module__ for cls in KERNEL_EVENTS}
    defined = set()
    pending = list(Event.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__ in kernel_modules:
            defined.add(cls)
    assert defined == set(KERNEL_EVENTS)
