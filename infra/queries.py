"""The write side's query service: a table from the event store as a caller may see it.

The API answers live views and ledgers from the read models (:mod:`projections.reader`);
everything else about a table, and those two when the projection has not reached the table
yet, comes from here, always through the same visibility rules (:mod:`infra.visibility`,
design §5): redaction per viewer, ``reveal``, and ``spectator_delay`` — a spectator sees the
table as of ``spectator_delay`` events ago, in views, ledgers, timelines, replays, the
stream and deal verification alike. Hands are found with the table's hand index
(:mod:`infra.hands`), never by scanning its history.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.cards import deck_commitment
from domain.game import Viewer
from domain.games import game_named
from domain.table import TableEnded, TableOpened, hash_token
from domain.tournament.embargo import view_fields
from infra.errors import BeyondHistory, HandNotDealt, TableNotFound
from infra.results import LoadedTable, RecordedEvent
from infra.store import TableStore
from infra.visibility import TableFacts

SEAT_CACHE_SIZE = 100_000  # remembered (table, token hash) -> seat pairs


@dataclass(frozen=True, slots=True)
class DealCheck:
    """A hand's deal against its commitment: the deck and salt once they may be shown."""

    table_id: str
    hand: int
    commitment: str
    settled: bool
    revealed: bool
    deck: list[str] | None = None
    salt: str | None = None
    valid: bool | None = None


def framed(table_id: UUID, game: str, version: int, view: dict[str, Any]) -> dict[str, Any]:
    """A view as the read models store it: ``tableId``, ``game`` and ``version`` first (and a
    tournament's table's ``tournamentId`` and ``board``, design §10)."""
    framed = {"tableId": str(table_id), "game": game, "version": version, **view}
    framed.update(view_fields(framed))
    return framed


