"""Server-side bots: seating them, and the process manager that plays their turns (design §9).

:func:`seat_bot` seats a bot of a kind (:mod:`bots`): a ``take_seat`` whose ``PlayerSeated``
records the kind, with a name that says it is a bot and a token nobody is given.

:class:`BotWorker` follows the notification log as the projector does (a tracking position
in Redis, advanced only after a batch's tables were handled). For each table a batch touched
it loads the table, and for every seat the table waits for that a bot plays, decides with the
pure strategy from that seat's view and issues the command through the write side with
``expected_version`` = the table's version and the idempotency key ``bot:{version}:{seat}``
(the prompting event is the one at that version). Hence exactly once, across restarts and
concurrent workers:

* a crash before the position moves replays the batch: a command already written comes back
  from its idempotency key (the same state gives the same decision, the generator being
  seeded from table, version and seat), one not yet written is written now — no skipped turn;
* two workers deciding the same prompt send the same command under the same key: the store
  writes it once — no doubled turn; a worker on a stale table gets a version conflict and
  the table's newer event brings the turn back.

A bot's own command is a new notification, so turns in a row chain through the log. The
think time (``CARDROOM_BOT_THINK_SECONDS``) runs from the prompting event's stored time and
blocks nobody; after a settled hand the turn is not due before the hand's settle time plus the
table's result pause (option ``result_pause``, unless every seat is a bot's) either. A turn not
yet due waits in a Redis sorted set (``{p}bots:due``, written before
the position moves, so a restart finds it) and is played once due. On a table with a
turn clock, a seat sat out after its timeouts (:mod:`managers.timekeeper`) is played by a
``basic`` bot until the player sends ``sit_in``. A seat its person left
(``SeatLeft``, :mod:`domain.table.leaving`) is played by the bot the event names; once every
seat is a bot's and some person left or sat out, the table is closed to end after the hand in
play (every human has left).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from bots import decide, kind_of, rng_for
from domain.errors import DomainError
from domain.table import PLAYING, CloseTable, PlayerSeated, TakeSeat, hash_token
from domain.table.clock import result_pause, turn_seconds
from domain.table.leaving import SeatLeft
from infra.errors import VersionConflict
from infra.results import CommandResult
from managers.following import follow
from managers.timekeeper import SETTLE_WINDOW, last_settled, options_of, sat_out_seats

log = logging.getLogger(__name__)

_TABLES_REMEMBERED = 10_000
# Drops a due turn once played, unless a newer one (a later score) replaced it meanwhile.
_SETTLE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""
SAT_OUT_BOT = "basic"  # who plays a seat sat out by its turn clock
# Only moves the position forward: two workers never take it back.
_ADVANCE = """
local stored = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > stored then redis.call('SET', KEYS[1], ARGV[1]) end
return redis.call('GET', KEYS[1])
"""


def bot_name(kind: str, seat: int) -> str:
    """A bot's seat name: it says it is a bot, and which kind."""
    return f"Bot {seat} ({kind})"


def seat_bot(
    store: Any, table_id: UUID, kind: str, seat: int | None = None
) -> tuple[int, CommandResult]:
    """Seat a bot of ``kind`` (checked against the game's kinds, :class:`bots.UnknownBot`)
    at ``seat`` or the first free one. Its token is drawn and forgotten: nobody holds it."""
    table = store.get(table_id)
    kind_of(table.game.name, kind)
    seating = table.game.seating(table.state)
    chosen = seat
    if chosen is None and None in seating.names:
        chosen = seating.names.index(None)
    name = bot_name(kind, chosen if chosen is not None else 0)
    token_hash = hash_token(secrets.token_urlsafe(24))
    result = store.execute(
        table_id, TakeSeat(name=name, token_hash=token_hash, seat=chosen, bot=kind)
    )
    for recorded in result.events:
        if isinstance(recorded.event, PlayerSeated) and recorded.event.token_hash == token_hash:
            return recorded.event.seat, result
    raise RuntimeError(f"table {table_id}: the bot's take_seat wrote no PlayerSeated")


