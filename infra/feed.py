"""The public event feed (design §8, "Analytics"): every table's events as a spectator may see
them, in the order they became visible (by release, below).

Each line is ``position``, ``tableId``, ``game``, then the event as the query service shows it
to a spectator (:meth:`infra.visibility.TableFacts.redact`: ``version``, ``type``, ``at`` and
the event's public fields), and the page adds ``release``. Nothing here redacts: the hidden
cards of a hand show only once the table's hand index (:mod:`infra.hands`) has it settled
within what spectators may see, and the table's ``reveal`` allows it — exactly as in the
timeline.

``spectator_delay`` (design §8, docs/analytics.md "The cursor"): a table's event at version
``v`` becomes visible to spectators when the table's event at version ``v + spectator_delay``
is stored; the log position of that later event is the event's **release** (its own position
at a table without delay). The feed lists events by release, and ``after`` is a release: each
log position releases at most one event (the one its table stored ``spectator_delay`` versions
before, or itself), so one integer cursor pages through every event exactly once, and an event
held back by an idle table comes later in the feed, when its table moves, after a cursor that
has passed its own position — it never holds back another table. A table that has ended keeps
its last ``spectator_delay`` events from spectators for good (as its timeline does): nothing
releases them. An export (:meth:`EventFeed.walk_log`) reads the log as it stands, in store
order, and passes over the events not released yet.

A tournament's board table (design §10, ``TableFacts.withheld``) releases nothing at its own
positions: its events are released together at the position of its ``BoardReleased`` (the
tournament's process manager records it once the table's round has ended), all with that
``release``, in version order — :func:`domain.tournament.embargo.shows` decides, as for the
API. A page never splits one release: a page that reaches its ``limit`` inside a board
table's release carries the rest of it (so one cursor still gives every event once); an
export lists a released board table's events at their own positions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple, Protocol, TypeVar, get_args
from uuid import UUID

from domain.games import game_named, game_names
from domain.table import ENDED, BoardReleased, TableEnded, TableOpened
from domain.tournament.embargo import releases, shows
from infra.hands import HandIndex
from infra.queries import TableQueries
from infra.results import Notification
from infra.store import TableStore
from infra.visibility import TableFacts


class Logged(Protocol):
    """A notification as a log reader hands it out (the feed reads these fields)."""

    @property
    def position(self) -> int: ...
    @property
    def table_id(self) -> UUID: ...
    @property
    def version(self) -> int: ...
    @property
    def event(self) -> Any: ...


N = TypeVar("N", bound=Logged)

DEFAULT_LIMIT = 100
MAX_LIMIT = 1000  # events per page at most (the ``limit`` cap)
SCAN_FACTOR = 20  # a filtered page reads at most this many times ``limit`` notifications
READ_CHUNK = 1000  # notifications read from the store at once


def event_types(game: str | None = None) -> frozenset[str]:
    """The stored type names (tags) of ``game``'s events, or of every registered game's."""
    names = [game] if game is not None else list(game_names())
    tags: set[str] = set()
    for name in names:
        for kind in get_args(game_named(name).event_type) or (game_named(name).event_type,):
            config = getattr(kind, "__struct_config__", None)
            tags.add(str(getattr(config, "tag", None) or kind.__name__))
    return frozenset(tags)


@dataclass(frozen=True, slots=True)
class FeedFilter:
    """Which events a reader wants: one game, one event type, one table (``None``: any)."""

    game: str | None = None
    type: str | None = None
    table_id: UUID | None = None

    def admits(self, note: Notification, facts: TableFacts, shown_type: str) -> bool:
        return (
            (self.game is None or facts.game.name == self.game)
            and (self.type is None or shown_type == self.type)
            and (self.table_id is None or note.table_id == self.table_id)
        )


@dataclass
class FeedPage:
    """Events of one page and the position the next page starts after."""

    events: list[dict[str, Any]] = field(default_factory=list)
    last: int = 0  # the last release (log position) this page accounts for
    held: bool = False  # stopped at an event spectators may not see yet


class FeedStep(NamedTuple):
    """One log position as the feed met it (``release``) and the event it releases (``note``)
    with its public event, or ``shown`` ``None`` when it releases none: the position's own
    event at a table that holds its events back, or one spectators may not see (``held``: not
    yet; otherwise never, the table having ended). A named tuple: one is made per event, and
    it is cheaper to make than a frozen dataclass."""

    note: Notification
    facts: TableFacts
    shown: dict[str, Any] | None
    held: bool = False
    release: int = 0  # the log position this step accounts for


@dataclass
class TableNow:
    """A table as of the page being read: its facts, head version, hand index, ended, and
    what spectators may see of it (fixed for the page, so worked out once per table)."""

    facts: TableFacts
    version: int
    hands: HandIndex | dict[int, int]  # its hand index, or (read off the log) settled hands
    ended: bool
    table_id: UUID
    key: str  # the table id as text
    visible: int = 0  # the last version spectators may see
    revealed: dict[int, bool] = field(default_factory=dict)  # hand -> its cards may show
    released: bool = False  # a board table whose BoardReleased is in the log (read_log)

    def reveals(self, hand: int) -> bool:
        """Whether ``hand``'s hidden cards show to spectators as of ``visible`` (cached)."""
        known = self.revealed.get(hand)
        if known is None:
            hands, visible = self.hands, self.visible
            if not hand:
                settled: set[int] = set()
            elif isinstance(hands, HandIndex):
                settled = hands.settled_by(visible, {hand})
            else:  # hand -> the version that settled it
                settled = {hand} if hands.get(hand, visible + 1) <= visible else set()
            known = self.revealed[hand] = self.facts.reveals(hand, settled)
        return known


