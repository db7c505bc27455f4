"""Hypothesis playouts of whole Bourré tables: random option combinations (spec §9) and
random legal bots, with the design §2 invariants checked after every command.

After every step: the 52 cards are conserved (hands, stock, discards not yet reshuffled,
played cards, a turned card that belongs to nobody); chips are conserved (rule 28: nets +
pot = 0); exactly one seat is to act (or the sealed simultaneous round, rule 31); each seat's
``legal_commands`` is empty iff the table waits for nobody at that seat; the events survive
JSON and replay to the same state; a command outside ``legal_commands`` is rejected with a
message. A player never receives a card they discarded in the same hand (rule 14), and a
player who had a cinch (rules 19–20) always wins the pot, however the others play.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.bourre import GAME, BourreEvent
from domain.bourre.cinch import has_cinch
from domain.bourre.codes import CODE
from domain.bourre.commands import Declare, Draw, PlayCard, SecondChance
from domain.bourre.decide import decide_and_evolve
from domain.bourre.events import CardPlayed, Dealt, Discarded, HandSettled, TrickWon
from domain.bourre.evolve import evolve
from domain.bourre.playing import known_out
from domain.bourre.state import DECLARE, PLAY, PLAYING, Table
from domain.cards import codes, deck_commitment, standard_pack
from domain.errors import DomainError
from domain.table import Command, OpenTable, TakeSeat
from tests.documents import card_codes

PACK = frozenset(standard_pack())
PACK_CODES = codes(standard_pack())
EVENTS = msgspec.json.Decoder(list[BourreEvent])


@st.composite
def table_options(draw: Any) -> dict[str, Any]:
    """Any valid combination of the spec's options."""
    four_card = draw(st.booleans())
    options: dict[str, Any] = {
        "seats": draw(st.integers(2, 8)),
        "ante": draw(st.integers(1, 3)),
        "pot_limit": draw(st.none() | st.integers(1, 40)),
        "double_ante": draw(st.booleans()),
        "declaration": draw(st.sampled_from(["sequential", "two_round", "simultaneous"])),
        "four_card": four_card,
        "max_discard": draw(st.integers(0, 3 if four_card else 5)),
        "ace_forces_dealer": draw(st.booleans()),
        "cinch": draw(st.sampled_from(["equivalent", "strict", "off"])),
        "tie": draw(st.sampled_from(["carry", "split"])),
        "reshuffle_pool": draw(st.sampled_from(["served_discards", "all_discards"])),
        "hands": draw(st.integers(1, 10)),
    }
    if not four_card:
        options["trump_card"] = draw(
            st.sampled_from(["dealer_card", "separate", "separate_dealer_may_take"])
        )
    return options


def check_invariants(state: Table) -> None:
    to_act = GAME.to_act(state)
    for seat in range(state.seats):
        assert bool(GAME.legal_commands(state, seat)) == (seat in to_act)
    assert sum(state.nets) + state.pot == 0, "chips are not conserved (rule 28)"
    if state.status != PLAYING:
        assert not to_act
        return
    hand = state.hand
    assert hand is not None
    sealed = hand.phase == DECLARE and not hand.revealed
    assert len(to_act) == 1 or (sealed and to_act), f"to act: {to_act} in {hand.phase}"
    located = [c for cards in hand.holdings for c in cards]
    located += hand.stock
    located += [c for cards in hand.discards for c in cards if c not in hand.gathered]
    located += hand.played
    if hand.trump_card_owner is None:
        located.append(hand.trump_card)
    assert len(located) == 52 and set(located) == PACK, "cards are not conserved"
    for seat, cards in enumerate(hand.holdings):  # under every reshuffle_pool
        assert not set(cards) & set(hand.discards[seat]), "received an own discard (rule 14)"


def illegal_probe(state: Table, rng: random.Random) -> Command:
    """A random command of a plausible shape, for checking that decide refuses it when it is
    not in legal_commands."""
    seat = rng.randrange(state.seats)
    shape = rng.randrange(4)
    hand = state.hand
    held = [c.code for c in hand.holdings[seat]] if hand else []
    discard = rng.sample(held + PACK_CODES[:3], k=rng.randint(0, min(6, len(held) + 3)))
    if shape == 0:
        return PlayCard(seat=seat, card=rng.choice(held + PACK_CODES))
    if shape == 1:
        return Declare(
            seat=seat, play=rng.random() < 0.7, discard=discard, take_trump=rng.random() < 0.2
        )
    if shape == 2:
        return Draw(seat=seat, discard=discard, take_trump=rng.random() < 0.2)
    return SecondChance(seat=seat, play=rng.random() < 0.5)


def same_choice(command: Command) -> tuple[Any, ...]:
    """A command's meaning: a discard names a set of cards, in any order."""
    fields = msgspec.structs.asdict(command)
    if "discard" in fields:
        fields["discard"] = frozenset(fields["discard"])
    return (type(command), *sorted(fields.items(), key=lambda item: item[0]))


def bot_choice(commands: list[Command], rng: random.Random) -> Command:
    """A random legal command; passes get a fair share so that every path is exercised."""
    passes = [c for c in commands if isinstance(c, Declare | SecondChance) and not c.play]
    if passes and rng.random() < 0.35:
        return rng.choice(passes)
    return rng.choice(commands)


def start(options: dict[str, Any], seed: int) -> tuple[Table, list[Any]]:
    state, events = decide_and_evolve(None, OpenTable(game="bourre", options=options, seed=seed))
    for seat in range(options["seats"]):
        state, more = decide_and_evolve(state, TakeSeat(name=f"bot{seat}", token_hash=f"h{seat}"))
        events += more
    return state, events