def bot_seats(store: Any, table_id: UUID, version: int) -> tuple[dict[int, str], set[int]]:
    """The bots playing a table's seats as of ``version``, seat → kind, and the seats whose
    person left for a bot: seated bots (``PlayerSeated.bot``) and bots that took a seat over
    (``SeatLeft.bot``); a seat freed while the table waited is nobody's until taken again."""
    found: dict[int, str] = {}
    left: set[int] = set()
    for recorded in store.events(table_id, 1, version):
        event = recorded.event
        if isinstance(event, PlayerSeated | SeatLeft):
            if event.bot is None:
                found.pop(event.seat, None)
            else:
                found[event.seat] = event.bot
            if isinstance(event, SeatLeft) and event.bot is not None:
                left.add(event.seat)
    return found, left


def process_managers(
    store: Any, redis_client: Any, settings: Any
) -> list[tuple[str, Callable[[threading.Event], None]]]:
    """The bots' worker, the timekeeper, the tournaments' manager and the reviewer
    (:mod:`managers.reviewer`), each as ``(name, run_forever(stop))``."""
    from managers.reviewer import reviewer_for
    from managers.timekeeper import Timekeeper

    worker = BotWorker(store, redis_client, settings.redis_prefix,
                       think_seconds=settings.bot_think_seconds)  # fmt: skip
    keeper = Timekeeper(store, redis_client, settings.redis_prefix)
    from infra.tournaments import TournamentStore
    from managers.tournament import TournamentManager

    manager = TournamentManager(
        store, lambda: TournamentStore(settings), redis_client, settings.redis_prefix
    )  # design §10
    reviewer = reviewer_for(store, redis_client, settings)
    return [
        ("bots", worker.run_forever),
        ("timekeeper", keeper.run_forever),
        ("tournaments", manager.run_forever),
        ("reviewer", reviewer.run_forever),
    ]


