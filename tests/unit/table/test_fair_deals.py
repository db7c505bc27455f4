"""Fair deals (design §2, "Fair deals"): every hand's shuffle and salt come from the table's
128-bit secret through HMAC-SHA256, so a revealed hand predicts nothing; a chosen seed or
stacked decks make the deals fixed; tables stored before secrets replay as they were dealt."""

from __future__ import annotations

import hashlib
import hmac
from typing import Any

import msgspec
import pytest

from domain.cards import deal_salt, deck_commitment, derive_seed, shuffled
from domain.errors import InvalidOption
from domain.games import game_named
from domain.table import OpenTable, TableOpened, TakeSeat
from domain.table.deck import DealSource, hand_deck

GAMES = {"bourre": {"seats": 2}, "burraco": {"players": 2}}
SECRET = "00112233445566778899aabbccddeeff"
OTHER_SECRET = "ffeeddccbbaa99887766554433221100"


def dealt(game: str, secret: str, seed: int = 3, fixed: bool = False) -> Any:
    """Hand 1's ``Dealt`` of a two-seat table opened with ``secret``."""
    rules = game_named(game)
    command = OpenTable(game=game, options=GAMES[game], seed=seed, secret=secret, fixed_deals=fixed)
    state = rules.decision(None, command)[1]
    state = rules.decision(state, TakeSeat(name="Ann", token_hash="a"))[1]
    events = rules.decision(state, TakeSeat(name="Bob", token_hash="b"))[0]
    return next(event for event in events if type(event).__name__ == "Dealt")


def keyed(secret: str, message: str) -> bytes:
    return hmac.new(bytes.fromhex(secret), message.encode(), hashlib.sha256).digest()


@pytest.mark.parametrize("game", GAMES)
def test_a_hands_salt_and_shuffle_come_from_the_secret_not_the_seed(game: str) -> None:
    deal = dealt(game, SECRET, seed=3)
    assert deal.salt == keyed(SECRET, "salt:1").hex()[:32]
    assert deal.salt != deal_salt(3, 1)
    pack = game_named(game).table.pack
    by_secret = shuffled(pack, int.from_bytes(keyed(SECRET, "deck:1")[:16], "big"))
    assert deal.deck == by_secret
    assert deal.deck != shuffled(pack, derive_seed(3, "deck", 1))
    assert deal.commitment == deck_commitment(deal.deck, deal.salt)


@pytest.mark.parametrize("game", GAMES)
def test_the_same_seed_with_another_secret_deals_another_hand(game: str) -> None:
    one, other = dealt(game, SECRET), dealt(game, OTHER_SECRET)
    assert one.salt != other.salt and one.deck != other.deck


def test_one_revealed_hand_does_not_give_the_next_hands_salt() -> None:
    source = DealSource(seed=3, secret=SECRET, decks=(), fixed=False)
    salts = [hand_deck(source, ["AS", "KS"], hand).salt for hand in (1, 2, 3)]
    assert len(set(salts)) == 3
    assert all(salt != deal_salt(3, hand) for hand, salt in enumerate(salts, start=1))


@pytest.mark.parametrize("game", GAMES)
def test_fixed_deals_shuffle_from_the_seed_but_salt_from_the_secret(game: str) -> None:
    deal = dealt(game, SECRET, seed=3, fixed=True)
    pack = game_named(game).table.pack
    assert deal.deck == shuffled(pack, derive_seed(3, "deck", 1))
    assert deal.salt == keyed(SECRET, "salt:1").hex()[:32]


@pytest.mark.parametrize("game", GAMES)
def test_a_table_stored_before_secrets_deals_and_verifies_from_its_seed(game: str) -> None:
    stored = msgspec.json.encode(
        {"type": "TableOpened", "game": game, "options": GAMES[game], "seed": 3}
    )
    opened = msgspec.json.decode(stored, type=TableOpened)
    assert opened.secret == "" and opened.fixed_deals is False
    deal = dealt(game, opened.secret, seed=opened.seed)
    pack = game_named(game).table.pack
    assert deal.deck == shuffled(pack, derive_seed(3, "deck", 1))
    assert deal.salt == deal_salt(3, 1)
    assert deal.commitment == deck_commitment(deal.deck, deal.salt)


@pytest.mark.parametrize("secret", ["abc", "0" * 31, "G" * 32, 12345])
def test_a_secret_is_128_bits_or_more_of_lowercase_hex(secret: Any) -> None:
    rules = game_named("bourre")
    command = OpenTable(game="bourre", options={"seats": 2}, seed=3, secret=secret)
    with pytest.raises(InvalidOption) as error:
        rules.decide(None, command)
    assert error.value.key == "secret"


def test_stacked_decks_make_the_deals_fixed() -> None:
    rules = game_named("bourre")
    deck = list(rules.table.pack)
    command = OpenTable(game="bourre", options={"seats": 2}, seed=3, decks=[deck], secret=SECRET)
    opened = rules.decide(None, command)[0]
    assert isinstance(opened, TableOpened) and opened.fixed_deals is True
