"""compose.yaml runs the topology tests/deployed/test_topology.py starts (it cannot be run
here, so this keeps it in step): the same commands, the same variables, a health check for
every long-running service — projectors included — and restart policies."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Any

import yaml

from tests.deployed.topology import (
    ENV_NAMES,
    SHARDS,
    api_command,
    projector_command,
    status_command,
)

COMPOSE = Path(__file__).resolve().parents[2] / "compose.yaml"


def services() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    found: dict[str, Any] = loaded["services"]
    return found


def test_the_api_replicas_run_the_tests_serve_command_behind_one_port() -> None:
    api = services()["api"]
    assert api["command"] == api_command(8000, host="0.0.0.0")
    assert api["deploy"]["replicas"] >= 2
    proxy = services()["proxy"]
    assert [port.split(":")[-1] for port in proxy["ports"]] == ["8000"]
    assert "ports" not in api  # reached through the proxy only


def test_one_projector_per_shard_runs_the_tests_project_command() -> None:
    for shard in range(SHARDS):
        projector = services()[f"projector-{shard}"]
        assert projector["command"] == projector_command(shard)
        assert projector["healthcheck"]["test"] == ["CMD", *status_command()]
    assert f"projector-{SHARDS}" not in services()


def test_every_cardroom_process_gets_the_tests_variables() -> None:
    for name in ("api", *(f"projector-{shard}" for shard in range(SHARDS))):
        env = services()[name]["environment"]
        assert set(ENV_NAMES) <= set(env), name
        assert env["CARDROOM_REDIS_CLUSTER"] == "1"
        assert env["CARDROOM_PROJECTION_SHARDS"] == str(SHARDS)
        assert env["CARDROOM_LOG_FORMAT"] == "json"
        assert env["CARDROOM_EVENT_STORE"].startswith("postgresql://")


def test_the_read_side_is_a_three_node_redis_cluster_joined_once() -> None:
    nodes = [services()[f"redis-{index}"] for index in (1, 2, 3)]
    for node in nodes:
        command = node["command"]
        assert command[0] == "redis-server"
        assert command[command.index("--cluster-enabled") + 1] == "yes"
    init = services()["redis-cluster-init"]
    script = " ".join(init["command"])
    assert "--cluster create" in script and "--cluster-replicas 0 --cluster-yes" in script
    assert init["restart"] == "no"


def test_every_long_running_service_has_a_health_check_and_a_restart_policy() -> None:
    for name, service in services().items():
        if name == "redis-cluster-init":
            continue
        assert service["healthcheck"]["test"], name
        assert service["restart"] in ("unless-stopped", "always", "on-failure"), name


def test_the_proxy_names_the_client_and_only_the_proxy_is_trusted_to() -> None:
    """Rate limits are per client address (design §5): nginx replaces X-Forwarded-For with
    the address it was reached from, and the API replicas believe that header from nginx's
    fixed address alone."""
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    nginx = loaded["configs"]["nginx"]["content"]
    # ($$ is compose's escape for the $ nginx reads)
    assert "proxy_set_header X-Forwarded-For $$remote_addr;" in nginx
    proxy_address = services()["proxy"]["networks"]["default"]["ipv4_address"]
    assert services()["api"]["environment"]["CARDROOM_TRUSTED_PROXIES"] == proxy_address
    (network,) = loaded["networks"]["default"]["ipam"]["config"]
    address = ipaddress.ip_address(proxy_address)
    assert address in ipaddress.ip_network(network["subnet"])
    assert address not in ipaddress.ip_network(network["ip_range"])  # never given to another
    for shard in range(SHARDS):
        assert "CARDROOM_TRUSTED_PROXIES" not in services()[f"projector-{shard}"]["environment"]
