"""What the tournament routes call (design §10): create, enter, start, and the reads — the
event as a whole, its standings (the read model, :mod:`projections.tournaments`) and a
board's traveller once it has opened.

Tournament events live in their own streams (:mod:`infra.tournaments`); starting an event
pairs its first round and opens its tables at once (:func:`managers.tournament.advance`); the
process manager does the rest as tables end.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from typing import Any
from uuid import UUID

import msgspec

from api import accounts
from api.problems import ApiProblem
from api.services import Services
from domain.table import hash_token
from domain.tournament.decide import Tournament
from domain.tournament.events import PLAYING, CreateTournament, Enter, Start
from domain.tournament.scoring import board_plays, board_scores
from infra.tournaments import Loaded, TournamentNotFound
from managers.tournament import advance, schedule_bots
from projections.keys import Keys
from projections.tournaments import Tournaments


class CreateBody(msgspec.Struct, kw_only=True, rename="camel", forbid_unknown_fields=True):
    """``POST /tournaments``."""

    game: str
    format: str
    options: dict[str, Any] = {}
    rounds: int = 1
    boards_per_round: int = 1
    tables: int = 1
    bots: str | None = None
    name: str = ""
    bots_after_seconds: float | None = None  # a Sit & Go: bots fill it after this wait


class EntryBody(msgspec.Struct, kw_only=True, rename="camel", forbid_unknown_fields=True):
    """``POST /tournaments/{id}/entries``: a player's ``name`` or a pair's ``names``."""

    name: str | None = None
    names: list[str] | None = None


def _load(services: Services, tournament_id: UUID) -> Loaded:
    try:
        return services.tournaments.load(tournament_id)
    except TournamentNotFound as error:
        raise ApiProblem(404, "unknown-tournament", f"no tournament {tournament_id}") from error


def create(services: Services, body: CreateBody) -> dict[str, Any]:
    command = CreateTournament(
        game=body.game,
        format=body.format,
        options=dict(body.options),
        rounds=body.rounds,
        boards_per_round=body.boards_per_round,
        tables=body.tables,
        bots=body.bots,
        secret=secrets.token_hex(16),
        name=body.name,
        bots_after_seconds=body.bots_after_seconds,
    )
    return shown(services.tournaments.create(command))


def entry_token(account: Any, tournament_id: UUID) -> str:
    """An account's seat token at every table of an event: HMAC-SHA256 of the event's id
    under the account's seat key (as its seat at a table is of the table's id, design §2.2),
    so any session of the account finds it again."""
    digest = hmac.new(account.seat_key.encode(), tournament_id.bytes, hashlib.sha256).digest()
    return "acct-" + base64.urlsafe_b64encode(digest).decode().rstrip("=")


def enter(
    services: Services, tournament_id: UUID, body: EntryBody, session: str | None = None
) -> dict[str, Any]:
    """An entry: its number, names and each member's token (shown this once: the member's
    seat token at every table of the event). Signed in, an empty body enters the account
    under its name, its seats the account's (rated when every seat is an account's)."""
    _load(services, tournament_id)
    account: str | None = None
    if body.name is None and body.names is None and session is not None:
        found = accounts.required(services, session)
        names, tokens = [found.account.name], [entry_token(found.account, tournament_id)]
        account = found.account.kind
    else:
        if (body.name is None) == (body.names is None):
            raise ApiProblem(400, "malformed-request", "send `name` or `names`", field="name")
        names = [body.name] if body.name is not None else list(body.names or [])
        for name in names:  # a typed name may not be an account's: it signs in to enter
            accounts.not_an_accounts_name(services, name)
        tokens = [secrets.token_urlsafe(24) for _ in names]
    command = Enter(
        names=tuple(names), token_hashes=tuple(hash_token(t) for t in tokens), account=account
    )
    loaded, events = services.tournaments.execute(tournament_id, command)
    if loaded.state.status == PLAYING:  # the entry that fills a Sit & Go starts it
        advance(services.store, services.tournaments, tournament_id)
    else:  # bots may fill it after a wait (the manager's deadline)
        schedule_bots(services.redis.client, services.settings.redis_prefix, loaded)
    accepted = events[0]
    return {
        "entry": accepted.entry,
        "names": list(accepted.names),
        "tokens": tokens,
        "account": accepted.account,
    }


def start(services: Services, tournament_id: UUID) -> dict[str, Any]:
    _load(services, tournament_id)
    services.tournaments.execute(tournament_id, Start())
    advance(services.store, services.tournaments, tournament_id)
    return shown(services.tournaments.load(tournament_id))


def listing(services: Services) -> list[dict[str, Any]]:
    """Every tournament, newest first, in a line each."""
    found = []
    for tournament_id in reversed(services.tournaments.ids()):
        loaded = services.tournaments.load(tournament_id)
        state = loaded.state
        found.append(
            {
                "tournamentId": str(tournament_id),
                "name": state.created.name,
                "game": state.created.game,
                "format": state.created.format,
                "status": state.status,
                "entries": len(state.entries),
                "places": state.capacity,
                "rounds": state.created.rounds,
                "round": state.current_round,
                "links": {"self": f"/tournaments/{tournament_id}"},
            }
        )
    return found


def tournament(services: Services, tournament_id: UUID) -> dict[str, Any]:
    return shown(_load(services, tournament_id))


def shown(loaded: Loaded) -> dict[str, Any]:
    """The event as anyone may see it: no secret, no token hash, no board not yet open."""
    state = loaded.state
    created = state.created
    tid = str(loaded.tournament_id)
    rounds = []
    for number in sorted(state.rounds):
        paired = state.rounds[number]
        rounds.append(
            {
                "round": number,
                "ended": number in state.ended_rounds,
                "byes": list(paired.byes),
                "tables": [
                    {
                        "tableId": plan.table_id,
                        "table": plan.table,
                        "board": plan.boards[0] if plan.boards else None,
                        "boards": list(plan.boards),
                        "entries": list(dict.fromkeys(plan.seats)),
                        "finished": plan.table_id in state.finished,
                        "links": {
                            "watch": f"/watch/{plan.table_id}",
                            "table": f"/tables/{plan.table_id}",
                        },
                    }
                    for plan in paired.tables
                ],
            }
        )
    boards = [
        {"board": n, "commitment": c, "open": n in state.opened,
         "links": {"traveller": f"/tournaments/{tid}/boards/{n}"}}
        for n, c in enumerate(state.commitments, 1)
    ]  # fmt: skip
    return {
        "tournamentId": tid,
        "name": created.name,
        "game": created.game,
        "format": created.format,
        "status": state.status,
        "options": created.options,
        "roundsPlanned": created.rounds,
        "boardsPerRound": created.boards_per_round,
        "tables": created.tables,
        "seats": created.seats,
        "sides": [list(side) for side in created.sides],
        "scoring": created.scoring,
        "bots": created.bots,
        "botsAfterSeconds": created.bots_after_seconds,
        "places": state.capacity,
        "entries": [
            {"entry": e.entry, "names": list(e.names), "bot": e.bot, "account": e.account}
            for e in state.entries.values()
        ],
        "rounds": rounds,
        "boards": boards,
        "standings": state.standings(),
        "createdAt": loaded.created_at.isoformat(),
        "links": {"self": f"/tournaments/{tid}", "standings": f"/tournaments/{tid}/standings"},
    }


def standings(services: Services, tournament_id: UUID) -> bytes | dict[str, Any]:
    """The standings read model (of the ended rounds); before any table is projected, every
    entry at nought."""
    loaded = _load(services, tournament_id)
    reader = Tournaments(services.redis.client, Keys(services.settings.redis_prefix))
    found = reader.read(str(tournament_id))
    if found is not None:
        return found
    return {"tournamentId": str(tournament_id), "rounds": [], "standings": _nought(loaded.state)}


def _nought(state: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "rank": 1,
            "entry": e.entry,
            "names": list(e.names),
            "score": 0,
            "tiebreak": 0,
            "played": 0,
        }
        for e in state.entries.values()
    ]


def traveller(services: Services, tournament_id: UUID, number: int) -> dict[str, Any]:
    """Board ``number`` once open: its deck, salt and commitment, and every table's play of
    it side by side (each side's entry, names, score and board score); 404 for no such
    board, 403 ``board-embargoed`` until it opens."""
    loaded = _load(services, tournament_id)
    state = loaded.state
    if not 1 <= number <= state.created.rounds * state.created.boards_per_round:
        raise ApiProblem(404, "unknown-board", f"tournament {tournament_id} has no board {number}")
    opened = state.opened.get(number)
    if opened is None:
        raise ApiProblem(
            403,
            "board-embargoed",
            f"board {number} opens when every table of its round has finished it",
        )
    round_of = next(
        n for n, paired in state.rounds.items() if any(number in p.boards for p in paired.tables)
    )
    results = state.results(frozenset({round_of}))
    plays = board_plays(results).get(number, [])
    scored = board_scores(plays, state.created.scoring)
    tables: list[dict[str, Any]] = []
    for result, index in sorted(plays, key=lambda found: found[0].table_id):
        plan = state.plan_of(result.table_id)
        sides = []
        for side in result.hands[index]:
            entry = result.seats[side.seats[0]]
            board_score, own = scored[result.table_id][entry]
            sides.append(
                {
                    "seats": list(side.seats),
                    "entry": entry,
                    "names": list(state.entries[entry].names),
                    "score": side.score,
                    "net": own,
                    "boardScore": board_score,
                }
            )
        tables.append(
            {
                "tableId": result.table_id,
                "table": plan.table if plan else None,
                "hand": index + 1,
                "result": {"sides": sides},
                "links": {"replay": f"/tables/{result.table_id}/timeline"},
            }
        )
    tables.sort(key=lambda row: int(row["table"] or 0))
    return {
        "tournamentId": str(tournament_id),
        "board": number,
        "round": round_of,
        "deck": list(opened.deck),
        "salt": opened.salt,
        "commitment": opened.commitment,
        "scoring": state.created.scoring,
        "tables": tables,
    }
