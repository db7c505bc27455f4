"""Streams of their own beside the tables' log: the accounts' (:mod:`infra.accounts`) and the
tournaments' (:mod:`infra.tournaments`).

Each lives in an eventsourcing application whose aggregate recorder keeps its own table and no
notification log, so no reader of the tables' log (projector, feed, export, bots) ever meets
one of their rows. A row is written under the event's stable topic
(docs/decisions/0008-stable-event-topics.md) as JSON ``{"at": ..., "event": ...}``, and only
the classes of the stream's own topics are ever decoded. :class:`StreamMapper` is that mapping,
told the topics and the event union of one kind of stream.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, MapperDeserialisationError, StoredEvent, Transcoder


@dataclass(frozen=True, slots=True)
class StoredStreamEvent:
    """One event of an own stream, as the mapper gives it back."""

    originator_id: UUID
    originator_version: int
    at: datetime
    event: Any


class _NoTranscoder(Transcoder):
    def encode(self, obj: Any) -> bytes:
        raise TypeError("StreamMapper encodes events itself")

    def decode(self, data: bytes) -> Any:
        raise TypeError("StreamMapper decodes events itself")


class StreamMapper(Mapper[UUID]):
    """Events of one kind of stream to rows and back, under their stable topics: ``topics``
    maps each topic to its event class, ``events`` is their union (msgspec tagged structs) and
    ``kind`` names the stream in a refusal ("an account", "a tournament")."""

    def __init__(
        self,
        topics: dict[str, type],
        events: Any,
        kind: str,
        compressor: Any = None,
        cipher: Any = None,
    ) -> None:
        super().__init__(_NoTranscoder(), compressor=compressor, cipher=cipher)
        self.topics = topics
        self.topic_of = {cls: topic for topic, cls in topics.items()}
        self.kind = kind
        body = msgspec.defstruct("Body", [("at", datetime), ("event", events)])
        self._body = body
        self._encode = msgspec.json.Encoder().encode
        self._decode = msgspec.json.Decoder(body).decode

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        topic = self.topic_of[type(domain_event.event)]
        state = self._encode(self._body(at=domain_event.at, event=domain_event.event))
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            domain_event.originator_id, domain_event.originator_version, topic, state
        )

    def to_domain_event(self, stored_event: StoredEvent) -> StoredStreamEvent:
        if stored_event.topic not in self.topics:
            raise MapperDeserialisationError(f"not {self.kind} topic: {stored_event.topic!r}")
        state = stored_event.state
        if self.cipher:
            state = self.cipher.decrypt(state)
        if self.compressor:
            state = self.compressor.decompress(state)
        body: Any = self._decode(state)
        originator = stored_event.originator_id
        return StoredStreamEvent(
            originator if isinstance(originator, UUID) else UUID(str(originator)),
            stored_event.originator_version,
            body.at,
            body.event,
        )
