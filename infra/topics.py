"""Stable topics: the name each stored row gives its class, independent of module paths
(design §3, docs/decisions/0008-stable-event-topics.md).

A stored event's topic says which class its body decodes to. Derived from the game registry
(:mod:`domain.games`), so a new game gets names for free:

* an event of the table kernel or its turn clock (shared by every game) is ``table/<tag>``:
  ``table/TableOpened``, ``table/PlayerSeated``, ``table/TurnTimedOut``, …;
* any other event of a game's ``event_type`` is ``<game>/<tag>`` (``<game>/Dealt``), the tag
  being the event's msgspec tag — already stored as its ``type``, so a class renamed with its
  tag kept keeps its rows;
* a game's state (what snapshots store) is ``<game>/<Class>`` (``<game>/Table``), the class
  being the return type of the game's ``evolve``.

Two classes under one name, or one non-kernel class in two games' events, are refused
(:class:`DuplicateTopic`). :func:`topics` registers every name with eventsourcing
(``eventsourcing.utils.register_topic``), so the library resolves it like its own topics.

Rows stored before stable names carry the module path their class had then
(``domain.<game>.events:Dealt``): every game's events lived in ``domain/<game>/events.py``, its
state in ``domain/<game>/state.py``, the kernel's events in ``domain/table/`` and the clock's in
``domain/table/clock.py``. Those paths are kept here as literal patterns (:data:`LEGACY`), not
read from ``__module__``, so such rows still load after any module moves: each is an alias of
its stable name. New rows are written with the stable names only.

Only registered classes are ever resolved: a row can never make us import code.
"""

from __future__ import annotations

import threading
import typing
from dataclasses import dataclass
from typing import Any

from eventsourcing.utils import register_topic

from domain.games import games
from domain.table import (
    BoardReleased,
    CloseAsked,
    Event,
    PlayerSeated,
    TableEnded,
    TableOpened,
)
from domain.table.clock import CLOCK_EVENTS
from domain.table.fork import TableForked
from domain.table.leaving import SeatLeft

KERNEL = "table"  # the namespace of the events every game shares
KERNEL_EVENTS: tuple[type, ...] = (
    TableOpened, PlayerSeated, TableEnded, CloseAsked, SeatLeft, *CLOCK_EVENTS, TableForked,
    BoardReleased,
)  # fmt: skip

# Where the classes lived when rows carried module paths (see the module docstring).
LEGACY = {
    "kernel": "domain.table:{tag}",
    "clock": "domain.table.clock:{tag}",
    "events": "domain.{game}.events:{tag}",
    "state": "domain.{game}.state:{name}",
}


class DuplicateTopic(ValueError):
    """Two stored classes would share one stable topic."""


@dataclass(frozen=True, slots=True)
class Topics:
    """The stable names of the registered games' stored classes.

    ``events``/``states``: class -> the topic written; ``classes``: every topic read (stable
    names and legacy module paths) -> class.
    """

    events: dict[type, str]
    states: dict[type, str]
    classes: dict[str, type]

    def event_class(self, topic: str) -> type | None:
        cls = self.classes.get(topic)
        return cls if cls is not None and cls in self.events else None

    def state_class(self, topic: str) -> type | None:
        cls = self.classes.get(topic)
        return cls if cls is not None and cls in self.states else None


def tag_of(cls: type) -> str:
    """An event class's msgspec tag (its stored ``type``; the class's name by default)."""
    tag = getattr(getattr(cls, "__struct_config__", None), "tag", None)
    return tag if isinstance(tag, str) else cls.__name__


def state_class_of(game: Any) -> type | None:
    """A game's state class: the return type of its ``evolve`` (``None`` if not annotated)."""
    try:
        found = typing.get_type_hints(game.rules.evolve).get("return")
    except Exception:  # an annotation that does not resolve: no snapshots for this game
        return None
    return found if isinstance(found, type) else None


def build(registered: typing.Iterable[Any]) -> Topics:
    """The topics of ``registered`` games (see the module docstring); raises
    :class:`DuplicateTopic`. Pure: :func:`topics` registers them with the library."""
    events: dict[type, str] = {}
    states: dict[type, str] = {}
    classes: dict[str, type] = {}

    def name(cls: type, topic: str, owner: str, into: dict[type, str]) -> None:
        known = classes.get(topic)
        if known is not None and known is not cls:
            raise DuplicateTopic(
                f"{owner}: {cls.__module__}.{cls.__qualname__} and "
                f"{known.__module__}.{known.__qualname__} would both be stored as {topic!r}"
            )
        named = events.get(cls) or states.get(cls)
        if named is not None and named != topic:
            raise DuplicateTopic(
                f"{owner}: {cls.__qualname__} is stored as {named!r} already, not {topic!r}; "
                "an event shared by games belongs to the table kernel"
            )
        classes[topic] = cls
        into[cls] = topic

    aliases: dict[str, type] = {}
    for cls in KERNEL_EVENTS:
        tag = tag_of(cls)
        name(cls, f"{KERNEL}/{tag}", "the table kernel", events)
        legacy = LEGACY["clock" if cls in CLOCK_EVENTS else "kernel"]
        aliases[legacy.format(tag=tag)] = cls
    for game in registered:
        owner = f"game {game.name!r}"
        for cls in typing.get_args(game.event_type):
            if isinstance(cls, type) and issubclass(cls, Event) and cls not in KERNEL_EVENTS:
                check_upcasters(cls)
                tag = tag_of(cls)
                name(cls, f"{game.name}/{tag}", owner, events)
                aliases[LEGACY["events"].format(game=game.name, tag=tag)] = cls
        state = state_class_of(game)
        if state is not None:
            name(state, f"{game.name}/{state.__name__}", owner, states)
            aliases[LEGACY["state"].format(game=game.name, name=state.__name__)] = state
    for legacy, cls in aliases.items():
        classes.setdefault(legacy, cls)
    return Topics(events, states, classes)


def check_upcasters(cls: type) -> None:
    """A class at ``class_version`` N > 1 has ``upcast_v1_v2`` … ``upcast_v<N-1>_v<N>``."""
    version = class_version(cls)
    missing = [
        f"upcast_v{v}_v{v + 1}"
        for v in range(1, version)
        if not callable(getattr(cls, f"upcast_v{v}_v{v + 1}", None))
    ]
    if missing:
        raise TypeError(f"{cls.__qualname__} is at class_version {version} but lacks {missing}")


def class_version(cls: type) -> int:
    """The version of a stored class's shape (eventsourcing's ``class_version``; 1 if unset)."""
    version = getattr(cls, "class_version", 1)
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise TypeError(f"{cls.__qualname__}.class_version must be a positive integer")
    return version


_built: tuple[tuple[Any, ...], Topics] | None = None
_lock = threading.Lock()


def topics() -> Topics:
    """The topics of the games registered now (rebuilt when a game is registered), each
    registered with eventsourcing (``register_topic``) too."""
    registered = games()
    built = _built
    if built is not None and built[0] == registered:
        return built[1]
    return _rebuild(registered)


def _rebuild(registered: tuple[Any, ...]) -> Topics:
    global _built
    with _lock:
        if _built is None or _built[0] != registered:
            named = build(registered)
            for topic, cls in named.classes.items():
                register_topic(topic, cls)
            _built = (registered, named)
        return _built[1]
