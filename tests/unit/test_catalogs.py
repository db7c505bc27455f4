"""The message catalogs (issue 26; design §5, "Languages"): English is the one source of keys,
and every language — ``en``, ``it``, ``kn``, ``bn``, ``fa``, ``mn``, ``gu`` — has every English
key and no other, in the shared area files (``api/web/i18n/<lang>/<area>.json``) and in each
game's ``domain/<game>/i18n/<lang>.json``. Every message is ICU MessageFormat that parses;
each plural carries exactly the CLDR plural categories of its language (Babel); each message
takes the same placeholders as its English. The pages use no key English lacks, English says
what the registry says of each option, and every problem type the API raises has a message.

A language whose catalog is not there yet fails :func:`test_every_language_has_every_english_key`
by name: its translation is still to be merged."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from litestar import Litestar
from litestar.testing import TestClient

from api.i18n import LANGUAGES, SHARED_DIR, SOURCE, game_dir, plural_categories
from api.problems import exception_handlers
from api.routes import i18n as i18n_route
from domain.game import CLOCK_SCHEMA
from domain.games import games
from domain.table.options import COMMON_SCHEMA

ROOT = Path(__file__).resolve().parents[2]
WEB_JS = ROOT / "api" / "web" / "js"
GAME_NAMES = re.compile(r"bourr|burraco", re.IGNORECASE)


# --- a reader of ICU MessageFormat, as FormatJS parses it ------------------------------------


class MessageSyntaxError(ValueError):
    pass


@dataclass
class Shape:
    """What a message takes: each placeholder with its kind, and each plural's categories."""

    placeholders: dict[str, str] = field(default_factory=dict)
    plurals: list[tuple[str, frozenset[str]]] = field(default_factory=list)


_NAME = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_]*)\s*")
_SELECTOR = re.compile(r"\s*(=\d+|[A-Za-z_][A-Za-z0-9_-]*)\s*")
_SIMPLE_TYPES = {"number", "date", "time"}
_CHOOSING = {"plural", "selectordinal", "select"}


def parse_message(text: str) -> Shape:
    """The shape of ``text``; a :class:`MessageSyntaxError` naming where it does not parse."""
    shape = Shape()
    end = _message(text, 0, shape, in_plural=False)
    if end != len(text):
        raise MessageSyntaxError(f"unbalanced '}}' at {end}")
    return shape


def _message(text: str, at: int, shape: Shape, *, in_plural: bool) -> int:
    """Read literal text and arguments from ``at`` up to an unmatched ``}`` (or the end)."""
    while at < len(text):
        char = text[at]
        if char == "'" and at + 1 < len(text) and text[at + 1] in "{}#'":
            if text[at + 1] == "'":
                at += 2
                continue
            close = text.find("'", at + 1)  # a quoted run: '{' … '
            if close < 0:
                raise MessageSyntaxError(f"unterminated quote at {at}")
            at = close + 1
        elif char == "{":
            at = _argument(text, at + 1, shape)
        elif char == "}":
            return at
        elif char == "<" and at + 1 < len(text) and re.match(r"[A-Za-z/]", text[at + 1]):
            raise MessageSyntaxError(f"a tag at {at}: the pages put no markup in messages")
        else:
            at += 1
    return at


