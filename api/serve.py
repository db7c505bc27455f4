"""``cardroom serve``: the API under uvicorn (design §5, CLI; "Several processes").

On embedded defaults (no ``CARDROOM_REDIS_URL``) ``cardroom serve`` also starts the private
Redis server under ``CARDROOM_VAR_DIR`` and runs the projection runner, so one command runs
the whole service. With ``CARDROOM_REDIS_URL`` set, the projection runs as its own worker
(``cardroom project``) and this serves HTTP only.

``workers`` API processes listen on the port with a socket each (``SO_REUSEPORT``, so the
kernel spreads connections over them; :mod:`api.supervisor`, which restarts a worker that
dies). With more than one, the supervising process holds what must run once —
the embedded Redis and the projector — and the workers serve HTTP only, reaching Redis through
``CARDROOM_REDIS_URL``. Every worker has its own table cache; a stale one costs a retry, never
a wrong answer (:mod:`infra.table_cache`). SIGINT/SIGTERM stop the workers gracefully, then the
projector and Redis. Every connection is held to :mod:`api.serverlimits`.
"""

from __future__ import annotations

import gc
import logging
import os
import signal

from infra.logs import configure_logging
from infra.settings import Settings

logger = logging.getLogger("cardroom.serve")

GRACEFUL_SHUTDOWN = 5  # seconds open requests (live streams) get before they are cut
PROTOCOL = "api.serverlimits:LimitedHttpToolsProtocol"


def default_workers() -> int:
    """One API process per core this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    cores = len(affinity(0)) if affinity is not None else os.cpu_count()
    return max(cores or 1, 1)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    settings: Settings | None = None,
    *,
    run_projector: bool | None = None,
    workers: int = 1,
    access_log: bool = False,
) -> None:
    """Run the API until SIGINT/SIGTERM; ``run_projector`` None = only on embedded Redis.

    ``access_log``: a log line per request (off by default: on the command path it costs
    about a fifth of the event loop's time per request)."""
    settings = settings or Settings.from_env()
    if run_projector is None:
        run_projector = settings.redis_url is None
    configure_logging(settings.log_format)  # text, or one JSON object a line
    # uvicorn handles SIGINT/SIGTERM itself (graceful shutdown), then re-raises the signal
    # with the handler it found: make that a clean exit rather than a kill.
    for stop_signal in (signal.SIGINT, signal.SIGTERM):
        signal.signal(stop_signal, _exit_cleanly)
    options: dict[str, object] = {"access_log": access_log}
    if workers <= 1:
        _serve_one(host, port, settings, run_projector, options)
    else:
        _serve_many(host, port, settings, run_projector, workers, options)


def _config(app: object, host: str, port: int, settings: Settings, **options: object) -> object:
    import uvicorn

    from api.serverlimits import ServerLimits

    config = uvicorn.Config(
        app,  # type: ignore[arg-type]
        host=host,
        port=port,
        lifespan="on",
        http=PROTOCOL,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN,
        log_level="info",
        log_config=None,  # uvicorn's loggers go to configure_logging's handler
        # X-Forwarded-For names the client only when it comes from a trusted proxy (uvicorn
        # would otherwise believe any local caller, e.g. to escape its rate limits)
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies),
        **options,  # type: ignore[arg-type]
    )
    config.limits = ServerLimits.of(settings)  # type: ignore[attr-defined]
    return config


def _serve_one(
    host: str, port: int, settings: Settings, run_projector: bool, options: dict[str, object]
) -> None:
    import uvicorn

    from api.app import create_app

    app = create_app(settings, run_projector=run_projector)
    gc.freeze()  # what start-up built lives as long as the process: full collections skip it
    uvicorn.Server(_config(app, host, port, settings, **options)).run()  # type: ignore[arg-type]


def _serve_many(
    host: str,
    port: int,
    settings: Settings,
    run_projector: bool,
    workers: int,
    options: dict[str, object],
) -> None:
    """The supervisor: Redis and the projector here (if this server runs them), HTTP in
    ``workers`` processes started from :func:`worker_app`."""
    from api.services import Services
    from api.supervisor import Supervisor, listening_sockets

    services = None
    if settings.redis_url is None or run_projector:
        services = Services.open(settings, run_projector=run_projector)
    try:
        if settings.redis_url is None:
            assert services is not None
            # Workers inherit the environment: point them at the embedded server.
            os.environ["CARDROOM_REDIS_URL"] = services.redis.url
        config = _config(
            "api.serve:worker_app", host, port, settings, factory=True, workers=workers, **options
        )
        sockets = listening_sockets(host, port, workers)
        logger.info("serving on http://%s:%d with %d workers", host, port, workers)
        try:
            Supervisor(config, sockets).run()
        finally:
            for sock in set(sockets):
                sock.close()
    finally:
        if services is not None:
            services.close()


def worker_app() -> object:
    """One API worker of ``cardroom serve --workers N``: HTTP only (uvicorn factory).

    uvicorn has already set the worker's access log on or off (``--access-log``) when this
    runs; configuring the process's logging keeps that choice (an access line per request
    costs the event loop about a fifth of a command)."""
    from api.app import create_app

    _stop_with_supervisor()
    settings = Settings.from_env()
    access = logging.getLogger("uvicorn.access")
    access_off = not access.propagate and not access.handlers  # uvicorn's access_log=False
    configure_logging(settings.log_format)
    access.propagate = not access_off
    app = create_app(settings, run_projector=False)
    gc.freeze()  # what start-up built lives as long as the process: full collections skip it
    return app


PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent ends


def _stop_with_supervisor() -> None:
    """A worker stops (SIGTERM: graceful) when its supervisor ends, even killed outright:
    else it would go on serving the port with nobody to stop it (Linux; elsewhere nothing)."""
    import ctypes
    import multiprocessing

    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    supervisor = multiprocessing.parent_process()
    if supervisor is not None and os.getppid() != supervisor.pid:
        raise SystemExit(0)  # it ended before the signal was asked for


def _exit_cleanly(signum: int, frame: object) -> None:
    raise SystemExit(0)
