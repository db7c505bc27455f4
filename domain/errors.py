"""Errors the rules raise. Each message says what is wrong in words a player can act on.

The API maps them to problem-details responses (``status`` below); a rejected command
writes no event.
"""

from __future__ import annotations


class DomainError(Exception):
    """A command the rules reject. ``status`` is the HTTP status the API answers with;
    ``field``, when set, names the command's field at fault (e.g. ``name``)."""

    status = 422
    field: str | None = None

    def __init__(self, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule = rule  # e.g. "bourre 5.1" — which rule of the spec was broken


class InvalidOption(DomainError):
    """A table option that is unknown or out of range; ``key`` names it."""

    def __init__(self, key: str, message: str) -> None:
        super().__init__(f"option {key!r}: {message}")
        self.key = key


class IllegalCommand(DomainError):
    """A command the rules forbid now (wrong card, wrong phase, bad meld, …)."""


class InvalidName(IllegalCommand):
    """A player's name the table refuses (length, an invisible or ignorable character, no
    letter or digit): a malformed request, 400 naming ``name`` — the one check of a name
    (:func:`domain.names.check_name`), whoever sends it."""

    status = 400
    field = "name"


class NotYourTurn(DomainError):
    """Another seat is to act."""

    status = 403


class SeatUnavailable(DomainError):
    """The seat is taken, out of range, or the table is full."""

    status = 409


class NameTaken(SeatUnavailable):
    """A second seat asked for with a name already seated at the table, or one that reads as
    it (:func:`domain.names.name_key`)."""

    field = "name"


class TableClosed(DomainError):
    """The table (or match) is over; nothing more can be played."""

    status = 409
