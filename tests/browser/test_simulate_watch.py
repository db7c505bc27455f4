"""``cardroom simulate`` points at the web card room: it prints the watch URL of each table it
plays, and its tables end cleanly after the hands asked for — a Burraco match short of its
target ends after its last hand (rule 27, option ``hands``), so it shows as ended (to replay),
not "playing" forever, and no hand is dealt only to be abandoned."""

from __future__ import annotations

import re
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner

from api.cli import main
from infra.settings import Settings
from infra.store import TableStore


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_simulate_prints_watch_urls_and_ends_its_tables(tmp_path: Path, game: str) -> None:
    env = {"CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db"}
    args = ["simulate", "--game", game, "--tables", "2", "--hands", "1", "--seed", "3"]
    result = CliRunner().invoke(
        main, [*args, "--no-project", "--url", "http://cards.test/"], env=env
    )
    assert result.exit_code == 0, result.output
    urls = re.findall(
        r"^watch: http://cards\.test/watch/([0-9a-f-]{36})\?at=1$", result.output, re.M
    )
    assert len(urls) == 2
    with TableStore(Settings.from_env(env)) as store:
        for table_id in urls:
            table = store.get(UUID(table_id))
            assert table.game.seating(table.state).status == "ended"
            # --hands 1: one hand dealt and settled, no second deal abandoned (Burraco rule
            # 27's option hands, Bourré's rule 35); every seat names its bot kind
            events = [recorded.event for recorded in store.events(UUID(table_id))]
            kinds = [type(e).__name__ for e in events]
            assert kinds.count("Dealt") == 1 and "HandAbandoned" not in kinds, kinds
            assert events[-1].reason == "hands"
            assert {e.bot for e in events if type(e).__name__ == "PlayerSeated"} == {"random"}


def test_simulate_names_the_configured_port_and_prints_no_progress_line_off_a_terminal(
    tmp_path: Path,
) -> None:
    """Without ``--url`` the watch links name ``CARDROOM_PORT`` (the port ``cardroom serve``
    listens on when it is set), not 8000; the output captured here is not a terminal, so it
    holds no progress bar line."""
    env = {"CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db", "CARDROOM_PORT": "8765"}
    args = ["simulate", "--game", "bourre", "--hands", "1", "--seed", "5", "--no-project"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    assert re.search(
        r"^watch: http://127\.0\.0\.1:8765/watch/[0-9a-f-]{36}\?at=1$", result.output, re.M
    )
    assert "127.0.0.1:8000" not in result.output  # (a table id may hold "8000")
    assert not any(line.startswith("hands") for line in result.output.splitlines()), result.output
    bad = CliRunner().invoke(main, args, env={**env, "CARDROOM_PORT": "eighty"})
    assert bad.exit_code == 2 and "CARDROOM_PORT must be a port number" in bad.output
