"""Service configuration from the environment (design §3, §4).

Every process (API, projector, CLI) reads the same variables:

* ``CARDROOM_EVENT_STORE`` — ``sqlite:///path`` (default ``sqlite:///./var/cardroom.db``;
  ``sqlite:///:memory:`` for a private in-memory store) or ``postgresql://user@host:port/db``.
* ``CARDROOM_REDIS_URL`` — a Redis server; unset means a private embedded redis-server under
  ``var_dir``.
* ``CARDROOM_REDIS_PREFIX`` — prefix of every read-model key (default ``cardroom:``).
* ``CARDROOM_ALLOW_STACKED_DECKS=1`` — accept ``decks`` at table creation (tests, demos).
* ``CARDROOM_VAR_DIR`` — where local state lives (default ``./var``).
* ``CARDROOM_REDIS_CLUSTER=1`` — ``CARDROOM_REDIS_URL`` names one node of a Redis Cluster.
* ``CARDROOM_PROJECTION_SHARDS`` — how many sharded projectors keep the read side (default 1;
  docs/scaling.md).
* ``CARDROOM_LOG_FORMAT`` — ``text`` (default) or ``json`` (one object a line).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from infra.eventstore_env import EventStoreURLError, eventsourcing_env, redacted

DEFAULT_EVENT_STORE = "sqlite:///./var/cardroom.db"
DEFAULT_REDIS_PREFIX = "cardroom:"
DEFAULT_VAR_DIR = "./var"
MAX_SHARDS = 1024
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


@dataclass(frozen=True)
class Settings:
    """Where the event store, Redis and local state live, and what clients may do."""

    event_store: str = DEFAULT_EVENT_STORE
    redis_url: str | None = None
    redis_prefix: str = DEFAULT_REDIS_PREFIX
    allow_stacked_decks: bool = False
    var_dir: Path = Path(DEFAULT_VAR_DIR)
    redis_cluster: bool = False
    projection_shards: int = 1
    log_format: str = "text"

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
            event_store=event_store,
            redis_url=redis_url,
            redis_prefix=prefix,
            allow_stacked_decks=_flag(source, "CARDROOM_ALLOW_STACKED_DECKS"),
            var_dir=Path(source.get("CARDROOM_VAR_DIR", "").strip() or DEFAULT_VAR_DIR),
            redis_cluster=redis_cluster,
            projection_shards=int(raw_shards),
            log_format=log_format,
        )

    def __repr__(self) -> str:
        """The settings with the URLs' passwords masked (settings may be logged)."""
        redis_url = None if self.redis_url is None else redacted(self.redis_url)
        return (
            f"Settings(event_store={redacted(self.event_store)!r}, redis_url={redis_url!r}, "
            f"redis_prefix={self.redis_prefix!r}, "
            f"allow_stacked_decks={self.allow_stacked_decks!r}, var_dir={self.var_dir!r}, "
            f"redis_cluster={self.redis_cluster!r}, "
            f"projection_shards={self.projection_shards!r}, log_format={self.log_format!r})"
        )
