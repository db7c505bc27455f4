"""Dealing unseen cards into hidden places under constraints: the shared step of every game's
determinization (``domain/<game>/determinize.py``, design §9.2).

A game names its hidden *places* (another seat's hand, a seat's face-down discards, the stock,
a pozzetto…) with their sizes — public facts — and, for each unseen card, the places it may be
in (a seat that showed a void in a suit holds none of it). :func:`deal` puts every card into a
place it may be in, every place filled to its size, at random from the ``rng`` it is given.

The deal is a bipartite assignment with capacities: the cards that may not be everywhere are
placed first, most constrained first,
each into a random allowed place with room (weighted by the room left); when none has room, an
augmenting path over the places moves cards already placed (a card in a full place goes to
another place it may be in, and so on until a place with room). The places are few (at most a
dozen), so the search is a breadth-first walk over them. Every consistent assignment can come
out, though not all with the same probability (the search does not claim a uniform draw).
The cards free to be anywhere then fill the slots left, shuffled.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable, Hashable, Sequence
from typing import Any, TypeVar

from msgspec.structs import replace

T = TypeVar("T", bound=Hashable)


class Inconsistent(ValueError):
    """No deal agrees with the constraints (an information set that no real deal produces)."""


def deal(
    cards: Sequence[T],
    sizes: Sequence[int],
    where: Callable[[T], Sequence[int] | None] | None,
    rng: random.Random,
) -> list[list[T]]:
    """``cards`` dealt into ``len(sizes)`` places of those sizes (their sum must be
    ``len(cards)``), each card into one of the places ``where(card)`` names (``None``: any).
    Each place's cards come in random order."""
    places = len(sizes)
    if sum(sizes) != len(cards):
        raise Inconsistent(f"{len(cards)} unseen cards for {sum(sizes)} hidden places")
    every = list(range(places))
    bound: list[tuple[T, list[int]]] = []  # cards that may not be everywhere
    free: list[T] = []
    for c in cards:
        named = None if where is None else where(c)
        if named is None:
            free.append(c)
            continue
        places_of = [p for p in named if sizes[p]]
        if not places_of:
            raise Inconsistent(f"card {c!r} may be in no hidden place")
        bound.append((c, places_of))
    rng.shuffle(bound)
    bound.sort(key=lambda entry: len(entry[1]))  # stable: random among the equally bound
    room = list(sizes)
    placed: list[list[tuple[T, list[int]]]] = [[] for _ in range(places)]
    for entry in bound:
        its = entry[1]
        open_ = [p for p in its if room[p]]
        if open_:
            weights = [room[p] for p in open_]
            p = rng.choices(open_, weights)[0] if len(open_) > 1 else open_[0]
        else:
            p = _make_room(its, room, placed)
        placed[p].append(entry)
        room[p] -= 1
    # the cards that may be anywhere fill what is left, every remaining slot alike
    slots = [p for p in every for _ in range(room[p])]
    rng.shuffle(slots)
    content = [[c for c, _ in placed[p]] for p in range(places)]
    for c, p in zip(free, slots, strict=True):
        content[p].append(c)
    for piece in content:
        rng.shuffle(piece)
    return content


def _make_room(where: list[int], room: list[int], placed: list[list[tuple[T, list[int]]]]) -> int:
    """Free one slot in one of ``where`` by moving cards along a shortest chain of places
    ending in a place with room; returns the place freed (its room is then 1)."""
    parent: dict[int, tuple[int, int] | None] = {p: None for p in where}
    queue = deque(where)
    end = -1
    while queue:
        here = queue.popleft()
        if room[here] and here not in where:
            end = here
            break
        for index, (_, its) in enumerate(placed[here]):
            for there in its:
                if there not in parent:
                    parent[there] = (here, index)
                    queue.append(there)
    if end < 0:
        raise Inconsistent("no deal places every unseen card where it may be")
    # walk back: move the card found at each step into the next place
    node = end
    while parent[node] is not None:
        step = parent[node]
        assert step is not None
        here, index = step
        entry = placed[here].pop(index)
        placed[node].append(entry)
        room[node] -= 1
        room[here] += 1
        node = here
    return node


def split(codes: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """``codes`` cut into consecutive pieces of ``sizes``."""
    pieces, at = [], 0
    for size in sizes:
        pieces.append(list(codes[at : at + size]))
        at += size
    return pieces


def with_new_deal_source(state: Any, rng: random.Random, **changes: Any) -> Any:
    """A game's determinized table: ``changes`` (the hand dealt anew) and a deal source drawn
    from ``rng`` — seed, secret, no stacked decks, deals not fixed — so nothing of the real
    deal or of later hands survives (design §9.2)."""
    return replace(
        state,
        **changes,
        seed=rng.getrandbits(62),
        secret=f"{rng.getrandbits(128):032x}",
        decks=(),
        fixed_deals=False,
    )
