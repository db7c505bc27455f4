// Burraco's board renderer (docs/rules/burraco.md), the ES module the web pages import for a
// Burraco table (GET /games: board; the interface is in /static/js/table.js). The table drawn
// from a table view: the two teams' melds laid out as runs and sets (rules 7–11) with each
// wild marked by the card it stands for, the discard pile and the stock count (rule 12), the
// pozzetti taken or not (rules 15–17), the seats with their hand sizes, and the hand and match
// scores (rules 22–27). Also: the player's hand panel (draw, take the pile, meld, add to a
// meld, discard), the events told in words, and the score chart.

import { backs, card, cardName, sameCards, sortHand, SUITS } from "/static/js/cards.js";
import { countdown } from "/static/js/countdown.js";
import { arrivals, arriving } from "/static/js/motion.js";
import { el, exact, seatName, signed, toBig } from "/static/js/format.js";

const PHASES = {
  draw: "draw from the stock or take the pile (rule 12)",
  play: "meld, add to melds, then discard (rules 13–14)",
  over: "hand over",
};
const POSITION_RANKS = { 1: "A", 11: "J", 12: "Q", 13: "K", 14: "A" };

// What a meld's wild stands for: in a sequence the rank at position low + wild (positions
// 1 = ace low … 13 = king, 14 = ace high) in the run's suit; in a set, the set's rank.
export function wildStandsFor(meld) {
  if (meld.wild === undefined || meld.wild < 0) return null;
  if (meld.kind === "sequence") {
    const position = meld.low + meld.wild;
    return `${POSITION_RANKS[position] || String(position)}${SUITS[meld.suit] || ""}`;
  }
  return meld.rank || null; // a set: any suit of its rank (rule 8)
}

// One meld: its cards in table order, the wild marked, the meld id (add_to_meld needs it),
// and its kind and points (rule 22). onPick(meld) makes it a target for the player.
export function meldView(meld, { onPick, target, fresh = new Set() } = {}) {
  const stands = wildStandsFor(meld);
  const line = el("div", { class: stands ? "cards meld-cards has-wild" : "cards meld-cards" });
  meld.cards.forEach((code, index) => {
    const shown = card(code, { size: "small", note: index === meld.wild ? `= ${stands}` : undefined });
    line.append(fresh.has(index) ? arriving(shown) : shown); // a card just melded moves in
  });
  const kind = meld.kind === "sequence" ? `run of ${SUITS[meld.suit] || ""}` : `set of ${meld.rank}s`;
  const tags = [meld.burraco ? (meld.clean ? "clean burraco" : "dirty burraco") : null,
    `${exact(meld.points)} pts`].filter(Boolean).join(" · ");
  const attrs = { class: `meld ${meld.burraco ? "burraco" : ""} ${target ? "target" : ""}`,
    "data-meld": meld.id };
  const caption = el("div", { class: "meld-caption" }, `#${meld.id} ${kind}`,
    el("span", { class: "muted" }, ` ${tags}`));
  if (onPick) {
    return el("div", attrs, line, el("button", { type: "button", class: "meld-add", "data-action": "add_to_meld",
      onclick: () => onPick(meld), "aria-label": `add the selected cards to meld ${meld.id}` },
    `add to #${meld.id}`), caption);
  }
  return el("div", attrs, line, caption);
}

function teamPanel(team, view, options) {
  const names = team.seats.map((s) => seatName(view.seats[s] && view.seats[s].name, s)).join(" & ");
  // teams[].pozzetto: which pozzetto the team took (null: not yet, rule 15)
  const pozzetto = team.pozzetto === null || team.pozzetto === undefined
    ? "pozzetto not taken" : "pozzetto taken";
  const last = view.lastHand ? view.lastHand[team.team === "A" ? 0 : 1] : null;
  const melds = el("div", { class: "melds" });
  const runs = team.melds.filter((m) => m.kind === "sequence");
  const sets = team.melds.filter((m) => m.kind !== "sequence");
  for (const meld of [...runs, ...sets]) {
    melds.append(meldView(meld, { onPick: options.own !== null && options.onMeld
      && team.seats.includes(options.own) ? options.onMeld : undefined,
    fresh: options.place(`meld ${view.hand} ${meld.id}`, meld.cards) }));
  }
  if (!team.melds.length) melds.append(el("p", { class: "muted" }, "no melds yet"));
  return el("section", { class: "team", "data-team": team.team },
    el("header", {}, el("strong", {}, `Team ${team.team}`), ` ${names}`),
    el("div", { class: "stats" },
      // teams[].score: the match total so far (rule 27: first to the target wins)
      el("span", { class: "score" }, `match ${exact(team.score)}`),
      view.options && view.options.target ? el("span", { class: "muted" }, ` / ${exact(view.options.target)}`) : null,
      last ? el("span", { class: "last-hand" }, ` · last hand ${exact(last.total)}`) : null,
      el("span", { class: team.pozzetto === null ? "pozzetto" : "pozzetto taken" }, ` · ${pozzetto}`)),
    melds);
}

