"""The export's read of the log (``cardroom export``, ``docs/analytics.md``): the ``events``
dataset built as columns, and each table's public events folded into its
:class:`~infra.handrows.TableSummary`, in one pass over the public feed
(:meth:`infra.feed.EventFeed.read_log`).

It shows exactly what the feed's ``walk_log`` shows — every event spectators may see now, in
store order; a table's last ``spectator_delay`` events are passed over (released later, or,
the table having ended, never) and hold back no other event; a hand's
hidden cards show once it has settled within what spectators see and the table's ``reveal``
allows it — but decides how to redact once per event class rather than per event
(:class:`EventPlan`): a game's visibility module names the classes its ``redact`` changes for
spectators (``spectator_redacted(revealed)``, design §5), and every other event a spectator
sees as stored. Such an event's public JSON is its own msgspec encoding behind the feed's keys
(no dict of its fields built, the encoding spliced after its ``type``), and when a summary
reads it (:func:`infra.handrows.reads`) its fields are its builtins (``msgspec.to_builtins``,
what that encoding holds); the others, and every event of a game that names no plan, go
through the feed's :func:`~infra.feed.public_event`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import compress
from operator import not_
from typing import Any, get_args

import msgspec
import msgspec.inspect
from eventsourcing.persistence import PersistenceError

from domain.game import Game
from domain.table.fork import TableForked
from domain.tournament.embargo import shows
from infra.feed import EventFeed, TableNow, public_event
from infra.handrows import Hand, TableSummary, reads
from infra.logread import LogReader, TextNotification
from infra.queries import TableQueries
from infra.store import StoreUnavailable, TableStore
from infra.visibility import SECRET_KEYS

SHOWN, UNTIL_REVEALED, REDACTED = 0, 1, 2  # how a spectator sees an event class

# The feed's own keys: an event with a field of one of these names goes through
# ``public_event`` (which keeps the feed's key where it stands).
_FEED_KEYS = frozenset({"position", "tableId", "game", "version", "type", "at"})

_encoder = msgspec.json.Encoder()
_encode, _encode_lines = _encoder.encode, _encoder.encode_lines
_to_builtins = msgspec.to_builtins


@dataclass(frozen=True, slots=True)
class EventPlan:
    """How the export shows the events of one class of one game."""

    seen: int  # SHOWN, UNTIL_REVEALED (shown as stored once revealed) or REDACTED
    kind: str = ""  # its ``type``
    hand: str | None = None  # the attribute of its ``hand`` field, if it has one
    seat: str | None = None  # the attribute of its ``seat`` field, if it has one


_REDACTED = EventPlan(REDACTED)


def plans_of(game: Game[Any, Any, Any]) -> dict[type, EventPlan]:
    """``game``'s event classes and how a spectator sees each (all ``REDACTED`` when the
    game's visibility module names no ``spectator_redacted``)."""
    planner = getattr(game.visibility, "spectator_redacted", None)
    if planner is None:
        return {}
    always, until = set(planner(True)), set(planner(False))
    always.add(TableForked)  # a fork's start holds its whole state: its redaction shows none
    classes = get_args(game.event_type) or (game.event_type,)
    return {
        cls: _REDACTED if cls in always else _plan(cls, UNTIL_REVEALED if cls in until else SHOWN)
        for cls in classes
        if isinstance(cls, type)
    }


def _plan(cls: type, seen: int) -> EventPlan:
    config = getattr(cls, "__struct_config__", None)
    names = getattr(cls, "__struct_encode_fields__", None)
    fields = getattr(cls, "__struct_fields__", None)
    if config is None or names is None or fields is None or config.tag_field != "type":
        return _REDACTED
    if not isinstance(config.tag, str) or not (_FEED_KEYS | SECRET_KEYS).isdisjoint(names):
        return _REDACTED
    attributes = dict(zip(names, fields, strict=True))
    if attributes.get("hand", "hand") != "hand" or ("hand" in fields) != ("hand" in names):
        return _REDACTED  # its ``hand`` column is not the hand it belongs to
    if _json(config.tag) != f'"{config.tag}"':
        return _REDACTED  # a ``type`` JSON writes escaped
    seat = attributes.get("seat")
    if seat is not None and not _holds_int(cls, seat):
        seat = None  # the ``seat`` column holds seat numbers only
    return EventPlan(seen, config.tag, attributes.get("hand"), seat)


@cache
def _holds_int(cls: type, attribute: str) -> bool:
    """Whether the struct field ``attribute`` of ``cls`` holds an integer (or nothing);
    remembered (``type_info`` is slow beside an export of a few thousand events)."""
    info = msgspec.inspect.type_info(cls)
    kind = next(f.type for f in getattr(info, "fields", ()) if f.name == attribute)
    kinds = kind.types if isinstance(kind, msgspec.inspect.UnionType) else (kind,)
    return all(isinstance(k, msgspec.inspect.IntType | msgspec.inspect.NoneType) for k in kinds)


