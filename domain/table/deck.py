"""The seed, the secret and the decks: randomness enters a table only as data (design §2,
"Fair deals").

A table opens with a ``secret`` (128 random bits in hex, drawn by the write side with
``secrets``), a ``seed`` (an integer from 0 to 2**63 − 1) and any stacked ``decks``; all three
live in ``TableOpened`` and are never shown. Hand ``n`` uses stacked deck ``n − 1`` when there
is one, else a shuffle of the game's pack. Every random number a hand needs comes from one
stream keyed by the secret: ``HMAC-SHA256(secret, "deck:n")`` seeds the shuffle and
``HMAC-SHA256(secret, "salt:n")`` is the salt of the hand's public ``commitment``. HMAC is a
pseudo-random function: seeing hand 1's deck and salt after it settles tells nothing about
hand 2's, and nobody can search the 2**128 secrets offline. Drawing the stream from one
recorded secret (rather than fresh entropy with each command) keeps the rules deterministic:
the command that fills the last seat or settles a hand needs no extra input, and replay never
shuffles since each deck order is recorded in its ``Dealt`` event.

Fixed deals (``fixed_deals``: the creator gave the seed or stacked decks, which a server
allows only with ``CARDROOM_ALLOW_STACKED_DECKS``) shuffle with
``derive_seed(seed, "deck", n)`` so a seed reproduces its games; the salts still come from the
secret. Tables opened before secrets existed (``secret`` empty) keep their recorded scheme —
shuffles and salts derived from the seed (:func:`domain.cards.deal_salt`) — so their stored
events replay and verify unchanged.
"""

from __future__ import annotations

import hmac
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any, NamedTuple

from domain.cards import deal_salt, deck_commitment, derive_seed, is_code, shuffled
from domain.errors import InvalidOption
from domain.table import MAX_SEED


class HandDeck(NamedTuple):
    """One hand's deck order (top first), its secret salt and the public commitment."""

    deck: list[str]
    salt: str
    commitment: str


def check_seed(seed: Any) -> int:
    """A seed is an integer from 0 to ``MAX_SEED`` (it travels as a JSON int64)."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise InvalidOption("seed", f"must be an integer from 0 to {MAX_SEED}")
    return seed


SECRET_BITS = 128
_SECRET = re.compile(rf"[0-9a-f]{{{SECRET_BITS // 4},128}}")


def check_secret(secret: Any) -> str:
    """A table's secret: at least 128 bits as lowercase hex, or empty for a table of the
    seed-derived scheme (opened before secrets existed)."""
    if secret == "":
        return secret
    if not isinstance(secret, str) or not _SECRET.fullmatch(secret):
        raise InvalidOption("secret", f"must be {SECRET_BITS // 4} or more lowercase hex digits")
    return secret


class DealSource(NamedTuple):
    """Where a table's hands come from: the seed, the secret, stacked decks, whether the
    creator fixed the deals."""

    seed: int
    secret: str
    decks: Sequence[Sequence[str]]
    fixed: bool


def _keyed(secret: str, *labels: object) -> bytes:
    message = ":".join(str(label) for label in labels).encode()
    return hmac.digest(bytes.fromhex(secret), message, "sha256")  # one-shot HMAC-SHA256


def random_seed(source: DealSource, *labels: object) -> int:
    """The seed of one shuffle (``"deck", n`` or ``"reshuffle", n, round``): from the secret
    unless the deals are fixed or the table predates secrets (see the module docstring)."""
    if source.secret and not source.fixed:
        return int.from_bytes(_keyed(source.secret, *labels)[:16], "big")
    return derive_seed(source.seed, *labels)


def hand_salt(source: DealSource, hand: int) -> str:
    """The secret salt of hand ``hand``'s commitment (32 hex digits)."""
    if source.secret:
        return _keyed(source.secret, "salt", hand).hex()[:32]
    return deal_salt(source.seed, hand)


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")


def check_decks(decks: Any, pack: Sequence[str]) -> list[list[str]]:
    """Each stacked deck must be an order of the game's ``pack`` (every code as many times as
    the pack has it); the error names the deck (0-based, as given) and the card."""
    if not isinstance(decks, Sequence) or isinstance(decks, str):
        raise InvalidOption("decks", "must be a list of decks")
    wanted = Counter(pack)
    checked: list[list[str]] = []
    for index, deck in enumerate(decks):
        if not isinstance(deck, Sequence) or isinstance(deck, str):
            raise InvalidOption("decks", f"deck {index} must be a list of card codes")
        counts: Counter[str] = Counter()
        for code in deck:
            if not is_code(code) or code not in wanted:
                raise InvalidOption(
                    "decks", f"deck {index}: {code!r} is not a card of the {len(pack)}-card pack"
                )
            counts[code] += 1
            if counts[code] > wanted[code]:
                raise InvalidOption(
                    "decks",
                    f"deck {index}: {code} occurs {_times(counts[code])} "
                    f"(the pack has it {_times(wanted[code])})",
                )
        missing = [code for code in wanted if counts[code] < wanted[code]]
        if missing:
            short = sum(wanted[code] - counts[code] for code in missing)
            raise InvalidOption(
                "decks", f"deck {index}: {missing[0]} is missing ({short} cards missing)"
            )
        checked.append(list(deck))
    return checked


def hand_deck(source: DealSource, pack: Sequence[str], hand: int) -> HandDeck:
    """The deck of hand ``hand`` (1-based): stacked if given, else the shuffle of ``pack``
    (the codes in the pack's canonical order); with its salt and commitment."""
    if hand <= len(source.decks):
        deck = list(source.decks[hand - 1])
    else:
        deck = shuffled(pack, random_seed(source, "deck", hand))
    salt = hand_salt(source, hand)
    return HandDeck(deck, salt, deck_commitment(deck, salt))


def dealer_of(hand: int, seats: int) -> int:
    """Seat 0 deals hand 1; the deal passes left (to the next seat) each hand."""
    return (hand - 1) % seats
