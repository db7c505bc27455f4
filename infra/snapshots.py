"""Table snapshots: bounded cold loads for long tables (design §3).

Within one process the table cache already makes command latency independent of history; a
*cold* process (a restart, another API replica) would still fold every event of a table once.
Every ``SNAPSHOT_EVERY`` versions the writer therefore stores the folded state in the
application's snapshot store (``stored_snapshots`` / ``cardroom_snapshots``), and a cold load
starts from the latest snapshot and folds only the events after it.

A snapshot is a cache, never the truth:

* it is written only after the events it summarises are stored, and only if the state
  survives an encode/decode round trip unchanged (otherwise that state class is not
  snapshotted at all);
* it records the state's *shape* (a fingerprint of its msgspec type) and
  :data:`SNAPSHOT_GENERATION`; a snapshot of another shape or generation is ignored and the
  table is folded from its events. Bump the generation when a game's ``evolve`` changes what
  a state means without changing its shape;
* the idempotency-key index up to that version travels with it (and the keys' command
  fingerprints), so retried keys are still recognised after a cold load;
* so does the hand index (:mod:`infra.hands`): a cold load answers timelines, replays and
  verifications without reading the history before the snapshot. (Generation 2 added it:
  older snapshots are ignored.)

A snapshot's topic is its state class's stable name (``<game>/Table``, :mod:`infra.topics`), so
moving a module strands no snapshot; its shape fingerprint, not an upcaster, covers a changed
state (a cache is cheaper to rebuild than to upcast).

A snapshot is taken at the version a command reaches when it crosses a ``SNAPSHOT_EVERY``
boundary: the write path evolves each event once, so that is the state it has.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import (
    Mapper,
    MapperDeserialisationError,
    PersistenceError,
    StoredEvent,
)

from domain.games import game_named
from infra.hands import HandIndex, Spans
from infra.table_cache import FoldedTable
from infra.topics import topics

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 1024  # versions between snapshots (a multiple of the in-memory checkpoints)
SNAPSHOT_GENERATION = 2  # bump when an evolve change makes stored states mean something else

S = TypeVar("S")


@dataclass(frozen=True, slots=True)
class TableSnapshot:
    """A table's folded state at one version (the snapshot store's "domain event")."""

    originator_id: UUID
    originator_version: int
    game: str
    state: Any
    at: datetime | None
    commands: dict[str, tuple[int, int]]
    fingerprints: dict[str, str]
    hands: Spans


class SnapshotBody(msgspec.Struct, Generic[S]):
    generation: int
    shape: str
    game: str
    at: datetime | None
    commands: dict[str, tuple[int, int]]
    state: S
    fingerprints: dict[str, str] = {}
    hands: Spans = {}


class StaleSnapshot(MapperDeserialisationError):
    """A snapshot of another state shape or generation: fold the events instead."""


_shapes: dict[type, str] = {}
_decoders: dict[str, tuple[type, msgspec.json.Decoder[Any]]] = {}
_unsnapshottable: set[type] = set()
_lock = threading.Lock()
_encoder = msgspec.json.Encoder()


def shape_of(cls: type) -> str:
    """A fingerprint of a state class's msgspec type (field names, types, defaults)."""
    shape = _shapes.get(cls)
    if shape is None:
        info = repr(msgspec.inspect.type_info(cls))
        shape = _shapes[cls] = hashlib.sha256(info.encode()).hexdigest()[:16]
    return shape


def _decoder(topic: str) -> tuple[type, msgspec.json.Decoder[Any]]:
    found = _decoders.get(topic)
    if found is None:
        cls = topics().state_class(topic)
        if cls is None:
            raise StaleSnapshot(f"snapshot topic {topic!r} is not a registered game's state")
        with _lock:
            found = _decoders[topic] = (cls, msgspec.json.Decoder(SnapshotBody[cls]))  # type: ignore[valid-type]
    return found


