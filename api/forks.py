"""Forks (design §9.3): ``POST /tables/{id}/fork`` opens a sandbox table that starts at version
``at`` of a table, as the caller saw it, with the caller playing ``seat``.

The caller's information set decides what is kept: with a seat's token, that seat's cards and
everything public; without one (a spectator), the public record only — and only at versions a
spectator may see (``spectator_delay``). Every card the caller could not see is dealt anew by
the game's determinization (``house.bots.search.fork``, the search bot's own step), from a fresh
random seed, so each fork is another deal that agrees with the record. The fork is opened with
the table's options plus ``fork_of``/``fork_at`` (:mod:`domain.table.fork`: marked in its views,
never rated, never counted in statistics), then started by ``fork_table``: its state, the
caller at ``seat`` (the token answered, shown once) and a ``basic`` bot at every other seat.
"""

from __future__ import annotations

import random
import secrets
from typing import Annotated, Any
from uuid import UUID

import msgspec

from api.auth import viewer_of
from api.problems import ApiProblem
from api.schemas import Request, SeatNumber, Wire
from api.services import Services
from bots import kinds
from domain.table import PLAYING, TableOpened, hash_token
from domain.table.fork import ForkSeat, ForkTable, is_fork
from infra.errors import BeyondHistory
from managers.bot_worker import bot_name

FORK_BOT = "basic"  # who plays the other seats of a fork (else the game's first kind)
Version = Annotated[int, msgspec.Meta(ge=1, le=2**53)]


class ForkBody(Request):
    """``POST /tables/{id}/fork``: the version to start from and the seat to play."""

    at: Version
    seat: SeatNumber


class ForkCreated(Wire):
    """The fork: its id, the table and version it starts from, and the token playing
    ``seat`` (shown once)."""

    table_id: str
    fork_of: str
    at: int
    seat: int
    token: str
    version: int
    position: int


def fork(
    services: Services, table_id: UUID, authorization: str | None, body: ForkBody
) -> ForkCreated:
    """Open and start the fork (the module docstring)."""
    viewer = viewer_of(services, table_id, authorization)
    facts = services.queries.facts(table_id)
    version, hands = services.store.hands(table_id)
    visible = facts.visible_version(viewer, version)
    if body.at > visible:
        who = "a spectator" if viewer is None else "you"
        raise BeyondHistory(
            f"at={body.at} is beyond the table's history {who} may see (latest version {visible})"
        )
    loaded = services.store.get(table_id, body.at)
    game, state = loaded.game, loaded.state
    spec = game.house.bots.search
    if spec is None or spec.fork is None:
        raise ApiProblem(422, "not-forkable", f"{game.title} tables cannot be forked", field="at")
    seating = game.seating(state)
    if body.seat >= seating.seats:
        raise ApiProblem(
            422, "no-such-seat", f"the table has seats 0 to {seating.seats - 1}", field="seat"
        )
    if seating.status != PLAYING or not game.to_act(state):
        raise ApiProblem(
            409, "nothing-to-fork", f"no hand is in play at version {body.at}", field="at"
        )
    opened = services.store.events(table_id, 1, 1)[0].event
    assert isinstance(opened, TableOpened)
    if is_fork(opened.options):
        raise ApiProblem(409, "fork-of-a-fork", "a fork cannot be forked again", field="at")
    span = hands.span(hands.hand_at(body.at), visible)
    start = span.start if span is not None else 1
    events = [recorded.event for recorded in services.store.events(table_id, start, body.at)]
    marks: dict[str, Any] = {"fork_of": str(table_id), "fork_at": body.at}
    rng = random.Random(secrets.randbits(64))  # every fork a new deal of the unseen cards
    begun = spec.fork(state, viewer, rng, events, marks)
    created = services.commands.create_table(game.name, {**opened.options, **marks})
    token = secrets.token_urlsafe(24)
    bot = FORK_BOT if FORK_BOT in kinds(game.name) else next(iter(kinds(game.name)))
    named = seating.names[body.seat] if viewer == body.seat else None
    seats = [
        ForkSeat(seat=s, name=named or "Player", token_hash=hash_token(token))
        if s == body.seat
        else ForkSeat(
            seat=s, name=bot_name(bot, s), token_hash=hash_token(secrets.token_urlsafe(24)), bot=bot
        )
        for s in range(seating.seats)
    ]
    command = ForkTable(fork_of=str(table_id), at=body.at, seat=body.seat,
                       state=msgspec.json.encode(begun).decode(), seats=seats)  # fmt: skip
    result = services.commands.execute(created.table_id, command)
    return ForkCreated(
        table_id=str(created.table_id),
        fork_of=str(table_id),
        at=body.at,
        seat=body.seat,
        token=token,
        version=result.version,
        position=result.position,
    )
