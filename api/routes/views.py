"""Reading a table: the caller's view, timeline, time travel and ledger (design §5).

Live views and ledgers come from the Redis read models (``?after=`` waits, bounded, for the
projection to reach a position; a timeout is a 503 problem, never stale data served
silently). A table the projection has not reached yet is answered from the event store with
the same pure ``game.view`` the projection uses. Timelines and replays come from the event
store, redacted per caller (:mod:`api.visibility`).
"""

from __future__ import annotations

from typing import Annotated, Any
from uuid import UUID

from litestar import MediaType, Response, get
from litestar.params import QueryParameter

from api.auth import caller_seat, viewer_of
from api.params import AfterPosition, Authorization, TableId
from api.problems import ApiProblem, documented
from api.services import Services, ServicesDep, blocking
from domain.game import Viewer

WAIT_TIMEOUT = 5.0  # seconds a read waits for the projection before answering 503
SCAN_CHUNK = 256  # events read at a time when looking for a hand's settlement
SOURCE_HEADER = "X-Cardroom-Source"

FromVersion = Annotated[
    int | None,
    QueryParameter(name="from", required=False, ge=1, le=2**62, description="first version"),
]
ToVersion = Annotated[
    int | None,
    QueryParameter(name="to", required=False, ge=1, le=2**62, description="last version"),
]
AtVersion = Annotated[
    int, QueryParameter(name="at", ge=1, le=2**62, description="the table version to show")
]


def wait_for_projection(services: Services, after: int | None) -> None:
    """Read-your-writes: wait (bounded, in this worker thread) until the read models have
    reached log position ``after``; a position the log has not written is a 422."""
    if after is None:
        return
    models = services.read_models
    if models.position() >= after:
        return
    head = services.store.max_position()
    if after > head:
        raise ApiProblem(
            422,
            "unknown-position",
            f"after={after} is beyond the event log (latest position {head})",
            field="after",
        )
    if not models.wait_for(after, WAIT_TIMEOUT):
        raise ApiProblem(
            503,
            "projection-behind",
            f"the read models reached position {models.position()}, not {after}, within "
            f"{WAIT_TIMEOUT:g}s; retry shortly",
            field="after",
            headers={"Retry-After": "1"},
        )


def framed(table_id: UUID, game: str, version: int, view: dict[str, Any]) -> dict[str, Any]:
    """A view as the read models store it: ``tableId``, ``game`` and ``version`` first."""
    return {"tableId": str(table_id), "game": game, "version": version, **view}


def view_from_store(services: Services, table_id: UUID, viewer: Viewer) -> dict[str, Any]:
    """The caller's view computed from the store (the projection has not reached the table)."""
    facts = services.facts(table_id)
    loaded = services.store.get(table_id)
    visible = max(1, facts.visible_version(viewer, loaded.version))
    if visible != loaded.version:
        loaded = services.store.get(table_id, visible)
    return framed(
        table_id, loaded.game.name, loaded.version, loaded.game.view(loaded.state, viewer)
    )


@get("/tables/{table_id:uuid}", summary="Table view", responses=documented(400, 401, 404, 422, 503))
async def table_view(
    table_id: TableId,
    services: ServicesDep,
    authorization: Authorization = None,
    after: AfterPosition = None,
) -> Response[Any]:
    """The table as the caller may see it: a seat (with its token) sees its own cards, anyone
    else is a spectator and sees public cards only, ``spectator_delay`` events behind."""
    source, view = await blocking(read_view, services, table_id, authorization, after)
    if isinstance(view, bytes):  # served as stored, without decoding and encoding again
        return Response(view, media_type=MediaType.JSON, headers={SOURCE_HEADER: source})
    return Response(view, headers={SOURCE_HEADER: source})


def read_view(
    services: Services, table_id: UUID, authorization: str | None, after: int | None
) -> tuple[str, bytes | dict[str, Any]]:
    viewer = viewer_of(services, table_id, authorization)
    wait_for_projection(services, after)
    stored = services.read_models.view_json(table_id, viewer)
    if stored is not None:
        return "read-model", stored
    return "store", view_from_store(services, table_id, viewer)


def read_timeline(
    services: Services, table_id: UUID, viewer: Viewer, start: int, end: int | None
) -> list[dict[str, Any]]:
    facts = services.facts(table_id)
    visible = facts.visible_version(viewer, services.store.get(table_id).version)
    end = visible if end is None else min(end, visible)
    if start > end:
        return []
    page = services.store.events(table_id, start, end)
    settled = facts.settled_hands(page)
    # Only the page's last hand can settle after the page ends (a hand's settlement comes
    # before the next hand's events); if it has, its cards show here too (design §5).
    last = max((facts.game.hand_of(r.event) for r in page), default=0)
    if last and last not in settled and _hand_settled(services, table_id, last, end + 1, visible):
        settled.add(last)
    return [facts.redact(r, viewer, settled) for r in page]


