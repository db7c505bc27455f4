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
from collections.abc import Callable
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


def msgspec_round_trip() -> Callable[[StoredTableEvent], Any]:
    mapper = MsgspecMapper()

    def round_trip(envelope: StoredTableEvent) -> Any:
        return mapper.to_domain_event(mapper.to_stored_event(envelope))

    return round_trip


def default_round_trip() -> Callable[[StoredTableEvent], Any]:
    transcoder = JSONTranscoder()
    transcoder.register(UUIDAsHex())
    transcoder.register(DatetimeAsISO())

    def round_trip(envelope: StoredTableEvent) -> Any:
        data = transcoder.encode(
            {
                "originator_id": envelope.originator_id,
                "at": envelope.at,
                "key": envelope.command_key,
                "event": msgspec.to_builtins(envelope.event),
            }
        )
        state: dict[str, Any] = transcoder.decode(data)
        event: Any = msgspec.convert(state["event"], type=type(envelope.event))
        return StoredTableEvent(
            state["originator_id"], envelope.originator_version, state["at"], event, state["key"]
        )

    return round_trip


def sizes(events: list[StoredTableEvent]) -> tuple[float, float]:
    """Stored bytes per event: msgspec body vs the default transcoder's."""
    mapper = MsgspecMapper()
    transcoder = JSONTranscoder()
    transcoder.register(UUIDAsHex())
    transcoder.register(DatetimeAsISO())
    fast = sum(len(mapper.to_stored_event(e).state) for e in events)
    slow = sum(
        len(
            transcoder.encode(
                {
                    "originator_id": e.originator_id,
                    "at": e.at,
                    "key": e.command_key,
                    "event": msgspec.to_builtins(e.event),
                }
            )
        )
        for e in events
    )
    return fast / len(events), slow / len(events)


def measure(events: list[StoredTableEvent], repeat: int) -> tuple[float, float]:
    """events/s of both round trips, alternating passes so load affects both alike."""
    contenders = [msgspec_round_trip(), default_round_trip()]
    seconds = [0.0, 0.0]
    for _ in range(repeat):
        for index, round_trip in enumerate(contenders):
            started = time.perf_counter()
            for envelope in events:
                back = round_trip(envelope)
            seconds[index] += time.perf_counter() - started
            assert back == events[-1]
    total = len(events) * repeat
    return total / seconds[0], total / seconds[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    events = sample_events()
    fast, slow = measure(events, args.repeat)
    fast_size, slow_size = sizes(events)
    print(f"{len(events)} real events x {args.repeat} round trips (encode + typed decode)")
    print(f"  msgspec mapper        {fast:>12,.0f} events/s  {fast_size:>6.0f} B/event")
    print(f"  default JSON + convert{slow:>12,.0f} events/s  {slow_size:>6.0f} B/event")
    print(f"  => msgspec ÷ default = {fast / slow:.1f}x")


if __name__ == "__main__":
    main()