function seatArea(seat, view, { perspective, own }) {
  const toAct = view.toAct.includes(seat.seat);
  const visible = seat.cards && seat.seat !== own
    && (perspective === "all" || perspective === seat.seat);
  const classes = ["seat", toAct ? "to-act" : "", seat.seat === own ? "own" : ""].join(" ");
  return el("section", { class: classes, "data-seat": seat.seat,
    "aria-label": `seat ${seat.seat}: ${seatName(seat.name, seat.seat)}` },
    el("header", {},
      el("strong", { class: "name" }, seatName(seat.name, seat.seat)),
      el("span", { class: "badge" }, `team ${seat.team}`),
      view.dealer === seat.seat ? el("span", { class: "badge", title: "dealer" }, "D") : null,
      toAct ? el("span", { class: "badge act" }, "to act") : null,
      toAct ? countdown(view) : null),
    el("div", { class: "stats" },
      // seats[].cardCount, tookPozzetto (rule 15)
      `${seat.cardCount ?? 0} card${seat.cardCount === 1 ? "" : "s"}`, seat.tookPozzetto ? " · took the pozzetto" : ""),
    seat.seat === own ? el("p", { class: "muted" }, "your hand is below")
      : visible ? el("div", { class: "cards fan" }, sortHand(seat.cards).map((c) => card(c, { size: "small" })))
      : backs(seat.cardCount || 0, "small"));
}

function centre(view, place) {
  // discardPile: the whole pile, face up, the top card last (rule 12: take it all); a card
  // just discarded moves in
  const fresh = place(`pile ${view.hand}`, view.discardPile);
  const pile = el("div", { class: "cards pile", role: "group", "aria-label": "discard pile" },
    view.discardPile.map((c, i) => (fresh.has(i) ? arriving(card(c, { size: "small" })) : card(c, { size: "small" }))));
  const left = (view.pozzettiLeft || []).length;
  return el("div", { class: "centre burraco-centre" },
    el("div", { class: "stock" }, view.stockCount ? card("back") : null,
      el("span", { class: "label" }, `stock ${exact(view.stockCount)}`)),
    el("div", { class: "pile-box" }, el("span", { class: "label" }, `discard pile (${view.discardPile.length})`), pile),
    el("p", { class: "phase" },
      `hand ${view.hand} · ${PHASES[view.phase] || view.phase || view.status}`
      + ` · ${left} pozzett${left === 1 ? "o" : "i"} left`
      + (view.lastTurn ? " · last turn" : "")
      + (view.winner ? ` · team ${view.winner} wins` : "")
      + (view.status === "ended" && !view.winner ? " · table ended" : "")));
}

// The whole table. options: perspective ("all" | seat), own (the player's seat, drawn in
// the player's panel instead), onMeld(meld) (the player adds selected cards to a meld).
export function renderBoard(view, { perspective = "all", own = null, onMeld } = {}) {
  const board = el("div", { class: "board burraco", "data-game": "burraco" });
  const seats = el("div", { class: "seats" }, view.seats.map((s) => seatArea(s, view, { perspective, own })));
  const place = arrivals(view.version); // motion.js: the cards new since the last drawing
  board.append(seats, centre(view, place),
    el("div", { class: "teams" }, view.teams.map((t) => teamPanel(t, view, { own, onMeld, place }))));
  return board;
}

// --- the player's panel (play page) --------------------------------------------------------

// The command types the panel below offers; the page adds a button for any other.
export const commands = ["draw", "take_pile", "meld", "add_to_meld", "discard"];

