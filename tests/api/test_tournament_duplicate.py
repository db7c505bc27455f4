"""Duplicate Burraco with a Mitchell movement, end to end (design §10, docs/rules/tournaments.md):
a 4-table event of 2 rounds × 2 boards with bots in every seat, through the real store, the
projector, the process managers and HTTP. Every table of a board gets the same cards per seat
position; nothing of a board — cards or results, on any route, stream, the feed, the lobby,
the statistics or the export — shows before every table of its round has finished it; the
travellers and victory points match a computation by hand from the tables' own timelines; the
standings are rebuilt byte for byte."""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

from litestar.testing import TestClient

from api.app import create_app
from infra.exportevents import read_events
from infra.settings import Settings
from managers.tournament import release_round
from projections.keys import Keys
from projections.runner import Projector
from tests.waiting import wait_until

# docs/rules/burraco.md rule 29: the 20-0 scale, as a table of bands (difference -> winner's VP)
BANDS = [(0, 10), (50, 11), (150, 12), (250, 13), (350, 14), (450, 15), (550, 16), (650, 17),
         (750, 18), (850, 19), (950, 20)]  # fmt: skip


def vp(difference: int) -> int:
    won = max(points for least, points in BANDS if abs(difference) >= least)
    return won if difference >= 0 else 20 - won


def test_vp_scale_reads_as_the_rules_table() -> None:
    assert [vp(d) for d in (0, 49, 50, 149, 150, 949, 950, 3000)] == [
        10,
        10,
        11,
        11,
        12,
        19,
        20,
        20,
    ]
    assert [vp(-d) for d in (0, 50, 950)] == [10, 9, 0]


def probes(table: str, tournament: str) -> dict[str, str]:
    """Every spectator's read of a board table (and the board's traveller)."""
    return {
        "view": f"/tables/{table}",
        "timeline": f"/tables/{table}/timeline",
        "replay": f"/tables/{table}/replay?at=1",
        "ledger": f"/tables/{table}/ledger",
        "verify": f"/tables/{table}/hands/1/verify",
        "history": f"/tables/{table}/hands/1/history",
        "traveller": f"/tournaments/{tournament}/boards/1",
    }


def round_ended(client: TestClient[Any], tournament: str, number: int) -> bool:
    rounds = client.get(f"/tournaments/{tournament}").json()["rounds"]
    return any(r["round"] == number and r["ended"] for r in rounds)


