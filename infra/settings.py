"""Service configuration from the environment (design §3, §4).

Every process (API, projector, CLI) reads the same variables:

* ``CARDROOM_EVENT_STORE`` — ``sqlite:///path`` (default ``sqlite:///./var/cardroom.db``;
  ``sqlite:///:memory:`` for a private in-memory store) or ``postgresql://user@host:port/db``.
* ``CARDROOM_DB_POOL_SIZE`` (default 10), ``CARDROOM_DB_MAX_OVERFLOW`` (default 10) — each
  process's PostgreSQL connection pool: it opens the pool size at start and adds up to the
  overflow under load, so a deployment needs processes × (size + overflow) of the server's
  ``max_connections`` (ignored on SQLite).
* ``CARDROOM_REDIS_URL`` — a Redis server; unset means a private embedded redis-server under
  ``var_dir``.
* ``CARDROOM_REDIS_PREFIX`` — prefix of every read-model key (default ``cardroom:``).
* ``CARDROOM_ALLOW_STACKED_DECKS=1`` — accept ``decks`` at table creation (tests, demos).
* ``CARDROOM_VAR_DIR`` — where local state lives (default ``./var``).
* ``CARDROOM_RATE_LIMITS`` — budgets per client address (:mod:`infra.limits`), or ``off``.
* ``CARDROOM_TRUSTED_PROXIES`` — the reverse proxies (addresses or networks, comma-separated,
  or ``*``) whose ``X-Forwarded-For`` names the client; unset: the header is ignored and the
  client is the connection's peer, so nobody can spend another address's budget or escape their
  own by writing the header.
* ``CARDROOM_BOT_THINK_SECONDS`` — how long a server-side bot waits before it acts (default
  0.5; 0 in tests).
* ``CARDROOM_REVIEW_ROUNDS`` — determinizations the search bot plays per decision of a hand
  review (default 24; :mod:`managers.reviewer`); ``CARDROOM_REVIEW_SETTLED_HANDS=1`` reviews
  every person's seat of each settled hand before anyone asks (default off).
* ``CARDROOM_ABANDON_WAITING_SECONDS`` — a table waiting for players this long since its last
  event is abandoned (default 3600; ``0`` or ``off`` never abandons).
* ``CARDROOM_MAX_HEADER_BYTES`` (16384), ``CARDROOM_HEADER_TIMEOUT`` (10 s),
  ``CARDROOM_BODY_TIMEOUT`` (30 s) — server limits (:mod:`api.serverlimits`).
* ``CARDROOM_REDIS_CLUSTER=1`` — ``CARDROOM_REDIS_URL`` names one node of a Redis Cluster.
* ``CARDROOM_PROJECTION_SHARDS`` — how many sharded projectors keep the read side (default 1;
  docs/scaling.md).
* ``CARDROOM_LOG_FORMAT`` — ``text`` (default) or ``json`` (one object a line).
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from infra.eventstore_env import (
    POSTGRES_MAX_OVERFLOW,
    POSTGRES_POOL_SIZE,
    EventStoreURLError,
    eventsourcing_env,
    redacted,
)
from infra.limits import RateLimits, RateLimitsError

DEFAULT_EVENT_STORE = "sqlite:///./var/cardroom.db"
DEFAULT_REDIS_PREFIX = "cardroom:"
DEFAULT_VAR_DIR = "./var"
DEFAULT_BOT_THINK_SECONDS = 0.5
DEFAULT_ABANDON_WAITING_SECONDS = 3600.0
DEFAULT_REVIEW_ROUNDS = 24
MAX_SHARDS = 1024
MAX_POOL = 1000  # connections per process, pool or overflow: more is a typo
LOG_FORMATS = ("text", "json")

_TRUE = {"1", "true", "yes", "y", "on"}
_FALSE = {"", "0", "false", "no", "n", "off"}


class SettingsError(ValueError):
    """A configuration value that cannot be used; the message names the variable."""


def _flag(env: Mapping[str, str], name: str) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw in _TRUE:
        return True
    if raw in _FALSE:
        return False
    raise SettingsError(f"{name}={raw!r}: expected 1/0, true/false, yes/no or on/off")


def _seconds(env: Mapping[str, str], name: str) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return DEFAULT_BOT_THINK_SECONDS
    try:
        value = float(raw)
    except ValueError:
        value = -1.0
    if not 0 <= value <= 60:
        raise SettingsError(f"{name}={raw!r}: expected seconds from 0 to 60")
    return value


def _abandon_seconds(env: Mapping[str, str]) -> float | None:
    name = "CARDROOM_ABANDON_WAITING_SECONDS"
    raw = env.get(name, "").strip().lower()
    if not raw:
        return DEFAULT_ABANDON_WAITING_SECONDS
    if raw == "off":
        return None
    try:
        seconds = float(raw)
    except ValueError:
        raise SettingsError(f"{name}={raw!r}: expected seconds (e.g. 3600) or off") from None
    if not 0 <= seconds < 10**9:  # also refuses nan and inf
        raise SettingsError(f"{name}={raw!r}: expected seconds from 0 (off) to 10^9")
    return seconds or None


def _trusted_proxies(env: Mapping[str, str]) -> tuple[str, ...]:
    name = "CARDROOM_TRUSTED_PROXIES"
    raw = env.get(name, "").strip()
    items = tuple(item.strip() for item in raw.split(",")) if raw else ()
    for item in items:
        if item == "*":
            continue
        try:
            ipaddress.ip_network(item, strict=False)
        except ValueError:
            raise SettingsError(
                f"{name}={raw!r}: {item!r} is not an address or network (e.g. 10.0.0.2, "
                "172.28.0.0/16, or * for any)"
            ) from None
    return items


def _count(env: Mapping[str, str], name: str, default: int, least: int) -> int:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    if not raw.isdigit() or not least <= int(raw) <= MAX_POOL:
        raise SettingsError(f"{name}={raw!r}: expected a whole number {least}..{MAX_POOL}")
    return int(raw)


def _positive(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        value = -1
    if not value > 0:
        raise SettingsError(f"{name}={raw!r}: expected a positive number")
    return value


@dataclass(frozen=True)
class Settings:
    """Where the event store, Redis and local state live, and what clients may do."""

    event_store: str = DEFAULT_EVENT_STORE
    db_pool_size: int = POSTGRES_POOL_SIZE
    db_max_overflow: int = POSTGRES_MAX_OVERFLOW
    redis_url: str | None = None
    redis_prefix: str = DEFAULT_REDIS_PREFIX
    allow_stacked_decks: bool = False
    var_dir: Path = Path(DEFAULT_VAR_DIR)
    rate_limits: RateLimits = field(default_factory=RateLimits)
    bot_think_seconds: float = DEFAULT_BOT_THINK_SECONDS
    abandon_waiting_seconds: float | None = DEFAULT_ABANDON_WAITING_SECONDS
    max_header_bytes: int = 16 * 1024
    header_timeout: float = 10.0
    body_timeout: float = 30.0
    redis_cluster: bool = False
    projection_shards: int = 1
    log_format: str = "text"
    trusted_proxies: tuple[str, ...] = ()
    review_rounds: int = DEFAULT_REVIEW_ROUNDS
    review_settled_hands: bool = False

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Settings from ``env`` (default: ``os.environ``); raises :class:`SettingsError`."""
        source: Mapping[str, str] = os.environ if env is None else env
        event_store = source.get("CARDROOM_EVENT_STORE", "").strip() or DEFAULT_EVENT_STORE
        # Validate the store URL now, so a typo fails at start-up with the variable's name.
        try:
            eventsourcing_env(event_store, create_dirs=False)
        except EventStoreURLError as error:
            raise SettingsError(str(error)) from error
        redis_url = source.get("CARDROOM_REDIS_URL", "").strip() or None
        if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise SettingsError(
                f"CARDROOM_REDIS_URL={redacted(redis_url)!r}: expected redis://, rediss:// or "
                "unix://"
            )
        prefix = source.get("CARDROOM_REDIS_PREFIX", DEFAULT_REDIS_PREFIX)
        if not prefix:
            raise SettingsError("CARDROOM_REDIS_PREFIX must not be empty")
        try:
            rate_limits = RateLimits.parse(source.get("CARDROOM_RATE_LIMITS", ""))
        except RateLimitsError as error:
            raise SettingsError(f"CARDROOM_RATE_LIMITS: {error}") from error
        if "{" in prefix or "}" in prefix:
            raise SettingsError(
                f"CARDROOM_REDIS_PREFIX={prefix!r}: braces would break the keys' hash tags"
            )
        redis_cluster = _flag(source, "CARDROOM_REDIS_CLUSTER")
        if redis_cluster and redis_url is None:
            raise SettingsError("CARDROOM_REDIS_CLUSTER=1 needs CARDROOM_REDIS_URL (one node)")
        raw_shards = source.get("CARDROOM_PROJECTION_SHARDS", "").strip() or "1"
        if not raw_shards.isdigit() or not 1 <= int(raw_shards) <= MAX_SHARDS:
            raise SettingsError(
                f"CARDROOM_PROJECTION_SHARDS={raw_shards!r}: expected a number 1..{MAX_SHARDS}"
            )
        log_format = source.get("CARDROOM_LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise SettingsError(f"CARDROOM_LOG_FORMAT={log_format!r}: expected text or json")
        return cls(
            rate_limits=rate_limits,
            event_store=event_store,
            db_pool_size=_count(source, "CARDROOM_DB_POOL_SIZE", POSTGRES_POOL_SIZE, 1),
            db_max_overflow=_count(source, "CARDROOM_DB_MAX_OVERFLOW", POSTGRES_MAX_OVERFLOW, 0),
            redis_url=redis_url,
            redis_prefix=prefix,
            allow_stacked_decks=_flag(source, "CARDROOM_ALLOW_STACKED_DECKS"),
            var_dir=Path(source.get("CARDROOM_VAR_DIR", "").strip() or DEFAULT_VAR_DIR),
            bot_think_seconds=_seconds(source, "CARDROOM_BOT_THINK_SECONDS"),
            abandon_waiting_seconds=_abandon_seconds(source),
            review_rounds=_count(source, "CARDROOM_REVIEW_ROUNDS", DEFAULT_REVIEW_ROUNDS, 1),
            review_settled_hands=_flag(source, "CARDROOM_REVIEW_SETTLED_HANDS"),
            max_header_bytes=int(
                _positive(source, "CARDROOM_MAX_HEADER_BYTES", cls.max_header_bytes)
            ),
            header_timeout=_positive(source, "CARDROOM_HEADER_TIMEOUT", cls.header_timeout),
            body_timeout=_positive(source, "CARDROOM_BODY_TIMEOUT", cls.body_timeout),
            redis_cluster=redis_cluster,
            projection_shards=int(raw_shards),
            log_format=log_format,
            trusted_proxies=_trusted_proxies(source),
        )

    def __repr__(self) -> str:
        """The settings with the URLs' passwords masked (settings may be logged)."""
        redis_url = None if self.redis_url is None else redacted(self.redis_url)
        return (
            f"Settings(event_store={redacted(self.event_store)!r}, "
            f"db_pool_size={self.db_pool_size!r}, db_max_overflow={self.db_max_overflow!r}, "
            f"redis_url={redis_url!r}, "
            f"redis_prefix={self.redis_prefix!r}, "
            f"allow_stacked_decks={self.allow_stacked_decks!r}, var_dir={self.var_dir!r}, "
            f"rate_limits={str(self.rate_limits)!r}, redis_cluster={self.redis_cluster!r}, "
            f"projection_shards={self.projection_shards!r}, log_format={self.log_format!r}, "
            f"trusted_proxies={self.trusted_proxies!r})"
        )
