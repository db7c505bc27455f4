"""The tournaments' streams on both stores (design §10): rows under stable topics
``tournament/<Tag>`` in a table of their own, a stream read back the same by another
process's store, one writer per version, and no tournament row in the tables' log."""

from __future__ import annotations

import threading

import pytest

from domain.tournament.events import CreateTournament, Enter, EntryAccepted
from infra.recorders import rows_of_topics
from infra.settings import Settings
from infra.store import TableStore
from infra.tournaments import TOPICS, TournamentStore

pytestmark = pytest.mark.integration

CREATE = CreateTournament(
    game="bourre", format="swiss", options={"seats": 2}, rounds=3, tables=4, secret="ab" * 16
)


def test_a_tournament_is_its_own_stream_under_stable_topics(settings: Settings) -> None:
    first, second = TournamentStore(settings), TournamentStore(settings)
    try:
        made = first.create(CREATE)
        entered: list[int] = []
        lock = threading.Lock()

        def enter(name: str, store: TournamentStore) -> None:
            _, events = store.execute(made.tournament_id, Enter(names=(name,), token_hashes=("",)))
            with lock:
                entered.append(events[0].entry)

        threads = [
            threading.Thread(target=enter, args=(name, store))
            for name, store in (("Ann", first), ("Bob", second), ("Cy", first), ("Di", second))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(entered) == [0, 1, 2, 3]  # racing writers retried: each entry once
        again = second.load(made.tournament_id)
        assert again.version == 5 and sorted(again.state.entries) == [0, 1, 2, 3]
        assert second.ids() == [made.tournament_id]
        rows = rows_of_topics(first.app.recorder, tuple(TOPICS))
        assert {row.topic for row in rows} == {
            "tournament/TournamentCreated",
            "tournament/EntryAccepted",
        }
        assert isinstance(first.load(made.tournament_id).state.entries[3], EntryAccepted)
    finally:
        first.close()
        second.close()
    with TableStore(settings) as tables:
        assert tables.max_position() == 0  # the tables' log holds no tournament row
