"""The playout path (``domain/<game>/playout.py``) is held equal to the reference engine
(``decide``/``evolve``, ``legal_commands``): over random hands of random tables (default and
non-default options), at every step the position lists the moves ``legal_commands`` lists for
the seat to act, the position built afresh from the reference's state is the one the playout
path reached, and at the end of each hand both reach the same outcome. The optimised
``random_playout`` plays the same game as :func:`legal`/:func:`apply` given the same random
numbers.

``CARDROOM_DIFFERENTIAL_HANDS`` sets the number of hands per game (the suite's default is sized
to a few seconds; the issue's run is 10,000 per game).
"""

from __future__ import annotations

import os
import random
from typing import Any

import msgspec

from domain.bourre import playout as bourre
from domain.bourre.decide import decide_and_evolve as bourre_decide
from domain.bourre.events import Anted, HandSettled
from domain.bourre.legal import legal_commands as bourre_legal
from domain.bourre.legal import to_act as bourre_to_act
from domain.bourre.state import PLAYING
from domain.burraco import playout as burraco
from domain.burraco.commands import AddToMeld, Meld
from domain.burraco.decide import decision as burraco_decide
from domain.burraco.events import HandScored
from domain.burraco.legal import legal_commands as burraco_legal
from domain.burraco.legal import to_act as burraco_to_act
from domain.table import Command, OpenTable, TakeSeat

# hands per game: the suite's default is sized to a few seconds per game (a Burraco hand is some
# hundred turns, checked against the reference's listing at each, a Bourré hand some forty)
HANDS = os.environ.get("CARDROOM_DIFFERENTIAL_HANDS")
BOURRE_HANDS = int(HANDS or 300)
BURRACO_HANDS = int(HANDS or 40)


def meaning(command: Command) -> tuple[Any, ...]:
    """A command's meaning: a discard names a set of cards, in any order."""
    fields = msgspec.structs.asdict(command)
    if "discard" in fields:
        fields["discard"] = frozenset(fields["discard"])
    return (type(command).__name__, *sorted(fields.items()))


# --- Bourré -----------------------------------------------------------------------------------


def bourre_options(rng: random.Random, default: bool) -> dict[str, Any]:
    """Default options (a random table size), or any valid combination of spec §9."""
    seats = rng.randint(2, 8)
    if default:
        return {"seats": seats, "hands": rng.randint(1, 12)}
    four_card = rng.random() < 0.3
    options: dict[str, Any] = {
        "seats": seats,
        "ante": rng.randint(1, 3),
        "pot_limit": rng.choice([None, rng.randint(1, 40)]),
        "double_ante": rng.random() < 0.5,
        "declaration": rng.choice(["sequential", "two_round", "simultaneous"]),
        "four_card": four_card,
        "max_discard": rng.randint(0, 3 if four_card else 5),
        "ace_forces_dealer": rng.random() < 0.5,
        "cinch": rng.choice(["equivalent", "strict", "off"]),
        "tie": rng.choice(["carry", "split"]),
        "reshuffle_pool": rng.choice(["served_discards", "all_discards"]),
        "hands": rng.randint(1, 12),
    }
    if not four_card:
        options["trump_card"] = rng.choice(["dealer_card", "separate", "separate_dealer_may_take"])
    return options


def bourre_snapshot(pos: bourre.Position) -> tuple[Any, ...]:
    """What the rules read of a position (the order of cards received only until play)."""
    holding = pos.holding if pos.phase < bourre.P_PLAY else None
    return (
        pos.phase,
        bourre.to_move(pos),
        pos.held,
        holding,
        pos.stock,
        pos.discards,
        pos.gathered,
        pos.decisions,
        pos.revealed,
        pos.served,
        pos.second,
        pos.trump_owner,
        pos.playing if pos.phase == bourre.P_PLAY else None,
        pos.in_trick,
        pos.led,
        pos.best,
        pos.tricks,
        pos.gone,
        pos.pot,
        pos.paid,
        pos.settled,
    )


def slow_playout(pos: Any, game: Any, rng: random.Random) -> list[float]:
    """A random playout through ``legal`` and ``apply``: the move ``random_playout`` picks from
    the same random number (the ``k``-th of the legal moves; a forced move draws none)."""
    pos = game.copy(pos)
    while not game.is_over(pos):
        moves = game.legal(pos)
        game.apply(pos, moves[int(rng.random() * len(moves))] if len(moves) > 1 else moves[0])
    return list(game.outcome(pos))


def bourre_choice(commands: list[Command], rng: random.Random) -> Command:
    """A random legal command; passes get a fair share, and so do the largest discards (the
    stock runs out and rule 14 reshuffles), so that every path is exercised."""
    passes = [c for c in commands if not getattr(c, "play", True)]
    if passes and rng.random() < 0.35:
        return rng.choice(passes)
    if rng.random() < 0.4:
        most = max(len(getattr(c, "discard", ())) for c in commands)
        return rng.choice([c for c in commands if len(getattr(c, "discard", ())) == most])
    return rng.choice(commands)