class BotWorker:
    """Plays the bots' turns of ``store``'s tables (see the module docstring)."""

    def __init__(
        self,
        store: Any,
        redis_client: Any,
        prefix: str,
        *,
        think_seconds: float = 0.5,
        now: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._redis = redis_client
        self._key = f"{prefix}bots:position"
        self._think = think_seconds
        self._now = now
        self._due_key = f"{prefix}bots:due"
        self._settle = redis_client.register_script(_SETTLE)
        self._advance = redis_client.register_script(_ADVANCE)
        self._bots: dict[UUID, dict[int, str]] = {}
        self._left: dict[UUID, set[int]] = {}  # seats a bot took over from a person who left
        self._clocked: set[UUID] = set()

    def position(self) -> int:
        return int(self._redis.get(self._key) or 0)

    def run_once(self, limit: int = 200) -> int:
        """Handle the next notifications (at most ``limit``); returns how many."""
        notes = self._store.notifications(self.position() + 1, limit)
        for note in notes:
            if isinstance(note.event, SeatLeft):
                self._bots.pop(note.table_id, None)  # read the table's bots again
        for table_id in dict.fromkeys(note.table_id for note in notes):
            self.play(table_id)
        if notes:
            self._advance(keys=[self._key], args=[notes[-1].position])
        played = 0
        now = self._now()
        for member in self._redis.zrangebyscore(self._due_key, "-inf", now):
            table_id = UUID(member.decode() if isinstance(member, bytes) else member)
            played += self.play(table_id)
            # forget the turn unless play() scheduled a newer one
            self._settle(keys=[self._due_key], args=[str(table_id), now])
        return len(notes) + played

    def run_forever(self, stop: threading.Event, poll_interval: float = 0.05) -> None:
        """Play until ``stop`` is set; errors are logged and retried with backoff."""
        follow(self.run_once, stop, poll_interval, "bot worker")

    def play(self, table_id: UUID) -> int:
        """Issue the commands of every bot the table waits for now; returns how many."""
        if self._bots.get(table_id) == {} and table_id not in self._clocked:
            return 0  # a table of people only (known once it plays: its seats are all taken)
        table = self._store.get(table_id)
        game, state, version = table.game, table.state, table.version
        seating = game.seating(state)
        if seating.status != PLAYING:
            return 0
        players = dict(self._players(table_id, version))
        gone = set(self._left.get(table_id, ()))
        if turn_seconds(options_of(state)) is not None:
            # a turn clock: seats sat out after their timeouts are played by a bot
            self._clocked.add(table_id)
            sat_out = sat_out_seats(self._store.events(table_id, 1, version))
            for seat in sat_out:
                players.setdefault(seat, SAT_OUT_BOT)
            gone |= sat_out
        if gone and len(players) == seating.seats:
            # every person has left or sat out: the table ends once the hand is over
            self._end_when_the_hand_is_over(table_id, game, state, version, min(gone))
        issued = 0
        # people seated read a settled hand's result first (option result_pause); bots alone don't
        pause = 0.0 if len(players) == seating.seats else result_pause(options_of(state))
        for seat in sorted(game.to_act(state)):
            kind = players.get(seat)
            if kind is None:
                continue
            if (self._think > 0 or pause > 0) and not self._due(table_id, game, version, pause):
                return issued
            legal = game.legal_commands(state, seat)
            command = decide(game, kind, state, seat, legal, rng_for(table_id, version, seat))
            if command is None:
                continue
            try:
                self._store.execute(table_id, command, expected_version=version,
                                    idempotency_key=f"bot:{version}:{seat}")  # fmt: skip
            except (VersionConflict, DomainError) as error:
                # the table moved on (a human acted, another worker won): its newer event
                # brings this bot's turn back if it still is one
                log.info("bot at %s seat %s: %s", table_id, seat, error)
                return issued
            issued += 1
            # several seats to act (sealed declarations): the others decide at the new version
            return issued
        return issued

    def _due(self, table_id: UUID, game: Any, version: int, pause: float) -> bool:
        """Whether the think time since the prompting event has passed, and the result pause
        since the last settled hand (``pause`` seconds); if not, the turn is kept in
        ``{p}bots:due`` for when it has."""
        if pause > 0:
            recent = self._store.events(table_id, max(1, version - SETTLE_WINDOW), version)
        else:
            recent = self._store.events(table_id, version, version)
        due = recent[-1].at.timestamp() + self._think if recent else 0.0
        settled = last_settled(game, recent) if pause > 0 else None
        if settled is not None:
            due = max(due, settled + pause)
        if due <= self._now():
            return True
        self._redis.zadd(self._due_key, {str(table_id): due})
        return False

    def _end_when_the_hand_is_over(
        self, table_id: UUID, game: Any, state: Any, version: int, seat: int
    ) -> None:
        """Every person gone (sat out), only bots left: the table ends after the current hand.
        A table that plays out a hand before ending (``closeRequested`` in its view) is closed
        now; one that would abandon the hand at its next fresh deal."""
        view = game.view(state, seat)
        if "closeRequested" in view:
            if view["closeRequested"]:
                return
        elif not _fresh_hand(view):
            return
        try:
            self._store.execute(table_id, CloseTable(seat=seat), expected_version=version,
                                idempotency_key=f"bots-only:{version}")  # fmt: skip
        except (VersionConflict, DomainError) as error:
            log.info("closing bots-only table %s: %s", table_id, error)

    def _players(self, table_id: UUID, version: int) -> dict[int, str]:
        known = self._bots.get(table_id)
        if known is None:
            if len(self._bots) >= _TABLES_REMEMBERED:
                self._bots.clear()
                self._left.clear()
                self._clocked.clear()
            known, left = bot_seats(self._store, table_id, version)
            self._bots[table_id] = known
            self._left[table_id] = left
        return known


def _fresh_hand(view: dict[str, Any]) -> bool:
    """A hand just dealt: nobody has drawn, melded or taken the pile yet."""
    seats = view.get("seats", [])
    counts = {entry.get("cardCount") for entry in seats}
    melds = any(team.get("melds") for team in view.get("teams", []))
    return (
        view.get("phase") == "draw"
        and len(view.get("discardPile", [])) == 1
        and (len(counts) == 1 and not melds)
    )
