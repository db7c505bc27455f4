// What the watch and play pages share: the game of a table and its board renderer, one
// event told in words, the hands' start versions (replay's "jump to a hand's start") and the
// ledger chart. No game is named here: each game's board renderer is an ES module found
// through GET /games (its "board" URL, served from the game's package) and imported once.
//
// A board module exports:
//   renderBoard(view, { perspective, own, events, ...playPanel's board }) -> Element  (required)
//   describe(event, names) -> string | undefined   the game's own events in words
//   settles, scores: event types that end a hand / add a hand to the ledger
//   holds: event types a live spectator sees held a moment (e.g. a finished trick)
//   handResult(event, { names, view, events }) -> Element | null   a settled hand's result (result.js)
//   standings(events, { names, view }) -> [{ seat, name, value, shown }]   the final standings, best first
//   chartSeries(ledger, events) -> { title, labels, series, signedValues, units }   (optional)
//   playPanel(view, ctx) -> { row, actions, shortcuts, keys, board }   the play page's hand
//   commands: the command types playPanel offers (the page adds a button for any other)

import * as api from "./api.js";
import { chart } from "./chart.js";
import { el, seatName } from "./format.js";
import { has, SEP, t, tFirst } from "./i18n.js";

let catalogue = null;
const loaded = new Map();

// Every game GET /games lists (read once per page).
export function games() {
  if (!catalogue) catalogue = api.games().catch((problem) => { catalogue = null; throw problem; });
  return catalogue;
}

// A game without a board module of its own: each seat with its name and card count.
const PLAIN = {
  renderBoard(view) {
    return el("div", { class: "board plain", "data-game": view.game },
      view.seats.map((s) => el("section", { class: "seat", "data-seat": s.seat },
        el("strong", { class: "name" }, seatName(s.name, s.seat)),
        s.cardCount !== undefined ? `${SEP}${t("core.cards", { n: s.cardCount })}` : "")));
  },
};

// A game's title in the page's language (<game>.title), else the server's (GET /games).
export const gameTitle = (name, english) => tFirst([`${name}.title`], {}, english || name);

// The game named `name`: { name, title, options, module } (module: its board renderer).
export async function gameOf(name) {
  if (!loaded.has(name)) {
    loaded.set(name, (async () => {
      const entry = (await games()).find((g) => g.game === name);
      if (!entry) return { name, title: name, options: [], module: PLAIN };
      const module = entry.board ? await import(entry.board) : PLAIN;
      return { name, title: gameTitle(name, entry.title), options: entry.options, module };
    })());
  }
  return loaded.get(name);
}

// The table id from the page's path (/watch/{id} or /play/{id}).
export const tableIdFromPath = () => decodeURIComponent(location.pathname.split("/")[2] || "");

// Why a table ended, in words (TableEnded.reason: log.ended.<reason>).
export const endReason = (event) => (has(`log.ended.${event.reason}`) ? t(`log.ended.${event.reason}`)
  : words(event.reason || ""));

// One timeline event in words: the game's own events from its module, the table's (seats,
// the end, the turn clock) here.
export function describe(game, event, names = []) {
  const own = game.module.describe ? game.module.describe(event, names) : undefined;
  if (own) return own;
  const who = event.seat !== undefined && event.seat !== null ? seatName(names[event.seat], event.seat) : "";
  switch (event.type) {
    case "TableOpened": return t("log.event.TableOpened", { game: game.title });
    case "PlayerSeated": return t("log.event.PlayerSeated", { name: event.name, seat: event.seat });
    case "TableEnded": return event.reason ? t("log.event.TableEnded_reason", { reason: endReason(event) })
      : t("log.event.TableEnded");
    case "TurnTimedOut": return t(event.satOut ? "log.event.TurnTimedOut_sat_out" : "log.event.TurnTimedOut", { who });
    case "SatIn": return t("log.event.SatIn", { who });
    case "SeatLeft": return t(event.bot ? "log.event.SeatLeft_bot" : "log.event.SeatLeft",
      { name: event.name || who });
    case "CloseAsked": return t("log.event.CloseAsked", { who });
    case "BoardReleased": return t("log.event.BoardReleased", { round: event.round });
    // (a timeline's "at" is when an event was recorded, so the fork's version is not told here)
    case "TableForked": return t("log.event.TableForked", { who, table: String(event.forkOf || "").slice(0, 8) });
    default: {
      const what = describeType(event.type, game.name);
      const key = `log.event.other${who ? "_who" : ""}${event.hand ? "_hand" : ""}`;
      return t(key, { what, who, hand: event.hand });
    }
  }
}

// An event type in words ("HandSettled" → "hand settled"): the game's message
// (<game>.type.<Type>, given by the caller through has/t) or the shared one (log.type.<Type>),
// else the type itself in words.
export const describeType = (type, game) => tFirst([game ? `${game}.type.${type}` : "", `log.type.${type}`]
  .filter(Boolean), {}, words(type));

// An identifier in words: "HandAbandoned" → "hand abandoned", "max_hands" → "max hands".
export const words = (name) => String(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/_/g, " ")
  .toLowerCase();

// The version each hand starts at: its first event in the timeline.
export function handStarts(events) {
  const starts = new Map();
  for (const event of events) {
    if (event.hand && !starts.has(event.hand)) starts.set(event.hand, event.version);
  }
  return starts;
}

// The event types that end a hand in `game` (the hand's cards may then be shown).
export const settling = (game) => game.module.settles || [];

// The ledger holding every hand the events scored: the ledger is a read model and may trail
// the stream by a moment, so it is read again (for up to 5 s, polling) while a scored hand
// is missing from it.
async function scoredLedger(tableId, game, events) {
  const kinds = game.module.scores || settling(game);
  const scored = new Set(events.filter((e) => kinds.includes(e.type)).map((e) => e.hand));
  let ledger = await api.ledger(tableId);
  const missing = () => [...scored].some((n) => !ledger.hands.some((h) => h.hand === n));
  for (let tries = 0; missing() && tries < 50; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    ledger = await api.ledger(tableId);
  }
  return ledger;
}

// The game's chart across hands (its module's chartSeries), or nothing for a game without.
// upto: the version on screen — the chart then holds nothing later (no spoilers while
// replaying): the events after it are left out, so are the ledger's hands they scored, and
// each line's "now" is its last point.
export async function ledgerChart(tableId, game, events, { upto = Infinity } = {}) {
  if (!game.module.chartSeries) return "";
  const all = [...events]; // the page's timeline grows while the ledger is read
  const seen = all.filter((e) => e.version <= upto);
  const later = seen.length < all.length;
  const full = await scoredLedger(tableId, game, all);
  const kinds = game.module.scores || settling(game);
  const scored = new Set(seen.filter((e) => kinds.includes(e.type)).map((e) => e.hand));
  const ledger = later ? { ...full, hands: full.hands.filter((h) => scored.has(h.hand)) } : full;
  const { title, signedValues, units, ...series } = game.module.chartSeries(ledger, seen);
  if (later) {
    series.series = series.series.map((s) => ({ ...s, now: s.values[s.values.length - 1] }));
  }
  return chart(series, { title, signedValues, units, upto: later ? upto : null });
}
