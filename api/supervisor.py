"""The API workers of ``cardroom serve --workers N``: a listening socket each (design §5,
"Several processes").

uvicorn's own supervisor gives every worker the same listening socket; whichever worker wakes
first accepts, so keep-alive connections settle unevenly (16 bench connections went 13 to one
worker and 3 to the other) and one worker's core does most of the work. Here each worker slot
has its own socket, all bound to the one address with ``SO_REUSEPORT``: the kernel spreads new
connections over the sockets by a hash of the connection's addresses, so each worker gets its
share whoever is awake.

The supervisor binds the sockets and keeps them for the life of the server; a slot's socket
starts listening when its worker starts serving (uvicorn calls ``listen`` then), so no
connection is handed to a worker that is still starting. A worker that dies is started again
on its slot's socket: connections that arrived meanwhile wait in that socket's queue and are
served by its successor, none is reset. SIGHUP replaces the workers one by one (the new one
serving on the slot's socket before the old one stops gracefully: its requests in progress are
answered; a connection it accepted in the instant it stops, with no request read yet, is closed
unanswered as uvicorn closes idle connections, which HTTP clients retry for idempotent
requests); SIGINT/SIGTERM stop them
all gracefully. A worker that ends before it ever served (a broken app, settings or address)
stops the server instead of being restarted forever.

Where ``SO_REUSEPORT`` does not exist every slot shares one socket (uvicorn's model).
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any

logger = logging.getLogger("cardroom.serve")

spawn = multiprocessing.get_context("spawn")
READY_TIMEOUT = 60.0  # seconds a replacement worker (SIGHUP) gets to start serving
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class WorkerFailedToStart(SystemExit):
    """A worker ended before it served a request: restarting it would fail the same way."""


def listening_sockets(host: str, port: int, count: int) -> list[socket.socket]:
    """``count`` sockets bound to ``host:port`` with ``SO_REUSEPORT`` (not yet listening).

    The address is first bound alone, without ``SO_REUSEPORT``, so an address another server
    holds is refused (``OSError``) rather than joined: two servers must not split one port.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    reuse_port = getattr(socket, "SO_REUSEPORT", None)
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((host, port))
        port = probe.getsockname()[1]  # port 0: the one the system chose, for every slot
    if reuse_port is None:
        shared = _bound(family, host, port, None)
        return [shared] * count
    return [_bound(family, host, port, reuse_port) for _ in range(count)]


def _bound(family: int, host: str, port: int, reuse_port: int | None) -> socket.socket:
    sock = socket.socket(family)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port is not None:
            sock.setsockopt(socket.SOL_SOCKET, reuse_port, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(True)
    return sock


@dataclass
class Worker:
    """One API process serving one slot's socket."""

    slot: int
    process: BaseProcess
    ready: Connection  # gets one message when the worker serves
    served: bool = False

    def wait_ready(self, timeout: float) -> bool:
        with contextlib.suppress(EOFError, OSError):  # it ended first
            self.served = self.served or (self.ready.poll(timeout) and self.ready.recv())
        return self.served

    def stop(self) -> None:
        """SIGTERM: uvicorn's graceful shutdown (open requests get their grace period)."""
        if self.process.exitcode is None and self.process.pid is not None:
            os.kill(self.process.pid, signal.SIGTERM)


class Supervisor:
    """Runs a worker per socket until SIGINT/SIGTERM; restarts one that dies (see module)."""

    def __init__(self, config: Any, sockets: list[socket.socket]) -> None:
        self.config = config  # a uvicorn Config, pickled to every worker
        self.sockets = sockets
        self.workers: list[Worker] = []
        self.signals: list[int] = []
        self.stopping = False

    def run(self) -> None:
        for stop_signal in (*STOP_SIGNALS, signal.SIGHUP):
            signal.signal(stop_signal, lambda signum, frame: self.signals.append(signum))
        try:
            self.workers = [self._start(slot) for slot in range(len(self.sockets))]
            while not self.stopping:
                wait([w.process.sentinel for w in self.workers], timeout=0.5)
                self._handle_signals()
                if not self.stopping:
                    self._replace_ended()
        finally:
            self.stopping = True
            for worker in self.workers:
                worker.stop()
            for worker in self.workers:
                worker.process.join()
                worker.ready.close()

    def _start(self, slot: int) -> Worker:
        theirs, mine = spawn.Pipe(duplex=False)
        process = spawn.Process(
            target=run_worker,
            args=(self.config, self.sockets[slot], mine),
            name=f"cardroom-worker-{slot}",
        )
        process.start()
        mine.close()
        logger.info("worker %d started in process %s", slot, process.pid)
        return Worker(slot, process, theirs)

    def _handle_signals(self) -> None:
        while self.signals:
            signum = self.signals.pop(0)
            if signum in STOP_SIGNALS:
                logger.info("%s: stopping the workers", signal.Signals(signum).name)
                self.stopping = True
            elif not self.stopping:
                logger.info("SIGHUP: replacing the workers one by one")
                self._replace_all()

    def _replace_ended(self) -> None:
        for index, worker in enumerate(self.workers):
            if worker.process.is_alive():
                continue
            worker.process.join()
            served = worker.wait_ready(0)
            worker.ready.close()
            if not served:
                self.stopping = True
                raise WorkerFailedToStart(
                    f"worker {worker.slot} (process {worker.process.pid}) ended before it "
                    f"served, with exit code {worker.process.exitcode}: stopping"
                )
            logger.warning(
                "worker %d (process %s) ended with exit code %s: starting it again",
                worker.slot,
                worker.process.pid,
                worker.process.exitcode,
            )
            self.workers[index] = self._start(worker.slot)

    def _replace_all(self) -> None:
        for index, old in enumerate(self.workers):
            new = self._start(old.slot)
            if not new.wait_ready(READY_TIMEOUT):
                new.process.kill()
                new.process.join()
                logger.error("worker %d's replacement did not start: keeping the old", old.slot)
                return
            old.stop()
            old.process.join()
            old.ready.close()
            self.workers[index] = new


def run_worker(config: Any, sock: socket.socket, ready: Connection) -> None:
    """A worker process: uvicorn serving ``sock``; ``ready`` hears when it serves."""
    import uvicorn

    config.configure_logging()
    for stop_signal in STOP_SIGNALS:  # uvicorn re-raises the signal it stopped on
        signal.signal(stop_signal, _exit_cleanly)
    server = uvicorn.Server(config)
    threading.Thread(target=_report_serving, args=(server, ready), daemon=True).start()
    server.run(sockets=[sock])
    if not server.started:
        sys.exit(1)


def _report_serving(server: Any, ready: Connection) -> None:
    while not server.started:
        time.sleep(0.05)
    ready.send(True)
    ready.close()


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)
