"""From a command body on the wire to the game's command (design §5, "Command types").

The body is ``{"type": …, <fields>…, "expectedVersion"?}``. The seat comes from the bearer
token, never from the body: a body naming another seat is refused (403). Card codes are
checked and written canonically (``"10h"`` -> ``"10H"``) before the game sees them, so a bad
card is reported with the field that holds it, and a list of more cards than the pack holds is
refused before anything else reads it. A body that is not an object, lacks a field or
has one of the wrong type is the API's one malformed-body problem (400 ``malformed-request``,
naming the field), as on every other POST. Table-level commands have their own endpoints.
"""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec

from api.problems import MALFORMED, ApiProblem
from domain.cards import CardError, card
from domain.game import Game

TABLE_LEVEL = {
    "open_table": "create a table with POST /tables",
    "take_seat": "take a seat with POST /tables/{id}/seats",
    "time_out": "the timekeeper sends it when a turn clock runs out (option turn_seconds)",
}
CARD_FIELDS = ("card",)  # one card code
CARDS_FIELDS = ("cards", "discard")  # lists of card codes
MAX_EXPECTED_VERSION = 2**53
_AT_PATH = re.compile(r"at `\$\.?([^`]*)`")
_MISSING = re.compile(r"missing required field `([^`]*)`")


def _field_of(message: str) -> str | None:
    found = _AT_PATH.search(message) or _MISSING.search(message)
    return found.group(1) if found else None


_TYPES: dict[str, dict[str, type[msgspec.Struct]]] = {}


def command_types(game: Game) -> dict[str, type[msgspec.Struct]]:
    """The game's command classes by their wire ``type`` tag (worked out once per game)."""
    known = _TYPES.get(game.name)
    if known is None:
        known = _TYPES[game.name] = _tagged_members(game.command_type)
    return known


@functools.cache
def _field_names(cls: type[msgspec.Struct]) -> frozenset[str]:
    return frozenset(f.encode_name for f in msgspec.structs.fields(cls))


def _tagged_members(union: Any) -> dict[str, type[msgspec.Struct]]:
    members = getattr(union, "__args__", None) or (union,)
    out: dict[str, type[msgspec.Struct]] = {}
    for member in members:
        info = msgspec.inspect.type_info(member)
        if isinstance(info, msgspec.inspect.StructType) and info.tag is not None:
            out[str(info.tag)] = member
    return out


def _canonical_card(field: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value  # the type check below names the field
    try:
        return card(value).code
    except CardError as error:
        raise ApiProblem(422, "invalid-card", f"{field}: {error}", field=field) from None


def _canonical_cards(body: dict[str, Any], most: int) -> None:
    """Card codes written canonically; a list of more cards than the game's whole pack (no
    hand can hold more) is refused before any code is read or any rule runs."""
    for name in CARDS_FIELDS:
        value = body.get(name)
        if isinstance(value, list) and len(value) > most:
            raise ApiProblem(
                400, MALFORMED, f"{name}: at most {most} cards (the whole pack)", field=name
            )
    for name in CARD_FIELDS:
        if name in body:
            body[name] = _canonical_card(name, body[name])
    for name in CARDS_FIELDS:
        value = body.get(name)
        if isinstance(value, list):
            body[name] = [_canonical_card(f"{name}[{i}]", v) for i, v in enumerate(value)]


def expected_version_of(body: dict[str, Any]) -> int | None:
    value = body.get("expectedVersion")
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not 0 <= value <= MAX_EXPECTED_VERSION
    ):
        raise ApiProblem(
            400,
            MALFORMED,
            "expectedVersion must be a non-negative integer (the table version you acted on)",
            field="expectedVersion",
        )
    return value


def to_command(game: Game, body: Any, seat: int) -> tuple[Any, int | None]:
    """The game command for ``body`` issued by ``seat``, and the ``expectedVersion`` if any."""
    if not isinstance(body, dict):
        raise ApiProblem(400, MALFORMED, "the command must be a JSON object with a 'type'")
    raw = dict(body)
    expected = expected_version_of(raw)
    raw.pop("expectedVersion", None)
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise ApiProblem(
            400, MALFORMED, "the command needs a 'type' string, e.g. \"play_card\"",
            field="type",
        )  # fmt: skip
    if kind in TABLE_LEVEL:
        raise ApiProblem(
            422, "not-a-table-command", f"{kind!r} is not sent to /commands: {TABLE_LEVEL[kind]}",
            field="type",
        )  # fmt: skip
    types = command_types(game)
    cls = types.get(kind)
    if cls is None or kind in TABLE_LEVEL:
        playable = ", ".join(sorted(t for t in types if t not in TABLE_LEVEL))
        raise ApiProblem(
            422,
            "unknown-command",
            f"{game.name} has no command {kind!r}; commands are: {playable}",
            field="type",
        )
    if "seat" in raw and raw["seat"] != seat:
        raise ApiProblem(
            403, "not-your-seat", f"your token holds seat {seat}, not seat {raw['seat']!r}",
            field="seat",
        )  # fmt: skip
    raw["seat"] = seat
    fields = _field_names(cls)
    unknown = sorted(set(raw) - fields - {"type"})
    if unknown:
        raise ApiProblem(
            400,
            MALFORMED,
            f"{kind!r} has no field {unknown[0]!r}; its fields are: "
            + ", ".join(sorted(fields - {"seat"})),
            field=unknown[0],
        )
    _canonical_cards(raw, len(game.table.pack))
    try:
        command = msgspec.convert(raw, cls)
    except msgspec.ValidationError as error:
        message = str(error)
        raise ApiProblem(400, MALFORMED, f"{kind}: {message}", field=_field_of(message)) from None
    return command, expected


def command_object(command: Any) -> dict[str, Any]:
    """A game command as a client sends it back: wire keys, no ``seat`` (it is the token's)."""
    out = msgspec.to_builtins(command)
    assert isinstance(out, dict)
    out.pop("seat", None)
    return out
