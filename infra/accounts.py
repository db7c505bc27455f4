"""The accounts' event store (design §2.2): account streams beside the tables' log.

Accounts live in the same database as the tables (the same ``CARDROOM_EVENT_STORE``), in an
eventsourcing application of their own (``CardroomAccounts``) whose recorder is an aggregate
recorder of its own table (PostgreSQL ``cardroomaccounts_accounts``, SQLite
``stored_accounts``), with no notification log. So the tables' log —
what the projector, the public feed (``GET /events``) and the export read — holds no account
event by construction: an account's name appears only where it sits at a table.

Streams, each an eventsourcing aggregate sequence (optimistic concurrency: a version is
recorded once, a second writer of it fails):

* an account's stream, whose id is the account's (a random UUID): registration, sessions,
  a guest's claim, password changes;
* ``uuid5(NAMESPACE, "name:" + name_key)`` — a name's claim (:class:`~domain.accounts.NameClaimed`
  at version 1, whose writer holds the name);

Rows are written under stable topics ``account/<tag>`` (:mod:`infra.own_streams`); only the
classes of :data:`domain.accounts.EVENTS` are ever decoded.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar, cast
from uuid import UUID, uuid4, uuid5

from eventsourcing.application import Application
from eventsourcing.persistence import IntegrityError, Mapper

from domain import accounts as rules
from infra.eventstore_env import eventsourcing_env
from infra.own_streams import StoredStreamEvent, StreamMapper
from infra.recorders import account_recorder, rows_of_topics
from infra.settings import Settings

NAMESPACE = UUID("6f1c8d1e-43a4-4d55-9a7e-0d7d1b3c2a10")  # of name-claim stream ids
TOPIC_PREFIX = "account/"
TOPICS: dict[str, type] = {
    f"{TOPIC_PREFIX}{cls.__struct_config__.tag}": cls  # type: ignore[attr-defined]
    for cls in rules.EVENTS
}
TOPIC_OF: dict[type, str] = {cls: topic for topic, cls in TOPICS.items()}
POOL_SIZE = 2  # sign-ins are few beside commands
MAX_OVERFLOW = 4


StoredAccountEvent = StoredStreamEvent  # one account event as eventsourcing stores it


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as the export shows it: nothing secret (no hash, seat key or session)."""

    name: str
    kind: str
    created: datetime


_NAMING_TOPICS = tuple(TOPIC_OF[cls] for cls in (rules.AccountRegistered, rules.GuestClaimed))


class AccountsApplication(Application[UUID]):
    """The accounts' streams, in a table of their own (:meth:`construct_recorder`)."""

    name = "CardroomAccounts"
    env: ClassVar[dict[str, str]] = {}

    def construct_mapper(self) -> Mapper[UUID]:
        return StreamMapper(
            TOPICS, rules.Event, "an account",
            compressor=self.factory.compressor(), cipher=self.factory.cipher(),
        )  # fmt: skip

    def construct_recorder(self) -> Any:
        """An aggregate recorder of its own table (PostgreSQL ``cardroomaccounts_accounts``,
        SQLite ``stored_accounts``): streams without a notification log, so no reader of
        the tables' log (projector, feed, export) can ever meet an account's row."""
        return account_recorder(self.factory.aggregate_recorder(purpose="accounts"))


class NameTaken(Exception):
    """Another account holds this name (or one confusable with it)."""


class Conflict(Exception):
    """Another writer recorded this account's next version first (retry)."""


