"""The write side (design §3): tables as event streams, and the services the API calls.

* :mod:`infra.command_service` — :class:`~infra.command_service.TableCommands`, the command
  service: open a table, take a seat, run a command (``expectedVersion``, idempotency keys,
  retries);
* :mod:`infra.queries` — :class:`~infra.queries.TableQueries`, the query service: a table from
  the store as a viewer may see it (view, timeline, replay, verify, legal commands, facts);
* :mod:`infra.visibility` — who may see what: redaction, ``reveal``, ``spectator_delay``;
* :mod:`infra.store` — :class:`~infra.store.TableStore`, persistence: load, cache, save,
  time travel, events and notifications;
* :mod:`infra.table_cache` — a table folded in memory, its idempotency-key index and checkpoints;
* :mod:`infra.hands` — the hand index: where each hand started, was dealt and settled;
* :mod:`infra.snapshots` — snapshots that bound a cold load;
* :mod:`infra.results` / :mod:`infra.errors` — what the write side returns / raises;
* :mod:`infra.application` / :mod:`infra.transcoder` — the eventsourcing application and its
  msgspec transcoder;
* :mod:`infra.eventstore_env` / :mod:`infra.settings` — configuration (URLs shown masked);
* :mod:`infra.redis` — the Redis connection, or the embedded server;
* :mod:`infra.simulate` — random legal bots playing through the command service;
* :mod:`infra.feed` — the public event feed (spectator redaction, paged by log position);
* :mod:`infra.export` / :mod:`infra.exportevents` / :mod:`infra.handrows` — ``cardroom export``:
  events, hands, results (one pass over the log, redaction planned per event class);
* :mod:`infra.history` — hand histories told per game (presentation).
"""
