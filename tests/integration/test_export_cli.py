"""``cardroom export`` end to end: the datasets a simulation leaves, the options it refuses
(design §8)."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from api.cli import main


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
    }


def test_export_writes_each_dataset_per_game_and_says_how_many_rows(
    env: dict[str, str], tmp_path: Path
) -> None:
    runner = CliRunner()
    simulated = runner.invoke(
        main,
        ["simulate", "--game", "bourre", "--tables", "1", "--hands", "2", "--seed", "3",
         "--no-project"],
        env=env,
    )  # fmt: skip
    assert simulated.exit_code == 0, simulated.output
    out = tmp_path / "out"
    result = runner.invoke(
        main, ["export", "--format", "ndjson", "--out", str(out), "--game", "bourre"], env=env
    )
    assert result.exit_code == 0, result.output
    assert "hands: bourre 2" in result.output
    assert "results: bourre 14" in result.output  # seven seats (the bots' Bourré table)
    assert "accounts: all 0" in result.output  # every account, whatever the game: none here
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("data.*")) == [
        "accounts/data.ndjson",
        "events/game=bourre/data.ndjson",
        "hands/game=bourre/data.ndjson",
        "results/game=bourre/data.ndjson",
    ]


@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (["--format", "csv"], "--format"),
        (["--format", "parquet", "--game", "poker"], "--game"),
        (["--format", "parquet", "--since", "yesterday"], "--since"),
    ],
)
def test_a_bad_option_is_refused_naming_it(
    env: dict[str, str], tmp_path: Path, arguments: list[str], named: str
) -> None:
    result = CliRunner().invoke(main, ["export", "--out", str(tmp_path / "x"), *arguments], env=env)
    assert result.exit_code == 2
    assert named in result.output
    assert not (tmp_path / "x" / "events").exists()