def encodable(text: str) -> bool:
    """Whether ``text`` is UTF-8 text (JSON may carry lone surrogates, which are not)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def claim_id(name: str) -> UUID:
    """The name-claim stream of ``name`` (keyed by its :func:`~domain.names.name_key`)."""
    return uuid5(NAMESPACE, "name:" + rules.claim_key(name))


class AccountStore:
    """Account streams: load, decide, record (one writer per version). Thread-safe."""

    def __init__(self, settings: Settings) -> None:
        env = eventsourcing_env(
            settings.event_store, pool_size=POOL_SIZE, max_overflow=MAX_OVERFLOW
        )
        env.pop("APPLICATION_RECORDER_TOPIC", None)  # the library's recorder: no log readers
        self.app = AccountsApplication(env=env)
        self._lock = threading.Lock()

    def close(self) -> None:
        self.app.close()

    def load(self, account_id: UUID) -> tuple[rules.Account | None, int]:
        """The account and its stream's version (``None, 0``: no such account)."""
        state: rules.Account | None = None
        version = 0
        for stored in self.app.events.get(account_id):
            state = rules.evolve(state, cast(StoredAccountEvent, stored).event)
            version = stored.originator_version
        return state, version

    def holder(self, name: str) -> UUID | None:
        """The account holding ``name`` (or a name confusable with it), if any."""
        if not encodable(name):
            return None  # a lone surrogate: no account's name (the rule of names refuses it)
        for stored in self.app.events.get(claim_id(name), lte=1):
            claimed = cast(StoredAccountEvent, stored).event
            return UUID(claimed.account) if isinstance(claimed, rules.NameClaimed) else None
        return None

    def execute(self, account_id: UUID, command: rules.Command) -> rules.Account:
        """Decide ``command`` on the account and record its events at the next versions;
        raises :class:`~domain.accounts.AccountError` or :class:`Conflict`."""
        state, version = self.load(account_id)
        events = rules.decide(state, command)
        self._record(account_id, version, events)
        for event in events:
            state = rules.evolve(state, event)
        if state is None:
            raise rules.AccountError("no such account")
        return state

    def claim(self, name: str, account_id: UUID) -> None:
        """Make ``name`` ``account_id``'s; raises :class:`NameTaken` when another holds it."""
        try:
            self._record(claim_id(name), 0, [rules.NameClaimed(account=account_id.hex)])
        except Conflict as error:
            if self.holder(name) != account_id:
                raise NameTaken(name) from error

    def register(
        self, name: str, kind: str, password_hash: str | None, seat_key: str
    ) -> tuple[UUID, rules.Account]:
        """A new account holding ``name``; raises :class:`NameTaken`."""
        account_id = uuid4()
        self.claim(name, account_id)
        state = self.execute(account_id, rules.Register(name, kind, password_hash, seat_key))
        return account_id, state

    def names(self, account_id: UUID) -> list[str]:
        """Every name the account has sat under: its first, then a claimed guest's chosen one
        (its seats' statistics are under each: :mod:`projections.accountstats`)."""
        found: list[str] = []
        for stored in self.app.events.get(account_id):
            event = cast(StoredAccountEvent, stored).event
            if isinstance(event, rules.AccountRegistered | rules.GuestClaimed):
                found.append(event.name)
        return found

    def listing(self) -> list[AccountRow]:
        """Every account's public facts — name, kind, when it was opened — by when it was
        opened, then name (the export's ``accounts`` dataset). Read from the streams' rows of
        the topics that name an account (registration, a guest's claim), whatever their stream:
        no hash, seat key or session leaves this method."""
        opened: dict[UUID, AccountRow] = {}
        for stored in rows_of_topics(self.app.recorder, _NAMING_TOPICS):
            envelope = cast(StoredAccountEvent, self.app.mapper.to_domain_event(stored))
            event = envelope.event
            if isinstance(event, rules.AccountRegistered):
                opened[envelope.originator_id] = AccountRow(event.name, event.kind, envelope.at)
            elif isinstance(event, rules.GuestClaimed) and envelope.originator_id in opened:
                created = opened[envelope.originator_id].created
                opened[envelope.originator_id] = AccountRow(event.name, rules.PLAYER, created)
        return sorted(opened.values(), key=lambda row: (row.created, row.name))

    def _record(self, stream: UUID, version: int, events: list[Any]) -> None:
        if not events:
            return
        at = datetime.now(UTC)
        envelopes = [
            StoredAccountEvent(stream, version + n, at, event) for n, event in enumerate(events, 1)
        ]
        try:
            self.app.events.put(envelopes)
        except IntegrityError as error:
            raise Conflict(f"account stream {stream} moved on") from error
