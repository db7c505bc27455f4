"""A typed msgspec mapper for eventsourcing: our game events stored as they are.

eventsourcing 9.5 ships only a JSON transcoder that turns dicts into bytes; our events are
frozen msgspec Structs (tagged unions, design §2), so we map them ourselves:

* Each stored game event is wrapped in a :class:`StoredTableEvent` envelope — the object
  eventsourcing's ``EventStore``/``Application.save`` handle (``originator_id`` = table id,
  ``originator_version`` = table version). It also carries when it was stored (``at``) and the
  idempotency key of the command that produced it (``command_key``) and that command's
  fingerprint (``command_fingerprint``, :func:`fingerprint_of`), so a key retried with another
  command is recognised. Events stored before fingerprints existed decode with ``None``.
* The stored *topic* is the event class's stable name (``<game>/Dealt``, ``table/TableOpened``:
  :mod:`infra.topics`), so every row says exactly what it is, whatever module the class lives
  in, and decoding is typed: the envelope body is decoded in one msgspec pass as
  ``Body[ThatClass]``. UUIDs, datetimes and nested Structs come back with their types. Rows
  stored before stable names carry the class's module path (``domain.<game>.events:Dealt``)
  and load through the aliases :mod:`infra.topics` keeps for them.
* The body is JSON: ``{"at": "...Z", "event": {"type": "Anted", ...}, "key": "...",
  "fingerprint": "..."}`` (key and fingerprint only when the command had a key) — readable by
  analysts, and tolerant of fields added later with defaults (schema evolution).
* Upcasting (eventsourcing's convention): an event class whose shape changed in a way a default
  cannot absorb (a field renamed, removed or retyped) sets ``class_version = N`` (a
  ``ClassVar``) and defines static ``upcast_v1_v2(data)`` … ``upcast_v<N-1>_v<N>(data)``, each
  rewriting the stored event's JSON object in place (its keys as stored: camelCase, with
  ``type``). Its rows are written with ``"classVersion": N`` in the envelope (absent = 1); an
  older row is decoded as JSON, upcast step by step and then decoded as the class. Classes at
  version 1 keep the one-pass decode.

Topics are resolved through the game registry (:mod:`domain.games`, via :mod:`infra.topics`):
only the classes of a registered game's ``event_type`` are stored or loaded, so a row can never
make us import arbitrary code, and a game registered at run time stores and loads like the
built-in ones.
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

from infra.topics import class_version, topics

E = TypeVar("E")


@dataclass(frozen=True, slots=True)
class StoredTableEvent:
    """One game event as eventsourcing stores it (the eventsourcing "domain event")."""

    originator_id: UUID  # the table
    originator_version: int  # the table's version after this event (1-based)
    at: datetime  # when it was stored, UTC
    event: Any  # the game's msgspec event
    command_key: str | None = None  # idempotency key of the command that produced it
    command_fingerprint: str | None = None  # fingerprint_of that command (None: stored before)


class Body(msgspec.Struct, Generic[E], omit_defaults=True, rename={"version": "classVersion"}):
    """The stored bytes of one event: the event itself plus its envelope metadata."""

    at: datetime
    event: E
    key: str | None = None
    fingerprint: str | None = None  # absent from events stored before fingerprints existed
    version: int = 1  # the event class's ``class_version`` when it was stored


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


class UnreadableVersion(MapperDeserialisationError):
    """A row stored at a ``class_version`` this code has no upcaster path for."""


def topic_of(cls: type) -> str:
    """The eventsourcing module-path topic of a class, ``module:QualName`` (what rows stored
    before stable names carry; :func:`stable_topic` is what is written now)."""
    return f"{cls.__module__}:{cls.__qualname__}"


def stable_topic(cls: type) -> str:
    """The stable topic an event class's rows are written with (``<game>/Dealt``)."""
    topic = topics().events.get(cls)
    if topic is None:
        raise TypeError(f"not an event of a registered game: {cls!r}")
    return topic


