"""The export's shortcuts show exactly what the feed shows (design §5, §8): the redaction plan
a game names (``spectator_redacted``) agrees with its ``redact``, the export's ``events`` are
the feed's public events byte for byte — for ended tables and live ones, with and without
``spectator_delay``, revealing hands or never — and the log read with its times as text gives
each time as ``isoformat`` writes it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import msgspec
import pytest

from domain.games import game_named
from infra.export import export
from infra.exportevents import REDACTED, SHOWN, UNTIL_REVEALED, plans_of
from infra.feed import EventFeed
from infra.logread import LogReader, feed_text
from infra.queries import TableQueries
from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore
from tests.integration.test_feed_walk_log import play_some


@pytest.fixture(scope="module")
def mixed_store(tmp_path_factory: pytest.TempPathFactory) -> Settings:
    """Tables of both games, ended and live, delayed or not, revealing hands or never (no
    table holds the feed back, so the whole log is walked)."""
    where = tmp_path_factory.mktemp("plan")
    settings = Settings(event_store=f"sqlite:///{where}/events.db", var_dir=where)
    with TableStore(settings) as store:
        play_table(store, "bourre", 3, 1, options={"seats": 4, "spectator_delay": 3})
        play_table(store, "burraco", 1, 2, options={"reveal": "never"})
        play_some(store, "bourre", {"seats": 3, "reveal": "never"}, 40, 3)
        play_table(store, "bourre", 2, 4, options={"seats": 5})
        play_table(store, "burraco", 2, 7, options={"seats": 4, "spectator_delay": 5})
        play_some(store, "burraco", {"seats": 4}, 60, 5)
        play_some(store, "bourre", {"seats": 5}, 25, 6)
    return settings


def test_a_game_shows_spectators_every_event_its_plan_leaves_alone_as_stored(
    mixed_store: Settings,
) -> None:
    seen: dict[str, set[int]] = {"bourre": set(), "burraco": set()}
    with TableStore(mixed_store) as store:
        notes = store.notifications(1, 1_000_000)
        games = {n.table_id: game_named(n.event.game) for n in notes if n.version == 1}
        for note in notes:
            game = games[note.table_id]
            plan = plans_of(game)[type(note.event)]
            seen[game.name].add(plan.seen)
            stored = msgspec.to_builtins(note.event)
            if plan.seen == SHOWN:
                assert game.redact(note.event, None, False) == stored, note
            if plan.seen in (SHOWN, UNTIL_REVEALED):
                assert game.redact(note.event, None, True) == stored, note
    assert all(kinds == {SHOWN, UNTIL_REVEALED, REDACTED} for kinds in seen.values())


def test_a_game_answers_whether_an_event_settles_its_hand_by_the_event_class(
    mixed_store: Settings,
) -> None:
    answers: dict[tuple[str, type], set[bool]] = {}
    with TableStore(mixed_store) as store:
        notes = store.notifications(1, 1_000_000)
        games = {n.table_id: game_named(n.event.game) for n in notes if n.version == 1}
        for note in notes:
            game = games[note.table_id]
            key = (game.name, type(note.event))
            answers.setdefault(key, set()).add(game.settles_hand(note.event))
    assert all(len(answer) == 1 for answer in answers.values()), answers
    assert {name for (name, _), answer in answers.items() if answer == {True}} == {
        "bourre",
        "burraco",
    }


def test_the_exported_events_are_the_feed_byte_for_byte(
    mixed_store: Settings, tmp_path: Path
) -> None:
    with TableStore(mixed_store) as store:
        steps = list(EventFeed(store, TableQueries(store)).walk_log())
        report = export(store, tmp_path, "ndjson")
    assert report.events_read == len(steps)
    encode = msgspec.json.Encoder().encode_lines
    for game in ("bourre", "burraco"):
        shown = [s.shown for s in steps if s.shown is not None and s.facts.game.name == game]
        written = (tmp_path / "events" / f"game={game}" / "data.ndjson").read_bytes()
        assert len(shown) > 100
        assert written == encode(shown)


def test_the_log_read_with_times_as_text_is_the_log(mixed_store: Settings) -> None:
    with TableStore(mixed_store) as store:
        notes = store.notifications(1, 1_000_000)
        texts = LogReader(store.app).notifications_at_text(1, 1_000_000)
    assert [(n.position, n.table_id, n.version, n.at.isoformat(), n.event) for n in notes] == [
        tuple(t) for t in texts
    ]


@pytest.mark.parametrize(
    "moment",
    [
        datetime(2026, 12, 1, 10, 0, 0, 123456, tzinfo=UTC),
        datetime(2026, 12, 1, 10, 0, 0, tzinfo=UTC),
        datetime(2026, 12, 1, 10, 0, 0, 1, tzinfo=UTC),
        datetime(2026, 12, 1, 10, 0, 0, 5, tzinfo=timezone(timedelta(hours=2))),
    ],
)
def test_a_stored_time_is_written_as_isoformat_writes_it(moment: datetime) -> None:
    stored = msgspec.json.decode(msgspec.json.encode(moment))
    assert (
        feed_text(stored)
        == msgspec.json.decode(msgspec.json.encode(moment), type=datetime).isoformat()
    )


def test_events_shown_as_stored_are_headed_by_the_feed_keys_among_redacted_ones() -> None:
    from domain.bourre.events import CardPlayed
    from infra.exportevents import EventColumns

    columns = EventColumns("bourre")
    at = "2026-12-01T10:00:00.000001+00:00"
    rows = [
        (1, "t1", 5, "CardPlayed", CardPlayed(hand=1, seat=2, card="QH"), None),
        (2, "t1", 6, "Dealt", None, '{"position":2,"type":"Dealt","hand":2}'),  # redacted
        (3, "t1", 7, "CardPlayed", {"seat": 0, "type": "CardPlayed", "card": "AS"}, None),
    ]
    for position, table, version, kind, event, text in rows:
        columns.position.append(position)
        columns.table_id.append(table)
        columns.version.append(version)
        columns.type.append(kind)
        columns.at.append(at)
        columns.data.append(text)
        if text is None:
            columns.stored.append(event)
    head = '"tableId":"t1","game":"bourre"'
    assert columns.data_texts() == [
        f'{{"position":1,{head},"version":5,"type":"CardPlayed","at":"{at}",'
        '"hand":1,"seat":2,"card":"QH"}',
        '{"position":2,"type":"Dealt","hand":2}',
        # not laid out with its type first: the feed's keys, then its other fields
        f'{{"position":3,{head},"version":7,"type":"CardPlayed","at":"{at}","seat":0,"card":"AS"}}',
    ]
    assert columns.ndjson() == ("\n".join(columns.data_texts()) + "\n").encode()
