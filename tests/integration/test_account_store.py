"""The accounts' streams on both stores (design §2.2): a name is one account's whoever races
for it, sessions start and end, and no account row reaches the tables' log."""

from __future__ import annotations

import threading
from uuid import UUID

import pytest

from domain import accounts as rules
from infra.accounts import AccountStore, NameTaken
from infra.settings import Settings
from infra.store import TableStore

pytestmark = pytest.mark.integration


def test_one_of_racing_claims_holds_a_name_and_the_log_holds_no_account(
    settings: Settings,
) -> None:
    accounts = AccountStore(settings)
    try:
        winners: list[UUID] = []
        lock = threading.Lock()

        def race(name: str) -> None:
            try:
                account_id, _ = accounts.register(name, rules.PLAYER, "hash", "key")
            except NameTaken:
                return
            with lock:
                winners.append(account_id)

        threads = [threading.Thread(target=race, args=(n,)) for n in ("Ann", "ANN", "ann", "Аnn")]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert len(winners) == 1
        assert accounts.holder("aNN") == winners[0]
        account = accounts.execute(winners[0], rules.StartSession("s1"))
        assert account.sessions == frozenset({"s1"})
        account = accounts.execute(winners[0], rules.EndSession("s1"))
        assert account.sessions == frozenset()
    finally:
        accounts.close()
    with TableStore(settings) as tables:
        assert tables.max_position() == 0
        assert tables.notifications(1, 100) == []
