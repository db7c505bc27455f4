"""The Litestar application (design §5): routes, problem details, OpenAPI at ``/schema``.

``create_app`` builds the app without touching anything: the event store and Redis are opened
by the lifespan (:func:`services_lifespan`: :mod:`api.services` and the position feed) when
the server starts and closed when it stops. Plain
``POST /tables/{id}/commands`` requests skip the routing machinery (:mod:`api.fastlane`, with
the same answers).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.di import Provide
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin
from litestar.openapi.spec import Components, SecurityScheme

from api.fastlane import fast_commands
from api.head import head_as_get
from api.position_feed import PositionFeed
from api.problems import MAX_BODY_BYTES, exception_handlers
from api.ratelimit import close_limiter, rate_limited
from api.routes import (
    accounts,
    bots,
    events,
    fair,
    forks,
    games,
    health,
    i18n,
    pages,
    play,
    players,
    ratings,
    review,
    stream,
    tables,
    tournaments,
    views,
)
from api.services import WORKER_THREADS, Services, blocking, provide_services
from infra.settings import Settings

DESCRIPTION = """Event-sourced card tables, one game per table (the registry's games).

Create a table, take seats (each answer holds the seat's bearer token), post commands with
`Authorization: Bearer <token>`, read the table as you may see it. Errors are problem details
(`application/problem+json`) naming the rule, option or field that is wrong."""


def create_app(settings: Settings | None = None, *, run_projector: bool = False) -> Litestar:
    """The API for ``settings`` (default: from the environment).

    ``run_projector`` runs the projection runner in a thread of this process (``cardroom
    serve`` on embedded defaults); otherwise a separate ``cardroom project`` worker does.
    """
    settings = settings or Settings.from_env()
    app = Litestar(
        route_handlers=[
            *tables.ROUTES,
            *play.ROUTES,
            *views.ROUTES,
            *stream.ROUTES,
            *fair.ROUTES,
            *health.ROUTES,
            *pages.ROUTES,  # the web card room (api/web)
            *bots.ROUTES,
            *events.ROUTES,
            *players.ROUTES,
            *games.ROUTES,  # the games, their options and board renderers
            *accounts.ROUTES,  # accounts and sessions (api/accounts.py)
            *ratings.ROUTES,  # profiles and leaderboards (api/ratings.py)
            *tournaments.ROUTES,  # tournaments (api/tournaments.py, design §10)
            *forks.ROUTES,  # play from here: sandbox tables (api/forks.py)
            *i18n.ROUTES,  # the languages' message catalogs (api/i18n.py)
            *review.ROUTES,  # hand reviews and the review page (api/reviews.py)
        ],
        dependencies={"services": Provide(provide_services, sync_to_thread=False)},
        lifespan=[services_lifespan(settings, run_projector=run_projector)],
        exception_handlers=exception_handlers(),
        cors_config=CORSConfig(allow_origins=["*"], expose_headers=["X-Table-Version", "Link"]),
        openapi_config=OpenAPIConfig(
            title="cardroom",
            version="0.1.0",
            description=DESCRIPTION,
            path="/schema",
            render_plugins=[
                JsonRenderPlugin(path=["/", "/openapi.json"]),
                pages.swagger_plugin(),  # Swagger UI's assets from the package
            ],
            components=Components(
                security_schemes={
                    "seatToken": SecurityScheme(
                        type="http", scheme="bearer", description="the token from taking a seat"
                    )
                }
            ),
        ),
        logging_config=None,
        debug=False,
        request_max_body_size=MAX_BODY_BYTES,
        middleware=[rate_limited],
        on_shutdown=[close_limiter],
    )
    # Before routing: plain command requests take the fast lane (api.fastlane); outermost,
    # HEAD is answered as the GET route it mirrors (api.head).
    app.asgi_handler = head_as_get(fast_commands(app, app.asgi_handler))
    return app


def services_lifespan(settings: Settings, *, run_projector: bool) -> Callable[[Litestar], Any]:
    """A Litestar lifespan that opens :class:`Services` on ``app.state.services``."""

    @asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        # Litestar's own sync_to_thread calls get as much room as :func:`blocking`.
        anyio.to_thread.current_default_thread_limiter().total_tokens = WORKER_THREADS
        services = await blocking(Services.open, settings, run_projector=run_projector)
        app.state.services = services
        feed = PositionFeed(services)
        services.use_feed(feed)
        try:
            await feed.start()
            yield
        finally:
            await feed.close()
            await blocking(services.close)

    return lifespan
