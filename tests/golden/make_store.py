"""Write the golden store: a SQLite event store in the format of the day it was made, and the
read models it projects to (``python tests/golden/make_store.py``, from the repository root).

``test_golden_store.py`` holds every later version of the code to it: the store must open, every
table replay, and the projections give the recorded read models byte for byte. So this script was
run once, when the fixture was made (it is committed; the commit that added it holds the code it
ran with), not by the tests: running it again with newer code would record the newer code's
format and defeat the point, so it refuses to overwrite the store unless given ``--force``.
A newer format gets a store of its own beside this one.

What it stores (the script fails unless the store holds every event type of both games, the
table kernel's and the turn clock's included, and snapshots):

* Bourré: seven bots over several hands with a draw that runs the stock out (``Reshuffled``);
  ``four_card`` (``SecondChanceDeclared``); ``simultaneous`` declarations
  (``DecisionsRevealed``) with a turn clock whose timeouts sit a seat out (``TurnTimedOut``)
  until it sits back in (``SatIn``), closed during a hand (``CloseRequested``); a table still
  waiting for players and one abandoned by the sweeper's command.
* Burraco: a two-player match played to its end (``MatchWon``), a four-player table ended by
  agreement (``CloseAsked``, ``HandAbandoned``), one with a turn clock and a bot's seat, and one
  waiting for players.
* Snapshots: the store snapshots every 64 versions here (``SNAPSHOT_EVERY``, 1024 in
  production), so the long tables carry several, in the snapshot format of the day.

Deterministic: table ids, secrets, tokens and the clock are drawn from fixed seeds (the bots
are seeded too), so the same code writes the same store.
"""

from __future__ import annotations

import random
import shutil
import sqlite3
import sys
import tempfile
import typing
import uuid
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

import infra.command_service  # noqa: E402
import infra.store  # noqa: E402
import infra.table_cache  # noqa: E402
from domain.games import games  # noqa: E402
from domain.table import AbandonTable, CloseTable, TakeSeat  # noqa: E402
from domain.table.clock import SitIn, TimeOut  # noqa: E402
from infra.settings import Settings  # noqa: E402
from infra.simulate import play_table  # noqa: E402
from infra.store import TableStore  # noqa: E402
from tests.golden.readmodels import dumps, read_models  # noqa: E402
from tests.integration.store_support import bot_moves  # noqa: E402

HERE = Path(__file__).resolve().parent
STORE = HERE / "store.db"
EXPECTED = HERE / "read_models.json"
EVERY = 64  # snapshots (and in-memory checkpoints) this often in the golden store
START = datetime(2026, 1, 1, tzinfo=UTC)


class _Seeded:
    """The ``secrets`` functions the write side draws from, from one seeded generator."""

    def __init__(self, seed: int) -> None:
        self._rng = random.Random(seed)

    def randbits(self, bits: int) -> int:
        return self._rng.getrandbits(bits)

    def token_hex(self, size: int) -> str:
        return self._rng.randbytes(size).hex()

    def token_urlsafe(self, size: int) -> str:
        return self._rng.randbytes(size).hex()

    def uuid4(self) -> uuid.UUID:
        return uuid.UUID(int=self._rng.getrandbits(128), version=4)


class _Clock(datetime):
    """A clock that moves 0.25 s each time it is read."""

    ticks = 0

    @classmethod
    def now(cls, tz: Any = None) -> datetime:  # type: ignore[override]
        cls.ticks += 1
        return START + timedelta(milliseconds=250 * cls.ticks)


def _pinned() -> None:
    """Fixed seeds for what the write side draws, a fixed clock, short snapshot intervals."""
    seeded = _Seeded(20)
    infra.command_service.secrets = seeded  # type: ignore[assignment]
    infra.command_service.uuid4 = seeded.uuid4
    infra.command_service.datetime = _Clock  # type: ignore[misc]
    infra.table_cache.datetime = _Clock  # type: ignore[misc]
    infra.table_cache.CHECKPOINT_EVERY = EVERY
    infra.store.SNAPSHOT_EVERY = EVERY


def _clocked_bourre(store: TableStore) -> None:
    """Simultaneous declarations under a turn clock: seat 1 times out until it sits out,
    sits back in; seat 0 asks to close during a hand, which is played out and settled."""
    table_id = store.create_table(
        "bourre",
        {"seats": 3, "declaration": "simultaneous", "turn_seconds": 30, "timeouts_to_sit_out": 2},
        seed=11,
    ).table_id
    for seat in range(3):
        store.take_seat(table_id, f"clock {seat}", seat)
    for timeouts in (1, 2):
        table = store.get(table_id)
        while 1 not in table.game.to_act(table.state):
            _one_move(store, table_id, timeouts)
            table = store.get(table_id)
        store.execute(table_id, TimeOut(seat=1, timeouts=timeouts, sat_out=timeouts == 2))
    store.execute(table_id, SitIn(seat=1))
    store.execute(table_id, CloseTable(seat=0))
    for _ in bot_moves(store, table_id, seed=5):
        pass


