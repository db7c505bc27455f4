"""High card's rules: the table kernel does the rest (open, seats, deck of each hand, close).

1. Each hand, every seat is dealt ``hand_size`` cards from the kernel's deck of the hand (the
   52-card pack), one at a time from the dealer's left; the deal passes left each hand.
2. From the dealer's left, each seat plays one card from its hand.
3. The highest card wins the hand: the higher rank (Ace high); between equal ranks, the suit
   in the order spades, hearts, diamonds, clubs.
4. The table plays ``hands`` hands, then ends. A seated player may close it at any time.

Options: ``seats`` (2 to 6, default 2), ``hands`` (1 to 100, default 1), ``hand_size`` (1 to
5, default 3), and the common ``reveal`` and ``spectator_delay``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from domain.cards import card, codes, standard_pack
from domain.errors import IllegalCommand, InvalidOption, NotYourTurn
from domain.table import PLAYING, TableEnded
from domain.table.deck import dealer_of, hand_deck
from domain.table.kernel import TableRules, decide_table
from domain.table.options import split_options
from domain.table.schema import INT, Option
from tests.highcard.commands import PlayCard
from tests.highcard.events import CardPlayed, Dealt, HandWon
from tests.highcard.state import Table, evolve, seat_for_token, seating

PACK = tuple(codes(standard_pack()))
SUIT_ORDER = "CDHS"  # clubs lowest, spades highest (rule 3)
LIMITS = {"seats": (2, 6, 2), "hands": (1, 100, 1), "hand_size": (1, 5, 3)}
LABELS = {  # a form's label for each option, and the rule above that uses it
    "seats": ("Players at the table", None),
    "hands": ("Hands to play", "4"),
    "hand_size": ("Cards dealt to each player", "1"),
}
SCHEMA = tuple(
    Option(
        name=key,
        type=INT,
        min=low,
        max=high,
        default=default,
        label=LABELS[key][0],
        rule=LABELS[key][1],
        help=f"{LABELS[key][0]}: {low} to {high}.",
    )
    for key, (low, high, default) in LIMITS.items()
)


def normalise_options(raw: Mapping[str, Any]) -> dict[str, Any]:
    common, own = split_options(raw, "highcard", LIMITS)
    options: dict[str, Any] = {}
    for key, (low, high, default) in LIMITS.items():
        value = own.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise InvalidOption(key, f"must be an integer from {low} to {high}")
        options[key] = value
    return {**options, **common}


def strength(code: str) -> tuple[int, int]:
    """Rule 3: rank first, then suit."""
    played = card(code)
    assert played.rank is not None and played.suit is not None
    return int(played.rank), SUIT_ORDER.index(played.suit.value)


def deal(table: Table, hand: int) -> Dealt:
    """Rule 1."""
    n, size = table.seats, int(table.options["hand_size"])
    dealer = dealer_of(hand, n)
    deck, salt, commitment = hand_deck(table.deals, PACK, hand)
    hands: list[list[str]] = [[] for _ in range(n)]
    for k in range(size * n):
        hands[(dealer + 1 + k) % n].append(deck[k])
    return Dealt(hand=hand, dealer=dealer, deck=deck, salt=salt, commitment=commitment, hands=hands)


def play(table: Table, command: PlayCard) -> list[Any]:
    """Rules 2–4: the card, then the hand's winner and the next hand (or the end)."""
    hand = table.hand
    if hand is None:
        raise IllegalCommand("the hand starts when every seat is taken")
    if hand.turn != command.seat:
        raise NotYourTurn(f"it is seat {hand.turn}'s turn, not seat {command.seat}'s")
    if command.card not in hand.holdings[command.seat]:
        raise IllegalCommand(f"you do not hold {command.card}")
    played = CardPlayed(hand=hand.number, seat=command.seat, card=command.card)
    after = evolve(table, played)
    assert after.hand is not None
    if after.hand.turn is not None:
        return [played]
    cards = after.hand.played
    winner = max(range(table.seats), key=lambda seat: strength(str(cards[seat])))
    won = HandWon(
        hand=hand.number,
        seat=winner,
        card=str(cards[winner]),
        deck=list(hand.deck),
        salt=hand.salt,
    )
    if hand.number >= int(table.options["hands"]):
        return [played, won, TableEnded(reason="hands")]
    return [played, won, deal(table, hand.number + 1)]


def decide(state: Table | None, command: Any) -> list[Any]:
    events = decide_table(TABLE, state, command)
    if events is not None:
        return events
    assert state is not None
    if isinstance(command, PlayCard):
        return play(state, command)
    raise IllegalCommand(f"high card does not accept {type(command).__name__}")


def to_act(state: Table | None) -> frozenset[int]:
    if state is None or state.status != PLAYING or state.hand is None:
        return frozenset()
    return frozenset() if state.hand.turn is None else frozenset((state.hand.turn,))


def legal_commands(state: Table | None, seat: int) -> list[Any]:
    if state is None or state.hand is None or seat not in to_act(state):
        return []
    return [PlayCard(seat=seat, card=code) for code in state.hand.holdings[seat]]


TABLE: TableRules[Table] = TableRules(
    game="highcard",
    title="high card",
    options=normalise_options,
    pack=PACK,
    seating=seating,
    seat_for_token=seat_for_token,
    evolve=evolve,
    start=lambda table: [deal(table, 1)],
    close=lambda table, seat: [TableEnded(reason="closed")],
)
