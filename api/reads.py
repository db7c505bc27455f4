"""What the read routes call: the read models first, the event store's queries otherwise.

Live views and ledgers come from the Redis read models (:mod:`projections.reader`);
``?after=`` waits, bounded and on the event loop, for the projection to reach a log position
(a timeout is a 503 problem, never stale data served silently). A table the projection has
not reached yet is answered by the write side's query service (:mod:`infra.queries`) under
the same visibility rules, ``spectator_delay`` included. Timelines, replays, deal
verification and legal commands come from the query service; health asks the store and
Redis. Every function here but :func:`after` is synchronous: routes run it in a worker
thread (:func:`api.services.blocking`), through :func:`after` when they take ``?after=``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from api import embargo
from api.auth import seat_of, viewer_of
from api.command_bodies import command_object
from api.problems import MALFORMED, ApiProblem
from api.schemas import Health, ProjectionHealth, ShardHealth, Verification
from api.services import Services, blocking
from domain.errors import InvalidOption
from domain.games import game_named
from managers.timekeeper import SETTLE_WINDOW
from projections.ledger import Ledger
from projections.lobby import OPEN, BadCursor
from projections.views import turn_deadline

log = logging.getLogger("cardroom.api")
T = TypeVar("T")
TIMELINE_PAGE = 500  # events in a timeline page unless ``limit`` says otherwise
WAIT_TIMEOUT = 5.0  # seconds a read waits for the projection before answering 503


async def after(
    services: Services,
    position: int | None,
    read: Callable[..., T],
    *args: Any,
    table: UUID | None = None,
) -> T:
    """Read-your-writes: ``read(services, *args)`` in a worker thread once the read models have
    reached log position ``position`` (None: at once). A read of one ``table`` waits for the
    shard projecting it alone (docs/scaling.md); others for every shard. The wait holds no
    thread: it sleeps on the process's position feed (:mod:`api.position_feed`), bounded by
    ``WAIT_TIMEOUT`` (then a 503 problem, never stale data served silently); a position the
    log has not written is a 422."""
    shard = None if table is None else services.read_models.shard_of(table)
    waits = position is not None and not await blocking(_reached, services, position, shard)
    if waits and not await services.feed.wait_for(position or 0, WAIT_TIMEOUT, shard):
        raise ApiProblem(
            503,
            "projection-behind",
            f"the read models did not reach position {position} within {WAIT_TIMEOUT:g}s "
            f"(they are at {services.feed.position_of(shard)}); retry shortly",
            field="after",
            headers={"Retry-After": "1"},
        )
    return await blocking(read, services, *args)


def _reached(services: Services, position: int, shard: int | None) -> bool:
    """Whether the read models (``shard``'s, or all) have reached ``position`` (422 beyond the
    log's head)."""
    if services.read_models.position(shard) >= position:
        return True
    head = services.store.max_position()
    if position > head:
        raise ApiProblem(
            422,
            "unknown-position",
            f"after={position} is beyond the event log (latest position {head})",
            field="after",
        )
    return False


def table_view(
    services: Services, table_id: UUID, authorization: str | None
) -> tuple[str, bytes | dict[str, Any]]:
    """``(source, view)``: the caller's view from the read models (as stored, JSON bytes) or,
    before the projection has reached the table, from the store."""
    viewer = viewer_of(services, table_id, authorization)
    stored = services.read_models.view_json(table_id, viewer)
    if stored is not None:
        return "read-model", stored
    return "store", with_deadline(services, table_id, services.queries.view(table_id, viewer))


def with_deadline(services: Services, table_id: UUID, view: dict[str, Any]) -> dict[str, Any]:
    """The store's view with the turn's ``deadline`` as the read models show it (design §9):
    only when the view shows the table's last event, whose stored time starts the clock."""
    since = services.queries.store.events(table_id, view["version"])
    if len(since) != 1 or not view.get("options", {}).get("turn_seconds"):
        deadline = turn_deadline(view, None)
    else:  # the last hand's settle time, for the result pause (as the managers read it)
        game = game_named(view["game"])
        recent = services.queries.store.events(
            table_id, max(1, view["version"] - SETTLE_WINDOW), view["version"]
        )
        settled = next((e.at for e in reversed(recent) if game.settles_hand(e.event)), None)
        deadline = turn_deadline(view, since[0].at, settled)
    if deadline is not None:
        view["deadline"] = deadline.isoformat()
    return view


def ledger(services: Services, table_id: UUID) -> tuple[str, dict[str, Any]]:
    """``(source, ledger)``: from the read models, or from the store as a spectator sees
    the table (``spectator_delay`` behind), like the read model's ledger."""
    services.queries.facts(table_id)  # 404 for an unknown table
    embargo.require_open(services, table_id)  # a tournament's board (design §10)
    found = services.read_models.ledger(table_id)
    if found is not None:
        return "read-model", found
    return "store", ledger_from_store(services, table_id)


def ledger_from_store(services: Services, table_id: UUID) -> dict[str, Any]:
    """The ledger of the table as a spectator may see it (the read model's fallback)."""
    loaded = services.queries.visible(table_id, None)
    return Ledger.shape(loaded.game, loaded.state)


def lobby(
    services: Services, game: str | None, status: str | None, limit: int, cursor: str | None
) -> tuple[list[dict[str, Any]], str | None]:
    """A page of the lobby — the open tables, or those of one ``status`` — of one registered
    game if ``game`` is given, and the cursor of the next page (400 naming ``game`` for a name
    the registry does not know, ``cursor`` for one no page gave)."""
    if game is not None:
        try:
            game_named(game)
        except InvalidOption as error:
            raise ApiProblem(400, MALFORMED, error.message, field="game") from None
    statuses = OPEN if status is None else (status,)
    try:
        page = services.read_models.lobby_page(statuses, game, limit, cursor)
    except BadCursor as error:
        raise ApiProblem(400, MALFORMED, str(error), field="cursor") from None
    return page.lines, page.next_cursor


def timeline(
    services: Services,
    table_id: UUID,
    authorization: str | None,
    start: int | None,
    end: int | None,
    limit: int = TIMELINE_PAGE,
) -> tuple[list[dict[str, Any]], int | None]:
    """A page of the caller's timeline: at most ``limit`` events from version ``start``
    (default 1) to ``end``, and the version the next page starts at (None: no more)."""
    viewer = viewer_of(services, table_id, authorization)
    start = start or 1
    if end is not None and end < start:
        raise ApiProblem(400, MALFORMED, f"from={start} is after to={end}", field="from")
    last = start + limit  # one beyond the page: is there a next one?
    page = services.queries.timeline(
        table_id, viewer, start, last if end is None else min(end, last)
    )
    if len(page) <= limit:
        return page, None
    return page[:limit], start + limit


def replay(
    services: Services, table_id: UUID, authorization: str | None, at: int
) -> dict[str, Any]:
    """The caller's view as of version ``at``."""
    viewer = viewer_of(services, table_id, authorization)
    return services.queries.replay(table_id, viewer, at)


def verify(
    services: Services, table_id: UUID, authorization: str | None, hand: int
) -> Verification:
    """Hand ``hand``'s deal checked against its commitment, as far as the caller may see."""
    viewer = viewer_of(services, table_id, authorization)
    check = services.queries.verify(table_id, viewer, hand)
    return Verification(
        table_id=check.table_id, hand=check.hand, commitment=check.commitment,
        settled=check.settled, revealed=check.revealed, deck=check.deck, salt=check.salt,
        valid=check.valid,
    )  # fmt: skip


def legal(
    services: Services, table_id: UUID, authorization: str | None
) -> tuple[list[dict[str, Any]], int]:
    """The caller's legal commands as wire objects, and the version they hold at. A
    spectator has none to make: 401 telling how to take a seat."""
    seat = seat_of(services, table_id, authorization)
    commands, version = services.queries.legal(table_id, seat)
    return [command_object(command) for command in commands], version


def health(services: Services) -> Health:
    """Whether the store and Redis answer, and how far the projection lags the log."""
    head: int | None = None
    position: int | None = None
    stored: list[int | None] = []
    try:
        head = services.store.max_position()
    except Exception as error:  # any failure means "the store does not answer"
        log.warning("health: store does not answer: %s", error)
    try:
        services.redis.client.ping()
        stored = services.read_models.stored_positions()
        position = min(shard or 0 for shard in stored)
    except Exception as error:  # any failure means "Redis does not answer"
        log.warning("health: Redis does not answer: %s", error)
    lag = head - position if head is not None and position is not None else None
    healthy = head is not None and position is not None
    shards = [
        ShardHealth(shard=index, position=at, lag=None if head is None or at is None else head - at)
        for index, at in enumerate(stored)
    ]
    return Health(
        status="ok" if healthy else "degraded",
        store=head is not None,
        redis=position is not None,
        projection=ProjectionHealth(position=position, head=head, lag=lag),
        shards=shards,
    )


def bot_kinds() -> dict[str, dict[str, str]]:
    """``GET /bots``: every game's bot kinds with a one-line description each."""
    from bots import kinds
    from domain.games import game_names

    return {game: kinds(game) for game in game_names()}