def test_a_duplicate_burraco_event_of_four_tables_two_rounds_two_boards(settings: Settings) -> None:
    with TestClient(create_app(settings, run_projector=True)) as client:
        created = client.post(
            "/tournaments",
            json={"game": "burraco", "format": "duplicate", "options": {}, "rounds": 2,
                  "boardsPerRound": 2, "tables": 4, "bots": "random"},
        )  # fmt: skip
        assert created.status_code == 201, created.text
        tid = created.json()["tournamentId"]
        assert created.json()["status"] == "waiting"
        assert client.get(f"/tournaments/{tid}/boards/1").status_code == 403
        assert client.get(f"/tournaments/{tid}/boards/9").status_code == 404
        started = client.post(f"/tournaments/{tid}/start")
        assert started.status_code == 200, started.text
        body = started.json()
        assert len(body["entries"]) == 8 and all(e["bot"] == "random" for e in body["entries"])
        commitments = [b["commitment"] for b in body["boards"]]
        assert len(commitments) == 4 and not any(b["open"] for b in body["boards"])
        first = body["rounds"][0]["tables"]
        board_tables = [t["tableId"] for t in first]

        # Nothing of round 1 shows while it plays: each probe read while the round had not
        # ended (asked after the reads: a board opens only after its round ends) must be
        # refused — at the start, and once a table of the round has finished (its result
        # exists) while the others play on. The feed's cursor is read then, too.
        refused: dict[str, int] = {}
        cursors: list[int] = []

        def probe(table: str) -> None:
            statuses = {
                name: client.get(path).status_code for name, path in probes(table, tid).items()
            }
            with client.stream("GET", f"/tables/{table}/stream") as streamed:
                stream_status = streamed.status_code
            filtered = [client.get(f"/events?tableId={other}").text for other in board_tables]
            feed = client.get("/events")
            lobby = client.get("/tables").json() + client.get("/tables?status=ended").json()
            hands = client.get("/stats").json()["games"].get("burraco", {}).get("hands", 0)
            if round_ended(client, tid, 1):
                return
            for name, status in statuses.items():
                assert status == 403, (name, status)
                refused[name] = refused.get(name, 0) + 1
            assert stream_status == 403
            assert all(text.strip() == "" for text in filtered)
            assert not any(t in feed.text for t in board_tables)
            assert not any(line["tableId"] in board_tables for line in lobby)
            assert hands == 0
            cursors.append(int(feed.links["next"]["url"].split("after=")[1].split("&")[0]))

        probe(board_tables[0])

        def one_finished() -> str:
            rounds = client.get(f"/tournaments/{tid}").json()["rounds"]
            done = [t["tableId"] for t in rounds[0]["tables"] if t["finished"]]
            return done[0] if done else ""

        probe(wait_until(one_finished, 60, "no table of round 1 finished"))
        assert set(refused) == set(probes("t", "x")), "the round ended before any probe"

        def finished() -> dict[str, Any]:
            found: dict[str, Any] = client.get(f"/tournaments/{tid}").json()
            return found if found["status"] == "ended" else {}

        final = wait_until(finished, 90, "the event did not end")
        plans = [t for r in final["rounds"] for t in r["tables"]]
        assert len(plans) == 8 and all(p["finished"] for p in plans)
        # Then it all opens: the manager records BoardReleased on each board table.
        wait_until(
            lambda: all(client.get(f"/tables/{p['tableId']}").status_code == 200 for p in plans),
            30,
            "a board table did not open",
        )
        # a Mitchell: North-South stay, East-West move one table; nobody meets twice
        met = [tuple(p["entries"]) for p in plans]
        assert len(set(met)) == 8
        assert [m[0] for m in met[:4]] == [m[0] for m in met[4:]]

        # Every table of a board dealt the same deck from the same dealer; the deck is the
        # board's, whose commitment was published at the start.
        position = 0
        hand_points: dict[tuple[str, int], list[int]] = {}
        for plan in plans:
            timeline = client.get(f"/tables/{plan['tableId']}/timeline").json()
            position = max(position, client.get(f"/tables/{plan['tableId']}").json()["version"])
            view = client.get(f"/tables/{plan['tableId']}")
            assert view.status_code == 200 and view.json()["tournamentId"] == tid
            for event in timeline:
                if event["type"] == "HandScored":
                    hand_points[(plan["tableId"], event["hand"])] = [
                        s["total"] for s in event["scores"]
                    ]
            plan["dealt"] = [
                (e["hand"], e["dealer"], e["deck"]) for e in timeline if e["type"] == "Dealt"
            ]
        for number in range(1, 5):
            traveller = client.get(f"/tournaments/{tid}/boards/{number}").json()
            deck, salt = traveller["deck"], traveller["salt"]
            assert (
                hashlib.sha256(f"{' '.join(deck)}|{salt}".encode()).hexdigest()
                == traveller["commitment"]
            )
            assert traveller["commitment"] == commitments[number - 1]
            playing = [p for p in plans if number in p["boards"]]
            assert len(playing) == 4 and len(traveller["tables"]) == 4
            hand = playing[0]["boards"].index(number) + 1
            dealt = {
                (p["dealt"][hand - 1][0], p["dealt"][hand - 1][1], tuple(p["dealt"][hand - 1][2]))
                for p in playing
            }
            assert len(dealt) == 1 and list(dealt.pop()[2]) == deck  # same cards per seat position

            # Victory points by hand: each pair's net against every other table's same seats.
            nets = {p["tableId"]: hand_points[(p["tableId"], hand)] for p in playing}
            for row in traveller["tables"]:
                ns, ew = nets[row["tableId"]]
                expected_ns = sum(
                    vp((ns - ew) - (o_ns - o_ew))
                    for other, (o_ns, o_ew) in nets.items()
                    if other != row["tableId"]
                )
                expected_ew = sum(
                    vp((ew - ns) - (o_ew - o_ns))
                    for other, (o_ns, o_ew) in nets.items()
                    if other != row["tableId"]
                )
                sides = {tuple(s["seats"]): s for s in row["result"]["sides"]}
                assert (sides[(0, 2)]["score"], sides[(1, 3)]["score"]) == (ns, ew)
                assert (sides[(0, 2)]["boardScore"], sides[(1, 3)]["boardScore"]) == (
                    expected_ns,
                    expected_ew,
                )

        # The standings: each entry's victory points over its boards, computed by hand.
        by_hand: dict[int, int] = {}
        for plan in plans:
            ns_entry, ew_entry = plan["entries"]
            for hand, number in enumerate(plan["boards"], 1):
                ns, ew = hand_points[(plan["tableId"], hand)]
                others = [p for p in plans if number in p["boards"] and p is not plan]
                for other in others:
                    o_ns, o_ew = hand_points[(other["tableId"], other["boards"].index(number) + 1)]
                    by_hand[ns_entry] = by_hand.get(ns_entry, 0) + vp((ns - ew) - (o_ns - o_ew))
                    by_hand[ew_entry] = by_hand.get(ew_entry, 0) + vp((ew - ns) - (o_ew - o_ns))
        assert {row["entry"]: row["score"] for row in final["standings"]} == by_hand
        assert sum(by_hand.values()) == 4 * 4 * 3 * 20  # 4 boards, 4 tables, 3 comparisons
        log_head = client.app.state.services.store.max_position()
        read_model = client.get(f"/tournaments/{tid}/standings?after={log_head}").json()
        assert read_model["rounds"] == [1, 2]
        assert read_model["standings"] == final["standings"]

        # ... everywhere, at the tables' BoardReleased: the feed carries every event of every
        # board table exactly once, paged with a cursor read before the boards opened and
        # with one read after; the lobby, the statistics, the players and the export count them.
        tables = {p["tableId"] for p in plans}
        log_head = client.app.state.services.store.max_position()
        heads = {t: client.get(f"/tables/{t}?after={log_head}").json()["version"] for t in tables}
        assert cursors, "no probe ran before round 1 ended"

        def read_feed(after: int) -> list[dict[str, Any]]:
            lines: list[dict[str, Any]] = []
            while True:
                page = client.get(f"/events?after={after}&limit=40")
                found = [json.loads(line) for line in page.text.splitlines()]
                if not found:
                    return lines
                lines += found
                after = int(page.links["next"]["url"].split("after=")[1].split("&")[0])

        for after in (0, cursors[0], cursors[-1]):
            lines = read_feed(after)
            releases = [line["release"] for line in lines]
            assert releases == sorted(releases)
            seen = [
                (line["tableId"], line["version"]) for line in lines if line["tableId"] in tables
            ]
            assert sorted(seen) == sorted((t, v) for t in tables for v in range(1, heads[t] + 1))
            released_at = {
                line["tableId"]: line["release"]
                for line in lines
                if line["type"] == "BoardReleased"
            }
            assert all(line["release"] == released_at[line["tableId"]] for line in lines)
        lobby = client.get(f"/tables?status=ended&after={log_head}").json()
        assert tables <= {line["tableId"] for line in lobby}
        stats = client.get(f"/stats?after={log_head}").json()
        assert stats["games"]["burraco"]["hands"] == 16, stats  # 8 tables x 2 boards
        exported = read_events(client.app.state.services.store, ["burraco"], None)
        assert len(exported.events["burraco"]) == sum(heads.values())
        assert set(exported.summaries) == tables
        bot = final["entries"][0]["names"][0]
        assert client.get(f"/players/{bot}/stats?after={log_head}").status_code == 200

        # A manager replaying the round's end releases no table twice.
        services = client.app.state.services
        state = services.tournaments.load(UUID(tid)).state
        release_round(services.store, state, UUID(tid), 1)
        assert all(services.store.get(UUID(t)).version == heads[t] for t in tables)

        # Every read of a board table answers.
        for name, path in probes(board_tables[0], tid).items():
            assert client.get(path).status_code == 200, name

        # The standings read model is rebuilt byte for byte.
        services = client.app.state.services
        redis = services.redis.client
        keys = Keys(settings.redis_prefix)
        names = [keys.named(f"tournament:{part}") for part in ("index", "tables", "standings")]

        def snapshot() -> list[Any]:
            reads = ["/stats", "/tables?status=ended", f"/players/{bot}/stats"]
            return [redis.hgetall(name) for name in names] + [client.get(p).json() for p in reads]

        before = snapshot()
        assert all(before)  # the index, the tables, the standings
        Projector(services.store, redis, settings.redis_prefix).rebuild()
        assert snapshot() == before


def test_a_board_opens_only_at_a_table_that_has_ended_and_leaves_its_state_alone() -> None:
    from domain.errors import DomainError
    from domain.games import game_named
    from domain.table import BoardReleased, CloseTable, OpenTable, ReleaseBoard, TakeSeat

    game = game_named("bourre")
    release = ReleaseBoard(tournament="t-1", round=1)
    state = game.decision(None, OpenTable(game="bourre", options={"seats": 2}, seed=1))[1]
    state = game.decision(state, TakeSeat(name="Ann", token_hash="a"))[1]
    try:
        game.decision(state, release)  # still waiting for players
    except DomainError:
        pass
    else:
        raise AssertionError("a table that has not ended released its board")
    ended = game.decision(state, CloseTable(seat=0))[1]
    events, after = game.decision(ended, release)
    assert events == [BoardReleased(tournament="t-1", round=1)] and after == ended
    assert game.evolve(ended, events[0]) == ended
    assert not game.settles_hand(events[0]) and game.hand_of(events[0]) == 0
