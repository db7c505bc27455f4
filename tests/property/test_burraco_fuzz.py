"""Any command, however wrong, is answered by a ``DomainError`` or accepted — never a crash
(design §5: no input yields a 500). Accepted commands keep the 108 cards conserved."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.burraco import GAME
from domain.burraco.bot import choose
from domain.burraco.commands import AddToMeld, Discard, Draw, Meld, TakePile
from domain.cards import burraco_pack, codes
from domain.errors import DomainError
from domain.table import CloseTable, OpenTable, TakeSeat
from tests.unit.burraco.helpers import seated_table

CODES = sorted(set(codes(burraco_pack())))
CARD = st.sampled_from(CODES) | st.text(max_size=4)
SEAT = st.integers(min_value=-2, max_value=5)
HINT = st.none() | st.sampled_from(["A", "2", "7", "K", "low", "high", "x", ""])
COMMAND = st.one_of(
    st.builds(Draw, seat=SEAT),
    st.builds(TakePile, seat=SEAT),
    st.builds(Meld, seat=SEAT, cards=st.lists(CARD, max_size=6), wild_rank=HINT, ace=HINT),
    st.builds(
        AddToMeld,
        seat=SEAT,
        meld=st.integers(min_value=-1, max_value=12),
        cards=st.lists(CARD, max_size=3),
        wild_rank=HINT,
        ace=HINT,
    ),
    st.builds(Discard, seat=SEAT, card=CARD),
    st.builds(TakeSeat, name=st.text(max_size=5), token_hash=st.text(max_size=3), seat=SEAT),
    st.builds(CloseTable, seat=SEAT),
    st.builds(
        OpenTable,
        game=st.sampled_from(["burraco", "bourre"]),
        options=st.dictionaries(st.sampled_from(["players", "target", "x"]), st.integers()),
        seed=st.integers(),
    ),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(min_value=0, max_value=10**6),
    warmup=st.integers(min_value=0, max_value=60),
    commands=st.lists(COMMAND, min_size=1, max_size=25),
)
def test_burraco_any_command_is_decided_or_refused_with_a_domain_error(
    seed: int, warmup: int, commands: list[Any]
) -> None:
    table: Any = seated_table(seed=seed)
    rng = random.Random(seed)
    for _ in range(warmup):  # reach a position somewhere in the hand
        (seat,) = GAME.to_act(table)
        for event in GAME.decide(table, choose(table, seat, rng)):
            table = GAME.evolve(table, event)
        if table.status != "playing":
            break
    for command in commands:
        try:
            events = GAME.decide(table, command)
        except DomainError as error:
            assert error.message
            continue
        for event in events:
            table = GAME.evolve(table, event)
        r = table.round
        if r is not None:
            seen: Counter[str] = Counter(r.stock)
            for cards in (*r.hands, *r.sealed, *r.pozzetti, r.pile):
                seen.update(cards)
            for meld in r.melds:
                seen.update(meld.layout.cards)
            assert sum(seen.values()) == 108