def _argument(text: str, at: int, shape: Shape) -> int:
    found = _NAME.match(text, at)
    if not found:
        raise MessageSyntaxError(f"an argument without a name at {at}")
    name, at = found.group(1), found.end()
    if text.startswith("}", at):
        _place(shape, name, "text")
        return at + 1
    if not text.startswith(",", at):
        raise MessageSyntaxError(f"expected ',' or '}}' after {name!r} at {at}")
    kind = _NAME.match(text, at + 1)
    if not kind:
        raise MessageSyntaxError(f"an argument type missing after {name!r}")
    type_, at = kind.group(1), kind.end()
    if type_ in _SIMPLE_TYPES:
        _place(shape, name, type_)
        if text.startswith("}", at):
            return at + 1
        close = text.find("}", at)
        if not text.startswith(",", at) or close < 0:
            raise MessageSyntaxError(f"a bad style for {name!r} at {at}")
        return close + 1
    if type_ not in _CHOOSING:
        raise MessageSyntaxError(f"unknown argument type {type_!r} for {name!r}")
    _place(shape, name, "plural" if type_ != "select" else "select")
    if not text.startswith(",", at):
        raise MessageSyntaxError(f"expected ',' after {type_} of {name!r}")
    at += 1
    offset = re.compile(r"\s*offset:\s*\d+").match(text, at)
    if offset and type_ != "select":
        at = offset.end()
    selectors: set[str] = set()
    while True:
        found = _SELECTOR.match(text, at)
        if not found:
            break
        selector, at = found.group(1), found.end()
        if not text.startswith("{", at):
            raise MessageSyntaxError(f"expected '{{' after selector {selector!r} of {name!r}")
        if selector in selectors:
            raise MessageSyntaxError(f"selector {selector!r} twice in {name!r}")
        selectors.add(selector)
        at = _message(text, at + 1, shape, in_plural=type_ != "select")
        if not text.startswith("}", at):
            raise MessageSyntaxError(f"unclosed case {selector!r} of {name!r}")
        at += 1
    if "other" not in selectors:
        raise MessageSyntaxError(f"{type_} {name!r} has no 'other' case")
    if type_ == "plural":
        shape.plurals.append((name, frozenset(s for s in selectors if not s.startswith("="))))
    at = len(text) - len(text[at:].lstrip())
    if not text.startswith("}", at):
        raise MessageSyntaxError(f"unclosed {type_} {name!r} at {at}")
    return at + 1


def _place(shape: Shape, name: str, kind: str) -> None:
    known = shape.placeholders.get(name)
    if known is not None and known != kind and "text" not in (known, kind):
        raise MessageSyntaxError(f"{name!r} used as {known} and as {kind}")
    if known in (None, "text"):
        shape.placeholders[name] = kind


def test_the_reader_knows_a_plural_a_select_a_number_and_a_quote() -> None:
    shape = parse_message(
        "{who}'s turn: {n, plural, =0 {none} one {# card} other {# cards}} "
        "{where, select, live { · live} other {}} {x, number, ::.00} '{'literal'}'"
    )
    assert shape.placeholders == {"who": "text", "n": "plural", "where": "select", "x": "number"}
    assert shape.plurals == [("n", frozenset({"one", "other"}))]
    for text in (
        "{n, plural, one {a}}",
        "{n",
        "a }",
        "{n, plural, one {a} other {b}",
        "<b>x</b>",
    ):
        with pytest.raises(MessageSyntaxError):
            parse_message(text)


# --- the catalogs -----------------------------------------------------------------------------


def areas(code: str) -> dict[str, Path]:
    """The shared area files of a language, by area."""
    folder = SHARED_DIR / code
    return {path.stem: path for path in sorted(folder.glob("*.json"))} if folder.is_dir() else {}


