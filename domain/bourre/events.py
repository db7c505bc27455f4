"""Bourré events: past-tense facts, every one carrying the ``hand`` it belongs to.

Cards travel as codes (``"10H"``). Hidden facts (the deck, the salt, a seat's cards, a
sealed simultaneous decision) are stored in full and removed by
:func:`domain.bourre.visibility.redact` for whoever may not see them. New fields must get
defaults so stored events keep decoding.

Events are not tracked by the cyclic garbage collector (``gc=False``): frozen facts holding
strings, ints and lists of them can hold no reference cycle, and each decision makes several.
"""

from __future__ import annotations

import msgspec

from domain.table import Event


class Anted(Event, frozen=True, tag="Anted", gc=False):
    """Chips put into the pot: the antes before the deal (rules 5–7), the second ante of a
    player who plays with ``double_ante`` (rule 30), the extra ante of a player who continues
    in ``four_card`` (rule 33). ``amount`` is paid by each of ``seats``."""

    hand: int
    seats: list[int]
    amount: int
    reason: str = "ante"  # "ante" | "double_ante" | "four_card"


class Dealt(Event, frozen=True, tag="Dealt", gc=False):
    """A hand's deal by the contract of rule 10.

    ``deck`` (full order, top first) and ``salt`` are hidden until the hand settles;
    ``commitment`` = ``deck_commitment(deck, salt)`` is public. ``hands[seat]`` are the cards
    each seat was dealt (hidden from the others). ``trump_card`` is face up: the dealer's last
    card (rule 8) or, in the separate modes, a card that belongs to nobody (rules 32–33).
    """

    hand: int
    dealer: int
    deck: list[str]
    salt: str
    commitment: str
    trump_card: str
    trump: str
    hands: list[list[str]]
    trump_card_owner: int | None = None
    stock_size: int = 0


class Declared(Event, frozen=True, tag="Declared", gc=False):
    """Rule 11: a seat plays or passes. ``sealed`` (``simultaneous``, rule 31): the decision
    stays hidden from the others until :class:`DecisionsRevealed`."""

    hand: int
    seat: int
    play: bool
    sealed: bool = False


class DecisionsRevealed(Event, frozen=True, tag="DecisionsRevealed", gc=False):
    """Rule 31 (``simultaneous``): all decisions shown together. ``plays[seat]`` is final;
    ``dealer_forced`` marks rule 16 — everyone passed, so the dealer plays."""

    hand: int
    plays: list[bool]
    dealer_forced: bool = False


class Reshuffled(Event, frozen=True, tag="Reshuffled", gc=False):
    """Rule 14: the stock ran out; the dealer gathered ``pool`` (the discards allowed by
    option ``reshuffle_pool``) and shuffled it into ``order``, which continues the stock (with
    ``all_discards`` as dealt: the current player's own cards passed over, see
    :func:`domain.bourre.deal.passing_over`). ``round`` counts reshuffles within the hand."""

    hand: int
    round: int
    pool: list[str]
    order: list[str]


class Discarded(Event, frozen=True, tag="Discarded", gc=False):
    """Rule 13, the draw: ``seat`` discarded ``discarded`` face down and received ``drawn``
    from the top of the stock. ``took_trump`` (rule 32): the dealer also took the turned card,
    so ``drawn`` holds one card fewer than ``discarded``."""

    hand: int
    seat: int
    discarded: list[str]
    drawn: list[str]
    took_trump: bool = False


class SecondChanceDeclared(Event, frozen=True, tag="SecondChanceDeclared", gc=False):
    """Rule 33 (``four_card``): after the draw a player continues (``play``) or passes."""

    hand: int
    seat: int
    play: bool


class CardPlayed(Event, frozen=True, tag="CardPlayed", gc=False):
    """Rule 17: ``seat`` played ``card`` to the current trick."""

    hand: int
    seat: int
    card: str


class TrickWon(Event, frozen=True, tag="TrickWon", gc=False):
    """Rule 18: trick number ``trick`` (1-based) was won by ``seat`` with ``card``."""

    hand: int
    trick: int
    seat: int
    card: str
    cards: list[str] = msgspec.field(default_factory=list)


class HandSettled(Event, frozen=True, tag="HandSettled", gc=False):
    """Rules 23–27: the money flow of one hand.

    ``pot`` is the pot at stake (P), ``cap`` = min(P, pot_limit). ``payouts[seat]`` is what
    each seat received (the winner ``cap``; tied players their share with ``tie: split``).
    Each seat in ``bourre`` paid ``bourre_payment`` into the next pot; ``carried`` stayed in
    the pot. ``solo`` (rule 16): everyone else passed. ``deck`` and ``salt`` verify the deal.
    """

    hand: int
    pot: int
    cap: int
    winner: int | None
    payouts: list[int]
    tricks: list[int]
    bourre: list[int]
    bourre_payment: int
    tied: list[int]
    carried: int
    solo: bool
    deck: list[str]
    salt: str


class CloseRequested(Event, frozen=True, tag="CloseRequested", gc=False):
    """A seated player asked to close the table during a hand: the hand is played out and
    settled, then the table ends instead of dealing the next hand."""

    hand: int
    seat: int


HandEvent = (
    Anted
    | Dealt
    | Declared
    | DecisionsRevealed
    | Reshuffled
    | Discarded
    | SecondChanceDeclared
    | CardPlayed
    | TrickWon
    | HandSettled
    | CloseRequested
)
