"""Helpers for the write-side store tests (no tests here)."""

from __future__ import annotations

from typing import Any

from infra.store import TableStore


def decoded_events(store: TableStore) -> list[int]:
    """Record the versions of the events ``store`` decodes from now on (the list fills as it
    decodes), to show which history a command or a cold load reads."""
    seen: list[int] = []
    mapper = store.app.mapper
    original = mapper.to_domain_event

    def counting(stored: Any) -> Any:
        seen.append(stored.originator_version)
        return original(stored)

    mapper.to_domain_event = counting  # type: ignore[method-assign,assignment]
    return seen
