"""``GET /health``: liveness, whether the store and Redis answer, and the projection's lag."""

from __future__ import annotations

from litestar import Response, get

from api import reads
from api.problems import documented
from api.schemas import Health
from api.services import ServicesDep, blocking


@get("/health", summary="Health", responses=documented(503))
async def health(services: ServicesDep) -> Response[Health]:
    """200 when the event store and Redis answer (503 otherwise), with the projection's
    position, the log head and the lag between them."""
    report = await blocking(reads.health, services)
    return Response(report, status_code=200 if report.status == "ok" else 503)


ROUTES = [health]
