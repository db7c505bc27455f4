// Burraco's board renderer (docs/rules/burraco.md), the ES module the web pages import for a
// Burraco table (GET /games: board; the interface is in /static/js/table.js). The table drawn
// from a table view: the two teams' melds laid out as runs and sets (rules 7–11) with each
// wild marked by the card it stands for, the discard pile and the stock count (rule 12), the
// pozzetti taken or not (rules 15–17), the seats with their hand sizes, and the hand and match
// scores (rules 22–27). Also: the player's hand panel (draw, take the pile, meld, add to a
// meld, discard), the events told in words, and the score chart.

import { backs, card, cardName, sameCards, sortHand, SUITS } from "/static/js/cards.js";
import { countdown } from "/static/js/countdown.js";
import { handLabel, startLabel } from "/static/js/chart.js";
import { arrivals, arriving } from "/static/js/motion.js";
import { el, exact, seatName, signed, toBig } from "/static/js/format.js";
import { has, lang, list, SEP, t } from "/static/js/i18n.js";

// Burraco's words are its catalog's (domain/burraco/i18n/<lang>.json, keys burraco.*).
const phase = (name) => (has(`burraco.phase.${name}`) ? t(`burraco.phase.${name}`) : name);
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
  const kind = meld.kind === "sequence" ? t("burraco.meld.run", { suit: SUITS[meld.suit] || "" })
    : t("burraco.meld.set", { rank: meld.rank });
  const tags = [meld.burraco ? (meld.clean ? t("burraco.meld.clean") : t("burraco.meld.dirty")) : null,
    t("burraco.meld.points", { n: count(meld.points), points: exact(meld.points) })].filter(Boolean).join(SEP);
  const attrs = { class: `meld ${meld.burraco ? "burraco" : ""} ${target ? "target" : ""}`,
    "data-meld": meld.id };
  const caption = el("div", { class: "meld-caption" }, t("burraco.meld.caption", { id: meld.id, kind }),
    el("span", { class: "muted" }, ` ${tags}`));
  if (onPick) {
    return el("div", attrs, line, el("button", { type: "button", class: "meld-add", "data-action": "add_to_meld",
      onclick: () => onPick(meld), "aria-label": t("burraco.meld.add_label", { id: meld.id }) },
    t("burraco.meld.add", { id: meld.id })), caption);
  }
  return el("div", attrs, line, caption);
}

function teamPanel(team, view, options) {
  const names = team.seats.map((s) => seatName(view.seats[s] && view.seats[s].name, s)).join(" & ");
  // teams[].pozzetto: which pozzetto the team took (null: not yet, rule 15)
  const pozzetto = team.pozzetto === null || team.pozzetto === undefined
    ? t("burraco.team.pozzetto_not_taken") : t("burraco.team.pozzetto_taken");
  const last = view.lastHand ? view.lastHand[team.team === "A" ? 0 : 1] : null;
  const melds = el("div", { class: "melds" });
  const runs = team.melds.filter((m) => m.kind === "sequence");
  const sets = team.melds.filter((m) => m.kind !== "sequence");
  for (const meld of [...runs, ...sets]) {
    melds.append(meldView(meld, { onPick: options.own !== null && options.onMeld
      && team.seats.includes(options.own) ? options.onMeld : undefined,
    fresh: options.place(`meld ${view.hand} ${meld.id}`, meld.cards) }));
  }
  if (!team.melds.length) melds.append(el("p", { class: "muted" }, t("burraco.team.no_melds")));
  return el("section", { class: "team", "data-team": team.team },
    el("header", {}, el("strong", {}, t("burraco.team.name", { team: team.team })), ` ${names}`),
    el("div", { class: "stats" },
      // teams[].score: the match total so far (rule 27: first to the target wins)
      el("span", { class: "score" }, t("burraco.team.match", { score: exact(team.score) })),
      view.options && view.options.target ? el("span", { class: "muted" }, ` / ${exact(view.options.target)}`) : null,
      last ? el("span", { class: "last-hand" }, SEP, t("burraco.team.last_hand", { score: exact(last.total) })) : null,
      el("span", { class: team.pozzetto === null ? "pozzetto" : "pozzetto taken" }, `${SEP}${pozzetto}`)),
    melds);
}

