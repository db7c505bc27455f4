"""A typed msgspec mapper for eventsourcing: our game events stored as they are.

eventsourcing 9.5 ships only a JSON transcoder that turns dicts into bytes; our events are
frozen msgspec Structs (tagged unions, design §2), so we map them ourselves:

* Each stored game event is wrapped in a :class:`StoredTableEvent` envelope — the object
  eventsourcing's ``EventStore``/``Application.save`` handle (``originator_id`` = table id,
  ``originator_version`` = table version). It also carries when it was stored (``at``) and the
  idempotency key of the command that produced it (``command_key``) and that command's
  fingerprint (``command_fingerprint``, :func:`fingerprint_of`), so a key retried with another
  command is recognised. Events stored before fingerprints existed decode with ``None``.
* The stored *topic* is the event's class topic (``domain.<game>.events:Anted``), so every row
  says exactly what it is and decoding is typed: the envelope body is decoded in one msgspec
  pass as ``Body[ThatClass]``. UUIDs, datetimes and nested Structs come back with their types.
* The body is JSON: ``{"at": "...Z", "event": {"type": "Anted", ...}, "key": "...",
  "fingerprint": "..."}`` (key and fingerprint only when the command had a key) — readable by
  analysts, and tolerant of fields added later with defaults (schema evolution).

Topics are resolved through the game registry (:mod:`domain.games`): only the classes of a
registered game's ``event_type`` are stored or loaded, so a row can never make us import
arbitrary code, and a game registered at run time stores and loads like the built-in ones.
"""

from __future__ import annotations

import hashlib
import threading
import typing
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import (
    Cipher,
    Compressor,
    Mapper,
    MapperDeserialisationError,
    StoredEvent,
    Transcoder,
)

from domain.games import games
from domain.table import Event

E = TypeVar("E")

TOPIC_PREFIX = "domain."  # the built-in games' modules (snapshots of their states check it)


@dataclass(frozen=True, slots=True)
class StoredTableEvent:
    """One game event as eventsourcing stores it (the eventsourcing "domain event")."""

    originator_id: UUID  # the table
    originator_version: int  # the table's version after this event (1-based)
    at: datetime  # when it was stored, UTC
    event: Any  # the game's msgspec event
    command_key: str | None = None  # idempotency key of the command that produced it
    command_fingerprint: str | None = None  # fingerprint_of that command (None: stored before)


class Body(msgspec.Struct, Generic[E], omit_defaults=True):
    """The stored bytes of one event: the event itself plus its envelope metadata."""

    at: datetime
    event: E
    key: str | None = None
    fingerprint: str | None = None  # absent from events stored before fingerprints existed


_fingerprint_encoder = msgspec.json.Encoder(order="deterministic")


def fingerprint_of(command: Any, expected_version: int | None = None) -> str:
    """A digest of the whole request a command arrived as: the command (its ``type`` tag and
    every field, dict keys sorted) and its ``expectedVersion``. Two requests with the same
    fingerprint ask for the same thing, so a retried idempotency key can be told from a key
    reused for another command."""
    body = _fingerprint_encoder.encode([command, expected_version])
    return hashlib.sha256(body).hexdigest()[:32]  # 128 bits: ample for one table's keys


def keyed(key: str | None, command: Any, expected_version: int | None) -> tuple[str, str] | None:
    """``(key, fingerprint_of(command, expected_version))``, or ``None`` without a key."""
    return None if key is None else (key, fingerprint_of(command, expected_version))


class UnknownEventTopic(MapperDeserialisationError):
    """A stored topic that is not one of our event classes."""


def topic_of(cls: type) -> str:
    """The eventsourcing topic of a class: ``module:QualName``."""
    return f"{cls.__module__}:{cls.__qualname__}"


