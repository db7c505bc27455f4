"""The card room's languages (design §5, "Languages"): message catalogs, one source of keys.

A catalog maps a key (``area.word``) to an ICU MessageFormat string (``{n, plural, one {#
card} other {# cards}}``). English is the source: every key exists in English first. For a
language the catalog is merged from

* the shared files ``api/web/i18n/<lang>/<area>.json``, one file per area of the pages (core,
  lobby, play, watch, result, options, accounts, errors, …; any file of the folder is
  picked up, so a new page adds its own area file), and
* each registered game's ``i18n/<lang>.json`` in the game's package (its option labels, the
  narration of its events, its terms), keys starting with ``<game>.`` — shared code names no
  game: the games are asked of the registry.

``GET /i18n/<lang>.json`` (:mod:`api.routes.i18n`) serves ``messages`` (the language's own
strings) and ``fallback`` (the English string of every key the language lacks): the page
formats a fallback with English plural rules, so a missing key shows English, never the raw
key. Babel gives the CLDR data the server needs (plural categories, direction, negotiation).
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from functools import cache
from hashlib import blake2b
from pathlib import Path
from typing import Any

from babel import Locale, negotiate_locale

from api.problems import ApiProblem
from domain.games import games

SHARED_DIR = Path(__file__).resolve().parent / "web" / "i18n"
SOURCE = "en"


@dataclass(frozen=True)
class Language:
    """A language the card room speaks: its code, its own name and its direction."""

    code: str
    name: str  # the language's name in itself (the picker shows it)
    dir: str  # "ltr" or "rtl"


LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        Language("en", "English", "ltr"),
        Language("it", "Italiano", "ltr"),
        Language("kn", "ಕನ್ನಡ", "ltr"),
        Language("bn", "বাংলা", "ltr"),
        Language("fa", "فارسی", "rtl"),
        Language("mn", "Монгол", "ltr"),
        Language("gu", "ગુજરાતી", "ltr"),
    )
}


def plural_categories(code: str) -> frozenset[str]:
    """The CLDR plural categories of a language (``other`` included), from Babel."""
    return frozenset(Locale.parse(code).plural_form.tags) | {"other"}


def negotiate(accept_language: str) -> str:
    """The best language of ours for an ``Accept-Language`` header; English when none fits."""
    wanted: list[tuple[float, str]] = []
    for index, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            wanted.append((-quality + index * 1e-6, tag.replace("_", "-")))
    preferred = [tag for _, tag in sorted(wanted)]
    found = negotiate_locale(preferred, list(LANGUAGES), sep="-")
    if found is None:  # "fa-IR" against "fa": compare the base language too
        found = next((t.split("-")[0] for t in preferred if t.split("-")[0] in LANGUAGES), None)
    return found or SOURCE


def game_dir(game: Any) -> Path:
    """The package folder of a game: where its board lives, else its rules' module."""
    if game.board is not None:
        return Path(game.board).parent
    return Path(sys.modules[type(game.rules).__module__].__file__ or ".").parent


def shared_files(code: str) -> list[Path]:
    """The shared area files of a language, by area name."""
    folder = SHARED_DIR / code
    return sorted(folder.glob("*.json")) if folder.is_dir() else []


def game_files(code: str) -> list[tuple[str, Path]]:
    """Each registered game's catalog file for a language that exists, as (game, path)."""
    found = []
    for game in games():
        path = game_dir(game) / "i18n" / f"{code}.json"
        if path.is_file():
            found.append((game.name, path))
    return found


def _read(path: Path) -> dict[str, str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not all(isinstance(v, str) for v in data.values()):
        raise ValueError(f"{path}: a catalog is one flat object of key -> message string")
    return data


def messages(code: str) -> dict[str, str]:
    """Every message of a language: its shared area files and every game's file merged."""
    merged: dict[str, str] = {}
    for path in shared_files(code):
        merged.update(_read(path))
    for _, path in game_files(code):
        merged.update(_read(path))
    return merged


@cache
def _catalog(code: str, stamp: tuple[tuple[str, int], ...]) -> bytes:
    language = LANGUAGES[code]
    own = messages(code)
    source = messages(SOURCE)
    body = {
        "lang": code,
        "dir": language.dir,
        "languages": [{"code": c.code, "name": c.name, "dir": c.dir} for c in LANGUAGES.values()],
        "messages": {key: own[key] for key in source if key in own},
        "fallback": {key: text for key, text in source.items() if key not in own},
    }
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def catalog_json(code: str) -> bytes:
    """The body of ``GET /i18n/<code>.json`` (module docstring); rebuilt when a file changes."""
    paths = [*shared_files(code), *shared_files(SOURCE)]
    paths += [p for _, p in (*game_files(code), *game_files(SOURCE))]
    stamp = tuple((str(p), p.stat().st_mtime_ns) for p in paths)
    return _catalog(code, stamp)


def catalog_file(name: str) -> tuple[str, bytes, str]:
    """The catalog a ``GET /i18n/{name}`` asks for (``<code>.json``): its language code, body
    and ETag; :class:`~api.problems.ApiProblem` 404 naming the languages for any other name."""
    code, dot, ext = name.partition(".")
    if not dot or ext != "json" or code not in LANGUAGES:
        known = ", ".join(LANGUAGES)
        raise ApiProblem(
            404, "language-not-found", f"no catalog {name!r}; the languages are {known}"
        )
    body = catalog_json(code)
    return code, body, '"' + blake2b(body, digest_size=12).hexdigest() + '"'
