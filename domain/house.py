"""What a game adds to the house beyond its rules (design §2, "A game is one plug-in"): its
read-model shapes, its export rows, its hand-history text and its bots, as pure hooks.

A game hands a :class:`House` to its :class:`domain.game.Game` entry (``house=``); the
projections, the export, the history, the bots and the statistics routes ask
``game.house`` and name no game. Every field has a default built from the table kernel alone
(``seating``, ``settles_hand``), so a new game gets a ledger, a lobby line, counters, export
rows, a history and a random bot with no hook at all, and overrides what it wants to show.

The hooks are pure functions of a game's state, events or public (redacted, JSON) events; the
layers outside ``domain/`` store, serve and write what they return.

* :class:`Counting` — analytics counters (:mod:`projections.analytics`): ``count(game, tag,
  event) -> {counter: increment}``; ``by_fields`` the event tags whose increments depend on
  their fields (``None``: every event is counted one by one).
* :class:`Statistics` — player statistics and per-game totals (:mod:`projections.players`) and
  their derived figures (``GET /stats``).
* :class:`HandRows` — the export's ``hands`` and ``results`` columns this game fills and how
  (:mod:`infra.handrows`).
* ``narrate`` — one public event as a sentence (:mod:`infra.history`), ``None`` to leave it
  plain.
* :class:`Bots` — the bot kinds (:mod:`bots`) and the figures a simulation keeps per kind.
* ``ranking`` — how a settled hand ranks its sides for ratings (:mod:`projections.ratings`):
  ``ranking(event, seats)`` is each side's seats and score (higher is better, equal scores
  share a rank) when ``event`` settles a hand, else ``None``. A game without one is not rated.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from domain.narration import Narrator

Counters = dict[str, int]
Json = dict[str, Any]

# ``(seat, counter, amount)``: add to the statistics of the name at ``seat``
PlayerCounter = Callable[[int, str, int], None]


def departures(left: Any) -> list[Json]:
    """Who left a seat for a bot (``SeatLeft``) as a ledger lists it: ``{"seat", "name",
    "hand"}`` — ``name`` played the seat until ``hand`` (the hand in play when they left), a
    bot from then on."""
    return [{"seat": seat, "name": name, "hand": hand} for seat, name, hand in left]


def seating_ledger(game: Any, state: Any) -> Json:
    """Any game: the seats and who holds them, the table's status and the hand in play."""
    seating = game.seating(state)
    return {
        "players": [{"seat": seat, "name": name} for seat, name in enumerate(seating.names)],
        "status": seating.status,
        "hand": seating.hand,
    }


def seating_line(game: Any, state: Any) -> Json:
    """Any game: its seats, who holds them, which are open, its status and hand in play."""
    seating = game.seating(state)
    return {
        "game": game.name,
        "seats": seating.seats,
        "names": list(seating.names),
        "openSeats": [seat for seat, name in enumerate(seating.names) if name is None],
        "status": seating.status,
        "hand": seating.hand,
    }


def seating_counters(game: Any, tag: str, event: Any) -> Counters:
    """Any game: players seated, and hands settled (the game's ``settles_hand``)."""
    if tag == "PlayerSeated":
        return {"players_seated": 1}
    if game.settles_hand(event):
        return {"hands": 1}
    return {}


@dataclass(frozen=True)
class Counting:
    """The game's analytics counters (design §4)."""

    count: Callable[[Any, str, Any], Counters] = seating_counters
    # the tags whose increments depend on the event's fields; every other event adds what any
    # event of its type adds, so a batch counts them a type at a time (None: event by event)
    by_fields: frozenset[str] | None = None


def settled_hands(
    game: Any, tag: str, event: Any, names: list[str | None], player: PlayerCounter, totals: Any
) -> None:
    """Any game: the hands settled, per game (no player statistics)."""
    if game.settles_hand(event):
        totals["hands"] += 1


def no_figures(counts: Mapping[str, int]) -> Json:
    return {}


@dataclass(frozen=True)
class Statistics:
    """Player statistics and per-game totals (design §8, "Analytics").

    ``count(game, tag, event, names, player, totals)`` adds one event's facts: ``player(seat,
    counter, amount)`` to the name seated there, ``totals[counter] += amount`` to the game's;
    ``events`` the tags it reads (None: every event); ``player_counters`` every counter a name
    has (those never counted read as 0); ``figures(totals)`` the derived figures ``GET /stats``
    adds (averages, rates)."""

    count: Callable[[Any, str, Any, list[str | None], PlayerCounter, Any], None] = settled_hands
    events: frozenset[str] | None = None
    player_counters: tuple[str, ...] = ()
    figures: Callable[[Mapping[str, int]], Json] = no_figures


class HandFacts(Protocol):
    """What the export's reading told of one settled hand (:class:`infra.handrows.Hand`)."""

    @property
    def events(self) -> list[Json]: ...  # the public events of the types the game reads

    @property
    def first(self) -> dict[str, Json]: ...  # the first public event of each such type


def dealer_row(hand: HandFacts, row: Json, seats: list[Json]) -> None:
    """Any game: the dealer, when its deal says so."""
    dealt = hand.first.get("Dealt")
    row["dealer"] = dealt.get("dealer") if dealt else None


