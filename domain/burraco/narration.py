"""Burraco's hand histories: each public event in its rules' words (rules 6–27), e.g. "Ann
deals; 7♥ turned up · Bob draws · Bob melds 5♥ 6♥ 7♥ · Bob discards K♦" (the narrator of its
``House``, :mod:`domain.narration`)."""

from __future__ import annotations

from domain.narration import Event, Teller, card, cards


def narrate(teller: Teller, event: Event) -> str | None:
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
