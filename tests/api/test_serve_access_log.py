"""``cardroom serve``'s access log (design §5, CLI): a line per request only with
``--access-log``, in every worker process as in a single one (a line per command costs the
event loop a fifth of a command's time, so it is off by default)."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.api.served import cardroom_serve

REQUEST_LINE = '"GET /health?access-log-probe HTTP/1.1" 200'


@pytest.mark.parametrize("access_log", [False, True])
def test_two_workers_log_requests_only_with_access_log(
    tmp_path: Path, redis_url: str, redis_prefix: str, access_log: bool
) -> None:
    env = {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_REDIS_URL": redis_url,
        "CARDROOM_REDIS_PREFIX": redis_prefix,
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
    }
    option = "--access-log" if access_log else "--no-access-log"
    with cardroom_serve(tmp_path, env, "--workers", "2", option) as served:
        for _ in range(4):  # new connections: both workers are likely to answer one
            assert httpx.get(f"{served.base}/health?access-log-probe").status_code == 200
    assert (REQUEST_LINE in served.log) is access_log, served.log
