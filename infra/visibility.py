"""Who may see what (design §5, "Visibility"), applied to what the store answers.

Raw events never leave the server: every event goes through the game's ``redact`` for the
caller. A hand's hidden cards show once that hand has settled and the table's ``reveal``
option is ``after_hand``; spectators are held ``spectator_delay`` events behind live. The
table's seed, secret, stacked decks and token hashes are never shown to anyone, whatever a
game's ``redact`` returns: they would predict every later deal.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from domain.game import Game, Viewer
from domain.tournament.embargo import withheld as plays_boards

# Keys that hold the table's secrets; stripped from every event the API sends.
SECRET_KEYS = frozenset({"seed", "secret", "decks", "tokenHash", "token_hash"})


@dataclass(frozen=True, slots=True)
class TableFacts:
    """What the API needs to know of a table that never changes after ``TableOpened``."""

    game: Game
    reveal: str  # "after_hand" | "never"
    spectator_delay: int
    # a tournament's board table (domain.tournament.embargo.withheld): out of the feed, the
    # export and spectators' reads until its BoardReleased (domain.tournament.embargo.shows)
    withheld: bool = False

    @classmethod
    def from_opened(cls, game: Game, options: dict[str, Any]) -> TableFacts:
        delay = options.get("spectator_delay", 0)
        return cls(
            game=game,
            reveal=str(options.get("reveal", "after_hand")),
            spectator_delay=delay if isinstance(delay, int) and delay > 0 else 0,
            withheld=plays_boards(options),
        )

    def visible_version(self, viewer: Viewer, version: int) -> int:
        """The last version ``viewer`` may see: live for seats, ``spectator_delay`` behind for
        spectators."""
        if viewer is None:
            return max(0, version - self.spectator_delay)
        return version

    def reveals(self, hand: int, settled: Iterable[int] | set[int]) -> bool:
        """Whether the hidden cards of ``hand`` may be shown: settled, and ``reveal`` allows."""
        return self.reveal == "after_hand" and hand > 0 and hand in settled

    def settled_hands(self, events: Iterable[Any]) -> set[int]:
        """The hands that ``events`` (recorded events) show as settled."""
        game = self.game
        return {game.hand_of(r.event) for r in events if game.settles_hand(r.event)}

    def redact(self, recorded: Any, viewer: Viewer, settled: set[int]) -> dict[str, Any]:
        """One recorded event as ``viewer`` may see it, with its ``version`` and ``at``."""
        revealed = self.reveals(self.game.hand_of(recorded.event), settled)
        shown = self.fields(recorded.event, viewer, revealed)
        shown["version"] = recorded.version
        shown["at"] = recorded.at.isoformat()
        return shown

    def fields(self, event: Any, viewer: Viewer, revealed: bool) -> dict[str, Any]:
        """``event``'s fields (with its ``type``) as ``viewer`` may see them, ``revealed``
        saying whether its hand's hidden cards may show; never the table's secrets."""
        data = self.game.redact(event, viewer, revealed)
        if SECRET_KEYS.isdisjoint(data):  # the usual event: nothing to strip, no copy made
            return data
        return {key: value for key, value in data.items() if key not in SECRET_KEYS}
