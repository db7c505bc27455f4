"""The bots' process manager (design §9): a real ``cardroom bots`` process, killed with
SIGKILL mid-hand and started again, neither skips nor doubles a bot's turn — the stored log
is exactly the one the bots' decisions make, turn after turn; and two workers at once play
each turn once."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any
from uuid import UUID

import redis

from bots import choose, rng_for
from domain.games import game_named
from infra.settings import Settings
from infra.store import TableStore
from managers.bot_worker import BotWorker, seat_bot
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]


def _env(tmp_path: Path, redis_url: str, redis_prefix: str) -> dict[str, str]:
    return {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_REDIS_URL": redis_url,
        "CARDROOM_REDIS_PREFIX": redis_prefix,
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
        "CARDROOM_BOT_THINK_SECONDS": "0.01",
    }


def _bots_table(store: TableStore, game: str, options: dict[str, Any], kinds: list[str]) -> UUID:
    table_id = store.create_table(game, options, seed=77).table_id
    for kind in kinds:
        seat_bot(store, table_id, kind)
    return table_id


def assert_the_log_is_the_bots_decisions(store: TableStore, table_id: UUID, seats: int) -> int:
    """Replay: at every version the first seat to act is a bot whose decision (from its view,
    seeded by table, version and seat) makes exactly the next stored events. Returns the
    number of bot turns checked."""
    recorded = store.events(table_id)
    game = game_named(store.get(table_id).game.name)
    state: Any = None
    index = 0
    for entry in recorded[: seats + 1]:  # opened and seated (the start events follow)
        state = game.evolve(state, entry.event)
        index += 1
    while index < len(recorded) and index < seats + 1 + 1_000:
        if not game.to_act(state):
            state = game.evolve(state, recorded[index].event)
            index += 1
            continue
        seat = min(game.to_act(state))
        view = game.view(state, seat)
        command = choose(game.name, _kind(recorded, seat), view, game.legal_commands(state, seat),
                         rng_for(table_id, index, seat))  # fmt: skip
        expected, state = game.decision(state, command)
        assert [e.event for e in recorded[index : index + len(expected)]] == expected, index
        index += len(expected)
    assert index == len(recorded)
    return index


def _kind(recorded: list[Any], seat: int) -> str:
    return next(e.event.bot for e in recorded if getattr(e.event, "seat", None) == seat
                and type(e.event).__name__ == "PlayerSeated")  # fmt: skip


def _start(env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-c", "from api.cli import main; main()", "bots"],
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
    )


def test_a_killed_bot_worker_restarts_without_skipping_or_doubling_a_turn(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    env = _env(tmp_path, redis_url, redis_prefix)
    settings = Settings.from_env(env)
    with TableStore(settings) as store:
        table_id = _bots_table(store, "bourre", {"seats": 4, "hands": 3},
                               ["basic", "random", "basic", "random"])  # fmt: skip
        worker = _start(env)
        try:
            wait_until(lambda: store.get(table_id).version >= 40, 60, "the bots never played")
            worker.send_signal(signal.SIGKILL)
            worker.wait(timeout=30)
            killed_at = store.get(table_id).version
            assert store.get(table_id).game.seating(store.get(table_id).state).status == "playing"
            worker = _start(env)
            wait_until(
                lambda: (
                    store.get(table_id).game.seating(store.get(table_id).state).status == "ended"
                ),
                120,
                "the restarted worker did not finish the table",
            )
            worker.send_signal(signal.SIGTERM)
            output, _ = worker.communicate(timeout=30)
            assert worker.returncode == 0, output
        finally:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
        assert store.get(table_id).version > killed_at
        assert assert_the_log_is_the_bots_decisions(store, table_id, 4) > 60


def test_two_workers_at_once_play_every_turn_once(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    env = _env(tmp_path, redis_url, redis_prefix)
    with TableStore(Settings.from_env(env)) as store:
        table_id = _bots_table(store, "burraco", {"seats": 4}, ["basic", "random"] * 2)
        client = redis.Redis.from_url(redis_url)
        stop = threading.Event()
        workers = [BotWorker(store, client, redis_prefix, think_seconds=0) for _ in range(2)]
        threads = [threading.Thread(target=w.run_forever, args=(stop,)) for w in workers]
        for thread in threads:
            thread.start()
        try:
            wait_until(
                lambda: (
                    store.get(table_id).game.view(store.get(table_id).state)["handsScored"] >= 1
                ),
                120,
                "no hand was scored",
            )
        finally:
            stop.set()
            for thread in threads:
                thread.join()
            client.close()
        assert assert_the_log_is_the_bots_decisions(store, table_id, 4) > 50


def test_a_bot_thinks_from_the_prompting_events_time_and_a_restart_keeps_its_turn(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    env = _env(tmp_path, redis_url, redis_prefix)
    with TableStore(Settings.from_env(env)) as store:
        table_id = _bots_table(store, "burraco", {"seats": 2}, ["basic", "basic"])
        prompted = store.get(table_id).version
        prompt_at = store.events(table_id, prompted, prompted)[0].at.timestamp()
        client = redis.Redis.from_url(redis_url)
        clock = [prompt_at + 59.0]
        try:
            thinking = BotWorker(
                store, client, redis_prefix, think_seconds=60, now=lambda: clock[0]
            )
            thinking.run_once()
            assert store.get(table_id).version == prompted  # still thinking
            # a new worker (a restart) finds the turn in Redis and plays it once it is due
            clock[0] = prompt_at + 60.0
            BotWorker(
                store, client, redis_prefix, think_seconds=60, now=lambda: clock[0]
            ).run_once()
        finally:
            client.close()
        assert store.get(table_id).version > prompted
        assert assert_the_log_is_the_bots_decisions(store, table_id, 2) > 0


def test_bots_wait_for_the_result_pause_after_a_settled_hand_when_a_person_is_seated(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    """Option ``result_pause``: the seated person reads the result before the bots play on."""
    from domain.table import TakeSeat

    env = _env(tmp_path, redis_url, redis_prefix)
    with TableStore(Settings.from_env(env)) as store:
        table_id = store.create_table("bourre", {"seats": 2, "result_pause": 5}, seed=77).table_id
        store.execute(table_id, TakeSeat(name="Ann", token_hash="ann", seat=0))
        seat_bot(store, table_id, "basic", 1)
        game = game_named("bourre")
        client = redis.Redis.from_url(redis_url)
        clock = [store.events(table_id)[-1].at.timestamp() + 3600]  # hand 1: bots are due
        worker = BotWorker(store, client, redis_prefix, think_seconds=0, now=lambda: clock[0])
        try:
            settled: list[Any] = []
            for _ in range(200):  # hand 1: Ann plays her first legal command, the bot its own
                settled = [e for e in store.events(table_id) if game.settles_hand(e.event)]
                if settled:
                    break
                state = store.get(table_id).state
                if 0 in game.to_act(state):
                    store.execute(table_id, game.legal_commands(state, 0)[0])
                else:
                    worker.run_once()
            assert settled, "hand 1 did not settle"
            settled_at = settled[0].at.timestamp()
            # hand 2: Ann acts when she must; the bot waits until the pause has passed
            for _ in range(5):
                state = store.get(table_id).state
                if 1 in game.to_act(state):
                    break
                store.execute(table_id, game.legal_commands(state, 0)[0])
            assert 1 in game.to_act(store.get(table_id).state)
            waiting_at = store.get(table_id).version
            clock[0] = settled_at + 4.9
            worker.run_once()
            assert store.get(table_id).version == waiting_at  # Ann is still reading
            clock[0] = settled_at + 5.0
            worker.run_once()
            assert store.get(table_id).version > waiting_at
        finally:
            client.close()
