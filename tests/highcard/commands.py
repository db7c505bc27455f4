"""High card's one command: play a card from your hand (the seat comes from the token)."""

from __future__ import annotations

from domain.table import CloseTable, Command, OpenTable, TakeSeat


class PlayCard(Command, frozen=True, tag="play_card"):
    """Rule 2: in turn, each seat plays one card from its hand."""

    seat: int
    card: str


HighCardCommand = OpenTable | TakeSeat | CloseTable | PlayCard
