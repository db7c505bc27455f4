"""The tournament's refusals: a field of the request at fault (the API names it, ``field``)."""

from __future__ import annotations

from domain.errors import InvalidOption


class InvalidField(InvalidOption):
    """A tournament's field (``format``, ``rounds``, ``names``, …) that cannot be taken: 422
    naming it as ``field`` (and ``option``, as every invalid option)."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(key, message)
        self.field = key
