import time
from typing import Any
from tests.waiting import wait_until

def test_smoke(client: Any) -> None:
    t0 = time.time()
    r = client.post("/tournaments", json={"game": "burraco", "format": "duplicate", "options": {}, "rounds": 2, "boardsPerRound": 2, "tables": 4, "bots": "basic"})
    assert r.status_code == 201, r.text
    tid = r.json()["tournamentId"]
    r = client.post(f"/tournaments/{tid}/start")
    assert r.status_code == 200, r.text
    body = r.json()
    print(body["rounds"])
    table = body["rounds"][0]["tables"][0]["tableId"]
    print(client.get(f"/tables/{table}").status_code, client.get(f"/tables/{table}").text[:300])
    print(client.get(f"/tournaments/{tid}/boards/1").text)
    def done():
        got = client.get(f"/tournaments/{tid}").json()
        return got if got["status"] == "ended" else None
    got = wait_until(done, 120, "not ended")
    print(time.time() - t0, got["standings"])
    print(client.get(f"/tournaments/{tid}/boards/1").json())
    print(client.get(f"/tournaments/{tid}/standings").json())
    print(client.get(f"/tables/{table}").json().get("tournamentId"), client.get(f"/tables/{table}").json().get("board"))