def _one_move(store: TableStore, table_id: Any, seed: int) -> None:
    table = store.get(table_id)
    waiting = sorted(table.game.to_act(table.state))
    rng = random.Random(seed * 1000 + table.version)
    seat = rng.choice(waiting)
    store.execute(table_id, rng.choice(table.game.legal_commands(table.state, seat)))


def _clocked_burraco(store: TableStore) -> None:
    """A Burraco table whose seat times out twice (drawn and discarded for), then closed."""
    table_id = store.create_table("burraco", {"players": 2, "turn_seconds": 60}, seed=12).table_id
    store.take_seat(table_id, "ann", 0)
    store.execute(table_id, TakeSeat(name="bot", token_hash="b" * 64, seat=1, bot="basic"))
    for timeouts in (1, 2):
        table = store.get(table_id)
        seat = min(table.game.to_act(table.state))
        store.execute(table_id, TimeOut(seat=seat, timeouts=timeouts))
    store.execute(table_id, CloseTable(seat=0))  # the only person seated: the table ends


def _waiting_and_abandoned(store: TableStore) -> None:
    """One table of each game still waiting for players, and one the sweeper abandons."""
    waiting = store.create_table("bourre", {"seats": 4, "ante": 2}, seed=13).table_id
    store.take_seat(waiting, "early", 2)
    store.create_table("burraco", {"players": 4, "target": 1500}, seed=14)
    idle = store.create_table("bourre", {"seats": 2}, seed=15).table_id
    store.take_seat(idle, "alone", 0)
    store.execute(idle, AbandonTable(idle_seconds=900.0, limit_seconds=600.0))


def write(path: Path) -> None:
    settings = Settings(event_store=f"sqlite:///{path}", var_dir=path.parent / "var")
    with TableStore(settings) as store:
        play_table(
            store, "bourre", 5, seed=1, bots=("random",),
            options={"seats": 7, "reshuffle_pool": "all_discards", "hands": 5},
        )  # fmt: skip
        play_table(
            store, "bourre", 3, seed=2, bots=("random", "basic"),
            options={"seats": 4, "four_card": True, "double_ante": True, "hands": 3},
        )  # fmt: skip
        _clocked_bourre(store)
        play_table(
            store, "burraco", 10, seed=3, bots=("basic",),
            options={"seats": 2, "target": 500},
        )  # fmt: skip
        play_table(store, "burraco", 1, seed=4, bots=("basic", "random"))
        _clocked_burraco(store)
        _waiting_and_abandoned(store)
        _check_coverage(store)


def _check_coverage(store: TableStore) -> None:
    """Every event type of every game is stored, and snapshots are."""
    stored = {type(note.event) for note in store.notifications(1, 1_000_000)}
    for game in games():
        missing = {cls.__name__ for cls in typing.get_args(game.event_type) if cls not in stored}
        assert not missing, f"the golden store has no {game.name} {sorted(missing)}"
    assert store.app.snapshots is not None
    path = Path(store.settings.event_store.removeprefix("sqlite:///"))
    with closing(sqlite3.connect(path)) as db:
        (snapshots,) = db.execute("SELECT count(*) FROM stored_snapshots").fetchone()
    assert snapshots >= 4, f"only {snapshots} snapshots"


def main() -> None:
    if STORE.exists() and "--force" not in sys.argv[1:]:
        sys.exit(f"{STORE.relative_to(ROOT)} exists: every version must read it as it is (--force)")
    _pinned()
    with tempfile.TemporaryDirectory() as scratch:
        made = Path(scratch) / "store.db"
        write(made)
        with closing(sqlite3.connect(made)) as db:
            db.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal
            db.execute("VACUUM")
        shutil.copyfile(made, STORE)
        client = redis.Redis.from_url("redis://127.0.0.1:6379/0")
        prefix = f"cardroom-golden:{uuid.uuid4().hex[:8]}:"
        try:
            settings = Settings(event_store=f"sqlite:///{made}", var_dir=Path(scratch) / "var")
            with TableStore(settings) as store:
                EXPECTED.write_bytes(dumps(read_models(store, client, prefix)))
        finally:
            for key in client.scan_iter(match=f"{prefix}*", count=1000):
                client.delete(key)
            client.close()
    print(f"wrote {STORE.relative_to(ROOT)} ({STORE.stat().st_size:,} bytes)")
    print(f"wrote {EXPECTED.relative_to(ROOT)} ({EXPECTED.stat().st_size:,} bytes)")


if __name__ == "__main__":
    main()
