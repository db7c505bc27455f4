"""Server limits (design §5): oversized headers are refused, connections that are too slow to
send their headers or body are closed, and a client leaving mid-body is no error — against a
real ``cardroom serve`` over raw sockets, with small timeouts configured for the test."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.served import Served, cardroom_serve
from tests.waiting import wait_until


@pytest.fixture
def served(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[Served]:
    env = {
        "CARDROOM_EVENT_STORE": f"sqlite:///{tmp_path}/cardroom.db",
        "CARDROOM_REDIS_URL": redis_url,
        "CARDROOM_REDIS_PREFIX": redis_prefix,
        "CARDROOM_VAR_DIR": str(tmp_path / "var"),
        "CARDROOM_HEADER_TIMEOUT": "0.5",
        "CARDROOM_BODY_TIMEOUT": "0.5",
    }
    with cardroom_serve(tmp_path, env, "--workers", "1", "--access-log") as server:
        yield server


def connect(served: Served) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", served.port), timeout=10)
    connection.settimeout(0.05)
    return connection


def received(connection: socket.socket, into: bytearray) -> bool:
    """Read what has arrived; True once the server closed the connection."""
    try:
        chunk = connection.recv(65536)
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    into += chunk
    return not chunk


def closed_by_server(connection: socket.socket) -> bytes:
    """Everything the server sent until it closed the connection (waits for the close)."""
    answer = bytearray()
    wait_until(lambda: received(connection, answer), 20, "the server kept the connection open")
    connection.close()
    return bytes(answer)


def get_health(padding: int) -> bytes:
    return (
        f"GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: {'p' * padding}\r\n"
        "Connection: close\r\n\r\n"
    ).encode()


def test_headers_within_16_kib_are_served(served: Served) -> None:
    connection = connect(served)
    connection.sendall(get_health(15_000))
    assert closed_by_server(connection).startswith(b"HTTP/1.1 200")


def test_headers_over_16_kib_are_refused_with_431(served: Served) -> None:
    connection = connect(served)
    connection.sendall(get_health(17_000))
    assert closed_by_server(connection).startswith(b"HTTP/1.1 431")


def problem_of(answer: bytes) -> dict[str, object]:
    """The problem-details body of a raw answer (its headers checked)."""
    head, _, body = answer.partition(b"\r\n\r\n")
    assert b"content-type: application/problem+json" in head.lower(), answer
    problem: dict[str, object] = json.loads(body)
    return problem


def test_the_431_is_a_problem_of_the_projects_own_type(served: Served) -> None:
    connection = connect(served)
    connection.sendall(get_health(17_000))
    problem = problem_of(closed_by_server(connection))
    assert problem["type"] == "urn:cardroom:problem:request-header-fields-too-large"
    assert problem["status"] == 431


def test_a_header_holding_a_del_byte_is_the_malformed_request_problem(served: Served) -> None:
    connection = connect(served)
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Odd: a\x7fb\r\n\r\n")
    answer = closed_by_server(connection)
    assert answer.startswith(b"HTTP/1.1 400"), answer
    problem = problem_of(answer)
    assert problem["type"] == "urn:cardroom:problem:malformed-request"
    assert problem["status"] == 400 and problem["detail"]


def test_a_huge_header_is_refused_before_it_is_all_sent(served: Served) -> None:
    connection = connect(served)
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: ")
    sent = 0
    answer = bytearray()
    with pytest.raises(OSError):  # the server closes on us while we keep sending
        while sent < 8_000_000:
            connection.sendall(b"p" * 65536)
            sent += 65536
            received(connection, answer)
    assert sent < 8_000_000


def test_a_connection_that_never_finishes_its_headers_is_closed(served: Served) -> None:
    connection = connect(served)
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
    assert closed_by_server(connection).startswith(b"HTTP/1.1 408")


def test_a_connection_that_sends_nothing_is_closed(served: Served) -> None:
    connection = connect(served)
    answer = closed_by_server(connection)
    assert answer.startswith(b"HTTP/1.1 408")
    assert problem_of(answer)["type"] == "urn:cardroom:problem:request-timeout"


def test_a_body_that_never_completes_is_closed_and_logged_as_no_error(served: Served) -> None:
    connection = connect(served)
    connection.sendall(
        b"POST /tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"game": "bou'
    )
    closed_by_server(connection)
    assert_no_error_logged(served)


def test_a_client_leaving_mid_body_is_logged_as_no_error(served: Served) -> None:
    connection = connect(served)
    connection.sendall(
        b"POST /tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b'Content-Length: 100\r\n\r\n{"game": "bou'
    )
    connection.close()
    # The server is still well, and nothing it logged about that request is an error.
    follow_up = connect(served)
    follow_up.sendall(get_health(0))
    assert closed_by_server(follow_up).startswith(b"HTTP/1.1 200")
    assert_no_error_logged(served)


def assert_no_error_logged(served: Served) -> None:
    log = served.log
    assert "ERROR" not in log and "Traceback" not in log, log
    assert '" 500' not in log, log
