"""Design §3 optimistic concurrency over real HTTP: racing clients never get a 500; with
``expectedVersion`` exactly one wins and the others get 409; nothing is written twice."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import httpx

from tests.api.helpers import SPADES_SWEEP_DECK, auth

RACERS = 8


def test_racing_commands_one_wins_the_others_get_409(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=20) as http:
        body = {"game": "bourre", "options": {"seats": 2}, "decks": [SPADES_SWEEP_DECK]}
        table = http.post("/tables", json=body).json()["tableId"]
        tokens = [http.post(f"/tables/{table}/seats", json={"name": n}).json()["token"]
                  for n in ("Ann", "Bob")]  # fmt: skip
        version = int(http.get(f"/tables/{table}/legal", headers=auth(tokens[1])).headers[
            "X-Table-Version"
        ])  # fmt: skip
    command = {"type": "declare", "play": True, "discard": [], "expectedVersion": version}

    def post(_: int) -> int:
        with httpx.Client(base_url=live_url, timeout=20) as racer:
            response = racer.post(
                f"/tables/{table}/commands", json=command, headers=auth(tokens[1])
            )
            return response.status_code

    with ThreadPoolExecutor(RACERS) as pool:
        statuses = sorted(pool.map(post, range(RACERS)))
    assert statuses == [200] + [409] * (RACERS - 1)
    timeline = httpx.get(f"{live_url}/tables/{table}/timeline", timeout=20).json()
    assert [e["type"] for e in timeline].count("Declared") == 1
    assert [e["version"] for e in timeline] == list(range(1, len(timeline) + 1))


def test_racing_commands_without_expected_version_never_fail_with_500(live_url: str) -> None:
    with httpx.Client(base_url=live_url, timeout=20) as http:
        body = {"game": "bourre", "options": {"seats": 2}, "decks": [SPADES_SWEEP_DECK]}
        table = http.post("/tables", json=body).json()["tableId"]
        tokens = [http.post(f"/tables/{table}/seats", json={"name": n}).json()["token"]
                  for n in ("Ann", "Bob")]  # fmt: skip
    command = {"type": "declare", "play": True, "discard": []}

    def post(index: int) -> tuple[int, int]:
        seat = index % 2
        with httpx.Client(base_url=live_url, timeout=20) as racer:
            response = racer.post(
                f"/tables/{table}/commands", json=command, headers=auth(tokens[seat])
            )
            assert response.status_code < 500, response.text
            return seat, response.status_code

    with ThreadPoolExecutor(RACERS) as pool:
        answers = list(pool.map(post, range(RACERS)))
    # Bob declares first (rule 11) exactly once; Ann at most once, after him; every other
    # attempt is refused cleanly.
    assert [status for seat, status in answers if seat == 1].count(200) == 1
    assert [status for seat, status in answers if seat == 0].count(200) <= 1
    assert {status for _, status in answers} <= {200, 403, 409, 422}
