"""The table's secrets never reach the API, whatever a game's ``redact`` returns
(``infra.visibility``): ``TableFacts.fields`` strips them, and leaves every other key, in
order, as the game showed it."""

from __future__ import annotations

from typing import Any, cast

from domain.game import Viewer
from infra.visibility import SECRET_KEYS, TableFacts


class Showing:
    """A game whose ``redact`` shows an event's fields as they are, secrets included."""

    name = "showing"

    def redact(self, event: dict[str, Any], viewer: Viewer, revealed: bool) -> dict[str, Any]:
        return dict(event)


def facts() -> TableFacts:
    return TableFacts(game=cast(Any, Showing()), reveal="after_hand", spectator_delay=0)


def test_every_secret_key_a_game_shows_is_stripped_and_the_rest_kept_in_order() -> None:
    event = {"type": "Opened", **{key: "x" for key in sorted(SECRET_KEYS)}, "seats": 4}
    shown = facts().fields(event, None, True)
    assert list(shown) == ["type", "seats"]


def test_an_event_without_secrets_is_shown_whole() -> None:
    event = {"type": "Played", "seat": 1, "card": "QS"}
    assert facts().fields(event, 0, False) == event