// The seat's hand and its actions (rule 12: draw or take the pile, then meld and discard).
// ctx: seat, selected (codes), ofType(type) (the legal commands of a type), post(command),
// toggle(code). The hint-carrying legal command for the selection is posted, or a plain one
// the server judges (a meld the legal list does not spell out is still tried; a refusal
// comes back in words). board: what the board adds for the player (a meld to add to).
export function playPanel(view, ctx) {
  const own = view.seats[ctx.seat] || {};
  const cards = own.cards || [];
  const discards = new Map(ctx.ofType("discard").map((c) => [c.card, c]));
  const melding = new Set(ctx.ofType("meld").flatMap((c) => c.cards)
    .concat(ctx.ofType("add_to_meld").flatMap((c) => c.cards)));
  const playing = discards.size > 0; // rule 12: after drawing, meld and discard
  const handRow = el("div", { class: "cards hand" }, sortHand(cards).map((code) => {
    if (playing && (discards.has(code) || melding.has(code))) {
      return card(code, { legal: true, selected: ctx.selected.includes(code), onPick: ctx.toggle });
    }
    return card(code);
  }));
  const meldCommand = () => ctx.ofType("meld").find((c) => sameCards(c.cards, ctx.selected))
    || { type: "meld", cards: [...ctx.selected] };
  const addCommand = (meld) => ctx.ofType("add_to_meld")
    .find((c) => c.meld === meld.id && sameCards(c.cards, ctx.selected))
    || { type: "add_to_meld", meld: meld.id, cards: [...ctx.selected] };
  const single = ctx.selected.length === 1 ? discards.get(ctx.selected[0]) : null;
  const draw = ctx.ofType("draw")[0];
  const pile = ctx.ofType("take_pile")[0];
  const meld = () => ctx.selected.length && ctx.post(meldCommand());
  const actions = el("div", { class: "actions" },
    el("button", { type: "button", name: "draw", "data-action": "draw", disabled: !draw, onclick: () => ctx.post(draw) }, "draw from the stock (d)"),
    el("button", { type: "button", name: "take_pile", "data-action": "take_pile", disabled: !pile, onclick: () => ctx.post(pile) }, "take the pile (t)"),
    el("button", { type: "button", name: "meld", "data-action": "meld", disabled: !playing || !ctx.selected.length, onclick: meld },
      `meld ${ctx.selected.length || ""} selected (m)`),
    el("button", { type: "button", name: "discard", "data-action": "discard", class: "primary", disabled: !single, onclick: () => ctx.post(single) },
      single ? `discard ${single.card} (x)` : "discard: select one card (x)"));
  return {
    row: handRow,
    actions,
    shortcuts: { d: () => draw && ctx.post(draw), t: () => pile && ctx.post(pile), m: meld,
      x: () => single && ctx.post(single) },
    keys: "d draw, t pile, m meld, x discard",
    board: { onMeld: ctx.selected.length && playing ? (target) => ctx.post(addCommand(target)) : undefined },
  };
}

// --- events in words, the chart ------------------------------------------------------------

// The events that end a hand (its cards may then be shown), and those of them that add a
// hand to the ledger (the page then reads it again): an abandoned hand is not scored (rule 28).
export const settles = ["HandScored", "HandAbandoned"];
export const scores = ["HandScored"];

// How a hand ended (HandClosed.reason, rules 18, 20, 21).
function closing(event, names) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(names[event.seat], event.seat) : "";
  if (event.reason === "closed") return `${who} closes hand ${event.hand} (rule 18)`;
  if (event.reason === "stock") return `hand ${event.hand} ends: the stock is exhausted (rule 20)`;
  if (event.reason === "stalemate") return `hand ${event.hand} ends in a stalemate (rule 21)`;
  return `hand ${event.hand} ends`;
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);
const cardCount = (n) => `${n} card${n === 1 ? "" : "s"}`;

// One of Burraco's events in words (domain/burraco/events.py); undefined for the others.
export function describe(event, names = []) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(names[event.seat], event.seat) : "";
  const cards = (list) => (list ? list.map(cardName).join(", ") : "");
  switch (event.type) {
    case "CloseAsked": return `${who} asks to end the match (rule 28)`;
    case "Dealt": return `hand ${event.hand}: ${seatName(names[event.dealer], event.dealer)} deals;`
      + ` the first discard is the ${cardName(event.firstDiscard)}`;
    case "CardDrawn": return `${who} draws ${event.card ? `the ${cardName(event.card)}` : "a card"} from the stock`;
    case "PileTaken": return `${who} takes the discard pile (${cardCount(event.cards ? event.cards.length : event.cardCount || 0)})`;
    case "Melded": return `${who} melds ${cards(event.cards)}`;
    case "MeldExtended": return `${who} adds ${cards(event.added)} to meld #${event.meld}`;
    case "Discarded": return `${who} discards the ${cardName(event.card)}`; // rule 12c
    case "PozzettoTaken": return `${who} takes a pozzetto${event.direct ? " directly" : " on the discard"} (rule 15)`;
    case "PozzettoOpened": return `${who} picks up the pozzetto (rule 17)`;
    case "HandClosed": return closing(event, names);
    case "HandScored": return `hand ${event.hand} scored: team A ${signed(event.scores[0].total)}, `
      + `team B ${signed(event.scores[1].total)}; match ${exact(event.totals[0])} to ${exact(event.totals[1])}`;
    case "HandAbandoned": return `hand ${event.hand} abandoned: not scored (rule 28)`;
    case "MatchWon": return `team ${TEAMS[event.team]} wins the match, ${exact(event.totals[event.team])} to `
      + `${exact(event.totals[1 - event.team])}`;
    default: return undefined;
  }
}

