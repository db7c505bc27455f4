"""Every rule the code and the design cite exists: a "rule N" (or "rules N–M", or an
error's ``rule="bourre N"``) in domain/, api/ (its Python and the web client's own scripts)
and docs/design.md names a numbered rule of docs/rules/bourre.md or docs/rules/burraco.md —
of the game the file or the line is about when it says."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
GAMES = ("bourre", "burraco")
# "rule 14", "Rules 23–27", "rules 1, 3–4", "rule 10's"; a section number such as 5.1 is not a rule
CITATION = re.compile(
    r"\brules? (\d+)(?![.\d]\d)(?:\s*[–-]\s*(\d+))?((?:\s*,\s*\d+(?:\s*[–-]\s*\d+)?)*)",
    re.IGNORECASE,
)
TAGGED = re.compile(r'rule="(bourre|burraco) (\d+)"')  # IllegalCommand(..., rule="bourre 34")
GAME_WORD = re.compile(r"bourr[eé]|booray|burraco", re.IGNORECASE)


def numbered_rules(game: str) -> set[int]:
    """The numbers of the numbered rules of docs/rules/<game>.md (list items "N. …")."""
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    return {int(n) for n in re.findall(r"^\s*(\d+)\. ", text, re.MULTILINE)}


def cited_files() -> list[Path]:
    files = sorted((ROOT / "domain").rglob("*.py")) + sorted((ROOT / "api").rglob("*.py"))
    files += sorted((ROOT / "api" / "web" / "js").glob("*.js"))
    return [*files, ROOT / "docs" / "design.md"]


def game_of_path(path: Path) -> str | None:
    parts = path.relative_to(ROOT).parts
    if parts[0] == "domain" and parts[1] in GAMES:
        return parts[1]
    if parts[-1] in {"bourre.js", "burraco.js"}:
        return parts[-1].removesuffix(".js")
    return None


def numbers(match: re.Match[str]) -> list[int]:
    first = f"{match.group(1)}-{match.group(2)}" if match.group(2) else match.group(1)
    found: list[int] = []
    for part in [first] + [p for p in match.group(3).split(",") if p.strip()]:
        bounds = [int(n) for n in re.findall(r"\d+", part)]
        found += range(bounds[0], bounds[-1] + 1)
    return found


def citations(path: Path) -> Iterator[tuple[int, str | None, int]]:
    """(line number, the game the citation is about or None, the rule number cited)."""
    default = game_of_path(path)
    for number, line in enumerate(path.read_text().splitlines(), 1):
        for match in CITATION.finditer(line):
            said = GAME_WORD.findall(line[: match.start()])
            game = said[-1].lower().replace("é", "e") if said else default
            for rule in numbers(match):
                yield number, ("bourre" if game == "booray" else game), rule
        for match in TAGGED.finditer(line):
            yield number, match.group(1), int(match.group(2))


def test_the_rules_docs_are_numbered_without_gaps() -> None:
    for game in GAMES:
        rules = numbered_rules(game)
        assert rules == set(range(1, max(rules) + 1)), game


@pytest.mark.parametrize("path", cited_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rule_cited_exists(path: Path) -> None:
    rules = {game: numbered_rules(game) for game in GAMES}
    every = rules["bourre"] | rules["burraco"]
    missing = [
        f"line {line}: {game or 'any game'} rule {rule}"
        for line, game, rule in citations(path)
        if rule not in (rules[game] if game else every)
    ]
    assert missing == []


def test_citations_are_read_with_ranges_lists_and_games() -> None:
    sample = ROOT / "domain" / "bourre" / "x.py"
    assert game_of_path(sample) == "bourre"
    line = "Burraco rule 28; rules 23–27, 30 (rule 5.1 is a section)"
    found = [(m.group(0), numbers(m)) for m in CITATION.finditer(line)]
    assert found == [("rule 28", [28]), ("rules 23–27, 30", [23, 24, 25, 26, 27, 30])]
