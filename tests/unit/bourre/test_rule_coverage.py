"""Every numbered rule of docs/rules/bourre.md (1–35) is cited by a Bourré test: in a test's
name (``test_rule_24_…``) or in a test's or test module's docstring ("rules 23–27")."""

from __future__ import annotations

import ast
import re
from pathlib import Path

TESTS = Path(__file__).resolve().parents[2]
RULES = TESTS.parent / "docs" / "rules" / "bourre.md"
CITATION = re.compile(r"rules?[ _](\d+)(?:\s*[–-]\s*(\d+))?((?:\s*,\s*\d+(?:\s*[–-]\s*\d+)?)*)")


def cited_rules(text: str) -> set[int]:
    """The rule numbers a text cites: "rule 5", "rules 23–27", "rules 1, 3–4", "rule_24"."""
    rules: set[int] = set()
    for match in CITATION.finditer(text):
        first = f"{match.group(1)}-{match.group(2)}" if match.group(2) else match.group(1)
        parts = [first] + [p for p in match.group(3).split(",") if p.strip()]
        for part in parts:
            bounds = [int(n) for n in re.findall(r"\d+", part)]
            rules.update(range(bounds[0], bounds[-1] + 1))
    return rules


def bourre_test_files() -> list[Path]:
    return (
        sorted((TESTS / "unit" / "bourre").glob("test_*.py"))
        + sorted((TESTS / "unit" / "rulings").glob("test_bourre_*.py"))
        + sorted((TESTS / "property").glob("test_bourre_*.py"))
    )


def spec_rules() -> set[int]:
    """The numbered rules of docs/rules/bourre.md (list items "N. …")."""
    return {int(n) for n in re.findall(r"^\s*(\d+)\. ", RULES.read_text(), re.MULTILINE)}


def test_every_spec_rule_is_cited_by_a_test() -> None:
    cited: set[int] = set()
    for path in bourre_test_files():
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text())
        cited |= cited_rules(ast.get_docstring(tree) or "")
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                cited |= cited_rules(node.name)
                cited |= cited_rules(ast.get_docstring(node) or "")
    rules = spec_rules()
    assert rules >= set(range(1, 36))
    assert rules - cited == set()


def test_rule_citations_are_read_with_ranges_and_lists() -> None:
    assert cited_rules("test_rule_24_a_tie") == {24}
    assert cited_rules("rules 23–27 and rule 5") == {5, 23, 24, 25, 26, 27}
    assert cited_rules("rules 1, 3–4") == {1, 3, 4}
