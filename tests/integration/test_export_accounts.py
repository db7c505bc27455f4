"""The export's ``accounts`` dataset (docs/analytics.md, design §2.2): one row per account —
name, kind, when it was opened — read in DuckDB with the document's own view, and no secret
(password hash, seat key, session) in any file the export writes."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from domain import accounts as rules
from infra.accounts import AccountStore
from infra.export import ACCOUNT_COLUMNS, export
from infra.settings import Settings
from infra.simulate import play_table
from infra.store import TableStore
from tests.integration.test_export import documented_sql

HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$secret-hash-of-ann"
SEAT_KEY = "seat-key-of-ann-0123456789abcdef"
GUEST_KEY = "seat-key-of-guest-fedcba9876543210"
CLAIMED_HASH = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$secret-hash-of-bea"
SESSION = "0f" * 32  # a session token's SHA-256, as the stream records it
SECRETS = (HASH, SEAT_KEY, GUEST_KEY, CLAIMED_HASH, SESSION)


@pytest.mark.parametrize("fmt", ["parquet", "ndjson"])
def test_accounts_are_exported_without_their_secrets(
    store: TableStore, settings: Settings, tmp_path: Path, fmt: str
) -> None:
    accounts = AccountStore(settings)
    try:
        ann, _ = accounts.register("Ann", rules.PLAYER, HASH, SEAT_KEY)
        accounts.execute(ann, rules.StartSession(SESSION))
        guest, _ = accounts.register("guest-a1b2c3", rules.GUEST, None, GUEST_KEY)
        accounts.execute(guest, rules.ClaimGuest("Bea", CLAIMED_HASH))
        accounts.register("guest-d4e5f6", rules.GUEST, None, "seat-key-of-the-other-guest")
        play_table(store, "bourre", 1, 3, options={"seats": 2})
        out = tmp_path / "out"
        report = export(store, out, fmt, accounts=accounts)
    finally:
        accounts.close()

    assert report.total("accounts") == 3
    for path in out.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            for secret in (
                HASH,
                SEAT_KEY,
                GUEST_KEY,
                CLAIMED_HASH,
                SESSION,
                "password",
                "seat_key",
            ):
                assert secret.encode() not in data, (path, secret)

    db = duckdb.connect()
    setup, questions = documented_sql()
    (view,) = [statement for statement in setup if "VIEW accounts" in statement]
    if fmt == "parquet":
        db.execute(view.replace("'export/", f"'{out}/"))
    else:  # the document's view reads Parquet; NDJSON is read as JSON lines
        db.execute(
            f"CREATE VIEW accounts AS SELECT * FROM read_json('{out}/accounts/data.ndjson', "
            "columns = {name: 'VARCHAR', kind: 'VARCHAR', created: 'TIMESTAMPTZ'})"
        )
    columns = {row[0]: row[1] for row in db.execute("DESCRIBE accounts").fetchall()}
    assert columns == {
        name: kind.replace("TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE")
        for name, kind in ACCOUNT_COLUMNS.items()
    }
    rows = db.execute("SELECT name, kind FROM accounts").fetchall()
    assert rows == [("Ann", "player"), ("Bea", "player"), ("guest-d4e5f6", "guest")]
    assert db.execute(questions["accounts_by_kind"]).fetchall() == [("guest", 1), ("player", 2)]


def test_an_export_without_the_account_store_writes_no_accounts(
    sqlite_store: TableStore, tmp_path: Path
) -> None:
    export(sqlite_store, tmp_path, "ndjson")
    assert not (tmp_path / "accounts").exists()