# One ``events`` row as the read makes it: position, table id, version, type, time, hand, seat,
# the public event as JSON text (``None`` when shown as stored) and the stored event.
Row = tuple[int, str, int, str, str, int | None, int | None, str | None, Any]


@dataclass
class EventColumns:
    """One game's ``events`` rows as columns. ``data`` holds each row's public event as JSON
    text, or ``None`` for an event shown as stored: those are kept in ``stored`` (in row order)
    and written out together (:meth:`data_texts`, :meth:`data_array`)."""

    game: str
    position: list[int] = field(default_factory=list)
    table_id: list[str] = field(default_factory=list)
    version: list[int] = field(default_factory=list)
    type: list[str] = field(default_factory=list)
    at: list[str] = field(default_factory=list)
    hand: list[int | None] = field(default_factory=list)
    seat: list[int | None] = field(default_factory=list)
    data: list[str | None] = field(default_factory=list)
    stored: list[Any] = field(default_factory=list)

    @classmethod
    def of_rows(cls, game: str, rows: list[Row]) -> EventColumns:
        """The columns of ``rows``, each a :data:`Row` (its event last, kept in ``stored``
        when the row has no ``data`` text): the read makes one tuple per event, turned into
        columns here at once."""
        if not rows:
            return cls(game)
        columns = map(list, zip(*rows, strict=True))
        position, table_id, version, kind, at, hand, seat, data, events = columns
        stored = list(compress(events, map(not_, data)))  # the events of the rows without text
        return cls(game, position, table_id, version, kind, at, hand, seat, data, stored)

    def __len__(self) -> int:
        return len(self.position)

    def data_texts(self) -> list[str]:
        """Each row's public event as JSON text, one row at a time."""
        stored = iter(self.stored)
        game = _json(self.game)
        texts: list[str] = []
        for row, text in enumerate(self.data):
            if text is None:
                event = next(stored)
                head = (
                    f'{{"position":{self.position[row]},"tableId":"{self.table_id[row]}",'
                    f'"game":{game},"version":{self.version[row]},"type":"{self.type[row]}",'
                    f'"at":"{self.at[row]}"'
                )
                encoded = _encode(event).decode()
                cut = len(self.type[row]) + 10  # ``{"type":"Kind"``
                if encoded.startswith(f'{{"type":"{self.type[row]}"'):
                    text = head + encoded[cut:]
                else:  # not msgspec's usual layout: the public fields after the feed's keys
                    shown = {
                        "position": self.position[row], "tableId": self.table_id[row],
                        "game": self.game, "version": self.version[row],
                        "type": self.type[row], "at": self.at[row],
                    }  # fmt: skip
                    shown.update(msgspec.to_builtins(event))
                    text = _encode(shown).decode()
            texts.append(text)
        return texts

    def ndjson(self) -> bytes:
        """The rows' public events, one JSON object a line."""
        texts = self.data_texts()
        return ("\n".join(texts) + "\n").encode() if texts else b""

    def data_array(self, columns: dict[str, Any]) -> Any:
        """The ``data`` column as an Arrow string array, given the other columns as Arrow
        arrays: the events shown as stored are encoded in one msgspec call, cut after their
        ``type`` and headed by the feed's keys by Arrow, all rows at once (:meth:`data_texts`
        when an encoding is not laid out as expected)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        data = pa.array(self.data, pa.string())
        if not self.stored:
            return data
        stored = pc.is_null(data)
        rows = pc.indices_nonzero(stored)
        text = pa.array([_encode_lines(self.stored)], pa.large_binary()).cast(pa.large_string())
        lines = pc.split_pattern(text, "\n").flatten()[:-1].cast(pa.string())
        # ``{"type":"Kind",...}`` split at its first four quotes: ``{``, ``type``, ``:``,
        # ``Kind`` and the rest, from the comma before its next field (or its ``}``)
        parts = pc.split_pattern(lines, '"', max_splits=4)
        kinds = columns["type"].take(rows)
        try:
            laid_out = (
                pc.all(pc.starts_with(lines, '{"type":"')).as_py()
                and pc.all(pc.equal(pc.list_element(parts, 3), kinds)).as_py()
            )
            rest = pc.list_element(parts, 4)
        except pa.ArrowInvalid:  # fewer than four quotes
            laid_out = False
        if not laid_out:
            return pa.array(self.data_texts(), pa.string())
        text_of = pa.string()

        def constant(text: str) -> Any:  # an array: Arrow joins arrays faster than scalars
            return pa.repeat(pa.scalar(text, text_of), len(rows))

        headed = pc.binary_join_element_wise(
            constant('{"position":'), columns["position"].take(rows).cast(text_of),
            constant(',"tableId":"'), columns["table_id"].take(rows),
            constant(f'","game":{_json(self.game)},"version":'),
            columns["version"].take(rows).cast(text_of),
            constant(',"type":"'), kinds, constant('","at":"'), columns["at"].take(rows),
            constant('"'), rest, constant(""),
        )  # fmt: skip
        return pc.replace_with_mask(data, stored, headed)


@dataclass
class LogRead:
    """What one pass over the log gave: each wanted game's events, each table's summary."""

    events: dict[str, EventColumns]
    summaries: dict[str, TableSummary] = field(default_factory=dict)
    read: int = 0  # notifications met, as the feed's walk counts its steps


def read_events(
    store: TableStore, wanted: list[str], admits: Callable[[str], bool] | None
) -> LogRead:
    """The events of ``wanted`` games a spectator may see, as columns (those stored at a time
    ``admits``, all without it), and every such table's summary (of all its public events).

    The loop is the export's hot path: each table's facts are looked up when the table changes
    (a command's events are consecutive), a hand's reveal is asked only of an event whose class
    hides something until then, and only the events a summary reads, or that settle a hand,
    are handed to :meth:`TableSummary.fold`; the others count their command in place."""
    feed = EventFeed(store, TableQueries(store))
    notes, tables = feed.read_log(_text_reader(store))
    found = LogRead({})
    summaries = found.summaries
    rows: dict[str, list[Row]] = {name: [] for name in wanted}
    plans: dict[str, dict[type, EventPlan]] = {}
    settling_versions: dict[str, frozenset[int]] = {}
    read = 0
    table: TableNow | None = None
    summary: TableSummary | None = None
    table_id: Any = None
    keep = False
    last_at: str | None = None
    hand: Hand | None = None
    for note in notes:
        read += 1
        position, note_table, version, at, event = note
        if table is None or (note_table is not table_id and note_table != table_id):
            if summary is not None:
                summary.last_at = last_at
                summary = None
            table_id = note_table
            table = tables.get(table_id) or feed.table_now(table_id, tables)
            facts, visible, game = table.facts, table.visible, table.facts.game
            revealed = table.revealed
            # a tournament's board table only once released (design §10: the one gate)
            keep = game.name in wanted and shows(facts.withheld, table.released)
            if keep:
                key = table.key
                summary = summaries.get(key)
                if summary is None:
                    summary = summaries[key] = TableSummary(key, game.name)
                last_at, hands, fold = summary.last_at, summary.hands, summary.fold
                hand_no = -1
                add_row = rows[game.name].append
                game_plans = plans.get(game.name)
                if game_plans is None:
                    game_plans = plans[game.name] = plans_of(game)
                plan_of = game_plans.get
                summary_reads = reads(game.name)
                # the versions that settled a hand, as the log showed them (else: ask the game)
                settled_at = settling_versions.get(key)
                if settled_at is None and isinstance(table.hands, dict):
                    settled_at = settling_versions[key] = frozenset(table.hands.values())
                settles = game.settles_hand
        if version > visible:
            continue  # not released yet, or never (an ended table's last events)
        if not keep:
            continue
        plan = plan_of(type(event)) or _REDACTED
        event_hand = getattr(event, "hand", 0) if plan.hand is None else getattr(event, plan.hand)
        shown: dict[str, Any] | None = None
        seen = plan.seen
        if seen == SHOWN or (
            seen == UNTIL_REVEALED and (revealed.get(event_hand) or table.reveals(event_hand))
        ):
            data = None  # shown as stored: written out with the others (EventColumns)
            kind = plan.kind
            seat = getattr(event, plan.seat) if plan.seat else None
            summary_read = kind in summary_reads
            if summary_read:  # its public fields are its own: no redaction to run
                shown = _to_builtins(event)
            column_hand = event_hand if plan.hand else None
        else:
            shown = public_event(note, facts, table.reveals(event_hand), key, at)
            data = _encode(shown).decode()
            kind = shown["type"]
            column_hand = shown.get("hand")
            seat = shown.get("seat")
            if not isinstance(seat, int):
                seat = None  # the ``seat`` column holds seat numbers only
            summary_read = kind in summary_reads
        # the summary: a new command starts where the time changes
        new_command = at != last_at
        last_at = at
        settled = settles(event) if settled_at is None else version in settled_at
        if settled or summary_read:
            hand = fold(kind, event_hand, at, shown if summary_read else None, settled, new_command)
            hand_no = event_hand if hand is not None else 0
        elif event_hand:
            if event_hand != hand_no:
                hand = hands.get(event_hand) or fold(kind, event_hand, at, None, False, False)
                hand_no = event_hand
            if new_command and hand is not None:
                hand.commands += 1
        if admits is None or admits(at):
            add_row((position, key, version, kind, at, column_hand, seat, data, event))
    if summary is not None:
        summary.last_at = last_at
    found.read = read
    found.events = {name: EventColumns.of_rows(name, rows[name]) for name in wanted}
    return found


def _text_reader(store: TableStore) -> Callable[[int, int], list[TextNotification]]:
    """The store's log read with each time as text (:mod:`infra.logread`), a failure of the
    store raised as the store raises it."""
    reader = LogReader(store.app)

    def read(start: int, limit: int) -> list[TextNotification]:
        try:
            return reader.notifications_at_text(start, limit)
        except PersistenceError as error:
            raise StoreUnavailable(f"the event store did not answer: {error}") from error

    return read


def _json(text: str) -> str:
    return _encode(text).decode()