function seatArea(seat, view, { perspective, own }) {
  const toAct = view.toAct.includes(seat.seat);
  const visible = seat.cards && seat.seat !== own
    && (perspective === "all" || perspective === seat.seat);
  const classes = ["seat", toAct ? "to-act" : "", seat.seat === own ? "own" : ""].join(" ");
  return el("section", { class: classes, "data-seat": seat.seat,
    "aria-label": t("core.seat_label", { seat: seat.seat, name: seatName(seat.name, seat.seat) }) },
    el("header", {},
      el("strong", { class: "name" }, seatName(seat.name, seat.seat)),
      el("span", { class: "badge" }, t("burraco.seat.team", { team: seat.team })),
      view.dealer === seat.seat ? el("span", { class: "badge", title: t("core.dealer") }, t("core.dealer_badge")) : null,
      toAct ? el("span", { class: "badge act" }, t("core.to_act")) : null,
      toAct ? countdown(view) : null),
    el("div", { class: "stats" },
      // seats[].cardCount, tookPozzetto (rule 15)
      t("core.cards", { n: seat.cardCount ?? 0 }), seat.tookPozzetto ? `${SEP}${t("burraco.seat.took_pozzetto")}` : ""),
    seat.seat === own ? el("p", { class: "muted" }, t("burraco.seat.hand_below"))
      : visible ? el("div", { class: "cards fan" }, sortHand(seat.cards).map((c) => card(c, { size: "small" })))
      : backs(seat.cardCount || 0, "small"));
}

function centre(view, place) {
  // discardPile: the whole pile, face up, the top card last (rule 12: take it all); a card
  // just discarded moves in
  const fresh = place(`pile ${view.hand}`, view.discardPile);
  const pile = el("div", { class: "cards pile", role: "group", "aria-label": t("burraco.pile.label") },
    view.discardPile.map((c, i) => (fresh.has(i) ? arriving(card(c, { size: "small" })) : card(c, { size: "small" }))));
  const left = (view.pozzettiLeft || []).length;
  return el("div", { class: "centre burraco-centre" },
    el("div", { class: "stock" }, view.stockCount ? card("back") : null,
      el("span", { class: "label" }, t("burraco.stock", { n: view.stockCount }))),
    el("div", { class: "pile-box" }, el("span", { class: "label" }, t("burraco.pile.count", { n: view.discardPile.length })), pile),
    el("p", { class: "phase" }, [t("core.hand", { hand: view.hand }),
      view.phase ? phase(view.phase) : t(`accounts.status.${view.status}`),
      t("burraco.pozzetti_left", { n: left }),
      view.lastTurn ? t("burraco.last_turn") : null,
      view.winner ? t("burraco.team_wins", { team: view.winner }) : null,
      view.status === "ended" && !view.winner ? t("core.table_ended") : null].filter(Boolean).join(SEP)));
}

// The whole table. options: perspective ("all" | seat), own (the player's seat, drawn in
// the player's panel instead), onMeld(meld) (the player adds selected cards to a meld).
export function renderBoard(view, { perspective = "all", own = null, onMeld } = {}) {
  const board = el("div", { class: "board burraco", "data-game": "burraco" });
  const seats = el("div", { class: "seats" }, view.seats.map((s) => seatArea(s, view, { perspective, own })));
  const place = arrivals(view.version); // motion.js: the cards new since the last drawing
  board.append(seats, centre(view, place),
    el("div", { class: "teams" }, view.teams.map((team) => teamPanel(team, view, { own, onMeld, place }))));
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
    el("button", { type: "button", name: "draw", "data-action": "draw", disabled: !draw, onclick: () => ctx.post(draw) },
      t("burraco.play.draw")),
    el("button", { type: "button", name: "take_pile", "data-action": "take_pile", disabled: !pile, onclick: () => ctx.post(pile) },
      t("burraco.play.take_pile")),
    el("button", { type: "button", name: "meld", "data-action": "meld", disabled: !playing || !ctx.selected.length, onclick: meld },
      t("burraco.play.meld", { n: ctx.selected.length })),
    el("button", { type: "button", name: "discard", "data-action": "discard", class: "primary", disabled: !single, onclick: () => ctx.post(single) },
      single ? t("burraco.play.discard_card", { card: cardName(single.card) }) : t("burraco.play.discard")));
  return {
    row: handRow,
    actions,
    shortcuts: { d: () => draw && ctx.post(draw), t: () => pile && ctx.post(pile), m: meld,
      x: () => single && ctx.post(single) },
    keys: t("burraco.play.keys"),
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
  const known = ["closed", "stock", "stalemate"].includes(event.reason) ? event.reason : "other";
  return t(`burraco.closing.${known}`, { who, hand: event.hand });
}

const capital = (text) => text.charAt(0).toLocaleUpperCase(lang) + text.slice(1);
// n as a number a message can choose its plural by (a BigInt past 2^53 is close enough).
const count = (n) => Number(toBig(n));