// --- a hand's result and the match's standings (result.js draws the panel) -----------------

const TEAMS = ["A", "B"];
// The lines of a team's score for a hand (HandScored.scores[], rules 22–26).
const LINES = [
  ["melds", "melds (rule 22)"],
  ["burracos", "burracos (rule 24)"],
  ["inHand", "cards left in hand (rule 23)"],
  ["pozzetto", "pozzetto not taken (rule 26)"],
  ["closing", "closing (rule 25)"],
];

// The partners of each team (rule 1: seats alternate), by name.
function partners(view, names) {
  return TEAMS.map((team) => (view ? view.seats.filter((s) => s.team === team).map((s) => s.seat)
    : names.map((_, s) => s).filter((s) => s % 2 === TEAMS.indexOf(team)))
    .map((s) => seatName(names[s], s)).join(" & "));
}

// Hand `event.hand`'s result: each team's breakdown (melds, burracos clean and dirty, cards
// left in hand, pozzetto penalty, closing bonus; HandScored holds it), the hand's total and
// the match total; or an abandoned hand, not scored. Each figure carries data- attributes the
// tests compare with the ledger (hands[].breakdown, teams[].total).
export function handResult(event, { names = [], view = null, events = [] } = {}) {
  if (event.type === "HandAbandoned") {
    return el("div", { class: "hand-result burraco" },
      el("p", { class: "headline" }, `Hand ${event.hand} was abandoned: it is not scored (rule 28).`));
  }
  if (event.type !== "HandScored") return null;
  const closed = events.find((e) => e.type === "HandClosed" && e.hand === event.hand);
  const who = partners(view, names);
  const cell = (t, key) => el("td", { class: "num", "data-team": TEAMS[t], "data-line": key },
    signed(event.scores[t][key]), key === "burracos" ? el("small", { class: "count" },
      el("br"), `${event.scores[t].cleanBurracos || 0} clean · ${event.scores[t].dirtyBurracos || 0} dirty`) : null);
  const body = LINES.map(([key, label]) => el("tr", {}, el("th", { scope: "row" }, label), cell(0, key), cell(1, key)));
  body.push(el("tr", { class: "total" }, el("th", { scope: "row" }, "hand total"), cell(0, "total"), cell(1, "total")));
  body.push(el("tr", { class: "match" }, el("th", { scope: "row" }, "match total"),
    ...event.totals.map((total, t) => el("td", { class: "num", "data-team": TEAMS[t], "data-line": "match" },
      exact(total)))));
  return el("div", { class: "hand-result burraco" },
    el("p", { class: "headline" }, closed ? `${capital(closing(closed, names))}.` : `Hand ${event.hand} scored.`),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "score"),
        ...TEAMS.map((team, t) => el("th", { scope: "col" }, `Team ${team}`, el("br"),
          el("small", {}, who[t]))))),
      el("tbody", {}, body)));
}

// The standings after `events` (a table's end: the final standings): each team's match total
// (the last HandScored's totals, rule 27), best first.
export function standings(events, { names = [], view = null } = {}) {
  const last = [...events].reverse().find((e) => e.type === "HandScored" || e.type === "MatchWon");
  const totals = last ? last.totals : [0, 0];
  const who = partners(view, names);
  return TEAMS.map((team, t) => ({ seat: t, name: `Team ${team} (${who[t]})`, value: toBig(totals[t]),
    shown: `${exact(totals[t])} points` }))
    .sort((a, b) => (b.value > a.value ? 1 : b.value < a.value ? -1 : a.seat - b.seat));
}

// Each team's running score after every scored hand (ledger hands[].scores), for the chart.
export function chartSeries(ledger) {
  const totals = ledger.teams.map(() => 0n);
  const values = ledger.teams.map(() => [0n]);
  for (const hand of ledger.hands) {
    hand.scores.forEach((score, team) => {
      totals[team] += toBig(score);
      values[team].push(totals[team]);
    });
  }
  return {
    title: "Score per team across hands",
    units: "points",
    labels: ["start", ...ledger.hands.map((h) => `hand ${h.hand}`)],
    series: ledger.teams.map((t, i) => ({ name: `Team ${t.team}`, values: values[i], now: t.total })),
  };
}
