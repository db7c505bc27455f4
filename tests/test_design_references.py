"""Every reference to docs/design.md in code and docs resolves: ``design §N`` (and the ``§M``
listed after it, ``design §5, §6``), a bare ``§N`` inside design.md itself, names a numbered
heading of design.md, and a quoted part (``design §5 "Limits"``) is found in that section."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN = ROOT / "docs" / "design.md"
SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".toml", ".yaml", ".yml", ".cfg", ".txt"}
NUMBER = r"§\s*(\d+(?:\.\d+)*)(?:\s*\"([^\"]+)\")?"
# ``design §3``, ``Design §6's``, ``design.md §9``, ``design (§5)``; then ``, §6 "Part"``
REFERENCE = re.compile(
    r"design(?:\.md)?[`\s(]*" + NUMBER + r"((?:\s*(?:,|and|or)\s*§[^,;)]*)*)", re.IGNORECASE
)
FOLLOWING = re.compile(NUMBER)
HEADING = re.compile(r"^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", re.MULTILINE)


def sections() -> dict[str, str]:
    """design.md's numbered headings, each with its text up to the next numbered heading."""
    text = DESIGN.read_text()
    marks = list(HEADING.finditer(text))
    return {
        mark.group(1): " ".join(text[mark.start() : end].split())
        for mark, end in zip(marks, [m.start() for m in marks[1:]] + [len(text)], strict=True)
    }


def references(text: str, *, bare: bool) -> list[tuple[str, str | None]]:
    """The (section, quoted part) pairs ``text`` refers to; ``bare``: every ``§N`` counts."""
    if bare:
        return [(m.group(1), m.group(2)) for m in FOLLOWING.finditer(text)]
    found: list[tuple[str, str | None]] = []
    for match in REFERENCE.finditer(text):
        found.append((match.group(1), match.group(2)))
        found.extend((m.group(1), m.group(2)) for m in FOLLOWING.finditer(match.group(3)))
    return found


def documents() -> list[Path]:
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return [
        ROOT / name
        for name in listed
        if Path(name).suffix in SUFFIXES
        and not name.startswith("docs/rules/")  # the rules number their own sections
        and (ROOT / name).is_file()
    ]


def test_design_md_has_numbered_sections() -> None:
    assert {"1", "2", "3", "4", "5", "6"} <= set(sections())


def test_every_design_reference_names_a_heading_and_its_quoted_part() -> None:
    known = sections()
    broken: list[str] = []
    checked = 0
    for path in documents():
        text = path.read_text(errors="replace")
        for number, part in references(text, bare=path == DESIGN):
            checked += 1
            where = f"{path.relative_to(ROOT)}: §{number}" + (f' "{part}"' if part else "")
            if number not in known:
                broken.append(f"{where}: design.md has no heading {number}")
            elif part and " ".join(part.split()) not in known[number]:
                broken.append(f"{where}: not in design.md §{number}")
    assert checked > 50  # the references were found
    assert broken == []


def test_a_reference_is_read_with_the_sections_listed_after_it() -> None:
    text = 'the lane (design §5, §6 "Command path") and (design\n§9) and design.md §2 and spec §9'
    assert references("Design §4's " + text, bare=False) == [
        ("4", None),
        ("5", None),
        ("6", "Command path"),
        ("9", None),
        ("2", None),
    ]
