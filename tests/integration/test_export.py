"""Design §8 exports: a seeded simulation of both games exported, loaded in DuckDB, and the
questions of ``docs/analytics.md`` — read from the document itself, so the two cannot drift —
answered as the ledgers and the stored events say; exports are reproducible and an empty
store gives every dataset with its schema."""

from __future__ import annotations

import itertools
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

import duckdb
import pytest

from domain.games import game_names
from infra.export import DATASETS, SCHEMAS, ExportError, export
from infra.simulate import play_table
from infra.store import TableStore
from projections.ledger import Ledger

DOC = Path(__file__).parents[2] / "docs" / "analytics.md"
BLOCK = re.compile(r"```sql\n(.*?)```", re.S)


def documented_sql() -> tuple[list[str], dict[str, str]]:
    """The document's set-up statements and its questions by name."""
    setup: list[str] = []
    questions: dict[str, str] = {}
    for block in BLOCK.findall(DOC.read_text()):
        named = re.match(r"-- question: (\w+)\n", block)
        if named:
            questions[named.group(1)] = block[named.end() :]
        else:
            setup += [line for line in block.splitlines() if line.startswith("CREATE VIEW")]
    return setup, questions


def load(out: Path) -> duckdb.DuckDBPyConnection:
    db = duckdb.connect()
    setup, _ = documented_sql()
    for statement in setup:
        if not any(f"VIEW {dataset} AS" in statement for dataset in DATASETS):
            continue  # the accounts dataset: tests/integration/test_export_accounts.py
        db.execute(statement.replace("'export/", f"'{out}/"))
    return db


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Bourré at 2, 4 and 7 seats, Burraco heads-up and in partnerships; fixed seeds."""
    from infra.settings import Settings

    tmp = tmp_path_factory.mktemp("export")
    settings = Settings(event_store=f"sqlite:///{tmp}/events.db", var_dir=tmp / "var")
    with TableStore(settings) as store:
        played = {}  # table -> the commands played after the seats were taken
        for game, seats, hands, seed in [
            ("bourre", 2, 8, 1), ("bourre", 4, 8, 2), ("bourre", 7, 8, 3), ("bourre", 4, 8, 4),
            ("burraco", 2, 3, 5), ("burraco", 4, 3, 6),
        ]:  # fmt: skip
            # one table seats two kinds of bot, so the export tells them apart (bot_net)
            bots = ("basic", "random") if seed == 4 else ("random",)
            report = play_table(store, game, hands, seed, options={"seats": seats}, bots=bots)
            played[str(report.table_ids[0])] = report.commands - seats
        export(store, tmp / "parquet", "parquet")
        yield store, tmp, played


def raw_tables(store: TableStore, game: str) -> dict[Any, list[Any]]:
    tables: dict[Any, list[Any]] = defaultdict(list)
    for note in store.notifications(1, 1_000_000):
        tables[note.table_id].append(note.event)
    return {t: events for t, events in tables.items() if events[0].game == game}


def ask(out: Path, question: str) -> list[tuple[Any, ...]]:
    _, questions = documented_sql()
    return load(out).execute(questions[question]).fetchall()


def test_the_document_asks_five_questions() -> None:
    setup, questions = documented_sql()
    assert len(setup) == 4
    assert set(questions) == {
        "first_declarer_wins", "pot_growth", "clean_burraco_rate", "bot_net", "accounts_by_kind"
    }  # fmt: skip


def test_first_declarer_wins_as_the_events_say(simulated: Any) -> None:
    store, tmp, _ = simulated
    counts: dict[int, list[int]] = defaultdict(lambda: [0, 0])  # seats -> [hands, wins]
    for events in raw_tables(store, "bourre").values():
        seats = events[0].options["seats"]
        first: dict[int, int] = {}
        for event in events:
            kind = type(event).__name__
            if kind == "Declared":
                first.setdefault(event.hand, event.seat)
            elif kind == "HandSettled" and event.hand in first:
                counts[seats][0] += 1
                counts[seats][1] += int(event.winner == first[event.hand])
    answer = ask(tmp / "parquet", "first_declarer_wins")
    assert [(s, n) for s, n, _ in answer] == [(s, counts[s][0]) for s in sorted(counts)]
    for seats, _, rate in answer:
        assert rate == pytest.approx(counts[seats][1] / counts[seats][0])
    assert sorted(counts) == [2, 4, 7]


def test_pot_growth_as_the_ledgers_say(simulated: Any) -> None:
    store, tmp, _ = simulated
    growths = []
    for table_id in raw_tables(store, "bourre"):
        loaded = store.get(table_id)
        pots = [line["pot"] for line in Ledger.shape(loaded.game, loaded.state)["hands"]]
        growths += [after - before for before, after in itertools.pairwise(pots)]
    [(growth,)] = ask(tmp / "parquet", "pot_growth")
    assert float(growth) == pytest.approx(sum(growths) / len(growths))


def test_clean_burraco_rate_as_the_events_say(simulated: Any) -> None:
    store, tmp, _ = simulated
    scored = [
        event
        for events in raw_tables(store, "burraco").values()
        for event in events
        if type(event).__name__ == "HandScored"
    ]
    clean = sum(1 for event in scored if sum(s.clean_burracos for s in event.scores) > 0)
    [(rate,)] = ask(tmp / "parquet", "clean_burraco_rate")
    assert len(scored) >= 6
    assert rate == pytest.approx(clean / len(scored))


def test_net_per_hand_as_the_ledgers_say(simulated: Any) -> None:
    store, tmp, _ = simulated
    net: dict[str, int] = defaultdict(int)
    seat_hands: dict[str, int] = defaultdict(int)
    for table_id, events in raw_tables(store, "bourre").items():
        # a simulated seat's PlayerSeated names its bot kind
        kinds = {e.seat: e.bot for e in events if type(e).__name__ == "PlayerSeated"}
        loaded = store.get(table_id)
        ledger = Ledger.shape(loaded.game, loaded.state)
        for player in ledger["players"]:
            net[kinds[player["seat"]]] += player["net"]
            seat_hands[kinds[player["seat"]]] += len(ledger["hands"])
    assert sorted(net) == ["basic", "random"]
    assert ask(tmp / "parquet", "bot_net") == [
        (kind, seat_hands[kind], pytest.approx(net[kind] / seat_hands[kind]))
        for kind in sorted(net)
    ]


def test_every_command_played_counts_for_the_hand_it_began_in(simulated: Any) -> None:
    _, tmp, played = simulated
    rows = (
        load(tmp / "parquet")
        .execute("SELECT table_id, sum(commands) FROM hands GROUP BY table_id")
        .fetchall()
    )
    assert dict(rows) == played


def test_the_same_store_gives_byte_identical_files(simulated: Any) -> None:
    store, tmp, _ = simulated
    for fmt in ("parquet", "ndjson"):
        first, second = tmp / f"{fmt}-1", tmp / f"{fmt}-2"
        export(store, first, fmt)
        export(store, second, fmt)
        files = sorted(p.relative_to(first) for p in first.rglob("data.*"))
        assert len(files) == len(DATASETS) * len(game_names())  # a partition per game
        for name in files:
            assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_events_are_the_feed_and_hands_follow_the_ledgers(simulated: Any) -> None:
    store, tmp, _ = simulated
    db = load(tmp / "parquet")
    rows = db.execute("SELECT position FROM events ORDER BY position").fetchall()
    positions = [row[0] for row in rows]
    assert positions == [n.position for n in store.notifications(1, 1_000_000)]
    leaked = db.execute("SELECT count(*) FROM events WHERE data->>'seed' IS NOT NULL").fetchone()
    assert leaked == (0,)
    ledger_hands = 0
    for table_id in raw_tables(store, "bourre"):
        loaded = store.get(table_id)
        ledger_hands += len(Ledger.shape(loaded.game, loaded.state)["hands"])
    [(exported,)] = db.execute("SELECT count(*) FROM hands WHERE game = 'bourre'").fetchall()
    assert exported == ledger_hands


def test_a_game_and_a_window_narrow_the_export(simulated: Any) -> None:
    store, tmp, _ = simulated
    export(store, tmp / "burraco", "ndjson", game="burraco")
    assert {p.parent.name for p in (tmp / "burraco").rglob("data.ndjson")} == {"game=burraco"}
    db = load(tmp / "parquet")
    [middle] = db.execute(
        "SELECT settled_at FROM hands ORDER BY settled_at LIMIT 1 OFFSET 5"
    ).fetchall()
    report = export(store, tmp / "window", "parquet", since=middle[0])
    [(later,)] = db.execute(
        "SELECT count(*) FROM hands WHERE settled_at >= ?", [middle[0]]
    ).fetchall()
    assert report.total("hands") == later > 0
    with pytest.raises(ExportError) as refused:
        export(store, tmp / "bad", "csv")
    assert refused.value.parameter == "format"


def test_an_empty_store_writes_empty_datasets_with_their_schema(sqlite_store: TableStore,
                                                               tmp_path: Path) -> None:  # fmt: skip
    export(sqlite_store, tmp_path / "out", "parquet")
    db = load(tmp_path / "out")
    for dataset in DATASETS:
        assert db.execute(f"SELECT count(*) FROM {dataset}").fetchone() == (0,)
        columns = [row[0] for row in db.execute(f"DESCRIBE {dataset}").fetchall()]
        assert columns == [*SCHEMAS[dataset], "game"]


def test_duckdb_reads_each_column_as_the_document_types_it(simulated: Any) -> None:
    _, tmp, _ = simulated
    db = load(tmp / "parquet")
    named = {"TIMESTAMP WITH TIME ZONE": "TIMESTAMPTZ"}  # DuckDB's long name for it
    for dataset in DATASETS:
        types = {row[0]: row[1] for row in db.execute(f"DESCRIBE {dataset}").fetchall()}
        read = {column: named.get(kind, kind) for column, kind in types.items()}
        assert read == {**SCHEMAS[dataset], "game": "VARCHAR"}, dataset
