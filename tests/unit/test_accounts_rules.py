"""The account rules (design §2.2) and how each game ranks a settled hand for ratings."""

from __future__ import annotations

import pytest

from domain import accounts as rules
from domain.bourre.events import HandSettled
from domain.bourre.readmodels import hand_ranking as bourre_ranking
from domain.burraco.events import HandScored, TeamScore
from domain.burraco.readmodels import hand_ranking as burraco_ranking
from domain.errors import InvalidName
from projections.ratings import pool_of, ranks


def test_account_names_are_letters_digits_underscore_and_hyphen() -> None:
    assert rules.registered_name("  Ann_B-2 ") == "Ann_B-2"
    for bad in ("A", "x" * 25, "Ann B", "Ann!", "guest-ab12", "Ann\u200b"):
        with pytest.raises(InvalidName):
            rules.registered_name(bad)


def test_one_name_in_any_case_and_look_alike() -> None:
    keys = {rules.claim_key(n) for n in ("Ivy", "ivy", "IVY", "\uff29vy")}
    assert len(keys) == 1
    assert rules.claim_key("B0b") == rules.claim_key("\u0412ob") == rules.claim_key("bob")
    assert rules.claim_key("Ann") != rules.claim_key("Anne")


def test_passwords_have_ten_characters_at_least() -> None:
    assert rules.check_password("0123456789") == "0123456789"
    with pytest.raises(rules.AccountError) as refused:
        rules.check_password("012345678")
    assert refused.value.field == "password"


def test_an_account_signs_in_and_out_and_a_guest_is_claimed() -> None:
    [registered] = rules.decide(None, rules.Register("guest-ab12cd", rules.GUEST, None, "key"))
    account = rules.evolve(None, registered)
    [started] = rules.decide(account, rules.StartSession("s1"))
    account = rules.evolve(account, started)
    assert account is not None and account.sessions == frozenset({"s1"})
    [claimed] = rules.decide(account, rules.ClaimGuest("Ann", "$argon2id$h"))
    account = rules.evolve(account, claimed)
    assert account is not None
    assert (account.name, account.kind, account.seat_key) == ("Ann", rules.PLAYER, "key")
    assert account.sessions == frozenset({"s1"})  # the guest's session goes on
    with pytest.raises(rules.AccountError):
        rules.decide(account, rules.ClaimGuest("Bea", "$argon2id$h"))
    [changed] = rules.decide(account, rules.ChangePassword("$argon2id$new"))
    account = rules.evolve(account, changed)
    assert account is not None and account.sessions == frozenset()  # every session ends
    assert rules.decide(account, rules.EndSession("s1")) == []


def test_bourre_ranks_seats_by_the_chips_of_the_hand() -> None:
    settled = HandSettled(
        hand=1, pot=6, cap=6, winner=0, payouts=[6, 0, 0], tricks=[3, 2, 0],
        bourre=[2], bourre_payment=6, tied=[], carried=0, solo=False, deck=[], salt="",
    )  # fmt: skip
    assert bourre_ranking(settled, 3) == [((0,), 6), ((1,), 0), ((2,), -6)]
    assert ranks([6, 0, -6]) == [1.0, 2.0, 3.0]
    assert ranks([0, 0, 6]) == [2.0, 2.0, 1.0]  # ties share a rank


def test_burraco_ranks_partnerships_as_teams_and_heads_up_as_individuals() -> None:
    def score(total: int) -> TeamScore:
        return TeamScore(melds=total, in_hand=0, burracos=0, closing=0, pozzetto=0, total=total)

    scored = HandScored(
        hand=1, scores=[score(300), score(450)], totals=[300, 450], deck=[], salt=""
    )
    assert burraco_ranking(scored, 4) == [((0, 2), 300), ((1, 3), 450)]
    assert burraco_ranking(scored, 2) == [((0,), 300), ((1,), 450)]


def test_only_tables_all_of_accounts_or_all_of_bots_are_rated() -> None:
    assert pool_of(["player", "player"]) == "players"
    assert pool_of(["bot:basic", "bot:random"]) == "bots"
    assert pool_of(["player", "bot:basic"]) is None
    assert pool_of(["player", "guest"]) is None
    assert pool_of(["player", None]) is None