# The keys the feed writes itself, ahead of the event's own public fields.
_HEAD = frozenset({"version", "type", "at"})


def public_event(
    note: Logged, facts: TableFacts, revealed: bool, table: str, at: str
) -> dict[str, Any]:
    """One stored event as the feed shows it: exactly what the query service's spectator
    redaction (:meth:`TableFacts.redact`, through :meth:`TableFacts.fields`) shows, headed by
    the feed's own keys; ``revealed``: the hand's hidden cards may show (worked out once per
    hand by the caller); ``at``: the event's time as text (once per command)."""
    data = facts.fields(note.event, None, revealed)
    shown = {
        "position": note.position,
        "tableId": table or str(note.table_id),
        "game": facts.game.name,
        "version": note.version,
        "type": data.get("type"),
        "at": at,
    }
    if "version" in data or "at" in data:
        for key, value in data.items():
            if key not in _HEAD:
                shown[key] = value
    else:  # the usual event: its ``type`` is already in place, its other fields follow
        shown.update(data)
    return shown


def at_text_of(
    at: datetime, second: tuple[int, ...], prefix: str
) -> tuple[str, tuple[int, ...], str]:
    """``at.isoformat()``, and the UTC second it falls in with that second's text: commands
    stored within one second share the text up to the microseconds, so a caller that hands back
    the last ``second`` and ``prefix`` has only the microseconds written out."""
    micro = at.microsecond
    if micro and at.tzinfo is UTC:
        now_second = (at.year, at.month, at.day, at.hour, at.minute, at.second)
        if now_second != second:
            second, prefix = now_second, at.replace(microsecond=0).isoformat()[:-6]
        return f"{prefix}.{micro:06d}+00:00", second, prefix
    return at.isoformat(), second, prefix


