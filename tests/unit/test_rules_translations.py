"""Every translation of the rules documents keeps the English numbering (issue 26): for each
language folder ``docs/rules/<lang>/`` that exists, each English rules document
``docs/rules/<game>.md`` has its translation ``docs/rules/<lang>/<game>.md`` with

- the same numbered section headings (``## 5.``, ``### 5.1``, ``## 7a.``) in the same order,
- the same numbered rules (``14. …`` or ``T3. …`` at the start of a line, ASCII digits,
  outside code blocks) in the same order, so "rule 14" is the same rule in every language,
- the same options table: the same option keys in the same order, each row naming the same
  code words (the backticked option values) and the same default values (numbers, ``null``,
  ``true``, ``false`` and code words as written; a word such as "required" is translated);

and the folder opens with a ``README.md`` glossary. Languages are found by folder, so a new
language is checked as soon as its folder exists. Every folder translates the games' rules
(``REQUIRED``, issue 26); another rules document (``tournaments.md``) is checked where a
folder has it."""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

import pytest

RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
DOCUMENTS = sorted(path.name for path in RULES.glob("*.md"))
REQUIRED = ["bourre.md", "burraco.md"]
LANGUAGES = sorted(path.name for path in RULES.iterdir() if path.is_dir())

FENCE = re.compile(r"^\s*```")
HEADING = re.compile(r"^#{2,6}\s+(\d+[a-z]?(?:\.\d+)*)\.?\s")
RULE = re.compile(r"^([A-Z]?\d+)\.\s")
OPTION_ROW = re.compile(r"^\|(?P<key>[^|]*`[^|]*)\|(?P<middle>.*)\|(?P<default>[^|]*)\|\s*$")
CODE = re.compile(r"`([^`]+)`")
LITERAL = re.compile(r"\b(?:[0-9]+|null|true|false)\b")


class OptionRow(NamedTuple):
    keys: tuple[str, ...]
    codes: frozenset[str]
    default: tuple[str, ...]


class Outline(NamedTuple):
    """What must agree between a rules document and its translations."""

    sections: list[str]
    rules: list[str]
    options: list[OptionRow]


def default_values(cell: str) -> tuple[str, ...]:
    """The values a default cell names: its code words and its literal numbers, ``null``,
    ``true`` and ``false`` (a word such as "required" is translated)."""
    return tuple(CODE.findall(cell)) + tuple(LITERAL.findall(CODE.sub("", cell)))


def outline(path: Path) -> Outline:
    """The numbered headings, numbered rules and options-table rows of a rules document."""
    sections: list[str] = []
    rules: list[str] = []
    options: list[OptionRow] = []
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        if heading := HEADING.match(line):
            sections.append(heading.group(1))
        elif rule := RULE.match(line):
            rules.append(rule.group(1))
        elif row := OPTION_ROW.match(line):
            options.append(
                OptionRow(
                    keys=tuple(CODE.findall(row.group("key"))),
                    codes=frozenset(CODE.findall(line)),
                    default=default_values(row.group("default")),
                )
            )
    return Outline(sections, rules, options)


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_english_rules_are_numbered_one_by_one(document: str) -> None:
    english = outline(RULES / document)
    prefix = english.rules[0].rstrip("0123456789") if english.rules else ""
    assert english.rules == [f"{prefix}{n}" for n in range(1, len(english.rules) + 1)]
    assert english.sections and english.rules


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_language_folder_opens_with_its_glossary_and_translates_the_games_rules(
    language: str,
) -> None:
    folder = RULES / language
    assert (folder / "README.md").is_file(), f"docs/rules/{language}/README.md (the glossary)"
    missing = [name for name in REQUIRED if not (folder / name).is_file()]
    assert not missing, f"docs/rules/{language}/ lacks {missing}"


@pytest.mark.parametrize(
    ("language", "document"),
    [
        (language, document)
        for language in LANGUAGES
        for document in DOCUMENTS
        if (RULES / language / document).is_file()
    ],
)
def test_a_translation_keeps_the_numbered_rules_and_the_options(
    language: str, document: str
) -> None:
    english = outline(RULES / document)
    translated = outline(RULES / language / document)
    where = f"docs/rules/{language}/{document}"
    assert translated.sections == english.sections, f"{where}: numbered headings"
    assert translated.rules == english.rules, f"{where}: numbered rules"
    assert [row.keys for row in translated.options] == [row.keys for row in english.options], (
        f"{where}: option keys of the options table"
    )
    for ours, theirs in zip(translated.options, english.options, strict=True):
        assert ours.codes == theirs.codes, f"{where}: option {theirs.keys[0]}'s code words"
        assert ours.default == theirs.default, f"{where}: option {theirs.keys[0]}'s default"
