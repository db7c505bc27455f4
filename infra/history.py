"""Hand histories (design §8, "Analytics"): one settled hand told in order as a person reads
it — "Ann antes 1 · Bob declares play · Bob discards 2, draws 2 · Ann leads 9♠ …".

Presentation, not rules: it reads the hand's events as spectators see them (the query
service's redaction, :meth:`infra.queries.TableQueries.timeline`) and renders each with the
renderer registered under its game's name (:func:`register`); a game without one gets the plain
rendering ("Ann: Dealt"). The rules' names for things are the renderers' words.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
SEPARATOR = " · "

Event = dict[str, Any]


def card(code: Any) -> str:
    """A card code for people: ``"9S"`` -> ``"9♠"`` (other text as it is)."""
    text = str(code)
    return text[:-1] + SUITS[text[-1]] if text[-1:] in SUITS and len(text) >= 2 else text


def cards(codes: list[Any] | None) -> str:
    return " ".join(card(code) for code in codes or [])


@dataclass
class Teller:
    """Renders one hand's events in order; remembers what a reader would (the trick so far)."""

    names: list[str | None]
    trick_open: bool = False
    said: list[str] = field(default_factory=list)

    def who(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat] or f"seat {seat}"
        return "someone"

    def all_of(self, seats: list[int]) -> str:
        named = [self.who(seat) for seat in seats]
        return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]


Renderer = Callable[[Teller, Event], str | None]


def plain(teller: Teller, event: Event) -> str:
    """Any game: who (if the event names a seat) and what happened."""
    if "seat" in event:
        return f"{teller.who(event['seat'])}: {event['type']}"
    return str(event["type"])


def bourre(teller: Teller, event: Event) -> str | None:
    """Bourré's events in its rules' words (rules 5–27)."""
    kind, who = event["type"], teller.who(event.get("seat"))
    if kind == "Anted":
        seats = event["seats"]
        verb = "antes" if len(seats) == 1 else "ante"
        extra = "" if event.get("reason", "ante") == "ante" else f" ({event['reason']})"
        return f"{teller.all_of(seats)} {verb} {event['amount']}{extra}"
    if kind == "Dealt":
        trump = SUITS.get(event["trump"], event["trump"])
        return (
            f"{teller.who(event['dealer'])} deals; {card(event['trumpCard'])} turned, trump {trump}"
        )
    if kind == "Declared":
        if "play" not in event:
            return f"{who} decides"
        return f"{who} declares {'play' if event['play'] else 'pass'}"
    if kind == "DecisionsRevealed":
        return ", ".join(
            f"{teller.who(seat)} {'plays' if play else 'passes'}"
            for seat, play in enumerate(event["plays"])
        )
    if kind == "Discarded":
        out = event.get("discardCount", len(event.get("discarded") or []))
        got = event.get("drawnCount", len(event.get("drawn") or []))
        return f"{who} discards {out}, draws {got}"
    if kind == "SecondChanceDeclared":
        return f"{who} {'stays in' if event['play'] else 'drops out'}"
    if kind == "Reshuffled":
        return (
            f"the dealer reshuffles ({event.get('poolSize', len(event.get('pool') or []))} cards)"
        )
    if kind == "CardPlayed":
        verb = "plays" if teller.trick_open else "leads"
        teller.trick_open = True
        return f"{who} {verb} {card(event['card'])}"
    if kind == "TrickWon":
        teller.trick_open = False
        return f"{who} wins trick {event['trick']} with {card(event['card'])}"
    if kind == "HandSettled":
        return _settled(teller, event)
    if kind == "CloseRequested":
        return f"{who} asks to close the table"
    return None


def _settled(teller: Teller, event: Event) -> str:
    if event.get("winner") is not None:
        taken = f"{teller.who(event['winner'])} takes {event['cap']} of the pot of {event['pot']}"
    elif event.get("tied"):
        taken = f"{teller.all_of(event['tied'])} tie and split the pot of {event['pot']}"
    else:
        taken = f"the pot of {event['pot']} stays"
    if event.get("bourre"):
        taken += f"; {teller.all_of(event['bourre'])} bourré, paying {event['bourrePayment']}"
    return taken


def burraco(teller: Teller, event: Event) -> str | None:
    """Burraco's events in its rules' words (rules 6–27)."""
    kind, who = event["type"], teller.who(event.get("seat"))
    if kind == "Dealt":
        return f"{teller.who(event['dealer'])} deals; {card(event['firstDiscard'])} turned up"
    if kind == "CardDrawn":
        return f"{who} draws" + (f" {card(event['card'])}" if event.get("card") else "")
    if kind == "PileTaken":
        count = len(event["cards"])
        return f"{who} takes the pile ({count} card{'' if count == 1 else 's'})"
    if kind == "Melded":
        return f"{who} melds {cards(event['cards'])}"
    if kind == "MeldExtended":
        return f"{who} adds {cards(event['added'])} to meld {event['meld']}"
    if kind == "Discarded":
        return f"{who} discards {card(event['card'])}"
    if kind == "PozzettoTaken":
        return f"{who} takes a pozzetto" + (" and plays on" if event.get("direct") else "")
    if kind == "PozzettoOpened":
        return f"{who} picks up the pozzetto"
    if kind == "HandClosed":
        endings = {"closed": f"{who} closes", "stock": "the stock runs out"}
        return endings.get(event["reason"], "no one can go on (stalemate)")
    if kind == "HandScored":
        scores = ", ".join(f"{'AB'[t]} {s['total']}" for t, s in enumerate(event["scores"]))
        return f"scores {scores}; totals {', '.join(str(t) for t in event['totals'])}"
    if kind == "HandAbandoned":
        return "the hand is abandoned"
    if kind == "MatchWon":
        return f"team {'AB'[event['team']]} wins the match"
    return None


_RENDERERS: dict[str, Renderer] = {}


def register(game: str, renderer: Renderer) -> None:
    """Tell ``game``'s hands with ``renderer`` (it returns None for events it leaves plain)."""
    _RENDERERS[game] = renderer


register("bourre", bourre)
register("burraco", burraco)


def tell(game: str, names: list[str | None], events: list[Event]) -> list[str]:
    """Each event of one hand as a line a person reads, in order."""
    renderer = _RENDERERS.get(game)
    teller = Teller(names)
    lines = []
    for event in events:
        line = renderer(teller, event) if renderer is not None else None
        lines.append(line if line is not None else plain(teller, event))
    return lines


def text_of(lines: list[str]) -> str:
    return SEPARATOR.join(lines)
