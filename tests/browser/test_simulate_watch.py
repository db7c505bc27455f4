"""``cardroom simulate`` points at the web card room: it prints the watch URL of each table it
plays, and its tables end cleanly — a Burraco match short of its target is closed, so it
shows as ended (to replay), not "playing" forever."""

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