// One of Burraco's events in words (domain/burraco/events.py); undefined for the others.
export function describe(event, names = []) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(names[event.seat], event.seat) : "";
  const cards = (codes) => (codes ? list(codes.map(cardName), "unit") : "");
  switch (event.type) {
    case "CloseAsked": return t("burraco.event.CloseAsked", { who });
    case "Dealt": return t("burraco.event.Dealt", { hand: event.hand, dealer: seatName(names[event.dealer], event.dealer),
      card: cardName(event.firstDiscard) });
    case "CardDrawn": return event.card ? t("burraco.event.CardDrawn", { who, card: cardName(event.card) })
      : t("burraco.event.CardDrawn_hidden", { who });
    case "PileTaken": return t("burraco.event.PileTaken", { who, n: event.cards ? event.cards.length : event.cardCount || 0 });
    case "Melded": return t("burraco.event.Melded", { who, cards: cards(event.cards) });
    case "MeldExtended": return t("burraco.event.MeldExtended", { who, cards: cards(event.added), meld: event.meld });
    case "Discarded": return t("burraco.event.Discarded", { who, card: cardName(event.card) }); // rule 12c
    case "PozzettoTaken": return t(event.direct ? "burraco.event.PozzettoTaken_direct" : "burraco.event.PozzettoTaken", { who });
    case "PozzettoOpened": return t("burraco.event.PozzettoOpened", { who });
    case "HandClosed": return closing(event, names);
    case "HandScored": return t("burraco.event.HandScored", { hand: event.hand, a: signed(event.scores[0].total),
      b: signed(event.scores[1].total), totalA: exact(event.totals[0]), totalB: exact(event.totals[1]) });
    case "HandAbandoned": return t("burraco.event.HandAbandoned", { hand: event.hand });
    case "MatchWon": return t("burraco.event.MatchWon", { team: TEAMS[event.team], won: exact(event.totals[event.team]),
      lost: exact(event.totals[1 - event.team]) });
    default: return undefined;
  }
}

// --- a hand's result and the match's standings (result.js draws the panel) -----------------

const TEAMS = ["A", "B"];
// The lines of a team's score for a hand (HandScored.scores[], rules 22–26).
const LINES = ["melds", "burracos", "inHand", "pozzetto", "closing"];

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
      el("p", { class: "headline" }, t("burraco.result.abandoned", { hand: event.hand })));
  }
  if (event.type !== "HandScored") return null;
  const closed = events.find((e) => e.type === "HandClosed" && e.hand === event.hand);
  const who = partners(view, names);
  const cell = (side, key) => el("td", { class: "num", "data-team": TEAMS[side], "data-line": key },
    signed(event.scores[side][key]), key === "burracos" ? el("small", { class: "count" },
      el("br"), t("burraco.result.clean_dirty", { clean: event.scores[side].cleanBurracos || 0,
        dirty: event.scores[side].dirtyBurracos || 0 })) : null);
  const body = LINES.map((key) => el("tr", {}, el("th", { scope: "row" }, t(`burraco.result.line.${key}`)),
    cell(0, key), cell(1, key)));
  body.push(el("tr", { class: "total" }, el("th", { scope: "row" }, t("burraco.result.hand_total")), cell(0, "total"), cell(1, "total")));
  body.push(el("tr", { class: "match" }, el("th", { scope: "row" }, t("burraco.result.match_total")),
    ...event.totals.map((total, side) => el("td", { class: "num", "data-team": TEAMS[side], "data-line": "match" },
      exact(total)))));
  return el("div", { class: "hand-result burraco" },
    el("p", { class: "headline" }, closed ? t("burraco.result.closed_headline", { closing: capital(closing(closed, names)) })
      : t("burraco.result.scored", { hand: event.hand })),
    el("table", {},
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("burraco.result.score")),
        ...TEAMS.map((team, i) => el("th", { scope: "col" }, t("burraco.team.name", { team }), el("br"),
          el("small", {}, who[i]))))),
      el("tbody", {}, body)));
}

// The standings after `events` (a table's end: the final standings): each team's match total
// (the last HandScored's totals, rule 27), best first.
export function standings(events, { names = [], view = null } = {}) {
  const last = [...events].reverse().find((e) => e.type === "HandScored" || e.type === "MatchWon");
  const totals = last ? last.totals : [0, 0];
  const who = partners(view, names);
  return TEAMS.map((team, i) => ({ seat: i, name: t("burraco.standing.name", { team, who: who[i] }), value: toBig(totals[i]),
    shown: t("burraco.points", { n: count(totals[i]), points: exact(totals[i]) }) }))
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
    title: t("burraco.chart.title"),
    units: t("burraco.chart.units"),
    labels: [startLabel(), ...ledger.hands.map((h) => handLabel(h.hand))],
    series: ledger.teams.map((team, i) => ({ name: t("burraco.team.name", { team: team.team }), values: values[i], now: team.total })),
  };
}
