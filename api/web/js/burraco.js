// The Burraco table (docs/rules/burraco.md) drawn from a table view: the two teams' melds
// laid out as runs and sets (rules 7–11) with each wild marked by the card it stands for,
// the discard pile and the stock count (rule 12), the pozzetti taken or not (rules 15–17),
// the seats with their hand sizes, and the hand and match scores (rules 22–27).

import { backs, card, sortHand, SUITS } from "./cards.js";
import { countdown } from "./countdown.js";
import { el, exact, seatName } from "./format.js";

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
export function meldView(meld, { onPick, target } = {}) {
  const stands = wildStandsFor(meld);
  const line = el("div", { class: stands ? "cards meld-cards has-wild" : "cards meld-cards" });
  meld.cards.forEach((code, index) => {
    line.append(card(code, { size: "small", note: index === meld.wild ? `= ${stands}` : undefined }));
  });
  const kind = meld.kind === "sequence" ? `run of ${SUITS[meld.suit] || ""}` : `set of ${meld.rank}s`;
  const tags = [meld.burraco ? (meld.clean ? "clean burraco" : "dirty burraco") : null,
    `${exact(meld.points)} pts`].filter(Boolean).join(" · ");
  const attrs = { class: `meld ${meld.burraco ? "burraco" : ""} ${target ? "target" : ""}`,
    "data-meld": meld.id };
  const caption = el("div", { class: "meld-caption" }, `#${meld.id} ${kind}`,
    el("span", { class: "muted" }, ` ${tags}`));
  if (onPick) {
    return el("div", attrs, line, el("button", { type: "button", class: "meld-add",
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
      && team.seats.includes(options.own) ? options.onMeld : undefined }));
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

function centre(view) {
  // discardPile: the whole pile, face up, the top card last (rule 12: take it all)
  const pile = el("div", { class: "cards pile", "aria-label": "discard pile" },
    view.discardPile.map((c) => card(c, { size: "small" })));
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
export function renderBurraco(view, { perspective = "all", own = null, onMeld } = {}) {
  const board = el("div", { class: "board burraco", "data-game": "burraco" });
  const seats = el("div", { class: "seats" }, view.seats.map((s) => seatArea(s, view, { perspective, own })));
  board.append(seats, centre(view),
    el("div", { class: "teams" }, view.teams.map((t) => teamPanel(t, view, { own, onMeld }))));
  return board;
}