def cinched_seat(state: Table) -> int | None:
    """The seat to play, if what it can see guarantees it the pot (rule 19)."""
    hand = state.hand
    if hand is None or hand.phase != PLAY or hand.turn is None:
        return None
    seat = hand.turn
    if has_cinch(hand.holdings[seat], hand.trump, hand.tricks[seat], known_out(hand)):
        return seat
    return None


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=table_options(), seed=st.integers(0, 2**63 - 1), rng=st.randoms(use_true_random=False)
)
def test_bourre_random_tables_keep_every_invariant_after_every_step(
    options: dict[str, Any], seed: int, rng: random.Random
) -> None:
    state, events = start(options, seed)
    replayed = None
    for decoded in EVENTS.decode(msgspec.json.encode(events)):
        replayed = evolve(replayed, decoded)
    assert replayed == state
    check_invariants(state)
    settled_hands = 0
    cinched: set[int] = set()
    while state.status == PLAYING:
        cinch = cinched_seat(state)
        if cinch is not None:
            cinched.add(cinch)
        probe = illegal_probe(state, rng)
        legal_now = GAME.legal_commands(state, probe.seat)  # type: ignore[attr-defined]
        if same_choice(probe) not in {same_choice(c) for c in legal_now}:
            try:
                GAME.decide(state, probe)
            except DomainError as error:
                assert error.message
            else:
                raise AssertionError(f"{probe} is not legal but was accepted")
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, events = decide_and_evolve(state, bot_choice(GAME.legal_commands(state, seat), rng))
        for decoded in EVENTS.decode(msgspec.json.encode(events)):
            replayed = evolve(replayed, decoded)
        assert replayed == state, "replaying the events gives another state"
        for event in events:
            if isinstance(event, HandSettled):
                settled_hands += 1
                for seat in cinched:  # rules 19-20: a cinch is a guarantee
                    assert event.winner == seat and event.tricks[seat] >= 3
                cinched = set()
        check_invariants(state)
    assert settled_hands == options["hands"]
    assert state.end_reason == "hands"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=table_options(),
    seed=st.integers(0, 2**63 - 1),
    rng=st.randoms(use_true_random=False),
)
def test_bourre_long_tables_conserve_cards_and_chips_for_a_hundred_hands(
    options: dict[str, Any], seed: int, rng: random.Random
) -> None:
    """Many hands per table (the pot carries and bourré payments compound); the whole event
    stream replays to the final state."""
    options = {**options, "hands": 100}
    state, events = start(options, seed)
    while state.status == PLAYING:
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, more = decide_and_evolve(state, bot_choice(GAME.legal_commands(state, seat), rng))
        events += more
        check_invariants(state)
    assert len(state.history) == 100
    replayed = None
    for decoded in EVENTS.decode(msgspec.json.encode(events)):
        replayed = evolve(replayed, decoded)
    assert replayed == state


def visible_in_event(event: Any, viewer: int | None) -> set[str]:
    """The card codes ``viewer`` may see in ``event`` before its hand settles (design §5)."""
    if isinstance(event, Dealt):
        own = set(event.hands[viewer]) if viewer is not None else set()
        return own | {event.trump_card}
    if isinstance(event, Discarded):
        return set(event.discarded + event.drawn) if event.seat == viewer else set()
    if isinstance(event, CardPlayed | TrickWon):
        return card_codes(msgspec.to_builtins(event))
    return set()


def visible_in_view(state: Table, viewer: int | None) -> set[str]:
    hand = state.hand
    if hand is None:
        return set()
    public = {CODE[c] for c in hand.played} | {CODE[hand.trump_card]}
    if viewer is None:
        return public
    own = hand.holdings[viewer] + hand.discards[viewer]
    return public | {CODE[c] for c in own}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    options=table_options(),
    seed=st.integers(0, 2**63 - 1),
    rng=st.randoms(use_true_random=False),
)
def test_bourre_nobody_sees_a_hidden_card_and_every_deal_matches_its_commitment(
    options: dict[str, Any], seed: int, rng: random.Random
) -> None:
    """Visibility (design §5): redacted events and views show a viewer only their own cards
    and public ones; each deal follows rule 10 and the settlement's deck and salt match the
    deal's commitment."""
    state, events = start(options, seed)
    viewers: list[int | None] = [None, *range(options["seats"])]
    dealt: Dealt | None = None
    while True:
        for event in events:
            for viewer in viewers:
                shown = card_codes(GAME.redact(event, viewer, False))
                assert shown <= visible_in_event(event, viewer), f"{event} leaks to {viewer}"
            if isinstance(event, Dealt):
                dealt = event
                n = options["seats"]
                size = 4 if options["four_card"] else 5
                for k in range(size * n):  # rule 10
                    seat = (event.dealer + 1 + k) % n
                    assert event.deck[k] == event.hands[seat][k // n]
            if isinstance(event, HandSettled):
                assert dealt is not None
                assert deck_commitment(event.deck, event.salt) == dealt.commitment
        for viewer in viewers:
            assert card_codes(GAME.view(state, viewer)) <= visible_in_view(state, viewer)
        if state.status != PLAYING:
            break
        seat = rng.choice(sorted(GAME.to_act(state)))
        state, events = decide_and_evolve(state, bot_choice(GAME.legal_commands(state, seat), rng))