class EventCodec:
    """Encodes envelopes to bytes and decodes bytes to typed envelopes, per event class.

    Thread-safe: decoders are built once per class and msgspec encoders/decoders are
    re-entrant.
    """

    def __init__(self) -> None:
        self._encoder = msgspec.json.Encoder()
        self._decoders: dict[str, tuple[type, msgspec.json.Decoder[Any]]] = {}
        # topic -> its ``Body`` decoder's ``decode``, once built: the log reader's fast path
        # (:mod:`infra.logread`) looks it up without a lock or a call
        self.body_decoders: dict[str, typing.Callable[[bytes], Body[Any]]] = {}
        self._topics: dict[type, str] = {}
        self._lock = threading.Lock()

    def topic(self, event: Any) -> str:
        cls = type(event)
        topic = self._topics.get(cls)
        if topic is None:
            if not isinstance(event, Event) or cls not in registered_event_classes().values():
                raise TypeError(f"not a game event (of a registered game): {event!r}")
            topic = self._topics[cls] = topic_of(cls)
        return topic

    def encode(self, envelope: StoredTableEvent) -> bytes:
        return self._encoder.encode(
            Body(
                at=envelope.at,
                event=envelope.event,
                key=envelope.command_key,
                fingerprint=envelope.command_fingerprint,
            )
        )

    def decode(self, topic: str, data: bytes) -> tuple[datetime, Any, str | None, str | None]:
        """``(at, event, command_key, command_fingerprint)`` from stored bytes; raises
        ``msgspec`` errors."""
        decoder = self._decoder(topic)[1]
        body = decoder.decode(data)
        return body.at, body.event, body.key, body.fingerprint

    def event_class(self, topic: str) -> type:
        return self._decoder(topic)[0]

    def _decoder(self, topic: str) -> tuple[type, msgspec.json.Decoder[Any]]:
        found = self._decoders.get(topic)
        if found is None:
            with self._lock:
                found = self._decoders.get(topic)
                if found is None:
                    cls = _resolve_event_class(topic)
                    found = (cls, msgspec.json.Decoder(Body[cls]))  # type: ignore[valid-type]
                    self._decoders[topic] = found
                    self.body_decoders[topic] = found[1].decode
        return found


def registered_event_classes() -> dict[str, type]:
    """Every registered game's event classes by topic (read from the registry each time, so
    a game registered at run time is found)."""
    found: dict[str, type] = {}
    for game in games():
        for cls in typing.get_args(game.event_type):
            if isinstance(cls, type) and issubclass(cls, Event):
                found[topic_of(cls)] = cls
    return found


def _resolve_event_class(topic: str) -> type:
    cls = registered_event_classes().get(topic)
    if cls is None:
        raise UnknownEventTopic(f"stored topic {topic!r} is not an event of a registered game")
    return cls


class _UnusedTranscoder(Transcoder):
    """Placeholder for ``Mapper.transcoder``: the msgspec mapper encodes whole envelopes."""

    def encode(self, obj: Any) -> bytes:
        raise TypeError("MsgspecMapper encodes envelopes itself; the transcoder is not used")

    def decode(self, data: bytes) -> Any:
        raise TypeError("MsgspecMapper decodes envelopes itself; the transcoder is not used")


class MsgspecMapper(Mapper[UUID]):
    """eventsourcing ``Mapper`` for :class:`StoredTableEvent` envelopes, via msgspec.

    Honours a configured compressor and cipher (eventsourcing's COMPRESSOR_TOPIC,
    CIPHER_TOPIC/CIPHER_KEY) exactly as the default mapper does.
    """

    def __init__(
        self,
        transcoder: Transcoder | None = None,
        compressor: Compressor | None = None,
        cipher: Cipher | None = None,
    ) -> None:
        super().__init__(transcoder or _UnusedTranscoder(), compressor=compressor, cipher=cipher)
        self.codec = EventCodec()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if not isinstance(domain_event, StoredTableEvent):
            raise TypeError(f"MsgspecMapper stores StoredTableEvent envelopes: {domain_event!r}")
        state = self.codec.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=self.codec.topic(domain_event.event),
            state=state,
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        state = stored_event.state
        try:
            if self.cipher:
                state = self.cipher.decrypt(state)
            if self.compressor:
                state = self.compressor.decompress(state)
            at, event, key, fingerprint = self.codec.decode(stored_event.topic, state)
        except MapperDeserialisationError:
            raise
        except Exception as error:
            raise MapperDeserialisationError(
                f"cannot decode stored event {stored_event.topic!r} of table "
                f"{stored_event.originator_id} version {stored_event.originator_version}: {error}"
            ) from error
        originator_id = stored_event.originator_id
        if not isinstance(originator_id, UUID):
            originator_id = UUID(str(originator_id))
        return StoredTableEvent(
            originator_id=originator_id,
            originator_version=stored_event.originator_version,
            at=at,
            event=event,
            command_key=key,
            command_fingerprint=fingerprint,
        )
