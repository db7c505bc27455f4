"""Reading the notification log (design §6, the read side's hot path): stored rows decoded into
:class:`~infra.results.Notification` records with as little work per row as possible.

Every reader of the log — the projector, its rebuild, the feed and exports — pays for this per
event, so it avoids what the library's generic ``select_notifications`` does per row and a
consumer does not need:

* the rows come straight from the recorder's own table as plain tuples
  (:meth:`infra.recorders.LogRecorder.notification_rows`, one SQL statement per driver), not as
  dict rows copied into library ``Notification`` objects;
* a table's id is parsed into a ``UUID`` once per table, not once per row (its events are most
  of a page);
* each body is decoded in one msgspec pass as the envelope of its topic's event class (the
  decoder :class:`infra.transcoder.EventCodec` built for the topic); the first row of a topic,
  a row that fails to decode, and every row of a store with a cipher or a compressor take the
  mapper's own path (which builds the decoder, deciphers, and names a failure);
* ``keep`` (a predicate on the table id) drops a row before its body is decoded: a shard's
  projector decodes only its own tables' events;
* the feed asks for a few events of one table by version, with their log positions
  (:meth:`LogReader.table_notifications`: a table held back by ``spectator_delay`` releases
  events stored before the page it is read in), through the table's primary key;
* a reader that writes each event's time out as text (an export) has it as the text stored
  (:meth:`LogReader.notifications_at_text`): the body's ``at`` is decoded as a string and
  rewritten as ``datetime.isoformat`` writes it, not parsed into a ``datetime`` and written out
  again.

Any other recorder is read through the library (``select_notifications``), decoded alike
(:func:`infra.recorders.notification_rows`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Generic, NamedTuple, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import StoredEvent

from infra.recorders import LogRecorder, Row, notification_rows, table_rows
from infra.results import Notification
from infra.transcoder import MsgspecMapper, StoredTableEvent

# Table ids parsed and remembered at most (a rebuild of a large store starts afresh past it).
_IDS_KEPT = 100_000

E = TypeVar("E")


class TextNotification(NamedTuple):
    """A :class:`~infra.results.Notification` whose ``at`` is its ``isoformat()`` text."""

    position: int
    table_id: UUID
    version: int
    at: str
    event: Any


class _TextBody(msgspec.Struct, Generic[E]):
    """A stored body (:class:`infra.transcoder.Body`) read with its time as the stored text."""

    at: str
    event: E


# Event class -> its ``_TextBody`` decoder's ``decode`` (built once per process).
_TEXT_DECODERS: dict[type, Callable[[bytes], _TextBody[Any]]] = {}
_datetime = msgspec.json.Decoder(datetime).decode


def feed_text(stored: str) -> str:
    """The stored text of a time (msgspec's: ``...T10:00:00.123456Z`` in UTC) as
    ``datetime.isoformat`` writes the time it decodes to (``...T10:00:00.123456+00:00``);
    raises ``msgspec`` errors when it is no time."""
    if len(stored) == 27 and stored[26] == "Z" and stored[19] == "." and stored[10] == "T":
        return stored[:26] + "+00:00"
    return _datetime(msgspec.json.encode(stored)).isoformat()


class LogReader:
    """Reads and decodes notifications of ``app``'s log; thread-safe (no shared cursor)."""

    def __init__(self, app: Application[UUID]) -> None:
        recorder: Any = app.recorder
        mapper = app.mapper
        assert isinstance(mapper, MsgspecMapper)
        self._recorder = recorder
        self._mapper = mapper
        self._codec = mapper.codec
        self._cipher = mapper.cipher
        self._compressor = mapper.compressor
        self._ids: dict[Any, UUID] = {}
        self._text_decoders: dict[str, Callable[[bytes], _TextBody[Any]]] = {}
        # The recorder's own read of its table, or the library's for any other recorder.
        self._rows: Callable[[int, int], list[Row]] = (
            recorder.notification_rows
            if isinstance(recorder, LogRecorder)
            else lambda start, limit: notification_rows(recorder, start, limit)
        )
        self._table_rows: Callable[[UUID, int, int], list[Row]] = (
            recorder.table_rows
            if isinstance(recorder, LogRecorder)
            else lambda table_id, first, last: table_rows(recorder, table_id, first, last)
        )

    def notifications(
        self, start: int, limit: int, keep: Callable[[UUID], bool] | None = None
    ) -> tuple[list[Notification], int, int]:
        """The notifications with positions ``>= start`` (at most ``limit`` rows examined)
        whose table ``keep`` admits (all without ``keep``), the last position examined (0
        when none) and how many were examined."""
        rows = self._rows(max(start, 1), limit)
        if not rows:
            return [], 0, 0
        return self._decoded(rows, keep), rows[-1][0], len(rows)

    def table_notifications(self, table_id: UUID, first: int, last: int) -> list[Notification]:
        """``table_id``'s notifications with versions ``first`` to ``last``, by version."""
        if last < first:
            return []
        return self._decoded(self._table_rows(table_id, max(first, 1), last), None)

    def _decoded(self, rows: list[Row], keep: Callable[[UUID], bool] | None) -> list[Notification]:
        """``rows`` decoded, those of a table ``keep`` does not admit left out undecoded."""
        ids, table_id = self._ids, self._table_id
        decoders = self._codec.body_decoders
        cipher, compressor = self._cipher, self._compressor
        new = tuple.__new__  # a Notification without ``_make``'s Python frame (one per row)
        found: list[Notification] = []
        append = found.append
        for position, stored_id, version, topic, state in rows:
            uuid = ids.get(stored_id)
            if uuid is None:
                uuid = table_id(stored_id)
            if keep is not None and not keep(uuid):
                continue
            decode = decoders.get(topic)
            if decode is None or cipher or compressor:
                at, event = self._decode(topic, state, uuid, version)
            else:
                try:
                    body = decode(state)
                except Exception:
                    at, event = self._decode(topic, state, uuid, version)
                else:
                    at, event = body.at, body.event
            append(new(Notification, (position, uuid, version, at, event)))
        return found

    def notifications_at_text(self, start: int, limit: int) -> list[TextNotification]:
        """The notifications with positions ``>= start`` (at most ``limit``), each with its
        time as ``isoformat`` text, decoded from the text stored (no ``datetime`` made)."""
        rows = self._rows(max(start, 1), limit)
        ids, table_id = self._ids, self._table_id
        decoders = self._text_decoders
        plain = not (self._cipher or self._compressor)
        new = tuple.__new__
        found: list[TextNotification] = []
        append = found.append
        stored_at = at = ""  # the last time read, as stored and as written out
        for position, stored_id, version, topic, state in rows:
            uuid = ids.get(stored_id)
            if uuid is None:
                uuid = table_id(stored_id)
            try:
                body = decoders[topic](state)
            except Exception:  # a topic met first, a cipher, a body that does not decode
                fallback = self._text_body(topic, state) if plain else None
                if fallback is None:
                    moment, event = self._decode(topic, state, uuid, version)
                    append(
                        new(TextNotification, (position, uuid, version, moment.isoformat(), event))
                    )
                    continue
                body = fallback
            if body.at != stored_at:  # a command's events share their time: written once
                stored_at = body.at
                if (
                    len(stored_at) == 27
                    and stored_at[26] == "Z"
                    and stored_at[19] == "."
                    and stored_at[10] == "T"
                ):
                    at = stored_at[:26] + "+00:00"
                else:
                    try:
                        at = feed_text(stored_at)
                    except Exception:
                        at = self._decode(topic, state, uuid, version)[0].isoformat()
            event = body.event
            append(new(TextNotification, (position, uuid, version, at, event)))
        return found

    def _text_body(self, topic: str, state: bytes) -> _TextBody[Any] | None:
        """``state`` decoded by ``topic``'s text-time decoder, built on first use (``None``
        for a topic no registered game has, or a body it does not decode)."""
        try:
            cls = self._codec.event_class(topic)
            decode = _TEXT_DECODERS.get(cls)
            if decode is None:
                decoder = msgspec.json.Decoder(_TextBody[cls])  # type: ignore[valid-type]
                decode = _TEXT_DECODERS[cls] = decoder.decode
            self._text_decoders[topic] = decode
            return decode(state)
        except Exception:
            return None

    def _table_id(self, stored: Any) -> UUID:
        uuid = stored if isinstance(stored, UUID) else UUID(str(stored))
        if len(self._ids) >= _IDS_KEPT:
            self._ids.clear()
        self._ids[stored] = uuid
        return uuid

    def _decode(self, topic: str, state: bytes, table_id: UUID, version: int) -> tuple[Any, Any]:
        """The mapper's own path: deciphered, decompressed, the topic's decoder built, a
        failure raised as the library's ``MapperDeserialisationError`` naming the event."""
        stored = StoredEvent(table_id, version, topic, state)
        envelope: StoredTableEvent = self._mapper.to_domain_event(stored)
        return envelope.at, envelope.event