def snapshottable(state: Any) -> bool:
    """Whether ``state`` has a stable topic (its game's ``evolve`` returns its class) and
    comes back equal from its encoding (checked once per class)."""
    cls = type(state)
    if cls in _unsnapshottable:
        return False
    if cls not in topics().states:
        log.warning("%s is not a registered game's state class: not snapshotted", cls)
        _unsnapshottable.add(cls)
        return False
    try:
        ok = msgspec.json.decode(_encoder.encode(state), type=cls) == state
    except (TypeError, msgspec.MsgspecError, ValueError):
        ok = False
    if not ok:
        log.warning("%s does not survive an encode/decode round trip: not snapshotted", cls)
        _unsnapshottable.add(cls)
    return ok


class SnapshotMapper(Mapper[UUID]):
    """eventsourcing ``Mapper`` for :class:`TableSnapshot`. Topic: the state class's stable
    name (``<game>/Table``, :mod:`infra.topics`); snapshots stored before stable names carry
    its module path (``domain.<game>.state:Table``) and load through its alias."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        snapshot: TableSnapshot = domain_event
        cls = type(snapshot.state)
        body = SnapshotBody(
            generation=SNAPSHOT_GENERATION,
            shape=shape_of(cls),
            game=snapshot.game,
            at=snapshot.at,
            commands=snapshot.commands,
            state=snapshot.state,
            fingerprints=snapshot.fingerprints,
            hands=snapshot.hands,
        )
        data = _encoder.encode(body)
        if self.compressor:
            data = self.compressor.compress(data)
        if self.cipher:
            data = self.cipher.encrypt(data)
        topic = topics().states[cls]
        return StoredEvent(snapshot.originator_id, snapshot.originator_version, topic, data)

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        cls, decoder = _decoder(stored_event.topic)
        data = stored_event.state
        try:
            if self.cipher:
                data = self.cipher.decrypt(data)
            if self.compressor:
                data = self.compressor.decompress(data)
            body = decoder.decode(data)
        except Exception as error:
            raise StaleSnapshot(
                f"snapshot {stored_event.topic!r} does not decode: {error}"
            ) from error
        if body.generation != SNAPSHOT_GENERATION or body.shape != shape_of(cls):
            raise StaleSnapshot(
                f"snapshot of {stored_event.topic!r} has another shape or generation"
            )
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(str(originator_id))
        return TableSnapshot(
            originator_id,
            stored_event.originator_version,
            body.game,
            body.state,
            body.at,
            {key: (first, last) for key, (first, last) in body.commands.items()},
            body.fingerprints,
            body.hands,
        )


def take_snapshot(
    app: Application[UUID], table: FoldedTable, version: int, state: Any, at: datetime
) -> None:
    """Store a snapshot of ``table`` at ``version`` (its events are stored already)."""
    if app.snapshots is None or not snapshottable(state):
        return
    snapshot = TableSnapshot(
        table.table_id,
        version,
        table.game.name,
        state,
        at,
        dict(table.commands),
        dict(table.fingerprints),
        table.hands.spans(),
    )
    try:
        app.snapshots.put([snapshot])
    except PersistenceError:
        # Another process stored this snapshot first, or the store hiccupped: a snapshot is
        # only a cache, and the events are saved.
        log.debug("snapshot of table %s at %s not stored", table.table_id, version)


def load_snapshot(
    app: Application[UUID], table_id: UUID, lte: int | None = None
) -> FoldedTable | None:
    """The table from its latest usable snapshot at or before ``lte``, if there is one."""
    if app.snapshots is None:
        return None
    try:
        found = list(app.snapshots.get(table_id, desc=True, limit=1, lte=lte))
    except StaleSnapshot:
        return None  # another state shape or generation: fold the events instead
    if not found:
        return None
    snapshot: TableSnapshot = found[0]  # type: ignore[assignment]
    return FoldedTable(
        table_id,
        game_named(snapshot.game),
        snapshot.state,
        snapshot.originator_version,
        snapshot.commands,
        snapshot.at,
        {snapshot.originator_version: snapshot.state},
        fingerprints=snapshot.fingerprints,
        hands=HandIndex(snapshot.hands),
    )