@dataclass(frozen=True)
class HandRows:
    """The export's rows of a settled hand (``docs/analytics.md``).

    ``hand_columns`` / ``seat_columns``: the columns the game fills, name -> type as DuckDB
    reads it, in schema order (a column another game declared is shared, with the same type);
    ``reads``: the public event types ``summarise`` reads; ``summarise(hand, row, seats)``
    fills the hand's row and each seat's row. Chip amounts are plain ints: the export nulls a
    ``DECIMAL`` beyond its range."""

    summarise: Callable[[HandFacts, Json, list[Json]], None] = dealer_row
    reads: frozenset[str] = frozenset({"Dealt"})
    hand_columns: Mapping[str, str] = field(default_factory=dict)
    seat_columns: Mapping[str, str] = field(default_factory=dict)


Strategy = Callable[[dict[str, Any], Sequence[Any], random.Random], Any]


@dataclass(frozen=True)
class Kind:
    """One kind of bot for one game: its strategy and a one-line description.

    ``searches``: the kind decides by search over deals agreeing with what its seat has seen
    (:mod:`bots.search` with the game's :class:`Search`), reading the state only through the
    game's determinization; ``choose`` is then what it plays from the view alone."""

    name: str
    description: str
    choose: Strategy
    searches: bool = False


def uniform(view: dict[str, Any], legal: Sequence[Any], rng: random.Random) -> Any:
    """Any legal command, uniformly."""
    return rng.choice(list(legal))


RANDOM = Kind("random", "Plays any legal command at random.", uniform)


@dataclass(frozen=True)
class Search:
    """What the search bot (:mod:`bots.search`, design §9.2) asks of a game.

    ``determinize(state, seat, rng)``: a full state agreeing with everything ``seat`` has seen,
    every card it has not seen dealt at random (``domain/<game>/determinize.py``);
    ``playout``: the game's playout path (a module with ``from_state``, ``copy``, ``to_move``,
    ``legal``, ``apply``, ``is_over``, ``outcome``, ``to_command``, ``from_command`` and
    ``random_playout``), or ``None`` to play out on the reference engine; ``policy(state,
    seat, legal, rng)``: the move a playout on the reference engine plays for the seat to
    move (``None``: a uniformly random one); ``candidates(state, seat, legal)``: the legal
    commands worth weighing (``None``: all of them); ``fork(state, viewer, rng, events,
    marks)``: a fork's starting state (design §9.3) — determinized for ``viewer`` (a seat, or
    ``None`` for a spectator) from the hand's ``events``, its seats emptied, ``marks`` added to
    its options (``None``: the game cannot be forked)."""

    determinize: Callable[[Any, int, random.Random], Any]
    playout: Any = None
    policy: Callable[[Any, int, Sequence[Any], random.Random], Any] | None = None
    candidates: Callable[[Any, int, Sequence[Any]], list[Any]] | None = None
    fork: Callable[[Any, int | None, random.Random, list[Any], dict[str, Any]], Any] | None = None


# One side's figures of a settled hand: ``(side, won, net)``; a side is a seat, or a team
# (then it is seated by the bots of that index).
SideFigures = tuple[int, bool, int]


def no_hand_figures(event: Any, seats: int) -> list[SideFigures] | None:
    return None


def no_table_nets(view: Json) -> dict[int, int]:
    return {}


def no_scores(view: Json) -> dict[int, int]:
    return {}


@dataclass(frozen=True)
class Bots:
    """The game's bot kinds (design §9) and what a simulation counts for each.

    ``hand(event, seats)``: each side's figures if ``event`` settles a hand at a table of
    ``seats`` (else None); ``table(view)``: each seat's net, read from a finished table's
    spectator view (for a game whose net is not in its hand events); ``scores(view)``: each
    seat's score there, for a simulation's summary (its best scores win; none: no winner);
    ``search``: the game's determinization and playout path for a kind that ``searches``."""

    kinds: tuple[Kind, ...] = (RANDOM,)
    hand: Callable[[Any, int], list[SideFigures] | None] = no_hand_figures
    table: Callable[[Json], dict[int, int]] = no_table_nets
    scores: Callable[[Json], dict[int, int]] = no_scores
    search: Search | None = None  # what the ``searches`` kinds need (None: the game has none)


# One settled hand for ratings: each side's seats (one seat, or a partnership) and its score.
Ranking = list[tuple[tuple[int, ...], int]]


def unranked(event: Any, seats: int) -> Ranking | None:
    """Any game: no hand is rated."""
    return None


@dataclass(frozen=True)
class House:
    """Everything a game shows beyond its rules and visibility (the module docstring)."""

    ledger: Callable[[Any, Any], Json] = seating_ledger  # (game, spectators' state or None)
    lobby: Callable[[Any, Any], Json] = seating_line  # (game, spectators' state)
    counting: Counting = Counting()
    statistics: Statistics = Statistics()
    rows: HandRows = HandRows()
    narrate: Narrator | None = None
    bots: Bots = Bots()
    ranking: Callable[[Any, int], Ranking | None] = unranked