def read(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path
    assert all(isinstance(k, str) and isinstance(v, str) for k, v in data.items()), path
    return data


def catalog_files(code: str) -> dict[str, Path]:
    """Every catalog file of a language by its English counterpart's name ("shared/core",
    "game/bourre"), the files that exist."""
    files = {f"shared/{area}": path for area, path in areas(code).items()}
    for game in games():
        path = game_dir(game) / "i18n" / f"{code}.json"
        if path.is_file():
            files[f"game/{game.name}"] = path
    return files


ENGLISH = {name: read(path) for name, path in catalog_files(SOURCE).items()}
ENGLISH_ALL = {key: text for part in ENGLISH.values() for key, text in part.items()}
LANGS = list(LANGUAGES)


def test_english_has_a_catalog_for_every_area_and_every_built_in_game() -> None:
    assert {"shared/core", "shared/lobby", "shared/play", "shared/errors"} <= set(ENGLISH)
    for game in games():
        if game.board is not None and game_dir(game).parent.name == "domain":
            assert f"game/{game.name}" in ENGLISH, game.name
    assert len(ENGLISH_ALL) == sum(len(part) for part in ENGLISH.values()), "a key twice"


def test_every_english_key_is_named_by_its_area_or_its_game() -> None:
    for name, messages in ENGLISH.items():
        prefix = name.split("/")[1] + "."
        wrong = [key for key in messages if not key.startswith(prefix)]
        assert wrong == [], f"{name}: keys must start with {prefix!r}"


def test_the_shared_catalogs_name_no_game() -> None:
    for code in LANGS:
        for area, path in areas(code).items():
            text = path.read_text(encoding="utf-8")
            assert not GAME_NAMES.search(text), f"{code}/{area}.json names a game"


@pytest.mark.parametrize("code", LANGS)
def test_every_language_has_every_english_key(code: str) -> None:
    """Every English catalog file has its counterpart in the language, with the same keys."""
    files = catalog_files(code)
    missing_files = sorted(set(ENGLISH) - set(files))
    assert not missing_files, (
        f"{code} ({LANGUAGES[code].name}) has no catalog yet for {', '.join(missing_files)} "
        f"(api/web/i18n/{code}/<area>.json, domain/<game>/i18n/{code}.json)"
    )
    for name, path in files.items():
        own = read(path)
        english = ENGLISH.get(name, {})
        missing = sorted(set(english) - set(own))
        extra = sorted(set(own) - set(english))
        assert not missing, f"{code} {name}: {len(missing)} keys missing, e.g. {missing[:5]}"
        assert not extra, f"{code} {name}: keys English does not have: {extra[:5]}"


@pytest.mark.parametrize("code", LANGS)
def test_every_message_parses_with_the_language_plurals_and_english_placeholders(
    code: str,
) -> None:
    categories = plural_categories(code)
    problems = []
    for name, path in catalog_files(code).items():
        english = ENGLISH.get(name, {})
        for key, text in read(path).items():
            try:
                shape = parse_message(text)
            except MessageSyntaxError as error:
                problems.append(f"{key}: does not parse: {error}")
                continue
            for argument, chosen in shape.plurals:
                if chosen != categories:
                    problems.append(
                        f"{key}: plural {argument!r} has {sorted(chosen)}, "
                        f"{code} needs exactly {sorted(categories)}"
                    )
            if key in english:
                wanted = parse_message(english[key]).placeholders
                if shape.placeholders != wanted:
                    problems.append(f"{key}: placeholders {shape.placeholders} != {wanted}")
    assert problems == [], "\n".join(problems[:20])


def test_the_languages_plural_categories_are_cldr_s() -> None:
    assert plural_categories("en") == {"one", "other"}
    assert plural_categories("it") == {"one", "many", "other"}
    assert plural_categories("fa") == {"one", "other"}


# --- the keys the pages use -------------------------------------------------------------------

_T_CALL = re.compile(r"""\bt\(\s*["']([a-z][A-Za-z0-9_.-]+)["']""")
_ATTR = re.compile(r"""data-i18n(?:-title|-label)?="([a-z][A-Za-z0-9_.-]+)\"""")


def test_every_key_the_pages_name_is_in_english() -> None:
    sources = [*WEB_JS.glob("*.js"), ROOT / "api" / "web" / "page.html"]
    sources += [game.board for game in games() if game.board is not None]
    used = {
        (path.name, key)
        for path in sources
        for pattern in (_T_CALL, _ATTR)
        for key in pattern.findall(path.read_text(encoding="utf-8"))
    }
    assert len(used) > 200, "the pages' keys were found"
    assert sorted(f"{name}: {key}" for name, key in used if key not in ENGLISH_ALL) == []


def test_every_card_has_its_accessible_name() -> None:
    for suit in "SHDC":
        for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
            assert f"cards.name.{rank}{suit}" in ENGLISH_ALL
    assert ENGLISH_ALL["cards.name.QH"] == "queen of hearts"


def test_english_words_each_option_and_preset_as_the_registry_does() -> None:
    """The registry's labels are the source; English repeats them under the keys the lobby
    asks for (``<game>.option.<name>``, ``options.<name>`` for the options every game has)."""
    common = {option.name for option in (*COMMON_SCHEMA, *CLOCK_SCHEMA)}
    for game in games():
        if f"game/{game.name}" not in ENGLISH:
            continue
        assert ENGLISH_ALL[f"{game.name}.title"] == game.title
        for option in game.option_schema:
            spec = option.to_json()
            base = (
                f"options.{option.name}"
                if option.name in common
                else (f"{game.name}.option.{option.name}")
            )
            assert ENGLISH_ALL[base] == spec["label"], base
            if spec.get("help"):
                assert ENGLISH_ALL[f"{base}.help"] == spec["help"], base
            for value, label in zip(
                spec.get("choices") or [], spec.get("choiceLabels") or [], strict=False
            ):
                assert ENGLISH_ALL[f"{base}.choice.{value}"] == label, (base, value)
        for preset in game.presets:
            assert ENGLISH_ALL[f"{game.name}.preset.{preset.name}"] == preset.to_json()["label"]


def _problem_slugs() -> set[str]:
    slugs = set()
    for path in (ROOT / "api").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or len(node.args) < 2:
                continue
            callee = node.func.id if isinstance(node.func, ast.Name) else None
            if callee in ("ApiProblem", "problem_response") and isinstance(
                node.args[1], ast.Constant
            ):
                slugs.add(str(node.args[1].value))
    return slugs


def test_every_problem_type_the_api_raises_has_a_message() -> None:
    slugs = _problem_slugs()
    assert len(slugs) > 20, "the problem types were found"
    assert sorted(s for s in slugs if f"errors.type.{s}" not in ENGLISH_ALL) == []


def test_the_pages_and_the_server_know_the_same_languages() -> None:
    source = (WEB_JS / "i18n.js").read_text(encoding="utf-8")
    listed = re.findall(r'\{ code: "(\w+)", name: "([^"]+)", dir: "(ltr|rtl)" \}', source)
    assert listed == [(lang.code, lang.name, lang.dir) for lang in LANGUAGES.values()]


# --- the route --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Litestar]]:
    app = Litestar(route_handlers=i18n_route.ROUTES, exception_handlers=exception_handlers())
    with TestClient(app) as test_client:
        yield test_client


def test_the_catalog_route_serves_each_language_with_english_for_what_it_lacks(
    client: TestClient[Litestar],
) -> None:
    english = client.get("/i18n/en.json").json()
    assert (english["lang"], english["dir"], english["fallback"]) == ("en", "ltr", {})
    assert english["messages"] == ENGLISH_ALL
    persian = client.get("/i18n/fa.json")
    assert persian.headers["content-language"] == "fa"
    body = persian.json()
    assert body["dir"] == "rtl"
    assert set(body["messages"]) | set(body["fallback"]) == set(ENGLISH_ALL)
    assert not set(body["messages"]) & set(body["fallback"])
    assert [lang["code"] for lang in body["languages"]] == LANGS


@pytest.mark.parametrize("name", ["xx.json", "fa", "fa.txt", "../en.json"])
def test_an_unknown_catalog_is_a_404_problem(client: TestClient[Litestar], name: str) -> None:
    answer = client.get(f"/i18n/{name}")
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("application/problem+json")


def test_an_unchanged_catalog_is_revalidated_by_its_etag(client: TestClient[Litestar]) -> None:
    first = client.get("/i18n/it.json")
    again = client.get("/i18n/it.json", headers={"If-None-Match": first.headers["etag"]})
    assert (again.status_code, again.content) == (304, b"")
