"""The ``search`` bot: determinized search (perfect-information Monte Carlo, design §9.2).

A seat's decision is scored over deals that agree with what the seat has seen: each round
draws one *determinization* (the game's ``house.bots.search.determinize``: the unseen cards
dealt at random, consistently with the seat's own cards, the public record and what the
others' plays showed, such as voids), and plays every candidate move of the seat once in it,
followed by a playout to the end of the hand on the game's playout path. A move's value is
the mean outcome for the seat over the rounds (:func:`outcome_value`); the bot plays the best
— unless the game's own policy (its ``basic``) would play another move that the search does
not beat by a clear margin (:func:`choose`). Rounds go on until the think budget
(milliseconds of the thread's CPU time, and never more than twice that in wall time; table
option ``bot_think_ms``, default 300, never more than half the turn clock:
:func:`domain.table.clock.bot_think_ms`) is spent, or for exactly ``rounds`` rounds when
given (reviews that must be reproducible).

Reproducible: every draw comes from the ``rng`` passed in, which the callers seed from the
table, version and seat (:func:`bots.rng_for`); a fixed number of rounds gives the same values
on every machine, a time budget the same values for the same number of rounds.

The playout path is the game's ``house.bots.search.playout`` module when it has one, else
:class:`ReferencePlayout`: the same interface over the game's reference Decider, slower but
held equal to the rules by construction. Nothing here names a game.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from domain.game import Game
from domain.games import games
from domain.house import Search
from domain.table.clock import bot_think_ms

Move = Any
CONFIDENCE = 1.0  # standard errors by which the search must beat the game's policy to overrule it
Evaluation = list[tuple[Any, float]]  # (command, value), best first


@dataclass
class Position:
    """A position on the reference engine: the state, and the hand's outcome once settled."""

    state: Any
    hand: int
    result: list[float] | None = None
    seats: int = 0


class ReferencePlayout:
    """The playout interface over a game's reference Decider (``game.decision``): a move is
    the command itself; a hand is over when an event settles it (``game.settles_hand``), its
    outcome per seat read from the game's ``house.ranking`` (:func:`outcome_value`)."""

    def __init__(self, game: Game[Any, Any, Any], policy: Any = None) -> None:
        self.game = game
        self.policy = policy

    def from_state(self, state: Any) -> Position:
        seating = self.game.seating(state)
        return Position(state, seating.hand, None, seating.seats)

    def copy(self, pos: Position) -> Position:
        return Position(pos.state, pos.hand, pos.result, pos.seats)  # states are immutable

    def to_move(self, pos: Position) -> int:
        if pos.result is not None:
            return -1
        waiting = self.game.to_act(pos.state)
        return min(waiting) if waiting else -1

    def legal(self, pos: Position) -> list[Any]:
        seat = self.to_move(pos)
        return [] if seat < 0 else self.game.legal_commands(pos.state, seat)

    def apply(self, pos: Position, move: Any) -> None:
        events, pos.state = self.game.decision(pos.state, move)
        for event in events:
            if self.game.settles_hand(event):
                pos.result = outcome_value(self.game, event, pos.seats)
                return

    def is_over(self, pos: Position) -> bool:
        return self.to_move(pos) < 0

    def outcome(self, pos: Position) -> list[float]:
        return pos.result if pos.result is not None else [0.0] * pos.seats

    def to_command(self, pos: Position, move: Any) -> Any:
        return move

    def from_command(self, pos: Position, command: Any) -> Any:
        return command

    def random_playout(self, pos: Position, rng: random.Random) -> list[float]:
        """Play ``pos`` to the end of the hand (the game's playout policy, else at random);
        the outcome."""
        policy = self.policy
        for _ in range(100_000):
            seat = self.to_move(pos)
            if seat < 0:
                break
            moves = self.game.legal_commands(pos.state, seat)
            if not moves:
                break
            if policy is not None:
                self.apply(pos, policy(pos.state, seat, moves, rng))
            else:
                self.apply(pos, moves[rng.randrange(len(moves))])
        return self.outcome(pos)


def outcome_value(game: Game[Any, Any, Any], event: Any, seats: int) -> list[float]:
    """Each seat's value of a settled hand from the game's ranking (``house.ranking``: each
    side's seats and score): with two sides (a partnership, or heads-up) the seat's side's
    margin over the other; with more, its own score (in a game of chips, the chips it won)."""
    ranking = game.house.ranking(event, seats) or []
    values = [0.0] * seats
    for side, score in ranking:
        for seat in side:
            if seat < seats:
                values[seat] = float(score)
    if len(ranking) == 2:
        (a, sa), (b, sb) = ranking
        for seat in a:
            values[seat] = float(sa - sb)
        for seat in b:
            values[seat] = float(sb - sa)
    return values


@dataclass
class Searcher:
    """A game's search: its determinization and its playout path."""

    game: Game[Any, Any, Any]
    spec: Search
    play: Any = field(default=None)

    def __post_init__(self) -> None:
        if self.play is None:
            self.play = self.spec.playout or ReferencePlayout(self.game, self.spec.policy)


_SEARCHERS: dict[str, Searcher] = {}


