"""The export's read of the log (``cardroom export``, ``docs/analytics.md``): the ``events``
dataset built as columns, and each table's public events folded into its
:class:`~infra.handrows.TableSummary`, in one pass over the public feed
(:meth:`infra.feed.EventFeed.read_log`).

It shows exactly what the feed's ``walk_log`` shows — an event spectators may not see yet
ends the export before it, an ended table keeps its last ``spectator_delay`` events, a hand's
hidden cards show once it has settled within what spectators see and the table's ``reveal``
allows it — but decides how to redact once per event class rather than per event
(:class:`EventPlan`): a game's visibility module names the classes its ``redact`` changes for
spectators (``spectator_redacted(revealed)``, design §5), and every other event a spectator
sees as stored. Such an event's public JSON is its own msgspec encoding behind the feed's keys
(no dict of its fields built, the encoding spliced after its ``type``); the others, and every
event of a game that names no plan, go through the feed's :func:`~infra.feed.public_event`, as
do the few events a summary reads (:func:`infra.handrows.reads`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, get_args

import msgspec

from domain.game import Game
from infra.feed import EventFeed, TableNow, at_text_of, public_event
from infra.handrows import TableSummary, reads
from infra.visibility import SECRET_KEYS

SHOWN, UNTIL_REVEALED, REDACTED = 0, 1, 2  # how a spectator sees an event class

# The feed's own keys: an event with a field of one of these names goes through
# ``public_event`` (which keeps the feed's key where it stands).
_FEED_KEYS = frozenset({"position", "tableId", "game", "version", "type", "at"})

_encode = msgspec.json.Encoder().encode


@dataclass(frozen=True, slots=True)
class EventPlan:
    """How the export shows the events of one class of one game."""

    seen: int  # SHOWN, UNTIL_REVEALED (shown as stored once revealed) or REDACTED
    kind: str = ""  # its ``type``
    kind_json: str = ""  # its ``type`` as JSON text
    head: bytes = b""  # what its encoding starts with: ``{"type":"Kind"``
    hand: str | None = None  # the attribute of its ``hand`` field, if it has one
    seat: str | None = None  # the attribute of its ``seat`` field, if it has one


_REDACTED = EventPlan(REDACTED)


def plans_of(game: Game[Any, Any, Any]) -> dict[type, EventPlan]:
    """``game``'s event classes and how a spectator sees each (all ``REDACTED`` when the
    game's visibility module names no ``spectator_redacted``)."""
    planner = getattr(sys.modules.get(game.redact.__module__), "spectator_redacted", None)
    if planner is None:
        return {}
    always, until = set(planner(True)), set(planner(False))
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
    kind = _json(config.tag)
    return EventPlan(
        seen,
        config.tag,
        kind,
        b'{"type":' + kind.encode(),
        attributes.get("hand"),
        attributes.get("seat"),
    )


@dataclass
class EventColumns:
    """One game's ``events`` rows as columns (``data``: each row's public event as JSON)."""

    position: list[int] = field(default_factory=list)
    table_id: list[str] = field(default_factory=list)
    version: list[int] = field(default_factory=list)
    type: list[str] = field(default_factory=list)
    at: list[str] = field(default_factory=list)
    hand: list[int | None] = field(default_factory=list)
    seat: list[int | None] = field(default_factory=list)
    data: list[str] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.position)

    def ndjson(self) -> bytes:
        """The rows' public events, one JSON object a line."""
        return ("\n".join(self.data) + "\n").encode() if self.data else b""


@dataclass
class LogRead:
    """What one pass over the log gave: each wanted game's events, each table's summary."""

    events: dict[str, EventColumns]
    summaries: dict[str, TableSummary] = field(default_factory=dict)
    read: int = 0  # notifications met, as the feed's walk counts its steps


def read_events(
    feed: EventFeed, wanted: list[str], admits: Callable[[str], bool] | None
) -> LogRead:
    """The events of ``wanted`` games a spectator may see, as columns (those stored at a time
    ``admits``, all without it), and every such table's summary (of all its public events)."""
    notes, tables = feed.read_log()
    found = LogRead({name: EventColumns() for name in wanted})
    summaries = found.summaries
    plans: dict[str, dict[type, EventPlan]] = {}
    read = 0
    table: TableNow | None = None
    table_id: Any = None
    last_at: datetime | None = None
    at_text, prefix = "", ""
    second: tuple[int, ...] = ()
    keep = False
    for note in notes:
        read += 1
        if table is None or (note.table_id is not table_id and note.table_id != table_id):
            table_id = note.table_id
            table = tables.get(table_id) or feed.table_now(table_id, tables)
            facts, revealed, visible = table.facts, table.revealed, table.visible
            game = facts.game
            keep = game.name in wanted
            if keep:
                settles = game.settles_hand
                table_key = table.key
                summary = summaries.get(table_key)
                if summary is None:
                    summary = summaries[table_key] = TableSummary(table_key, game.name)
                add = summary.add
                columns = found.events[game.name]
                game_plans = plans.get(game.name)
                if game_plans is None:
                    game_plans = plans[game.name] = plans_of(game)
                plan_of = game_plans.get
                summary_reads = reads(game.name)
                game_json = _json(game.name)
                hand_of = game.hand_of
        if note.version > visible:
            if not table.ended:
                break  # held: the feed stops before it
            continue  # an ended table's last events stay with it (spectator_delay)
        if not keep:
            continue
        at = note.at
        if last_at is None or at != last_at or at.tzinfo is not last_at.tzinfo:
            last_at = at
            at_text, second, prefix = at_text_of(at, second, prefix)
        event = note.event
        plan = plan_of(type(event)) or _REDACTED
        hand_no = hand_of(event)
        shows = revealed.get(hand_no)
        if shows is None:
            shows = table.reveals(hand_no)
        seen = plan.seen
        shown: dict[str, Any] | None = None
        if seen == SHOWN or (seen == UNTIL_REVEALED and shows):
            encoded = _encode(event)
            if not encoded.startswith(plan.head):  # not msgspec's usual layout: the feed's way
                shown = public_event(note, facts, shows, table_key, at_text)
                data = _encode(shown).decode()
            else:
                data = (
                    f'{{"position":{note.position},"tableId":"{table_key}","game":{game_json},'
                    f'"version":{note.version},"type":{plan.kind_json},"at":"{at_text}"'
                    f"{encoded[len(plan.head) :].decode()}"
                )
            kind = plan.kind
            hand = getattr(event, plan.hand) if plan.hand else None
            seat = getattr(event, plan.seat) if plan.seat else None
            if kind in summary_reads and shown is None:
                shown = public_event(note, facts, shows, table_key, at_text)
        else:
            shown = public_event(note, facts, shows, table_key, at_text)
            data = _encode(shown).decode()
            kind = shown["type"]
            hand = shown.get("hand")
            seat = shown.get("seat")
        add(kind, hand_no, at_text, shown if kind in summary_reads else None, settles(event))
        if admits is None or admits(at_text):
            columns.position.append(note.position)
            columns.table_id.append(table_key)
            columns.version.append(note.version)
            columns.type.append(kind)
            columns.at.append(at_text)
            columns.hand.append(hand)
            columns.seat.append(seat if isinstance(seat, int) else None)
            columns.data.append(data)
    found.read = read
    return found


def _json(text: str) -> str:
    return _encode(text).decode()
