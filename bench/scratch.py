"""Scratch event stores for the benchmarks: a SQLite file in a temporary directory, and a
PostgreSQL database of its own (created on the server of ``CARDROOM_TEST_POSTGRES``, dropped
afterwards), so a benchmark never touches a real store."""

from __future__ import annotations

import os
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

POSTGRES = os.environ.get("CARDROOM_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")


@contextmanager
def sqlite_url() -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="cardroom-bench-") as directory:
        yield f"sqlite:///{directory}/cardroom.db"


@contextmanager
def postgres_url() -> Iterator[str | None]:
    """A fresh database's URL, or ``None`` (said on stderr) when the server is unreachable."""
    try:
        import psycopg

        admin = psycopg.connect(POSTGRES, autocommit=True, connect_timeout=3)
    except Exception as error:  # unreachable: skip this store
        print(f"PostgreSQL not reachable ({error}); skipping it", file=sys.stderr)
        yield None
        return
    name = f"cardroom_bench_{uuid.uuid4().hex[:8]}"
    admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield urlunsplit(urlsplit(POSTGRES)._replace(path=f"/{name}"))
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()