def play_bourre_table(options: dict[str, Any], seed: int, rng: random.Random) -> int:
    """One table played to its end through both paths; the number of hands compared."""
    state, _ = bourre_decide(None, OpenTable(game="bourre", options=options, seed=seed))
    for seat in range(options["seats"]):
        state, _ = bourre_decide(state, TakeSeat(name=f"bot{seat}", token_hash=f"h{seat}"))
    paid = [0] * options["seats"]
    for seat in range(options["seats"]):  # the first hand's antes (rule 5)
        paid[seat] = state.options.ante
    pos = bourre.from_state(state)
    hands = 0
    while state.status == PLAYING:
        seat = bourre.to_move(pos)
        assert seat in bourre_to_act(state)
        moves = bourre.legal(pos)
        assert len(set(moves)) == len(moves)
        listed = sorted(meaning(bourre.to_command(pos, m)) for m in moves)
        assert listed == sorted(map(meaning, bourre_legal(state, seat)))
        assert bourre_snapshot(bourre.from_state(state)) == bourre_snapshot(pos)
        if rng.random() < 0.05:  # the hot loop plays what legal/apply play
            k = rng.getrandbits(32)
            fast = bourre.random_playout(pos, random.Random(k))
            assert fast == slow_playout(pos, bourre, random.Random(k))
        command = bourre_choice(bourre_legal(state, seat), rng)
        bourre.apply(pos, bourre.from_command(pos, command))
        state, events = bourre_decide(state, command)
        for event in events:
            if isinstance(event, Anted):
                for s in event.seats:
                    paid[s] += event.amount
            elif isinstance(event, HandSettled):
                hands += 1
                expected = [float(p - a) for p, a in zip(event.payouts, paid, strict=True)]
                for s in event.bourre:
                    expected[s] -= event.bourre_payment
                assert bourre.is_over(pos) and bourre.to_move(pos) == -1
                assert bourre.outcome(pos) == expected
                paid = [0] * options["seats"]  # the next hand's antes follow
        if state.status == PLAYING and bourre.is_over(pos):
            pos = bourre.from_state(state)
        elif state.status == PLAYING:
            assert not bourre.is_over(pos)
    return hands


def test_bourre_playout_path_lists_and_plays_as_the_reference_engine() -> None:
    rng = random.Random(25)
    hands = 0
    tables = 0
    while hands < BOURRE_HANDS:
        hands += play_bourre_table(bourre_options(rng, tables % 2 == 0), rng.getrandbits(40), rng)
        tables += 1
    assert hands >= BOURRE_HANDS


# --- Burraco ----------------------------------------------------------------------------------


def burraco_options(rng: random.Random, default: bool) -> dict[str, Any]:
    """Default options (four players or heads-up), or any valid combination of spec §8."""
    players = rng.choice([4, 2])
    if default:
        return {"seats": players, "hands": rng.randint(1, 3)}
    return {
        "seats": players,
        "hands": rng.randint(1, 3),
        "target": rng.choice([2000, 500]),
        "bonuses": rng.choice(["standard", "fitab"]),
        "close_requires": rng.choice(["any_burraco", "clean_burraco"]),
        "set_ranks": rng.choice(["any", "aces_and_threes"]),
        "take_pile": rng.choice(["free", "must_meld"]),
        "single_card_rediscard": rng.random() < 0.5,
        "stalemate_rounds": rng.randint(1, 3),
    }


def burraco_snapshot(pos: burraco.Position) -> tuple[Any, ...]:
    return (
        pos.phase,
        burraco.to_move(pos),
        pos.hands,
        pos.sealed,
        pos.pozzetti,
        pos.pozzetto_of_team,
        pos.stock_next,
        pos.pile,
        pos.melds,
        pos.next_meld,
        pos.took_pile,
        pos.melded_from_pile,
        pos.last_turn,
        pos.single_streak,
        pos.closed_by,
        pos.end_reason,
    )


def burraco_choice(commands: list[Command], rng: random.Random) -> Command:
    """A random legal command, melding more often than not (so that burracos, pozzetti and
    closings happen), taking the pile now and then."""
    melds = [c for c in commands if isinstance(c, Meld | AddToMeld)]
    if melds and rng.random() < 0.8:
        return rng.choice(melds)
    return rng.choice(commands)


def play_burraco_table(options: dict[str, Any], seed: int, rng: random.Random) -> int:
    """One table played to its end through both paths; the number of hands compared."""
    _, state = burraco_decide(None, OpenTable(game="burraco", options=options, seed=seed))
    for seat in range(options["seats"]):
        _, state = burraco_decide(state, TakeSeat(name=f"bot{seat}", token_hash=f"h{seat}"))
    pos = burraco.from_state(state)
    hands = 0
    while state.status == PLAYING:
        seat = burraco.to_move(pos)
        assert burraco_to_act(state) == {seat}
        moves = burraco.legal(pos)
        listed = sorted(meaning(burraco.to_command(pos, m)) for m in moves)
        assert listed == sorted(map(meaning, burraco_legal(state, seat)))
        assert burraco_snapshot(burraco.from_state(state)) == burraco_snapshot(pos)
        if rng.random() < 0.003:  # the hot loop plays what legal/apply play
            k = rng.getrandbits(32)
            fast = burraco.random_playout(pos, random.Random(k))
            assert fast == slow_playout(pos, burraco, random.Random(k))
        command = burraco_choice(burraco_legal(state, seat), rng)
        burraco.apply(pos, burraco.from_command(pos, command))
        events, state = burraco_decide(state, command)
        for event in events:
            if isinstance(event, HandScored):
                hands += 1
                expected = [float(event.scores[s % 2].total) for s in range(options["seats"])]
                assert burraco.is_over(pos) and burraco.to_move(pos) == -1
                assert burraco.outcome(pos) == expected
        if state.status == PLAYING and burraco.is_over(pos):
            pos = burraco.from_state(state)
        elif state.status == PLAYING:
            assert not burraco.is_over(pos)
    return hands


def test_burraco_playout_path_lists_and_plays_as_the_reference_engine() -> None:
    rng = random.Random(26)
    hands = 0
    tables = 0
    while hands < BURRACO_HANDS:
        hands += play_burraco_table(burraco_options(rng, tables % 2 == 0), rng.getrandbits(40), rng)
        tables += 1
