"""The read side (design §4): read models in Redis, kept exactly once from the event store.

* :mod:`projections.keys` — every Redis key name, under a configurable prefix;
* :mod:`projections.tracking` — the Lua commit of a batch's writes with its position;
* :mod:`projections.tables` — one table's state in the projector's memory (spectator delay);
* :mod:`projections.runner` — :class:`~projections.runner.Projector`: follow, rebuild;
* :mod:`projections.wakeup` — polling, or LISTEN/NOTIFY on PostgreSQL;
* :mod:`projections.reader` — :class:`~projections.reader.ReadModels` and ``wait_for``;
* :mod:`projections.digest` — a digest of every key under a prefix (rebuild checks).
"""
