"""Design §5 "Limits": a budget belongs to the client's address. Behind a reverse proxy that
address is the one the proxy writes in ``X-Forwarded-For``, believed only from the proxies
``CARDROOM_TRUSTED_PROXIES`` names; with none named, the header is ignored, so a caller can
neither escape its budget nor spend another's by writing it. Real ``cardroom serve``
processes (uvicorn reads the header, before the app sees the request)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest

from infra.settings import Settings, SettingsError
from tests.api.served import Served, cardroom_serve

TABLES = {"game": "bourre", "options": {"seats": 2}}


@contextmanager
def served_with(
    tmp_path: Path, redis_url: str, redis_prefix: str, trusted: str | None
) -> Iterator[Served]:
    env = {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
        "CARDROOM_REDIS_URL": redis_url,
        "CARDROOM_REDIS_PREFIX": redis_prefix,
        "CARDROOM_RATE_LIMITS": "tables=2/600s",
    }
    if trusted is not None:
        env["CARDROOM_TRUSTED_PROXIES"] = trusted
    with cardroom_serve(tmp_path, env) as served:
        yield served


def open_table_as(served: Served, forwarded_for: str) -> int:
    response = httpx.post(
        f"{served.base}/tables", json=TABLES, headers={"X-Forwarded-For": forwarded_for}
    )
    return response.status_code


def test_without_trusted_proxies_a_forwarded_address_does_not_escape_the_budget(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    with served_with(tmp_path, redis_url, redis_prefix, None) as served:
        answers = [open_table_as(served, f"203.0.113.{n}") for n in (1, 2, 3)]
    assert answers == [201, 201, 429]


def test_behind_a_trusted_proxy_each_forwarded_client_has_its_own_budget(
    tmp_path: Path, redis_url: str, redis_prefix: str
) -> None:
    with served_with(tmp_path, redis_url, redis_prefix, "127.0.0.1") as served:
        others = [open_table_as(served, f"203.0.113.{n}") for n in (1, 2, 3)]
        same = [open_table_as(served, "198.51.100.7") for _ in range(3)]
    assert others == [201, 201, 201]
    assert same == [201, 201, 429]


def test_the_setting_takes_addresses_networks_or_any_and_names_what_is_wrong() -> None:
    assert Settings.from_env({}).trusted_proxies == ()
    setting = {"CARDROOM_TRUSTED_PROXIES": "10.0.0.2, 172.28.0.0/16,::1"}
    assert Settings.from_env(setting).trusted_proxies == ("10.0.0.2", "172.28.0.0/16", "::1")
    assert Settings.from_env({"CARDROOM_TRUSTED_PROXIES": "*"}).trusted_proxies == ("*",)
    for wrong in ("nginx", "10.0.0.300", "10.0.0.2,,10.0.0.3"):
        with pytest.raises(SettingsError, match=r"CARDROOM_TRUSTED_PROXIES=.*is not an address"):
            Settings.from_env({"CARDROOM_TRUSTED_PROXIES": wrong})