@get(
    "/tables/{table_id:uuid}/timeline", summary="Timeline", responses=documented(400, 401, 404, 503)
)
async def timeline(
    table_id: TableId,
    services: ServicesDep,
    authorization: Authorization = None,
    from_version: FromVersion = None,
    to_version: ToVersion = None,
) -> list[dict[str, Any]]:
    """The events from ``from`` to ``to`` (versions, inclusive) as the caller may see them,
    each with ``version``, ``type`` and ``at``. Settled hands show their hidden cards when the
    table's ``reveal`` option is ``after_hand``."""
    viewer = await caller_seat(services, table_id, authorization)
    start = from_version or 1
    if to_version is not None and to_version < start:
        raise ApiProblem(400, "bad-range", f"from={start} is after to={to_version}", field="from")
    return await blocking(read_timeline, services, table_id, viewer, start, to_version)


def _hand_at(services: Services, table_id: UUID, at: int) -> int:
    """The hand in play at version ``at`` (0 before the first deal)."""
    facts = services.facts(table_id)
    window = services.store.events(table_id, max(1, at - SCAN_CHUNK + 1), at)
    for recorded in reversed(window):
        hand = facts.game.hand_of(recorded.event)
        if hand:
            return hand
    return 0


def _hand_settled(services: Services, table_id: UUID, hand: int, at: int, visible: int) -> bool:
    """Whether ``hand`` has settled by version ``visible`` (scanning forward from ``at``)."""
    game = services.facts(table_id).game
    start = at
    while start <= visible:
        chunk = services.store.events(table_id, start, min(visible, start + SCAN_CHUNK - 1))
        if not chunk:
            return False
        for recorded in chunk:
            event_hand = game.hand_of(recorded.event)
            if event_hand == hand and game.settles_hand(recorded.event):
                return True
            if event_hand > hand:
                return False
        start = chunk[-1].version + 1
    return False


def read_replay(
    services: Services, table_id: UUID, viewer: Viewer, at: int
) -> tuple[int, dict[str, Any]]:
    facts = services.facts(table_id)
    head = services.store.get(table_id)
    visible = facts.visible_version(viewer, head.version)
    if at > visible:
        raise ApiProblem(
            422,
            "beyond-history",
            f"at={at} is beyond the table's history you may see (latest version {visible})",
            field="at",
        )
    loaded = head if at == head.version else services.store.get(table_id, at)
    hand = _hand_at(services, table_id, at)
    revealed = facts.reveals(hand, {hand}) and _hand_settled(services, table_id, hand, at, visible)
    view = loaded.game.view(loaded.state, viewer, revealed=revealed)
    return loaded.version, framed(table_id, loaded.game.name, loaded.version, view)


@get(
    "/tables/{table_id:uuid}/replay",
    summary="Replay (time travel)",
    responses=documented(400, 401, 404, 422, 503),
)
async def replay(
    table_id: TableId, at: AtVersion, services: ServicesDep, authorization: Authorization = None
) -> Response[dict[str, Any]]:
    """The caller's view of the table as of version ``at``. A hand that has settled since
    shows its hidden cards (option ``reveal``: ``after_hand``)."""
    viewer = await caller_seat(services, table_id, authorization)
    version, view = await blocking(read_replay, services, table_id, viewer, at)
    return Response(view, headers={"X-Table-Version": str(version)})


def ledger_from_store(services: Services, table_id: UUID) -> dict[str, Any]:
    loaded = services.store.get(table_id)
    return loaded.game.ledger(loaded.state)


@get("/tables/{table_id:uuid}/ledger", summary="Ledger", responses=documented(400, 404, 422, 503))
async def ledger(
    table_id: TableId, services: ServicesDep, after: AfterPosition = None
) -> Response[dict[str, Any]]:
    """Bourré: the pot, each player's net chips and every hand's pot, winner, bourré and tied
    seats. Burraco: the score sheet per team per hand, totals and the winner."""
    source, found = await blocking(read_ledger, services, table_id, after)
    return Response(found, headers={SOURCE_HEADER: source})


def read_ledger(
    services: Services, table_id: UUID, after: int | None
) -> tuple[str, dict[str, Any]]:
    services.facts(table_id)  # 404 for an unknown table
    wait_for_projection(services, after)
    found = services.read_models.ledger(table_id)
    if found is not None:
        return "read-model", found
    return "store", ledger_from_store(services, table_id)


ROUTES = [table_view, timeline, replay, ledger]
