// What the watch and play pages share: the board of either game, one event told in words,
// the hands' start versions (replay's "jump to a hand's start") and the ledger chart.

import * as api from "./api.js";
import { renderBourre } from "./bourre.js";
import { renderBurraco } from "./burraco.js";
import { bourreSeries, burracoSeries, chart } from "./chart.js";
import { cardName } from "./cards.js";
import { exact, seatName } from "./format.js";

export const GAME_NAMES = { bourre: "Bourré", burraco: "Burraco" };

export function renderBoard(view, options) {
  return view.game === "burraco" ? renderBurraco(view, options) : renderBourre(view, options);
}

// The table id from the page's path (/watch/{id} or /play/{id}).
export const tableIdFromPath = () => decodeURIComponent(location.pathname.split("/")[2] || "");

// One timeline event in words (the event types of both games' events modules).
export function describe(event, names = []) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(names[event.seat], event.seat) : "";
  const cards = (list) => (list ? list.map(cardName).join(", ") : "");
  switch (event.type) {
    case "TableOpened": return `table opened (${GAME_NAMES[event.game] || event.game})`;
    case "PlayerSeated": return `${event.name} sat at seat ${event.seat}`;
    case "TableEnded": return "the table ended";
    case "CloseAsked": return `${who} asks to end the match`;
    case "Anted": return `antes of ${exact(event.amount)} paid (hand ${event.hand})`;
    case "Dealt": return `hand ${event.hand} dealt`;
    case "Declared":
      return "play" in event ? `${who} ${event.play ? "plays" : "passes"}` : `${who} decided (sealed)`;
    case "DecisionsRevealed": return "decisions revealed";
    case "Discarded":
      if (event.card) return `${who} discarded ${cardName(event.card)}`; // Burraco rule 12c
      {
        const n = event.discarded ? event.discarded.length : event.discardCount;
        return n ? `${who} discarded ${n} and drew ${event.drawn ? event.drawn.length : event.drawnCount}`
          : `${who} kept all cards`;
      }
    case "CardPlayed": return `${who} played ${cardName(event.card)}`;
    case "TrickWon": return `${who} won trick ${event.trick} with ${cardName(event.card)}`;
    case "HandSettled":
      return event.winner === null || event.winner === undefined
        ? `hand ${event.hand} settled: no winner, pot ${exact(event.pot)} carried`
        : `hand ${event.hand} settled: ${seatName(names[event.winner], event.winner)} wins ${exact(event.payouts[event.winner])}`;
    case "CardDrawn": return `${who} drew ${event.card ? cardName(event.card) : "a card"}`;
    case "PileTaken": return `${who} took the discard pile`;
    case "Melded": return `${who} melded ${cards(event.cards)}`;
    case "MeldExtended": return `${who} added ${cards(event.added)} to meld ${event.meld}`;
    case "PozzettoTaken": return `${who} took the pozzetto`;
    case "PozzettoOpened": return `${who} picks up the pozzetto (rule 17)`;
    case "HandScored": return `hand ${event.hand} scored`;
    case "HandClosed": return `${who} closed hand ${event.hand}`;
    case "MatchWon": return "the match is won";
    default: return `${event.type}${who ? ` (${who})` : ""}`;
  }
}

// The version each hand starts at: its first event in the timeline.
export function handStarts(events) {
  const starts = new Map();
  for (const event of events) {
    if (event.hand && !starts.has(event.hand)) starts.set(event.hand, event.version);
  }
  return starts;
}

// The ledger holding every hand the events settle: the ledger is a read model and may trail
// the stream by a moment, so it is read again (for up to 5 s, polling) while a settled hand
// is missing from it.
async function settledLedger(tableId, events) {
  const settled = new Set(events.filter((e) => e.type === "HandSettled" || e.type === "HandScored")
    .map((e) => e.hand));
  let ledger = await api.ledger(tableId);
  const missing = () => [...settled].some((n) => !ledger.hands.some((h) => h.hand === n));
  for (let tries = 0; missing() && tries < 50; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ledger = await api.ledger(tableId);
  }
  return ledger;
}

// The chart of chips per player (Bourré) or score per team (Burraco) across hands.
export async function ledgerChart(tableId, game, events) {
  const ledger = await settledLedger(tableId, events);
  if (game === "burraco") {
    return chart(burracoSeries(ledger), { title: "Score per team across hands" });
  }
  return chart(bourreSeries(ledger, events), { title: "Chips (net) per player across hands",
    signedValues: true });
}
