"""The tournaments' event store (design §10): one stream per tournament beside the tables' log.

Like the accounts (:mod:`infra.accounts`), tournaments live in the same database as the
tables (``CARDROOM_EVENT_STORE``), in an eventsourcing application of their own
(``CardroomTournaments``) whose aggregate recorder keeps its own table (PostgreSQL
``cardroomtournaments_tournaments``, SQLite ``stored_tournaments``) and no notification log:
no reader of the tables' log (projector, feed, export, bots) ever meets a tournament's row,
and the secret the boards are drawn from stays in the stream. Rows are written under the
stable topics ``tournament/<Tag>`` (:mod:`infra.own_streams`); only the classes of
:data:`domain.tournament.events.EVENTS` are ever decoded.

What a table of a tournament shows is the tables' log's business: each carries its placement
in its options (:mod:`domain.tournament.embargo`), so the standings read model
(:mod:`projections.tournaments`) is rebuilt from the tables' log alone.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar, cast
from uuid import UUID, uuid4

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Mapper

from domain.tournament import events as rules
from domain.tournament.decide import Tournament, decide, evolve
from infra.eventstore_env import eventsourcing_env
from infra.own_streams import StoredStreamEvent, StreamMapper
from infra.recorders import account_recorder, rows_of_topics
from infra.settings import Settings

TOPIC_PREFIX = "tournament/"
TOPICS: dict[str, type] = {
    f"{TOPIC_PREFIX}{cls.__struct_config__.tag}": cls for cls in rules.EVENTS
}
TOPIC_OF: dict[type, str] = {cls: topic for topic, cls in TOPICS.items()}
POOL_SIZE = 2
MAX_OVERFLOW = 4
MAX_ATTEMPTS = 8


StoredTournamentEvent = StoredStreamEvent  # one tournament event as eventsourcing stores it


class TournamentsApplication(Application[UUID]):
    name = "CardroomTournaments"
    env: ClassVar[dict[str, str]] = {}

    def construct_mapper(self) -> Mapper[UUID]:
        return StreamMapper(
            TOPICS, rules.AnyEvent, "a tournament",
            compressor=self.factory.compressor(), cipher=self.factory.cipher(),
        )  # fmt: skip

    def construct_recorder(self) -> Any:
        return account_recorder(self.factory.aggregate_recorder(purpose="tournaments"))


class Conflict(Exception):
    """Another writer recorded the tournament's next version first."""


class TournamentNotFound(Exception):
    """No tournament has this id."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A tournament as of its stream's ``version``, and when it was created."""

    tournament_id: UUID
    state: Tournament
    version: int
    created_at: datetime


class TournamentStore:
    """Tournament streams: load, decide, record (one writer per version). Thread-safe."""

    def __init__(self, settings: Settings) -> None:
        env = eventsourcing_env(
            settings.event_store, pool_size=POOL_SIZE, max_overflow=MAX_OVERFLOW
        )
        env.pop("APPLICATION_RECORDER_TOPIC", None)
        self.app = TournamentsApplication(env=env)
        self._lock = threading.Lock()
        self._cache: dict[UUID, Loaded] = {}

    def close(self) -> None:
        self.app.close()

    def load(self, tournament_id: UUID) -> Loaded:
        """The tournament now; raises :class:`TournamentNotFound`."""
        known = self._cache.get(tournament_id)
        state = known.state if known else None
        version = known.version if known else 0
        created = known.created_at if known else None
        for stored in self.app.events.get(tournament_id, gt=version or None):
            envelope = cast(StoredTournamentEvent, stored)
            state = evolve(state, envelope.event)
            version = envelope.originator_version
            created = created or envelope.at
        if state is None or created is None:
            raise TournamentNotFound(f"no tournament {tournament_id}")
        loaded = Loaded(tournament_id, state, version, created)
        with self._lock:
            self._cache[tournament_id] = loaded
        return loaded

    def create(self, command: rules.CreateTournament) -> Loaded:
        tournament_id = uuid4()
        events = decide(None, command)
        self._record(tournament_id, 0, events)
        return self.load(tournament_id)

    def execute(self, tournament_id: UUID, command: Any) -> tuple[Loaded, list[Any]]:
        """Decide ``command`` on the tournament now and record its events, retrying after
        a concurrent writer; returns the tournament after them and the events."""
        for _ in range(MAX_ATTEMPTS):
            loaded = self.load(tournament_id)
            events = decide(loaded.state, command)
            try:
                self._record(tournament_id, loaded.version, events)
            except Conflict:
                continue
            return self.load(tournament_id), events
        raise Conflict(f"tournament {tournament_id} kept moving")

    def ids(self) -> list[UUID]:
        """Every tournament, oldest first."""
        rows = rows_of_topics(self.app.recorder, (TOPIC_OF[rules.TournamentCreated],))
        found = [cast(StoredTournamentEvent, self.app.mapper.to_domain_event(row)) for row in rows]
        return [e.originator_id for e in sorted(found, key=lambda e: (e.at, str(e.originator_id)))]

    def _record(self, stream: UUID, version: int, events: list[Any]) -> None:
        if not events:
            return
        at = datetime.now(UTC)
        envelopes = [
            StoredTournamentEvent(stream, version + n, at, event)
            for n, event in enumerate(events, 1)
        ]
        try:
            self.app.events.put(envelopes)
        except IntegrityError as error:
            raise Conflict(f"tournament stream {stream} moved on") from error
