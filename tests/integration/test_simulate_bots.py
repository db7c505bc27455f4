"""``cardroom simulate --bots … --json``: bots seated alternately, every table ended, each
table's watch URL, and the figures per bot kind."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from api.cli import main


def test_simulate_prints_tables_watch_urls_and_figures_per_bot_kind(tmp_path: Path) -> None:
    env = {"CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/sim.db"}
    args = ["simulate", "--game", "bourre", "--tables", "2", "--hands", "4", "--seats", "5",
            "--seed", "7", "--bots", "basic,random", "--no-project", "--json",
            "--url", "http://cards.example/"]  # fmt: skip
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["hands"] == 8
    assert set(summary["byBot"]) == {"basic", "random"}
    assert summary["byBot"]["basic"]["hands"] == summary["byBot"]["random"]["hands"] == 20
    assert [s["bot"] for s in summary["tables"][0]["seats"]] == ["basic", "random"] * 2 + ["basic"]
    for table in summary["tables"]:
        assert table["status"] == "ended"
        assert table["watch"] == f"http://cards.example/watch/{table['table']}?at=1"
    assert summary["commandsPerSecond"] > 0


def test_simulate_ends_a_burraco_match_that_is_still_playing(tmp_path: Path) -> None:
    env = {"CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/sim.db"}
    args = ["simulate", "--game", "burraco", "--hands", "1", "--seed", "3",
            "--bots", "basic", "--no-project", "--json"]  # fmt: skip
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["hands"] == 1
    assert [table["status"] for table in summary["tables"]] == ["ended"]


def test_simulate_refuses_an_unknown_bot_kind(tmp_path: Path) -> None:
    env = {"CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/sim.db"}
    args = ["simulate", "--game", "bourre", "--bots", "genius", "--no-project"]
    result = CliRunner().invoke(main, args, env=env)
    assert result.exit_code == 2
    assert "no bot 'genius' for bourre" in result.output
