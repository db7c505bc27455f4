"""The tournaments' process manager (design §10): it seats each round's tables, records a
table's result when it ends, opens the round's boards and pairs the next round once the
round's last table has ended, and ends the event after the last round.

It follows the tables' notification log like the bots' worker (a tracking position in Redis,
``{p}tournaments:position``, moved only after a batch was handled). A ``TableEnded`` of a
table whose options place it in a tournament (:mod:`domain.tournament.embargo`) becomes
``record_table`` with each settled hand's sides as the game's ``house.ranking`` reads them;
the tournament's Decider then opens the boards and ends the round (or the event). Once the
round has ended, the manager records ``BoardReleased`` on each of the round's board tables
(:func:`release_round`): the opening is then an event of the tables' log, at which the feed,
the export, the lobby and the statistics take each table in (design §10). Everything is
idempotent, so a crash or a second manager replays safely:

* ``record_table`` of a table already finished is refused by the tournament, and ignored;
* a table whose last event is ``BoardReleased`` is not released again (a race of two
  managers: the second's command meets a newer version, or an ended table's refusal, and the
  table then shows ``BoardReleased`` last);
* :func:`advance` pairs the next round only when the previous one ended (a second pairing
  is refused) and opens each planned table under its planned id only if it is not open yet,
  then seats each seat still free: the organiser's bots (``PlayerSeated.bot``, named as the
  entry), people under their entry's token hash (their entry token is their seat token at
  every table of the event).

A Sit & Go whose organiser allows bots after a wait (``botsAfterSeconds``) is kept, once
someone has entered, in a Redis sorted set ``{p}tournaments:due`` scored by its deadline (its
stored creation time plus the wait; written by the entry, :func:`schedule_bots`); on each
poll the manager sends ``fill_with_bots`` with the time waited by its clock (``now``, as the
timekeeper does) for each deadline passed — the tournament's Decider decides — then seats
the table. A refusal (started meanwhile, full) drops the deadline; a new entry writes it again.

A duplicate round's tables are opened with the round's boards as stacked decks (hand ``n``
plays the table's ``n``-th board) and one seed for the round, so every table of a board
deals the same cards to each seat position; their deals are fixed by the server, which keeps
them out of the ratings (design §2.2).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID, uuid4

from domain.errors import DomainError
from domain.games import game_named
from domain.table import (
    PlayerSeated,
    ReleaseBoard,
    TableEnded,
    TableOpened,
    TakeSeat,
    hash_token,
)
from domain.tournament import embargo
from domain.tournament.boards import board, round_seed
from domain.tournament.decide import Tournament, TournamentError
from domain.tournament.events import (
    DUPLICATE,
    PLAYING,
    WAITING,
    FillWithBots,
    PairRound,
    RecordTable,
    Side,
    TablePlan,
)
from infra.errors import TableNotFound
from infra.tournaments import Loaded, TournamentNotFound, TournamentStore
from managers.following import follow

log = logging.getLogger(__name__)

_ADVANCE = """
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > stored then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('GET', KEYS[1])
"""


def hands_of(store: Any, table_id: UUID) -> tuple[tuple[Side, ...], ...]:
    """Each settled hand's sides at the table, in hand order (the game's ``house.ranking``)."""
    loaded = store.get(table_id)
    game = loaded.game
    seats = game.seating(loaded.state).seats
    found: list[tuple[Side, ...]] = []
    for recorded in store.events(table_id, 1, loaded.version):
        ranking = game.house.ranking(recorded.event, seats)
        if ranking is not None:
            found.append(tuple(Side(tuple(s), int(score)) for s, score in ranking))
    return tuple(found)


def _opened(store: Any, table_id: UUID) -> bool:
    try:
        return bool(store.events(table_id, 1, 1))
    except TableNotFound:
        return False


def open_table(
    store: Any, state: Tournament, tournament_id: UUID, number: int, plan: TablePlan
) -> None:
    """Open one planned table (if it is not open yet) and seat its free seats."""
    created = state.created
    table_id = UUID(plan.table_id)
    if not _opened(store, table_id):
        placed = embargo.Placement(
            id=str(tournament_id),
            round=number,
            table=plan.table,
            tables=len(state.rounds[number].tables),
            boards=plan.boards,
            seats=plan.seats,
            format=created.format,
            scoring=created.scoring,
            byes=state.rounds[number].byes,
        )
        options = {**created.options, embargo.OPTION: embargo.check(placed)}
        decks = None
        seed = None
        if created.format == DUPLICATE:
            pack = game_named(created.game).table.pack
            decks = [list(board(created.secret, pack, n).deck) for n in plan.boards]
            seed = round_seed(created.secret, number)
        try:
            store.commands.create_table(
                created.game, options, seed=seed, decks=decks, tournament=True, table_id=table_id
            )
        except Exception:
            if not _opened(store, table_id):  # another manager opened it meanwhile: fine
                raise
    seat_entries(store, state, plan)


def seat_entries(store: Any, state: Tournament, plan: TablePlan) -> None:
    """Seat every entry of ``plan`` whose seat is still free: a side's members in order."""
    table_id = UUID(plan.table_id)
    loaded = store.get(table_id)
    names = loaded.game.seating(loaded.state).names
    members: dict[int, int] = {}
    for seat, entry in enumerate(plan.seats):
        member = members.get(entry, 0)
        members[entry] = member + 1
        if names[seat] is not None:
            continue
        accepted = state.entries[entry]
        token_hash = accepted.token_hashes[member] or hash_token(uuid4().hex)
        command = TakeSeat(
            name=accepted.names[member],
            token_hash=token_hash,
            seat=seat,
            bot=accepted.bot,
            account=accepted.account,  # an account's seat is rated as any (design §2.2)
        )
        try:
            store.execute(table_id, command)
        except DomainError:
            refreshed = store.get(table_id)
            if refreshed.game.seating(refreshed.state).names[seat] is None:
                raise