class TableQueries:
    """Questions about the tables of ``store``. Thread-safe; all calls block."""

    def __init__(self, store: TableStore) -> None:
        self.store = store
        self._facts: dict[UUID, TableFacts] = {}
        self._seats: dict[tuple[UUID, str], int] = {}
        self._lock = threading.Lock()

    def facts(self, table_id: UUID) -> TableFacts:
        """The table's game and visibility options (from ``TableOpened``; they never change).
        Raises :class:`TableNotFound` for an unknown table."""
        known = self._facts.get(table_id)
        if known is not None:
            return known
        first = self.store.events(table_id, 1, 1)
        if not first or not isinstance(first[0].event, TableOpened):
            raise TableNotFound(f"no table {table_id}")
        opened = first[0].event
        facts = TableFacts.from_opened(game_named(opened.game), opened.options)
        with self._lock:
            self._facts[table_id] = facts
        return facts

    def seat_for_token(self, table_id: UUID, token: str) -> int | None:
        """The seat ``token`` holds at the table (None: no seat).

        A seat's token changes only when its person leaves (``SeatLeft``), so a found seat is
        remembered (by the token's hash, never the token) until :meth:`forget_seats`: commands
        then skip a store read.
        """
        key = (table_id, hash_token(token))
        seat = self._seats.get(key)
        if seat is None:
            seat = self.store.seat_for_token(table_id, token)
            if seat is not None:
                with self._lock:
                    if len(self._seats) >= SEAT_CACHE_SIZE:
                        self._seats.clear()  # crude but bounded; entries are cheap to re-learn
                    self._seats[key] = seat
        return seat

    def forget_seats(self, table_id: UUID) -> None:
        """Forget the seats remembered for ``table_id``'s tokens (a person left a seat)."""
        with self._lock:
            for key in [key for key in self._seats if key[0] == table_id]:
                del self._seats[key]

    def visible(self, table_id: UUID, viewer: Viewer) -> LoadedTable:
        """The table as of the last version ``viewer`` may see (version 1 at the least)."""
        facts = self.facts(table_id)
        loaded = self.store.get(table_id)
        visible = max(1, facts.visible_version(viewer, loaded.version))
        return loaded if visible == loaded.version else self.store.get(table_id, visible)

    def head(self, table_id: UUID, viewer: Viewer) -> int:
        """The last version ``viewer`` may see."""
        return self.facts(table_id).visible_version(viewer, self.store.get(table_id).version)

    def view(self, table_id: UUID, viewer: Viewer) -> dict[str, Any]:
        """The caller's view of the table now (a spectator's ``spectator_delay`` behind)."""
        loaded = self.visible(table_id, viewer)
        view = loaded.game.view(loaded.state, viewer)
        return framed(table_id, loaded.game.name, loaded.version, view)

    def timeline(
        self, table_id: UUID, viewer: Viewer, start: int, end: int | None
    ) -> list[dict[str, Any]]:
        """The events from ``start`` to ``end`` (inclusive, up to what ``viewer`` may see),
        redacted; a hand settled by then (as the viewer sees it) shows its cards."""
        facts = self.facts(table_id)
        version, hands = self.store.hands(table_id)
        visible = facts.visible_version(viewer, version)
        end = visible if end is None else min(end, visible)
        if start > end:
            return []
        page = self.store.events(table_id, start, end)
        settled = hands.settled_by(visible, {facts.game.hand_of(r.event) for r in page})
        return [facts.redact(recorded, viewer, settled) for recorded in page]

    def replay(self, table_id: UUID, viewer: Viewer, at: int) -> dict[str, Any]:
        """The caller's view as of version ``at``; the hand in play then, if it has settled
        since (at ``at`` or later, as far as the caller may see), shows its hidden cards.
        Raises :class:`BeyondHistory` past what the caller may see."""
        facts = self.facts(table_id)
        version, hands = self.store.hands(table_id)
        visible = facts.visible_version(viewer, version)
        if at > visible:
            raise BeyondHistory(
                f"at={at} is beyond the table's history you may see (latest version {visible})"
            )
        loaded = self.store.get(table_id, at)
        hand = hands.hand_at(at)
        span = hands.span(hand, visible)
        settled_since = span is not None and span.settled is not None and span.settled >= at
        revealed = settled_since and facts.reveals(hand, {hand})
        view = loaded.game.view(loaded.state, viewer, revealed=revealed)
        return framed(table_id, loaded.game.name, loaded.version, view)

    def verify(self, table_id: UUID, viewer: Viewer, hand: int) -> DealCheck:
        """Hand ``hand``'s commitment and, once it has settled (and the table reveals
        hands), its deck and salt checked against it. Raises :class:`HandNotDealt`."""
        facts = self.facts(table_id)
        version, hands = self.store.hands(table_id)
        span = hands.span(hand, facts.visible_version(viewer, version))
        if span is None or span.dealt is None:
            raise HandNotDealt(f"hand {hand} has not been dealt at this table")
        dealt = self._event_at(table_id, span.dealt)
        commitment = str(dealt.commitment)
        check = DealCheck(str(table_id), hand, commitment, span.settled is not None, False)
        if span.settled is None or facts.reveal != "after_hand":
            return check
        # The settlement repeats deck and salt; the deal's own record is the fallback.
        settlement = self._event_at(table_id, span.settled)
        deck = list(getattr(settlement, "deck", None) or dealt.deck)
        salt = str(getattr(settlement, "salt", None) or dealt.salt)
        valid = deck_commitment(deck, salt) == commitment
        return DealCheck(str(table_id), hand, commitment, True, True, deck, salt, valid)

    def legal(self, table_id: UUID, seat: int) -> tuple[list[Any], int]:
        """``seat``'s legal commands now and the version they were computed at."""
        loaded = self.store.get(table_id)
        return loaded.game.legal_commands(loaded.state, seat), loaded.version

    def redacted(
        self, table_id: UUID, viewer: Viewer, events: list[RecordedEvent]
    ) -> list[dict[str, Any]]:
        """``events`` (e.g. those a command wrote) as ``viewer`` may see them."""
        facts = self.facts(table_id)
        settled = facts.settled_hands(events)
        return [facts.redact(recorded, viewer, settled) for recorded in events]

    def has_ended(self, table_id: UUID) -> bool:
        """Whether the table's last event is ``TableEnded``."""
        head = self.store.get(table_id).version
        last = self.store.events(table_id, head, head)
        return bool(last) and isinstance(last[-1].event, TableEnded)

    def _event_at(self, table_id: UUID, version: int) -> Any:
        return self.store.events(table_id, version, version)[0].event
