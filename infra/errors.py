"""What the write side raises (the interface the API and projections use).

Re-exported by :mod:`infra.store`; what it returns is :mod:`infra.results`.
"""

from __future__ import annotations

from domain.errors import DomainError


class TableNotFound(Exception):
    """No table has this id (HTTP 404)."""


class VersionConflict(Exception):
    """``expectedVersion`` does not match, or a concurrent write could not be retried (409)."""


class StoreUnavailable(Exception):
    """The event store did not answer (HTTP 503)."""


class InvalidRequest(DomainError):
    """A malformed argument to the store (bad idempotency key, version out of range);
    ``field`` names the argument when the caller wants it named."""

    status = 400

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class IdempotencyKeyReused(DomainError):
    """An idempotency key already recorded for a *different* command on this table.

    A retry must repeat its request exactly; answering the first command's result to another
    command would hide that the new one was never run (cf. the IETF "Idempotency-Key HTTP
    Header Field" draft: 422). Nothing is written. ``key`` names the key.
    """

    field = "Idempotency-Key"  # the header at fault

    def __init__(self, key: str) -> None:
        super().__init__(
            f"idempotency key {key!r} was already used for a different command on this "
            "table; retry with the same command, or use a new key for a new command"
        )
        self.key = key


class StackedDecksNotAllowed(DomainError):
    """``decks`` given while the server does not allow stacked decks (design §5)."""

    status = 403


class BeyondHistory(DomainError):
    """A version past what the caller may see (the table's head, or a spectator's delay)."""

    field = "at"


class HandNotDealt(DomainError):
    """A hand the table has not dealt (as far as the caller may see)."""

    status = 404
    field = "n"
