"""Playing: issue a command, list the caller's legal commands (design §5)."""

from __future__ import annotations

from typing import Any

from litestar import Response, get, post
from litestar.params import JSONBody

from api import reads, writes
from api.params import Authorization, IdempotencyKey, TableId
from api.problems import documented
from api.schemas import CommandAccepted
from api.services import ServicesDep, blocking

COMMAND_BODIES = (
    "each game's commands, as its rules name them (docs/rules/), e.g. "
    '{"type": "declare", "play": true, "discard": ["7D", "2C"]}, '
    '{"type": "play_card", "card": "AS"}, {"type": "draw"}, {"type": "take_pile"}, '
    '{"type": "meld", "cards": ["5H", "6H", "7H"]}, '
    '{"type": "add_to_meld", "meld": 0, "cards": ["8H"]}, {"type": "discard", "card": "KD"}; '
    "the seat's legal commands list those it may issue now. "
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
    "/tables/{table_id:str}/commands",
    status_code=200,
    summary="Issue a command",
    description=ISSUE_DESCRIPTION,
    responses=documented(400, 401, 403, 404, 409, 413, 422, 429, 503),
    security=[{"seatToken": []}],
)
async def issue_command(
    table_id: TableId,
    data: JSONBody[dict[str, Any]],
    services: ServicesDep,
    authorization: Authorization = None,
    idempotency_key: IdempotencyKey = None,
) -> CommandAccepted:
    """Issue a command as the token's seat (see the description above)."""
    # One worker-thread hop for the whole command: auth, decoding, deciding, redacting.
    return await blocking(writes.issue, services, table_id, authorization, data, idempotency_key)


@get(
    "/tables/{table_id:str}/legal",
    summary="Legal commands",
    responses=documented(400, 401, 404, 503),
    security=[{"seatToken": []}],
)
async def legal_commands(
    table_id: TableId, services: ServicesDep, authorization: Authorization = None
) -> Response[list[dict[str, Any]]]:
    """The caller's legal commands now, as command objects ready to post to ``/commands``
    (empty when the table waits for someone else). Needs the seat's token: without one it is
    a 401 telling how to take a seat. ``X-Table-Version`` is the version they hold at (use it
    as ``expectedVersion``)."""
    commands, version = await blocking(reads.legal, services, table_id, authorization)
    return Response(commands, headers={"X-Table-Version": str(version)})


ROUTES = [issue_command, legal_commands]
