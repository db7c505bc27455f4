"""Boards (docs/rules/tournaments.md rule T2): a board is one deal — a deck order drawn by the
server — played at several tables. Every board's deck and salt come from the event's
``secret`` (128 random bits drawn by the write side, recorded in ``TournamentCreated`` and
never shown) through HMAC-SHA256, as a table's hands do (design §2 "Fair deals"):
``HMAC(secret, "board:n")`` seeds the shuffle of the game's pack and ``HMAC(secret,
"board-salt:n")`` is the salt of the board's public commitment, SHA-256 of the deck and the
salt (:func:`domain.cards.deck_commitment`). The commitments are published when the event
starts; a board's deck and salt when it opens, so anyone can check it was fixed before play.
"""

from __future__ import annotations

import hmac
from collections.abc import Sequence
from typing import NamedTuple

from domain.cards import deck_commitment, shuffled

MAX_SEED = 2**63 - 1


class Board(NamedTuple):
    """Board ``board``'s deck order (top first), its secret salt and public commitment."""

    board: int
    deck: tuple[str, ...]
    salt: str
    commitment: str


def _keyed(secret: str, label: str) -> bytes:
    return hmac.digest(bytes.fromhex(secret), label.encode(), "sha256")


def board(secret: str, pack: Sequence[str], number: int) -> Board:
    """Board ``number`` (1-based) of the event whose secret is ``secret``."""
    seed = int.from_bytes(_keyed(secret, f"board:{number}")[:16], "big")
    deck = tuple(shuffled(list(pack), seed))
    salt = _keyed(secret, f"board-salt:{number}").hex()[:32]
    return Board(number, deck, salt, deck_commitment(deck, salt))


def round_seed(secret: str, round_number: int) -> int:
    """The seed every table of a duplicate round shares (a game that reshuffles mid-hand
    reshuffles alike at every table of the board)."""
    return int.from_bytes(_keyed(secret, f"round:{round_number}")[:8], "big") & MAX_SEED