def searcher(game: Game[Any, Any, Any]) -> Searcher:
    """The search of ``game`` (its ``house.bots.search``); raises ``LookupError`` if none."""
    found = _SEARCHERS.get(game.name)
    if found is None or found.game is not game:
        spec = game.house.bots.search
        if spec is None:
            raise LookupError(f"{game.name} has no search (house.bots.search)")
        found = _SEARCHERS[game.name] = Searcher(game, spec)
    return found


def _key(command: Any) -> bytes:
    return msgspec.json.encode(command)


def game_of(state: Any) -> Game[Any, Any, Any]:
    """The registered game whose state ``state`` is (the return type of its ``evolve``)."""
    for game in games():
        if isinstance(state, game.state_type()):
            return game
    raise LookupError(f"no registered game has states of type {type(state).__name__}")


def evaluate(
    state: Any,
    seat: int,
    budget_ms: float,
    rng: random.Random,
    *,
    game: Game[Any, Any, Any] | None = None,
    rounds: int | None = None,
    every: bool = False,
) -> Evaluation:
    """Every legal command of ``seat`` with its estimated value (the mean outcome for the seat
    over determinized playouts, the module docstring), best first. ``state`` is the table's
    full state (its game found from its type unless ``game`` is given): only what ``seat`` has
    seen of it reaches the search (the game's determinization deals everything else anew).
    ``rounds``: exactly that many determinizations, whatever the time; else as many as
    ``budget_ms`` allows (at least one).
    Only the game's ``candidates`` among the legal commands are weighed, unless ``every`` (a
    review that values every legal command)."""
    game = game if game is not None else game_of(state)
    weighed, samples = _sample(game, state, seat, budget_ms, rng, rounds, every)
    scored = [(c, _mean(samples[_key(c)])) for c in weighed]
    scored.sort(key=lambda pair: -pair[1])  # stable: the listing's order breaks ties
    return scored


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else float("-inf")


def _sample(
    game: Game[Any, Any, Any],
    state: Any,
    seat: int,
    budget_ms: float,
    rng: random.Random,
    rounds: int | None,
    every: bool,
) -> tuple[list[Any], dict[bytes, list[float]]]:
    """The commands weighed and, per command (by its JSON), its outcome in each round."""
    legal = game.legal_commands(state, seat)
    if not legal:
        return [], {}
    search = searcher(game)
    play = search.play
    pick = search.spec.candidates
    weighed = list(legal) if every or pick is None else pick(state, seat, legal)
    samples: dict[bytes, list[float]] = {_key(c): [] for c in weighed}
    if len(weighed) == 1 and rounds is None:
        return weighed, {_key(weighed[0]): [0.0]}
    # the budget is the thread's CPU time (a loaded machine does not make the bot weaker),
    # and never more than twice that in wall time (at most the turn: bot_think_ms)
    cpu_deadline = time.thread_time() + budget_ms / 1000
    wall_deadline = time.perf_counter() + 2 * budget_ms / 1000
    done = 0
    while True:
        dealt = search.spec.determinize(state, seat, rng)
        root = play.from_state(dealt)
        seed = rng.getrandbits(64)  # the same playout randomness for every move of a round
        for command in weighed:  # a seat's legal moves follow from what it sees: the same here
            move = play.from_command(root, command)
            here = play.copy(root)
            play.apply(here, move)
            # the game's playout returns the outcome (and may leave ``here`` as it was)
            samples[_key(command)].append(play.random_playout(here, random.Random(seed))[seat])
        done += 1
        if rounds is not None:
            if done >= rounds:
                break
        elif time.thread_time() >= cpu_deadline or time.perf_counter() >= wall_deadline:
            break
    return weighed, samples


def lead(best: list[float], other: list[float]) -> tuple[float, float]:
    """The mean of ``best`` less ``other`` round by round (the same deal and playout
    randomness: paired), and its standard error (``inf`` with fewer than two rounds)."""
    diffs = [a - b for a, b in zip(best, other, strict=False)]
    n = len(diffs)
    if n < 2:
        return (diffs[0] if diffs else 0.0), float("inf")
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (variance / n) ** 0.5


def choose(
    game: Game[Any, Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: random.Random
) -> Any | None:
    """The command the search bot plays at ``seat``: the best of the search within the table's
    think budget (option ``bot_think_ms``) — unless the game's own policy (its ``basic``, the
    playout policy) chose another move that the search does not beat by more than
    ``CONFIDENCE`` standard errors of the paired difference: a few noisy rounds never
    overrule the policy on a guess."""
    if not legal:
        return None
    if len(legal) == 1:
        return legal[0]
    options = getattr(state, "raw_options", None) or {}
    weighed, samples = _sample(game, state, seat, bot_think_ms(options), rng, None, False)
    if not weighed:
        return legal[0]
    best = max(weighed, key=lambda c: _mean(samples[_key(c)]))
    policy = searcher(game).spec.policy
    if policy is None:
        return best
    prior = policy(state, seat, legal, random.Random(rng.getrandbits(64)))
    known = samples.get(_key(prior))
    if known is None or _key(prior) == _key(best):
        return best
    mean, error = lead(samples[_key(best)], known)
    return best if mean > CONFIDENCE * error else prior
