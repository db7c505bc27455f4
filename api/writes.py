"""What the write routes call: the command service (:mod:`infra.command_service`) from HTTP bodies.

Each function is synchronous (routes run it in a worker thread, :func:`api.services.blocking`)
and does one whole request: check the caller, turn the body into the game's command, run it,
and answer with what the caller may see.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any
from uuid import UUID

from api import accounts, embargo
from api.auth import seat_of
from api.command_bodies import to_command
from api.problems import MALFORMED, ApiProblem
from api.schemas import CommandAccepted, CreateTable, SeatTaken, TableCreated, TakeSeat
from api.services import Services
from bots import UnknownBot
from domain.cards import CardError, card
from domain.games import game_named
from domain.table.fork import FORK_OPTIONS
from domain.table.leaving import SeatLeft
from infra.errors import IdempotencyKeyReused
from infra.results import CommandResult
from managers import bot_worker


def create_table(services: Services, body: CreateTable) -> TableCreated:
    """Open a table (the game is checked first, then fixed deals, then the options). A
    ``seed`` fixes the deals as stacked ``decks`` do: both only where the server allows it."""
    game_named(body.game)  # 422 naming 'game' before anything else
    fixing = "decks" if body.decks is not None else "seed" if body.seed is not None else None
    if fixing and not services.settings.allow_stacked_decks:
        raise ApiProblem(
            403,
            "stacked-decks-off",
            f"fixed deals ({fixing!r}) are disabled on this server "
            "(CARDROOM_ALLOW_STACKED_DECKS=1)",
            field=fixing,
        )
    for mark in FORK_OPTIONS:  # set by POST /tables/{id}/fork only (domain.table.fork)
        if mark in body.options:
            raise ApiProblem(
                422, "invalid-option", f"{mark} is set by POST /tables/{{id}}/fork only",
                field=mark,
            )  # fmt: skip
    decks = None if body.decks is None else canonical_decks(body.decks)
    result = services.commands.create_table(body.game, body.options, seed=body.seed, decks=decks)
    return TableCreated(
        table_id=str(result.table_id),
        game=body.game,
        version=result.version,
        position=result.position,
    )


def canonical_decks(decks: list[list[str]]) -> list[list[str]]:
    """Stacked decks with every code checked and written canonically; a bad code is named
    by its place (``decks[0][7]``)."""
    out: list[list[str]] = []
    for h, deck in enumerate(decks):
        row = []
        for i, code in enumerate(deck):
            try:
                row.append(card(code).code)
            except CardError as error:
                where = f"decks[{h}][{i}]"
                raise ApiProblem(422, "invalid-card", f"{where}: {error}", field=where) from None
        out.append(row)
    return out


def take_seat(
    services: Services, table_id: UUID, body: TakeSeat, session: str | None = None
) -> SeatTaken:
    """Seat a player; the answer holds the seat's bearer token, shown only this once. With
    ``bot`` instead of ``name`` a server-side bot takes the seat (:mod:`managers.bot_worker`);
    with neither, signed in (``session``), the account takes it (:func:`api.accounts.take_seat`)."""
    services.queries.facts(table_id)  # 404 for an unknown table
    embargo.refuse_seats(services, table_id)  # a tournament seats its own tables (design §10)
    if body.bot is None and body.name is None and session is not None:
        return accounts.take_seat(services, table_id, session, body.seat)
    if body.bot is None and body.name is None:
        raise ApiProblem(400, MALFORMED, "missing required field `name` (or `bot`)", field="name")
    if body.bot is not None and body.name is not None:
        raise ApiProblem(400, MALFORMED, "send `name` or `bot`, not both", field="bot")
    if body.bot is not None:
        return seat_bot(services, table_id, body.bot, body.seat)
    assert body.name is not None
    accounts.not_an_accounts_name(services, body.name)
    seat, token, result = services.commands.take_seat(table_id, body.name.strip(), body.seat)
    return SeatTaken(
        table_id=str(table_id),
        seat=seat,
        token=token,
        version=result.version,
        position=result.position,
    )


def seat_bot(services: Services, table_id: UUID, kind: str, seat: int | None) -> SeatTaken:
    """A server-side bot of ``kind`` takes a seat; nobody receives its token."""
    try:
        seated, result = bot_worker.seat_bot(services.store, table_id, kind, seat)
    except UnknownBot as error:
        raise ApiProblem(422, "unknown-bot", str(error), field="bot") from error
    return SeatTaken(
        table_id=str(table_id),
        seat=seated,
        token="",
        version=result.version,
        position=result.position,
        bot=kind,
    )


def issue(
    services: Services,
    table_id: UUID,
    authorization: str | None,
    body: dict[str, Any],
    idempotency_key: str | None,
) -> CommandAccepted:
    """Run a command as the token's seat; the events written come back as that seat sees
    them. Idempotency keys are scoped to the seat: another seat reusing a key never receives
    this seat's result."""
    seat, command, expected, key = _command_of(
        services, table_id, authorization, body, idempotency_key
    )
    try:
        result = services.commands.execute(
            table_id, command, expected_version=expected, idempotency_key=key
        )
    except IdempotencyKeyReused as error:
        raise _client_key(error, seat) from error
    return _accepted(services, table_id, seat, result)


