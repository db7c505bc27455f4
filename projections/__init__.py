"""The read side (design §4): read models in Redis, kept exactly once from the event store.

A read model is a class that owns its Redis keys and its JSON shape (:mod:`projections.model`);
adding one is a module here and a line in the projector's list.

* :mod:`projections.keys` — the key space: the prefix, hash tags (a table's keys share
  ``{<tableId>}``, a shard's position and parts ``{<shard>}``), ``shard_of``;
* :mod:`projections.model` — ``ReadModel``/``TableReadModel`` and the ``Outcome`` of a batch;
* :mod:`projections.views` — ``PublicView`` (spectators, ``spectator_delay`` behind) and
  ``SeatViews`` (each seat's own view);
* :mod:`projections.ledger` — ``Ledger`` and ``Ledger.shape(game, state)``, the one ledger shaper;
* :mod:`projections.lobby` — ``Lobby``: a line per table, filed by status in opening order;
* :mod:`projections.analytics` — ``Analytics``: counters per game and for all games;
* :mod:`projections.players` — ``PlayerStats`` (per name, across tables) and ``GameTotals``;
* :mod:`projections.accountstats` — ``AccountStats``: statistics and recent tables of the
  seats accounts took (not of typed names);
* :mod:`projections.ratings` — ``Ratings``: openskill ratings per account, game and pool
  (design §2.2), rated in log order;
* :mod:`projections.reviews` — ``Reviews``: the hand reviews the reviewer stores
  (:mod:`managers.reviewer`, not the projector) and the queue of those asked for;
* :mod:`projections.totals` — counters written whole, remembering the totals they wrote;
* :mod:`projections.tracking` — the Lua commit of a batch's writes with its position (slot by
  slot on a Redis Cluster: docs/scaling.md);
* :mod:`projections.table_projection` — one table's state in the projector's memory
  (spectator delay);
* :mod:`projections.runner` — :class:`~projections.runner.Projector`: follow, rebuild;
* :mod:`projections.wakeup` — polling, LISTEN/NOTIFY on PostgreSQL, the log's writes on SQLite;
* :mod:`projections.walwatch` — inotify on a SQLite file's write-ahead log (the projector's and
  the live feed's wake-up);
* :mod:`projections.reader` — :class:`~projections.reader.ReadModels` and ``wait_for`` (woken
  by the position channel);
* :mod:`projections.digest` — a digest of every key under a prefix (rebuild checks).

Each game's ledger, lobby line, counters and statistics are its ``house``'s
(:mod:`domain.house`); a game without its own gets them from the table kernel's ``seating``
and ``settles_hand``, so a new game needs no code here.
"""
