"""Translate ``CARDROOM_EVENT_STORE`` into the eventsourcing library's environment.

Both select the house's recorder subclass of the driver (:mod:`infra.recorders`) through the
library's ``APPLICATION_RECORDER_TOPIC``.

* ``sqlite:///relative/path.db`` or ``sqlite:////absolute/path.db`` (SQLAlchemy's spelling) ->
  ``PERSISTENCE_MODULE=eventsourcing.sqlite`` and ``SQLITE_DBNAME``; the file's directory is
  created. ``sqlite:///:memory:`` gives a private in-memory database shared by the threads of
  one store (a unique shared-cache URI, so two stores in one process do not see each other).
* ``postgresql://user[:password]@host[:port]/dbname`` (also ``postgres://``) ->
  ``PERSISTENCE_MODULE=eventsourcing.postgres`` and ``POSTGRES_DBNAME/HOST/PORT/USER/PASSWORD``.

Passwords never reach a message or a log line: every URL shown is :func:`redacted` first.
"""

from __future__ import annotations

import re
import uuid
from pathlib import Path
from urllib.parse import unquote, urlsplit

SQLITE_SCHEME = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://", "postgresql+psycopg://")

# The recorders (infra.recorders), named as the library's topics (module:class), not imported:
# settings validate URLs without loading a database driver.
SQLITE_RECORDER_TOPIC = "infra.recorders:SQLiteLogRecorder"
POSTGRES_RECORDER_TOPIC = "infra.recorders:PostgresLogRecorder"

# Seconds a writer waits for SQLite's write lock (several API threads or processes write).
SQLITE_LOCK_TIMEOUT = "10"
# Connections per store (CARDROOM_DB_POOL_SIZE, CARDROOM_DB_MAX_OVERFLOW: infra.settings): the
# pool opens POOL_SIZE connections at start and adds up to MAX_OVERFLOW under load; the API
# calls from a pool of worker threads. 3 API replicas + a projector stay under PostgreSQL's
# default max_connections=100.
POSTGRES_POOL_SIZE = 10
POSTGRES_MAX_OVERFLOW = 10
# Seconds to wait for a pooled connection (also how long start-up waits for the database).
POSTGRES_CONNECT_TIMEOUT = "10"


class EventStoreURLError(ValueError):
    """``CARDROOM_EVENT_STORE`` is not a URL this service understands."""


def eventsourcing_env(
    url: str,
    *,
    create_dirs: bool = True,
    pool_size: int = POSTGRES_POOL_SIZE,
    max_overflow: int = POSTGRES_MAX_OVERFLOW,
) -> dict[str, str]:
    """The eventsourcing environment for a store URL (``pool_size`` and ``max_overflow``: the
    PostgreSQL connection pool's); raises :class:`EventStoreURLError`."""
    if url.startswith(SQLITE_SCHEME):
        return _sqlite_env(url[len(SQLITE_SCHEME) :], create_dirs=create_dirs)
    if url.startswith(POSTGRES_SCHEMES):
        return _postgres_env(url, pool_size=pool_size, max_overflow=max_overflow)
    raise EventStoreURLError(
        f"CARDROOM_EVENT_STORE={redacted(url)!r}: expected sqlite:///path/to/file.db or "
        "postgresql://user@host:port/dbname"
    )


def is_sqlite(url: str) -> bool:
    return url.startswith(SQLITE_SCHEME)


def _sqlite_env(path: str, *, create_dirs: bool) -> dict[str, str]:
    if not path:
        raise EventStoreURLError("CARDROOM_EVENT_STORE: sqlite:/// needs a file path")
    if path == ":memory:":
        db_name = f"file:cardroom-{uuid.uuid4().hex}?mode=memory&cache=shared"
    else:
        db_name = path
        if create_dirs:
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "APPLICATION_RECORDER_TOPIC": SQLITE_RECORDER_TOPIC,
        "SQLITE_DBNAME": db_name,
        "SQLITE_LOCK_TIMEOUT": SQLITE_LOCK_TIMEOUT,
        "CREATE_TABLE": "y",
    }


def _postgres_env(url: str, *, pool_size: int, max_overflow: int) -> dict[str, str]:
    parts = urlsplit(url)
    dbname = unquote(parts.path.lstrip("/"))
    if not dbname or "/" in dbname:
        raise EventStoreURLError(
            f"CARDROOM_EVENT_STORE={redacted(url)!r}: name one database, "
            "e.g. postgresql://user@host/cardroom"
        )
    try:
        port = parts.port or 5432
    except ValueError as error:
        raise EventStoreURLError(
            f"CARDROOM_EVENT_STORE={redacted(url)!r}: bad port ({error})"
        ) from None
    return {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "APPLICATION_RECORDER_TOPIC": POSTGRES_RECORDER_TOPIC,
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_HOST": parts.hostname or "127.0.0.1",
        "POSTGRES_PORT": str(port),
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
        "POSTGRES_POOL_SIZE": str(pool_size),
        "POSTGRES_MAX_OVERFLOW": str(max_overflow),
        "POSTGRES_CONNECT_TIMEOUT": POSTGRES_CONNECT_TIMEOUT,
        "POSTGRES_LOCK_TIMEOUT": "10",
        "CREATE_TABLE": "y",
    }


def redacted(url: str) -> str:
    """The URL with its password masked, for messages and logs: the user-info password
    (``postgresql://user:***@host/db``, ``redis://:***@host``) and a ``password=`` query
    parameter (``unix:///run/redis.sock?password=***``) alike."""
    try:
        parts = urlsplit(url)
        password = parts.password
        port = parts.port
    except ValueError:  # not a URL we can take apart: show only its scheme
        return url.split(":", 1)[0] + "://***" if "://" in url else "***"
    if password is not None:
        host = parts.hostname or ""
        netloc = f"{parts.username or ''}:***@{host}" + (f":{port}" if port else "")
        url = parts._replace(netloc=netloc).geturl()
    return _PASSWORD_QUERY.sub(r"\1***", url)


_PASSWORD_QUERY = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)
