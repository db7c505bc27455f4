"""The create-table form's options and tooltips (api/web/js/options.js) follow the rules docs:
every key of each game's options table is offered, with its default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OPTIONS_JS = (ROOT / "api" / "web" / "js" / "options.js").read_text(encoding="utf-8")


def documented_options(rules: str) -> dict[str, str]:
    """The ``| `key` | values | default |`` rows of a rules doc's options table."""
    rows = re.findall(r"^\| `(\w+)` \| .* \| (.+) \|$", rules, flags=re.MULTILINE)
    return {key: default.strip().strip("`") for key, default in rows}


def _keys(block: str) -> dict[str, str]:
    found = re.findall(r'key: "(\w+)", kind: "\w+",(?:.|\n)*?default: ([^,]+),', block)
    return {key: default.strip().strip('"') for key, default in found}


def offered_options(game: str) -> dict[str, str]:
    """The keys and defaults of ``game`` in options.js, with the shared lists it spreads
    (``...COMMON``, ``...CLOCK``)."""
    block = OPTIONS_JS.split(f"  {game}: [", 1)[1].split("\n  ],", 1)[0]
    offered = _keys(block)
    for shared in re.findall(r"\.\.\.(\w+),", block):
        offered.update(_keys(OPTIONS_JS.split(f"const {shared} = [", 1)[1].split("\n];", 1)[0]))
    return offered


@pytest.mark.parametrize("game", ["bourre", "burraco"])
def test_the_form_offers_every_documented_option_with_its_default(game: str) -> None:
    documented = documented_options((ROOT / "docs" / "rules" / f"{game}.md").read_text())
    offered = offered_options(game)
    assert documented, "the rules doc has an options table"
    for key, default in documented.items():
        assert key in offered, f"{key} is not in the {game} form"
        if default not in ("required",):
            assert offered[key] == default, (key, offered[key], default)
    assert {"reveal", "spectator_delay"} <= set(offered)  # design §5, every game
