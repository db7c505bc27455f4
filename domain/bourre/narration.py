"""Bourré's hand histories: each public event in its rules' words (rules 5–27), e.g. "Ann
antes 1 · Bob deals; 9♠ turned, trump ♠ · Bob declares play · Ann leads 9♠" (the narrator
of its ``House``, :mod:`domain.narration`)."""

from __future__ import annotations

from domain.narration import SUITS, Event, Teller, card


def narrate(teller: Teller, event: Event) -> str | None:
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
