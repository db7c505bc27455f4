"""``GET /health``: liveness, whether the store and Redis answer, and the projection's lag."""

from __future__ import annotations

import logging

from litestar import Response, get

from api.problems import documented
from api.schemas import Health, ProjectionHealth
from api.services import Services, ServicesDep, blocking

log = logging.getLogger("cardroom.api")


def check(services: Services) -> Health:
    head: int | None = None
    position: int | None = None
    try:
        head = services.store.max_position()
    except Exception as error:  # any failure means "the store does not answer"
        log.warning("health: store does not answer: %s", error)
    try:
        services.redis.client.ping()
        position = services.read_models.position()
    except Exception as error:  # any failure means "Redis does not answer"
        log.warning("health: Redis does not answer: %s", error)
    lag = head - position if head is not None and position is not None else None
    healthy = head is not None and position is not None
    return Health(
        status="ok" if healthy else "degraded",
        store=head is not None,
        redis=position is not None,
        projection=ProjectionHealth(position=position, head=head, lag=lag),
    )


@get("/health", summary="Health", responses=documented(503))
async def health(services: ServicesDep) -> Response[Health]:
    """200 when the event store and Redis answer (503 otherwise), with the projection's
    position, the log head and the lag between them."""
    report = await blocking(check, services)
    return Response(report, status_code=200 if report.status == "ok" else 503)


ROUTES = [health]