class EventFeed:
    """Reads the public feed from ``store`` (facts cached by the query service)."""

    def __init__(self, store: TableStore, queries: TableQueries) -> None:
        self.store = store
        self.queries = queries

    def page(self, after: int, limit: int, wanted: FeedFilter | None = None) -> FeedPage:
        """Up to ``limit`` events released after position ``after`` that ``wanted`` admits,
        each with its ``release`` (the cursor). An unfiltered page reads on past positions
        that release nothing (a board table's, until its ``BoardReleased``) until it is full,
        held or at the log's end, so a page shorter than ``limit`` means the reader is up to
        date; a filtered page reads at most ``SCAN_FACTOR`` times ``limit`` positions."""
        wanted = wanted or FeedFilter()
        page = FeedPage(last=after)
        filtered = bool(wanted.game or wanted.type or wanted.table_id)
        budget = limit * SCAN_FACTOR if filtered else limit
        while True:
            start = page.last
            if self._fill(page, budget, limit, wanted) or filtered or page.last == start:
                return page

    def _fill(self, page: FeedPage, budget: int, limit: int, wanted: FeedFilter) -> bool:
        """Add to ``page`` the events released after ``page.last`` (``budget`` positions at
        most); whether it stopped full or held. A board table's release is never split."""
        full = False
        for step in self.walk(page.last, budget):
            if full and step.release != page.last:
                return True  # full, and not inside a board table's release (docstring)
            if step.shown is None:
                page.held = step.held
                if step.held:
                    return True
            elif wanted.admits(step.note, step.facts, step.shown["type"]):
                step.shown["release"] = step.release
                page.events.append(step.shown)
            page.last = step.release
            full = len(page.events) >= limit
        return full

    def walk(self, after: int, budget: int | None = None) -> Iterator[FeedStep]:
        """The events released after log position ``after`` (at most ``budget`` positions
        read), in release order, stopping before the first one spectators may not see yet (a
        table whose head moved on while the walk read: it is visible on the next read)."""
        tables: dict[UUID, TableNow] = {}
        chunks = self._chunks(after + 1, budget, self.store.notifications)
        return self._steps(self._releases(chunks, tables), tables, stop=True)

    def _releases(
        self, chunks: Iterator[Sequence[Notification]], tables: dict[UUID, TableNow]
    ) -> Iterator[tuple[Notification | None, Notification]]:
        """Each notification of ``chunks`` with the one it releases (``None``: none): itself
        at a table without ``spectator_delay``, else its table's event ``spectator_delay``
        versions before it — met earlier in the walk, or read from the store by version (one
        read per table and chunk)."""
        waiting: dict[UUID, dict[int, Notification]] = {}  # read, not released yet
        for chunk in chunks:
            self._fetch_released(chunk, tables, waiting)
            for note in chunk:
                facts = self._table(note, tables).facts
                if facts.withheld:  # a board table: all at its BoardReleased (docstring)
                    if shows(facts.withheld, releases(note.event)):
                        for found in self.store.table_notifications(note.table_id, 1, note.version):
                            yield found, note
                    else:
                        yield None, note
                    continue
                delay = facts.spectator_delay
                if not delay:
                    yield note, note
                    continue
                held = waiting.setdefault(note.table_id, {})
                held[note.version] = note
                yield held.pop(note.version - delay, None), note

    def _fetch_released(
        self,
        chunk: Sequence[Notification],
        tables: dict[UUID, TableNow],
        waiting: dict[UUID, dict[int, Notification]],
    ) -> None:
        """Read into ``waiting`` the events ``chunk`` releases that were stored before it."""
        wanted: dict[UUID, set[int]] = {}
        in_chunk: set[tuple[UUID, int]] = set()
        for note in chunk:
            facts = self._table(note, tables).facts
            delay = 0 if facts.withheld else facts.spectator_delay
            if delay:
                in_chunk.add((note.table_id, note.version))
                version = note.version - delay
                if (
                    version >= 1
                    and (note.table_id, version) not in in_chunk
                    and version not in waiting.get(note.table_id, ())
                ):
                    wanted.setdefault(note.table_id, set()).add(version)
        for table_id, versions in wanted.items():
            held = waiting.setdefault(table_id, {})
            for found in self.store.table_notifications(table_id, min(versions), max(versions)):
                if found.version in versions:
                    held[found.version] = found

    def _table(self, note: Notification, tables: dict[UUID, TableNow]) -> TableNow:
        """``note``'s table as the walk knows it, loaded again when ``note`` is newer."""
        table = tables.get(note.table_id)
        if table is None or note.version > table.version:
            table = self.table_now(note.table_id, tables)
        return table

    def walk_log(self) -> Iterator[FeedStep]:
        """Every event spectators may see now, by log position, for a reader of the whole log
        (an export): the events ``walk(0)`` releases, each at its own position, and a step
        (``shown`` ``None``) for each not released (yet, ``held``, or ever, the table having
        ended), passed over, holding back nothing after it. The log is read once, and
        what each table shows spectators is worked out from its own events in it, instead of
        loading every table from the store (a fold of all its events) when the walk meets it.

        A table's head is its last event, what it shows is the version each hand settled at
        (the event the game says settles it: a game answers by the event's class, so it is
        asked once per class, ``domain.game``), and it has ended when its last event is
        ``TableEnded``: the table kernel ends a table with that event alone, and no event
        follows it (``domain.table``) but a board table's ``BoardReleased``, which ends it as
        well and releases it (a board table not released shows nothing: ``shows``). A
        command's events are consecutive and the log reader hands out one id object per
        table, so a table is looked up only when it changes."""
        notes, tables = self.read_log(self.store.notifications)
        hidden = {
            table_id
            for table_id, table in tables.items()
            if not shows(table.facts.withheld, table.released)
        }
        pairs = ((None if note.table_id in hidden else note, note) for note in notes)
        return self._steps(pairs, tables, stop=False)

    def read_log(
        self, read: Callable[[int, int], Sequence[N]]
    ) -> tuple[list[N], dict[UUID, TableNow]]:
        """The whole log, read by ``read`` (start, limit: the store's ``notifications`` or
        alike) and, for each table opened in it, what it shows spectators (worked out from its
        own events: :meth:`walk_log`)."""
        notes: list[N] = []
        for chunk in self._chunks(1, None, read):
            notes += chunk
        tables: dict[UUID, TableNow] = {}
        heads: dict[UUID, N] = {}
        settling: dict[UUID, dict[int, int]] = {}  # table -> hand -> the version settling it
        table_id: UUID | None = None
        head: N | None = None
        settled: dict[int, int] = {}
        # game -> event class -> whether its events settle a hand (the game's ``settles_hand``
        # answers by the class: asked once per class, not once per event)
        settling_classes: dict[str, dict[type, bool]] = defaultdict(dict)
        ends_hand: dict[type, bool] = {}
        released: set[UUID] = set()  # board tables whose BoardReleased is in the log
        for note in notes:
            if note.table_id is not table_id and note.table_id != table_id:
                if head is not None:
                    heads[head.table_id] = head
                table_id = note.table_id
                now = tables.get(table_id)
                if now is None:
                    if not isinstance(note.event, TableOpened):
                        table_id = None  # not opened at position 1 on: cannot be, but ``walk``
                        head = None  # copes
                        continue
                    game = game_named(note.event.game)
                    facts = TableFacts.from_opened(game, note.event.options)
                    settling[table_id] = {}
                    now = tables[table_id] = TableNow(
                        facts, 0, settling[table_id], False, table_id, str(table_id)
                    )
                settled = settling[table_id]
                settles, hand_of = now.facts.game.settles_hand, now.facts.game.hand_of
                ends_hand = settling_classes[now.facts.game.name]
            event = note.event
            ends = ends_hand.get(event.__class__)
            if ends is None:
                ends = ends_hand[event.__class__] = settles(event)
            if ends:
                settled.setdefault(hand_of(event), note.version)  # the first settles it
            elif event.__class__ is BoardReleased:
                released.add(note.table_id)
            head = note
        if head is not None:
            heads[head.table_id] = head
        for table_id, note in heads.items():
            now = tables[table_id]
            now.version = note.version
            # (a board table's BoardReleased follows its TableEnded: design §10)
            now.ended = isinstance(note.event, TableEnded | BoardReleased)
            now.visible = now.facts.visible_version(None, now.version)
            now.released = table_id in released
        return notes, tables

    def _steps(
        self,
        releases: Iterator[tuple[Notification | None, Notification]],
        tables: dict[UUID, TableNow],
        *,
        stop: bool,
    ) -> Iterator[FeedStep]:
        """The steps of ``releases`` (each log position's notification and the one it
        releases); ``tables``: those already known; ``stop``: end before an event held back
        (the feed), or pass over it (an export)."""
        table: TableNow | None = None
        table_id: UUID | None = None
        last_at: datetime | None = None
        at_text = ""
        second: tuple[int, ...] = ()  # the UTC second ``prefix`` writes out
        prefix = ""
        step = tuple.__new__  # a FeedStep without its Python-level ``__new__`` (one per event)
        for released, releaser in releases:
            note = releaser if released is None else released
            # A command's events are consecutive: skip the lookup when the table repeats (the
            # store hands out one UUID object per table, so ``is`` mostly decides).
            if (
                table is None
                or (note.table_id is not table_id and note.table_id != table_id)
                or (note.version > table.visible and tables.get(note.table_id) is not table)
            ):  # (or the walk loaded the table again since)
                table_id = note.table_id
                table = tables.get(table_id) or self.table_now(table_id, tables)
                facts, hand_of, revealed = table.facts, table.facts.game.hand_of, table.revealed
            if released is None:
                yield FeedStep(note, facts, None, False, releaser.position)
                continue
            if note.version > table.visible:
                yield FeedStep(note, facts, None, not table.ended, releaser.position)
                if stop and not table.ended:
                    return
                continue  # an ended table's last events stay with it (spectator_delay)
            # The events of one command share their time: write it out once; and commands
            # stored within one second share ``isoformat``'s text up to the microseconds.
            at = note.at
            if last_at is None or at != last_at or at.tzinfo is not last_at.tzinfo:
                last_at = at
                at_text, second, prefix = at_text_of(at, second, prefix)
            hand = hand_of(note.event)
            shows = revealed.get(hand)
            if shows is None:
                shows = table.reveals(hand)
            shown = public_event(note, facts, shows, table.key, at_text)
            yield step(FeedStep, (note, facts, shown, False, releaser.position))

    def table_now(self, table_id: UUID, tables: dict[UUID, TableNow]) -> TableNow:
        """``table_id`` as of now, loaded from the store (a table the walk did not know)."""
        facts = self.queries.facts(table_id)
        loaded = self.store.get(table_id)
        version, hands = self.store.hands(table_id)
        ended = facts.game.seating(loaded.state).status == ENDED
        head = max(version, loaded.version)
        now = TableNow(facts, head, hands, ended, table_id, str(table_id))
        now.visible = facts.visible_version(None, head)
        tables[table_id] = now
        return now

    def _notifications(
        self, start: int, budget: int | None, read: Callable[[int, int], Sequence[N]]
    ) -> Iterator[N]:
        for chunk in self._chunks(start, budget, read):
            yield from chunk

    def _chunks(
        self, start: int, budget: int | None, read: Callable[[int, int], Sequence[N]]
    ) -> Iterator[Sequence[N]]:
        """The notifications from ``start`` (at most ``budget``) as ``read`` hands them out."""
        count = 0
        while budget is None or count < budget:
            size = READ_CHUNK if budget is None else min(READ_CHUNK, budget - count)
            chunk = read(start, size)
            if not chunk:
                return
            yield chunk
            count += len(chunk)
            start = chunk[-1].position + 1
