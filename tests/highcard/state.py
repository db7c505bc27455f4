"""High card's state and ``evolve`` (facts only: nothing is checked or shuffled here)."""

from __future__ import annotations

from typing import Any

import msgspec
from msgspec.structs import replace

from domain.table import (
    ENDED,
    PLAYING,
    WAITING,
    PlayerSeated,
    Seating,
    TableEnded,
    TableOpened,
    deal_facts,
    seat_holding,
)
from domain.table.deck import DealSource
from tests.highcard.events import CardPlayed, Dealt, HandWon


class Hand(msgspec.Struct, frozen=True, kw_only=True):
    number: int
    dealer: int
    deck: tuple[str, ...]
    salt: str
    commitment: str
    holdings: tuple[tuple[str, ...], ...]
    played: tuple[str | None, ...]
    turn: int | None  # the seat to play; None once every seat has played
    winner: int | None = None


class Table(msgspec.Struct, frozen=True, kw_only=True):
    options: dict[str, Any]
    seed: int
    decks: tuple[tuple[str, ...], ...]
    names: tuple[str | None, ...]
    token_hashes: tuple[str | None, ...]
    wins: tuple[int, ...]
    status: str = WAITING
    hand: Hand | None = None
    secret: str = ""
    fixed_deals: bool = False

    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def deals(self) -> DealSource:
        return DealSource(self.seed, self.secret, self.decks, self.fixed_deals)


def _set(items: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return (*items[:index], value, *items[index + 1 :])


def evolve(state: Table | None, event: Any) -> Table:
    if isinstance(event, TableOpened):
        n = int(event.options["seats"])
        return Table(
            options=dict(event.options),
            **deal_facts(event),
            names=(None,) * n,
            token_hashes=(None,) * n,
            wins=(0,) * n,
        )
    assert state is not None, "a table starts with TableOpened"
    if isinstance(event, PlayerSeated):
        names = _set(state.names, event.seat, event.name)
        status = PLAYING if None not in names else state.status
        tokens = _set(state.token_hashes, event.seat, event.token_hash)
        return replace(state, names=names, token_hashes=tokens, status=status)
    if isinstance(event, Dealt):
        n = state.seats
        hand = Hand(
            number=event.hand,
            dealer=event.dealer,
            deck=tuple(event.deck),
            salt=event.salt,
            commitment=event.commitment,
            holdings=tuple(tuple(cards) for cards in event.hands),
            played=(None,) * n,
            turn=(event.dealer + 1) % n,
        )
        return replace(state, hand=hand)
    if isinstance(event, CardPlayed):
        current = state.hand
        assert current is not None
        played = _set(current.played, event.seat, event.card)
        held = tuple(c for c in current.holdings[event.seat] if c != event.card)
        turn = (event.seat + 1) % state.seats
        after = replace(
            current,
            holdings=_set(current.holdings, event.seat, held),
            played=played,
            turn=None if played[turn] is not None else turn,
        )
        return replace(state, hand=after)
    if isinstance(event, HandWon):
        assert state.hand is not None
        wins = _set(state.wins, event.seat, state.wins[event.seat] + 1)
        return replace(state, wins=wins, hand=replace(state.hand, winner=event.seat))
    if isinstance(event, TableEnded):
        return replace(state, status=ENDED)
    raise ValueError(f"not a high card event: {type(event).__name__}")


def seating(state: Table) -> Seating:
    return Seating(
        seats=state.seats,
        names=state.names,
        status=state.status,
        hand=state.hand.number if state.hand else 0,
    )


def seat_for_token(state: Table | None, token_hash: str) -> int | None:
    return None if state is None else seat_holding(state.token_hashes, token_hash)
