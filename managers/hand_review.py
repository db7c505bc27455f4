"""One seat's review of one settled hand (design §9.4): each decision the seat took,
every move it could have made with the search bot's value of it, the move played, and how
much the move played lost against the best.

**Decisions.** The hand is replayed from the state before its first event. At each version
``v`` where the seat is among those to act, the events that follow are matched against the
seat's legal commands at ``v``: the command whose decision (``game.decision``) writes exactly
those events is the move played, and ``v`` is the decision's version (``replay?at=v`` with the
seat's token shows what the seat saw then). A move the rules accept without listing it (a meld
not among the listed candidates) is read back from its event with the types of the listed
commands and kept only when its decision writes the same events. A turn run out
(``TurnTimedOut``) is a decision whose move played is the forced move that followed.

**Values.** :class:`Evaluator` gives each move a value for the seat, from the seat's own
information only (what the seat had seen by then: its cards and the public record; the search
bot deals the unseen cards itself), in the game's own units (chips, points), higher is better.
The search is seeded from the table, hand, seat and version (:func:`review_rng`), so a review
is reproducible.

**Marks** (the documented thresholds). A decision's ``loss`` is the best move's value minus
the move played's. The hand's ``stake`` is the largest spread (best minus worst) of any
decision with a choice in the hand — how much one choice could matter. A choice is
``good`` when its loss is under :data:`INACCURACY` (10 %) of the stake, an ``inaccuracy`` under
:data:`MISTAKE` (30 %), else a ``mistake``; a decision with one legal move is ``forced`` and
not marked. ``accuracy`` is the share of choices marked good, in percent.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

from domain.cards import derive_seed
from domain.errors import DomainError
from domain.game import Game
from domain.table.clock import TurnTimedOut

INACCURACY = 0.10  # a loss of 10 % of the hand's stake or more is an inaccuracy
MISTAKE = 0.30  # a loss of 30 % of the hand's stake or more is a mistake
BIGGEST = 3  # the biggest mistakes a summary lists
DIGITS = 3  # values are rounded to this many decimals (the JSON stays short and stable)


class Evaluator(Protocol):
    """The search bot's estimate of ``moves`` (``seat``'s legal moves in ``state``, and the
    move played): ``[(move, value)]`` in any order, a move it could not value left out, from
    ``seat``'s information only, drawing its randomness from ``rng`` alone
    (:func:`managers.reviewer.searching`: :func:`bots.search.evaluate` for a fixed number of
    rounds)."""

    def __call__(
        self,
        game: Game[Any, Any, Any],
        state: Any,
        seat: int,
        moves: Sequence[Any],
        rng: random.Random,
    ) -> Sequence[tuple[Any, float]]: ...


@dataclass(frozen=True, slots=True)
class Decision:
    """The seat's decision at ``version``: its state, legal moves and the move played."""

    version: int
    state: Any
    legal: list[Any]
    played: Any
    timed_out: bool = False


def review_rng(table_id: object, hand: int, seat: int, version: int) -> random.Random:
    """The search's generator for one decision: seeded from where it is, nothing else."""
    return random.Random(derive_seed("review", table_id, hand, seat, version))


def wire(command: Any) -> dict[str, Any]:
    """A command as a client sends it: wire keys, no ``seat`` (it is the token's)."""
    out = msgspec.to_builtins(command)
    assert isinstance(out, dict)
    out.pop("seat", None)
    return out


def _writes(game: Game[Any, Any, Any], state: Any, command: Any, following: list[Any]) -> int:
    """How many events ``command`` writes in ``state`` when they are exactly the first of
    ``following`` (0: it writes others, or the rules refuse it). ``following`` may stop
    before the command's last events: the hand's settling event ends it, and the command that
    settles a hand may deal the next one too."""
    try:
        events, _ = game.decision(state, command)
    except DomainError:
        return 0
    shared = min(len(events), len(following))
    return len(events) if shared and list(events[:shared]) == following[:shared] else 0


def _read_back(game: Game[Any, Any, Any], state: Any, legal: list[Any], following: list[Any],
               seat: int) -> tuple[Any, int]:  # fmt: skip
    """A move the rules accept without listing it, read from its first event with the types
    of the listed commands, and how many events it wrote (``(None, 0)``: none writes them)."""
    fields = msgspec.to_builtins(following[0])
    if not isinstance(fields, dict):
        return None, 0
    fields.pop("type", None)
    fields["seat"] = seat
    for kind in dict.fromkeys(type(command) for command in legal):
        try:
            command = msgspec.convert(fields, kind)
        except msgspec.ValidationError:
            continue
        written = _writes(game, state, command, following)
        if written:
            return command, written
    return None, 0


def played_move(
    game: Game[Any, Any, Any], state: Any, seat: int, legal: list[Any], following: list[Any]
) -> tuple[Any, int]:
    """The move of ``seat`` that wrote the first of ``following`` (the events after
    ``state``) and how many it wrote; ``(None, 0)`` when they are not the seat's move."""
    if not following or not legal or getattr(following[0], "seat", seat) != seat:
        return None, 0
    for command in legal:
        written = _writes(game, state, command, following)
        if written:
            return command, written
    return _read_back(game, state, legal, following, seat)


