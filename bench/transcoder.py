"""The msgspec event mapper against eventsourcing's default JSON transcoder.

Real events from bot-played Bourré and Burraco tables are encoded and decoded (a full
round trip, typed back to the game's Structs) by:

* ``msgspec``: :class:`infra.transcoder.MsgspecMapper` (what the store uses);
* ``default``: eventsourcing's ``JSONTranscoder`` with its UUID/datetime transcodings, on the
  same envelope as a dict (``msgspec.to_builtins`` of the event), then ``msgspec.convert``
  back to the event class — what one would do without a typed mapper.

``python bench/transcoder.py [--repeat 20]`` prints events/s for both and the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import msgspec
from eventsourcing.persistence import DatetimeAsISO, JSONTranscoder, UUIDAsHex

from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore
from infra.transcoder import MsgspecMapper, StoredTableEvent


def sample_events() -> list[StoredTableEvent]:
    with TableStore(Settings(event_store="sqlite:///:memory:")) as store:
        play_table(store, "bourre", 10, seed=1)
        play_table(store, "burraco", 1, seed=2)
        return [
            StoredTableEvent(n.table_id, n.version, n.at, n.event, "key")
            for n in store.notifications(1, 100_000)
        ]


def msgspec_round_trips(events: list[StoredTableEvent], repeat: int) -> tuple[float, int]:
    mapper = MsgspecMapper()
    size = sum(len(mapper.to_stored_event(e).state) for e in events)
    started = time.perf_counter()
    for _ in range(repeat):
        for envelope in events:
            back = mapper.to_domain_event(mapper.to_stored_event(envelope))
    seconds = time.perf_counter() - started
    assert back == events[-1]
    return len(events) * repeat / seconds, size


def default_round_trips(events: list[StoredTableEvent], repeat: int) -> tuple[float, int]:
    transcoder = JSONTranscoder()
    transcoder.register(UUIDAsHex())
    transcoder.register(DatetimeAsISO())

    def encode(envelope: StoredTableEvent) -> bytes:
        return transcoder.encode(
            {
                "originator_id": envelope.originator_id,
                "at": envelope.at,
                "key": envelope.command_key,
                "event": msgspec.to_builtins(envelope.event),
            }
        )

    def decode(data: bytes, cls: type, version: int) -> StoredTableEvent:
        state: dict[str, Any] = transcoder.decode(data)
        event: Any = msgspec.convert(state["event"], type=cls)
        return StoredTableEvent(state["originator_id"], version, state["at"], event, state["key"])

    size = sum(len(encode(e)) for e in events)
    started = time.perf_counter()
    for _ in range(repeat):
        for envelope in events:
            back = decode(encode(envelope), type(envelope.event), envelope.originator_version)
    seconds = time.perf_counter() - started
    assert back == events[-1]
    return len(events) * repeat / seconds, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    events = sample_events()
    fast, fast_size = msgspec_round_trips(events, args.repeat)
    slow, slow_size = default_round_trips(events, args.repeat)
    print(f"{len(events)} real events x {args.repeat} round trips (encode + typed decode)")
    print(
        f"  msgspec mapper        {fast:>12,.0f} events/s  {fast_size / len(events):>6.0f} B/event"
    )
    print(
        f"  default JSON + convert{slow:>12,.0f} events/s  {slow_size / len(events):>6.0f} B/event"
    )
    print(f"  => msgspec ÷ default = {fast / slow:.1f}x")


if __name__ == "__main__":
    main()
