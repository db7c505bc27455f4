"""The process managers (design §9): workers that follow the event store's log and act on the
tables through the write side's command service, each with its own tracking position.

* :mod:`managers.bot_worker` — seats server-side bots and plays their turns;
* :mod:`managers.timekeeper` — the turn clocks: ``time_out`` when a turn's deadline passes;
* :mod:`managers.sweeper` — abandons tables nobody joins;
* :mod:`managers.reviewer` — computes the hand reviews asked for (:mod:`managers.hand_review`);
* :mod:`managers.following` — the follow loop they share.

They sit above the write side (:mod:`infra`) and the read models (:mod:`projections`), and
below the API (:mod:`api`), which runs them inside ``cardroom serve`` on embedded defaults or
as ``cardroom bots`` / beside ``cardroom project``.
"""