def advance(store: Any, tournaments: TournamentStore, tournament_id: UUID) -> Tournament:
    """Pair the next round if it is due and open and seat the current round's tables."""
    loaded = tournaments.load(tournament_id)
    state = loaded.state
    if state.status != PLAYING:
        return state
    number = state.current_round
    due = number == 0 or (number in state.ended_rounds and number < state.created.rounds)
    if due:
        ids = tuple(str(uuid4()) for _ in range(state.tables_needed()))
        try:
            loaded, _ = tournaments.execute(
                tournament_id, PairRound(round=number + 1, table_ids=ids)
            )
        except TournamentError:
            loaded = tournaments.load(tournament_id)  # another manager paired it
        state = loaded.state
        number = state.current_round
    if number == 0 or number in state.ended_rounds:
        return state
    for plan in state.rounds[number].tables:
        if plan.table_id not in state.finished:
            open_table(store, state, tournament_id, number, plan)
    return state


def released(store: Any, table_id: UUID) -> bool:
    """Whether the table's last event is ``BoardReleased``."""
    head = store.get(table_id).version
    last = store.events(table_id, head, head)
    return bool(last) and embargo.releases(last[-1].event)


def release_round(store: Any, state: Tournament, tournament_id: UUID, number: int) -> None:
    """Record ``BoardReleased`` on each board table of round ``number`` (ended) that lacks it."""
    if number not in state.ended_rounds:
        return
    command = ReleaseBoard(tournament=str(tournament_id), round=number)
    for plan in state.rounds[number].tables:
        table_id = UUID(plan.table_id)
        if not plan.boards or released(store, table_id):  # boards: withheld (the embargo's)
            continue
        try:
            store.execute(table_id, command)
        except Exception:
            if not released(store, table_id):  # another manager released it meanwhile: fine
                raise


def record(
    store: Any, tournaments: TournamentStore, tournament_id: UUID, table_id: UUID, number: int
) -> None:
    """A tournament's table of round ``number`` ended: record its hands, release the round's
    board tables once the round has ended, then advance the event."""
    hands = hands_of(store, table_id)
    with contextlib.suppress(TournamentError):  # recorded already (a replayed batch)
        tournaments.execute(tournament_id, RecordTable(table_id=str(table_id), hands=hands))
    release_round(store, tournaments.load(tournament_id).state, tournament_id, number)
    advance(store, tournaments, tournament_id)