def decisions(
    game: Game[Any, Any, Any], before: Any, events: Sequence[Any], seat: int, start: int
) -> list[Decision]:
    """``seat``'s decisions among ``events`` (the hand's domain events, the first at version
    ``start``), replayed from ``before`` (the state at ``start - 1``)."""
    found: list[Decision] = []
    state = before
    plain = list(events)
    skip = 0  # the rest of a move's events: no decision is taken between them
    for index in range(len(plain)):
        if skip:
            skip -= 1
        elif seat in game.to_act(state):
            legal = game.legal_commands(state, seat)
            following = plain[index:]
            timed_out = isinstance(following[0], TurnTimedOut) and following[0].seat == seat
            move, written = played_move(
                game, state, seat, legal, following[1:] if timed_out else following
            )
            if move is not None:
                found.append(Decision(start - 1 + index, state, legal, move, timed_out))
                skip = written - 1 + timed_out
        state = game.evolve(state, plain[index])
    return found


def _values(pairs: Sequence[tuple[Any, float]], moves: list[Any]) -> list[float | None]:
    """Each move's value (rounded), None for a move the evaluator gave none."""
    out: list[float | None] = []
    for move in moves:
        found = next((value for command, value in pairs if command == move), None)
        if found is None or not math.isfinite(found):  # -inf: the search never weighed it
            out.append(None)
        else:
            out.append(round(float(found), DIGITS))
    return out


def mark(loss: float | None, stake: float, choices: int) -> str:
    """``good``, ``inaccuracy`` or ``mistake`` by the share of the stake lost; ``forced``
    when there was one move; ``unvalued`` when the move played has no value (the module
    docstring)."""
    if choices < 2:
        return "forced"
    if loss is None:
        return "unvalued"
    if stake <= 0 or loss < INACCURACY * stake:
        return "good"
    return "inaccuracy" if loss < MISTAKE * stake else "mistake"


def review(
    game: Game[Any, Any, Any],
    found: Sequence[Decision],
    evaluate: Evaluator,
    *,
    table_id: object,
    hand: int,
    seat: int,
) -> dict[str, Any]:
    """The review of ``found`` (one seat's decisions in one hand): each decision's moves with
    their values (best first), the move played, its loss and mark, and the summary."""
    rows: list[dict[str, Any]] = []
    spreads: list[float] = []
    for decision in found:
        moves = list(decision.legal)
        if decision.played not in moves:
            moves.append(decision.played)  # a move the rules accept without listing it
        if len(moves) == 1:  # forced: nothing to search
            values: list[float | None] = [0.0]
        else:
            rng = review_rng(table_id, hand, seat, decision.version)
            values = _values(evaluate(game, decision.state, seat, moves, rng), moves)
        order = sorted(range(len(moves)), key=lambda i: (values[i] is None, -(values[i] or 0), i))
        known = [value for value in values if value is not None]
        played = values[moves.index(decision.played)]
        loss = None if played is None else round(max(known) - played, DIGITS)
        if len(known) > 1:
            spreads.append(max(known) - min(known))
        row: dict[str, Any] = {
            "version": decision.version,
            "played": wire(decision.played),
            "best": wire(moves[order[0]]) if known else None,
            "moves": [{"command": wire(moves[i]), "value": values[i]} for i in order],
            "loss": loss,
        }
        if decision.timed_out:
            row["timedOut"] = True
        rows.append(row)
    stake = round(max(spreads, default=0.0), DIGITS)
    for row in rows:
        row["mark"] = mark(row["loss"], stake, len(row["moves"]))
    return {"seat": seat, "hand": hand, "decisions": rows, "summary": summary(rows, stake)}


def summary(rows: list[dict[str, Any]], stake: float) -> dict[str, Any]:
    """The hand's figures: choices, marks, accuracy, the loss in all, the biggest mistakes
    (the inaccuracies and mistakes that lost most, at most :data:`BIGGEST`)."""
    choices = [row for row in rows if row["mark"] not in ("forced", "unvalued")]
    counts = {name: sum(row["mark"] == name for row in choices)
              for name in ("good", "inaccuracy", "mistake")}  # fmt: skip
    worst = sorted((row for row in choices if row["mark"] in ("inaccuracy", "mistake")),
                   key=lambda row: (-row["loss"], row["version"]))[:BIGGEST]  # fmt: skip
    return {
        "decisions": len(rows),
        "choices": len(choices),
        "good": counts["good"],
        "inaccuracies": counts["inaccuracy"],
        "mistakes": counts["mistake"],
        "accuracy": round(100 * counts["good"] / len(choices)) if choices else None,
        "totalLoss": round(sum(row["loss"] or 0 for row in rows), DIGITS),
        "stake": stake,
        "thresholds": {"inaccuracy": INACCURACY, "mistake": MISTAKE},
        "biggestMistakes": [
            {key: row[key] for key in ("version", "played", "best", "loss", "mark")}
            for row in worst
        ],
    }