Issue = tuple[UUID, str | None, dict[str, Any], str | None]  # issue's arguments after services


def issue_many(
    services: Services, requests: Sequence[Issue]
) -> list[CommandAccepted | Exception | Callable[[], CommandAccepted]]:
    """:func:`issue` for several requests at once, their saves in one transaction
    (:meth:`infra.command_service.TableCommands.execute_many`; the command lane,
    :mod:`api.commandlane`). Each request's answer, in order: what :func:`issue` returns, what
    it raises, or the rest of its work as a call to run elsewhere."""
    outcomes: list[CommandAccepted | Exception | Callable[[], CommandAccepted] | None]
    outcomes = [None] * len(requests)
    runs: list[tuple[UUID, Any, int | None, str | None]] = []
    seats: list[tuple[int, UUID, int]] = []
    for i, (table_id, authorization, body, idempotency_key) in enumerate(requests):
        try:
            seat, command, expected, key = _command_of(
                services, table_id, authorization, body, idempotency_key
            )
        except Exception as error:
            outcomes[i] = error
            continue
        runs.append((table_id, command, expected, key))
        seats.append((i, table_id, seat))
    for (i, table_id, seat), result in zip(
        seats, services.commands.execute_many(runs), strict=True
    ):
        if isinstance(result, IdempotencyKeyReused):
            outcomes[i] = _client_key(result, seat)
        elif isinstance(result, Exception):
            outcomes[i] = result
        elif callable(result):
            outcomes[i] = functools.partial(_finish, services, table_id, seat, result)
        else:
            try:
                outcomes[i] = _accepted(services, table_id, seat, result)
            except Exception as error:
                outcomes[i] = error
    assert all(outcome is not None for outcome in outcomes)
    return outcomes  # type: ignore[return-value]


def _command_of(
    services: Services,
    table_id: UUID,
    authorization: str | None,
    body: dict[str, Any],
    idempotency_key: str | None,
) -> tuple[int, Any, int | None, str | None]:
    """The caller's seat, the game's command and expected version, the seat-scoped key."""
    seat = seat_of(services, table_id, authorization)
    command, expected = to_command(services.queries.facts(table_id).game, body, seat)
    key = f"seat{seat}:{idempotency_key}" if idempotency_key is not None else None
    return seat, command, expected, key


def _client_key(error: IdempotencyKeyReused, seat: int) -> IdempotencyKeyReused:
    """Name the key the client sent, not the store's seat-scoped one."""
    named = IdempotencyKeyReused(error.key.removeprefix(f"seat{seat}:"))
    named.__cause__ = error
    return named


def _finish(
    services: Services, table_id: UUID, seat: int, execute: Callable[[], CommandResult]
) -> CommandAccepted:
    """The rest of :func:`issue` for a command :func:`issue_many` could not finish."""
    try:
        result = execute()
    except IdempotencyKeyReused as error:
        raise _client_key(error, seat) from error
    return _accepted(services, table_id, seat, result)


def _accepted(
    services: Services, table_id: UUID, seat: int, result: CommandResult
) -> CommandAccepted:
    if any(isinstance(stored.event, SeatLeft) for stored in result.events):
        services.queries.forget_seats(table_id)  # the leaver's token holds no seat now
    events = services.queries.redacted(table_id, seat, result.events)
    return CommandAccepted(version=result.version, position=result.position, events=events)
