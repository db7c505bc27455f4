"""Playing: issue a command, list the caller's legal commands (design §5)."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from litestar import Response, get, post
from litestar.params import JSONBody

from api.auth import seat_of, viewer_of
from api.commands import command_object, to_command
from api.params import Authorization, IdempotencyKey, TableId
from api.problems import documented
from api.schemas import CommandAccepted
from api.services import Services, ServicesDep, blocking
from infra.store import IdempotencyKeyReused

COMMAND_BODIES = (
    'Bourré: {"type": "declare", "play": true, "discard": ["7D", "2C"]} or '
    '{"type": "play_card", "card": "AS"}; Burraco: {"type": "draw"}, {"type": "take_pile"}, '
    '{"type": "meld", "cards": ["5H", "6H", "7H"]}, '
    '{"type": "add_to_meld", "meld": 0, "cards": ["8H"]}, {"type": "discard", "card": "KD"}. '
    'Optional "expectedVersion": the table version the command was decided on.'
)


ISSUE_DESCRIPTION = (
    "Issue a command as the token's seat. The answer carries the new table version, the log "
    "position to pass as `?after=` for read-your-writes, and the events written as this seat "
    "sees them. A rejected command writes nothing; a retried `Idempotency-Key` returns the "
    "first answer, and the key sent with a different command (or expectedVersion) is a 422 "
    "`idempotency-key-reused` problem. Bodies: " + COMMAND_BODIES
)


@post(
    "/tables/{table_id:uuid}/commands",
    status_code=200,
    summary="Issue a command",
    description=ISSUE_DESCRIPTION,
    responses=documented(400, 401, 403, 404, 409, 422, 503),
    security=[{"seatToken": []}],
)
async def issue_command(
    table_id: TableId,
    data: JSONBody[dict[str, Any]],
    services: ServicesDep,
    authorization: Authorization = None,
    idempotency_key: IdempotencyKey = None,
) -> CommandAccepted:
    """Issue a command as the token's seat. The answer carries the new table version, the
    log position to pass as ``?after=`` for read-your-writes, and the events written as this
    seat sees them. A rejected command writes nothing; a retried ``Idempotency-Key`` returns
    the first answer, and the key sent with a different command is a 422 problem."""
    # One worker-thread hop for the whole command: auth, decoding, deciding, redacting.
    return await blocking(decide_command, services, table_id, authorization, data, idempotency_key)


def decide_command(
    services: Services,
    table_id: UUID,
    authorization: str | None,
    body: dict[str, Any],
    idempotency_key: str | None,
) -> CommandAccepted:
    seat = seat_of(services, table_id, authorization)
    facts = services.facts(table_id)
    command, expected = to_command(facts.game, body, seat)
    # Keys are scoped to the seat: another seat reusing a key never receives this seat's result.
    key = f"seat{seat}:{idempotency_key}" if idempotency_key is not None else None
    try:
        result = services.store.execute(
            table_id, command, expected_version=expected, idempotency_key=key
        )
    except IdempotencyKeyReused as error:
        # Name the key the client sent, not the store's seat-scoped one.
        raise IdempotencyKeyReused(error.key.removeprefix(f"seat{seat}:")) from error
    settled = facts.settled_hands(result.events)
    return CommandAccepted(
        version=result.version,
        position=result.position,
        events=[facts.redact(recorded, seat, settled) for recorded in result.events],
    )


@get("/tables/{table_id:uuid}/legal", summary="Legal commands", responses=documented(401, 404, 503))
async def legal_commands(
    table_id: TableId, services: ServicesDep, authorization: Authorization = None
) -> Response[list[dict[str, Any]]]:
    """The caller's legal commands now, as command objects ready to post to ``/commands``
    (empty when the table waits for someone else; spectators have none). The
    ``X-Table-Version`` header is the version they were computed at (use it as
    ``expectedVersion``)."""
    commands, version = await blocking(read_legal, services, table_id, authorization)
    return Response(commands, headers={"X-Table-Version": str(version)})


def read_legal(
    services: Services, table_id: UUID, authorization: str | None
) -> tuple[list[dict[str, Any]], int]:
    seat = viewer_of(services, table_id, authorization)
    loaded = services.store.get(table_id)
    if seat is None:
        return [], services.facts(table_id).visible_version(None, loaded.version)
    commands = loaded.game.legal_commands(loaded.state, seat)
    return [command_object(c) for c in commands], loaded.version


ROUTES = [issue_command, legal_commands]
