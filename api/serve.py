"""``cardroom serve``: the API under uvicorn (design §5, CLI).

On embedded defaults (no ``CARDROOM_REDIS_URL``) the same process starts the private Redis
server under ``CARDROOM_VAR_DIR`` and runs the projection runner in a background thread, so
one command runs the whole service. With ``CARDROOM_REDIS_URL`` set, the projection runs as
its own worker (``cardroom project``) and this process serves HTTP only. uvicorn turns
SIGINT/SIGTERM into a graceful shutdown; the lifespan then stops the projector and Redis.
"""

from __future__ import annotations

import signal

from infra.logs import configure_logging
from infra.settings import Settings

GRACEFUL_SHUTDOWN = 5  # seconds open requests (live streams) get before they are cut


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: Settings | None = None,
    *,
    run_projector: bool | None = None,
) -> None:
    """Run the API until SIGINT/SIGTERM; ``run_projector`` None = only on embedded Redis."""
    import uvicorn

    from api.app import create_app

    settings = settings or Settings.from_env()
    if run_projector is None:
        run_projector = settings.redis_url is None
    configure_logging(settings.log_format)  # text, or one JSON object a line
    app = create_app(settings, run_projector=run_projector)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        lifespan="on",
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        log_level="info",
        log_config=None,  # uvicorn's loggers go to configure_logging's handler
    )
    # uvicorn handles SIGINT/SIGTERM itself (graceful shutdown, lifespan closed), then re-raises
    # the signal with the handler it found: make that a clean exit rather than a kill.
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, _exit_cleanly)
    uvicorn.Server(config).run()


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)