class EventCodec:
    """Encodes envelopes to bytes and decodes bytes to typed envelopes, per event class.

    Thread-safe: decoders are built once per class and msgspec encoders/decoders are
    re-entrant.
    """

    def __init__(self) -> None:
        self._encoder = msgspec.json.Encoder()
        self._decoders: dict[str, tuple[type, typing.Callable[[bytes], Body[Any]]]] = {}
        # topic -> its ``Body`` decoder's ``decode``, once built: the log reader's fast path
        # (:mod:`infra.logread`) looks it up without a lock or a call
        self.body_decoders: dict[str, typing.Callable[[bytes], Body[Any]]] = {}
        self._written: dict[type, tuple[str, int]] = {}  # class -> (topic, class_version)
        self._lock = threading.Lock()

    def written_as(self, event: Any) -> tuple[str, int]:
        """The topic and class version ``event``'s row is written with."""
        cls = type(event)
        found = self._written.get(cls)
        if found is None:
            topic = topics().events.get(cls)
            if topic is None:
                raise TypeError(f"not a game event (of a registered game): {event!r}")
            found = self._written[cls] = (topic, class_version(cls))
        return found

    def topic(self, event: Any) -> str:
        return self.written_as(event)[0]

    def encode(self, envelope: StoredTableEvent) -> tuple[str, bytes]:
        """The topic and the stored bytes of ``envelope``."""
        event = envelope.event
        written = self._written.get(type(event)) or self.written_as(event)
        if written[1] == 1:
            body = Body(
                at=envelope.at,
                event=event,
                key=envelope.command_key,
                fingerprint=envelope.command_fingerprint,
            )
        else:
            body = Body(
                at=envelope.at,
                event=event,
                key=envelope.command_key,
                fingerprint=envelope.command_fingerprint,
                version=written[1],
            )
        return written[0], self._encoder.encode(body)

    def decode(self, topic: str, data: bytes) -> tuple[datetime, Any, str | None, str | None]:
        """``(at, event, command_key, command_fingerprint)`` from stored bytes; raises
        ``msgspec`` errors."""
        body = self._decoder(topic)[1](data)
        return body.at, body.event, body.key, body.fingerprint

    def event_class(self, topic: str) -> type:
        """The class rows of ``topic`` decode to in one typed pass. Raises
        :class:`UnreadableVersion` for a class with upcasters (``class_version`` > 1): its
        older rows must be decoded through :meth:`decode`, which upcasts them."""
        cls = self._decoder(topic)[0]
        if class_version(cls) != 1:
            raise UnreadableVersion(f"{topic!r} rows may need upcasting: decode them whole")
        return cls

    def _decoder(self, topic: str) -> tuple[type, typing.Callable[[bytes], Body[Any]]]:
        found = self._decoders.get(topic)
        if found is None:
            with self._lock:
                found = self._decoders.get(topic)
                if found is None:
                    cls = _resolve_event_class(topic)
                    found = (cls, _body_decoder(cls))
                    self._decoders[topic] = found
                    self.body_decoders[topic] = found[1]
        return found


def _body_decoder(cls: type) -> typing.Callable[[bytes], Body[Any]]:
    """The decoder of a row of ``cls``: one typed pass, or for a versioned class one that
    upcasts older rows (module docstring)."""
    current = class_version(cls)
    if current == 1:
        return msgspec.json.Decoder(Body[cls]).decode  # type: ignore[valid-type]
    raw = msgspec.json.Decoder(Body[msgspec.Raw])
    event_decoder: msgspec.json.Decoder[Any] = msgspec.json.Decoder(cls)

    def decode(data: bytes) -> Body[Any]:
        body = raw.decode(data)
        if body.version == current:
            event = event_decoder.decode(body.event)
            return Body(at=body.at, event=event, key=body.key, fingerprint=body.fingerprint)
        if not 1 <= body.version < current:
            raise UnreadableVersion(
                f"{cls.__qualname__} stored at class_version {body.version}; "
                f"this code reads up to {current}"
            )
        event = msgspec.json.decode(body.event)
        for version in range(body.version, current):
            getattr(cls, f"upcast_v{version}_v{version + 1}")(event)
        return Body(
            at=body.at,
            event=event_decoder.decode(msgspec.json.encode(event)),
            key=body.key,
            fingerprint=body.fingerprint,
        )

    return decode


def registered_event_classes() -> dict[str, type]:
    """Every registered game's event classes by the stable topic they are written with (read
    from the registry, so a game registered at run time is found)."""
    return {topic: cls for cls, topic in topics().events.items()}


def _resolve_event_class(topic: str) -> type:
    cls = topics().event_class(topic)
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
        topics()  # the registered games' topics: two classes under one name fail here
        self.codec = EventCodec()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        if not isinstance(domain_event, StoredTableEvent):
            raise TypeError(f"MsgspecMapper stores StoredTableEvent envelopes: {domain_event!r}")
        topic, state = self.codec.encode(domain_event)
        if self.compressor:
            state = self.compressor.compress(state)
        if self.cipher:
            state = self.cipher.encrypt(state)
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=topic,
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
