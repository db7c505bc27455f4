"""The command lane (design §6 "Command path"): the fast lane's commands run by one thread
per app, in batches, instead of one worker thread each.

On a busy server a command's own work is small next to its hand-offs: a worker thread woken
for it, a wake for its group-commit turn (:mod:`infra.groupcommit`), its answer handed back to
the event loop. The lane keeps those per batch: the event loop queues each plain command
(:mod:`api.fastlane`) and wakes the lane's thread only if it sleeps; the thread takes every
command queued, decides them on their cached tables and saves them with one
group-commit turn (:func:`api.writes.issue_many`), then hands all the answers back to the
event loop at once. Commands queued meanwhile form the next batch, as in the group commit.

A command the cached table cannot answer (a table not cached, or stale; a lost race; a
table another thread holds) goes on to the worker threads (:func:`api.services.blocking`'s)
with the rest of its work, so a slow command never holds up the batch behind it. The thread
stops after a few idle seconds and is started again by the next command.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable
from typing import Any

from api import writes
from api.schemas import CommandAccepted
from api.services import Services, blocking

IDLE_SECONDS = 5.0  # the lane's thread stops after this long without a command

# One queued command: the loop and future to answer on, then issue's arguments.
_Queued = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Services, writes.Issue]


class CommandLane:
    """One thread that runs queued commands in batches (see the module docstring)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._inbox: list[_Queued] = []
        self._thread: threading.Thread | None = None
        self._asleep = False
        self._signal = threading.Lock()  # released to wake the thread while it sleeps
        self._signal.acquire()

    async def issue(self, services: Services, request: writes.Issue) -> CommandAccepted:
        """:func:`api.writes.issue` for ``request``, run in the lane."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[CommandAccepted] = loop.create_future()
        with self._lock:
            self._inbox.append((loop, future, services, request))
            if self._asleep:
                self._asleep = False
                self._signal.release()
            elif self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="cardroom-commands", daemon=True
                )
                self._thread.start()
        return await future

    def _run(self) -> None:
        while True:
            with self._lock:
                first = self._inbox[0] if self._inbox else None
                if first is None:
                    self._asleep = True
            if first is not None:
                # Another process's write under way: the commands arriving meanwhile join.
                with contextlib.suppress(Exception):  # only a wait: the write reports errors
                    first[2].store.wait_for_writes()
                with self._lock:
                    batch, self._inbox = self._inbox, []
                self._issue(batch)
                continue
            if self._signal.acquire(timeout=IDLE_SECONDS):
                continue
            with self._lock:
                if self._asleep:  # nobody came: stop (the next command starts a thread)
                    self._asleep = False
                    self._thread = None
                    return
            self._signal.acquire()  # a command came as the wait ended: take its wake

    def _issue(self, batch: list[_Queued]) -> None:
        """Run ``batch`` (per services, in order) and hand its answers to the event loop."""
        answers: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], Any]]] = {}
        by_services: dict[int, list[_Queued]] = {}
        for queued in batch:
            by_services.setdefault(id(queued[2]), []).append(queued)
        for group in by_services.values():
            try:
                outcomes: list[Any] = writes.issue_many(group[0][2], [q[3] for q in group])
            except BaseException as error:  # a bug: every command of the group gets it
                outcomes = [error] * len(group)
            for (loop, future, _, _), outcome in zip(group, outcomes, strict=True):
                if callable(outcome):  # the rest runs in a worker thread, answered from there
                    _later(loop, future, outcome)
                else:
                    answers.setdefault(loop, []).append((future, outcome))
        for loop, answered in answers.items():
            _on(loop, _answer, answered)


def _later(
    loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any], work: Callable[[], Any]
) -> None:
    """Finish ``work`` in a worker thread and answer ``future`` with it."""

    async def rest() -> None:
        try:
            outcome = await blocking(work)
        except Exception as error:
            outcome = error
        _answer([(future, outcome)])

    def start() -> None:
        _pending.add(task := loop.create_task(rest()))
        task.add_done_callback(_pending.discard)

    _on(loop, start)


def _on(loop: asyncio.AbstractEventLoop, callback: Callable[..., None], *args: Any) -> None:
    """Run ``callback`` on ``loop``; a loop closed meanwhile has nobody waiting for it."""
    with contextlib.suppress(RuntimeError):
        loop.call_soon_threadsafe(callback, *args)


_pending: set[asyncio.Task[None]] = set()  # tasks finishing a command in a worker thread


def _answer(answered: list[tuple[asyncio.Future[Any], Any]]) -> None:
    """On the event loop: settle each future with its answer (an exception is raised)."""
    for future, outcome in answered:
        if future.done():  # the request was cancelled meanwhile
            continue
        if isinstance(outcome, BaseException):
            future.set_exception(outcome)
        else:
            future.set_result(outcome)