def due_key(prefix: str) -> str:
    """The sorted set of waiting Sit & Gos' bot deadlines (module docstring)."""
    return f"{prefix}tournaments:due"


def schedule_bots(redis_client: Any, prefix: str, loaded: Loaded) -> None:
    """Keep the bot deadline of a waiting Sit & Go that lets bots fill it and has an entry."""
    state = loaded.state
    wait = state.created.bots_after_seconds
    if wait is None or state.status != WAITING or not state.entries:
        return
    deadline = loaded.created_at.timestamp() + wait
    redis_client.zadd(due_key(prefix), {str(loaded.tournament_id): deadline})


class TournamentManager:
    """Follows the tables' log for tournament tables that end (module docstring)."""

    def __init__(
        self,
        store: Any,
        tournaments: Callable[[], TournamentStore],
        redis_client: Any,
        prefix: str,
        *,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._now = now
        self._due_key = due_key(prefix)
        self._open_tournaments = tournaments  # opened on first use: most servers hold none
        self._tournaments: TournamentStore | None = None
        self._redis = redis_client
        self._key = f"{prefix}tournaments:position"
        self._advance = redis_client.register_script(_ADVANCE)
        self._placed: dict[UUID, embargo.Placement | None] = {}

    def position(self) -> int:
        return int(self._redis.get(self._key) or 0)

    def placement(self, table_id: UUID) -> embargo.Placement | None:
        if table_id not in self._placed:
            first = self._store.events(table_id, 1, 1)
            opened = first[0].event if first else None
            options = opened.options if isinstance(opened, TableOpened) else None
            if len(self._placed) > 10_000:
                self._placed.clear()
            self._placed[table_id] = embargo.placement(options)
        return self._placed[table_id]

    def _opened(self) -> TournamentStore:
        if self._tournaments is None:
            self._tournaments = self._open_tournaments()
        return self._tournaments

    def fill_due(self) -> int:
        """Send ``fill_with_bots`` to each Sit & Go whose deadline has passed; how many
        started (module docstring)."""
        now = self._now()
        started = 0
        for member in self._redis.zrangebyscore(self._due_key, "-inf", now):
            key = member.decode() if isinstance(member, bytes) else member
            tournament_id = UUID(key)
            try:
                loaded = self._opened().load(tournament_id)
            except TournamentNotFound:
                self._redis.zrem(self._due_key, key)
                continue
            waited = now - loaded.created_at.timestamp()
            try:
                self._opened().execute(tournament_id, FillWithBots(waited_seconds=waited))
            except DomainError as refused:  # started meanwhile, or not due by its clock
                log.info("tournament %s not filled with bots: %s", key, refused)
                if waited < (loaded.state.created.bots_after_seconds or 0):
                    continue  # the stored time is ahead of this clock: ask again later
            else:
                advance(self._store, self._opened(), tournament_id)
                started += 1
            self._redis.zrem(self._due_key, key)
        return started

    def run_once(self, limit: int = 500) -> int:
        started = self.fill_due()
        notes = self._store.notifications(self.position() + 1, limit)
        for note in notes:
            if isinstance(note.event, TableEnded | PlayerSeated | TableOpened):
                placed = self.placement(note.table_id)
                if placed is not None and isinstance(note.event, TableEnded):
                    try:
                        record(
                            self._store,
                            self._opened(),
                            UUID(placed.id),
                            note.table_id,
                            placed.round,
                        )
                    except TournamentNotFound:
                        log.warning("table %s names no tournament %s", note.table_id, placed.id)
        if notes:
            self._advance(keys=[self._key], args=[notes[-1].position])
        return len(notes) + started

    def run_forever(self, stop: threading.Event, poll_interval: float = 0.05) -> None:
        try:
            follow(self.run_once, stop, poll_interval, "tournament manager")
        finally:
            if self._tournaments is not None:
                self._tournaments.close()
