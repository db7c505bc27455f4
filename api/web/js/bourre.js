// The Bourré table (docs/rules/bourre.md) drawn from a table view (domain view fields named
// in the comments): seats around an oval with names, chips and net, the pot, the trump card,
// declarations (play/pass, cards drawn as counts), the trick in progress, tricks won and who
// is to act. A seat's cards show face up when the view holds them (its own seat, or every
// seat once a settled hand is revealed) and the perspective allows; otherwise face down.

import { backs, card, row, sortHand, SUITS } from "./cards.js";
import { countdown } from "./countdown.js";
import { el, exact, seatName, signed, toBig } from "./format.js";

const PHASES = {
  seating: "waiting for players",
  declare: "declaring: play or pass, then discard and draw (rule 11)",
  play: "trick play (rule 14)",
  second_chance: "second chance to pass (rule 33)",
};

// Per seat, what this hand's Declared and Discarded events said (rules 11–13): play/pass and
// how many cards were drawn. Other seats' drawn cards are counts only (redacted events).
export function declarations(events, hand) {
  const bySeat = new Map();
  for (const event of events) {
    if (event.hand !== hand) continue;
    const entry = bySeat.get(event.seat) || {};
    if (event.type === "Declared" && "play" in event) entry.play = event.play;
    if (event.type === "Discarded") {
      entry.drawn = event.drawn ? event.drawn.length : event.drawnCount;
    }
    bySeat.set(event.seat, entry);
  }
  return bySeat;
}

function declarationText(seat, view, said) {
  // view.seats[].passed: true passed, false plays, null undecided or sealed (rule 31)
  if (seat.passed === true) return "passed";
  const drew = said && said.drawn !== undefined ? ` · drew ${said.drawn}` : "";
  if (seat.passed === false) return `plays${drew}`;
  if (view.decided && view.decided[seat.seat]) return "decided (sealed)";
  return view.phase === "declare" ? "deciding" : "";
}

// The seat's cards as this page may show them. perspective: "all" shows every hand the view
// holds; a seat number shows only that seat's cards; own: the seat drawn elsewhere (play).
function seatCards(seat, view, { perspective, own }) {
  if (seat.seat === own) return el("p", { class: "muted" }, `${seat.cardCount} cards, below`);
  const visible = seat.cards && (perspective === "all" || perspective === seat.seat)
    && seat.seat !== own;
  const hand = visible ? row(sortHand(seat.cards, view.trump), { size: "small", fan: true })
    : backs(seat.cardCount || 0, "small");
  // seats[].discarded: the cards this seat threw away (rule 13), shown once the view holds them
  if (visible && seat.discarded && seat.discarded.length) {
    return el("div", {}, hand, el("div", { class: "discarded" },
      el("span", { class: "label" }, "discarded "), row(seat.discarded, { size: "small", fan: true })));
  }
  return hand;
}

function seatArea(seat, view, index, count, options) {
  const toAct = view.toAct.includes(seat.seat);
  const said = options.said.get(seat.seat);
  // Seats around the oval, seat 0 at the bottom, going clockwise (rule 9: play goes left).
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  const style = `--x:${(50 + 43 * Math.cos(angle)).toFixed(1)}%;`
    + `--y:${(50 + 40 * Math.sin(angle)).toFixed(1)}%`;
  const buyIn = view.options && view.options.buy_in;
  const classes = ["seat"];
  if (toAct) classes.push("to-act");
  if (seat.passed === true) classes.push("passed");
  if (seat.seat === options.own) classes.push("own");
  return el("section", { class: classes.join(" "), "data-seat": seat.seat, style,
    "aria-label": `seat ${seat.seat}: ${seatName(seat.name, seat.seat)}` },
    el("header", {},
      el("strong", { class: "name" }, seatName(seat.name, seat.seat)),
      view.dealer === seat.seat ? el("span", { class: "badge", title: "dealer" }, "D") : null,
      toAct ? el("span", { class: "badge act" }, "to act") : null,
      toAct ? countdown(view) : null),
    el("div", { class: "stats" },
      // seats[].net: chips won or lost so far; chips = buy_in + net when the table has one
      buyIn !== null && buyIn !== undefined
        ? el("span", { class: "chips", title: "chips" }, `${exact(toBig(buyIn) + toBig(seat.net))} chips `)
        : null,
      el("span", { class: "net", title: "net chips" }, `net ${signed(seat.net)}`),
      // seats[].tricks: tricks won this hand (rule 17: none while playing is a bourré)
      el("span", { class: "tricks", title: "tricks won this hand" }, ` · ${seat.tricks} trick${seat.tricks === 1 ? "" : "s"}`)),
    el("div", { class: "declared" }, declarationText(seat, view, said)),
    seatCards(seat, view, options));
}

function centre(view) {
  // trick: the trick in progress; while the next one has no card yet, lastTrick (dimmed)
  const last = !view.trick.length && view.lastTrick && view.lastTrick.length;
  const trick = el("div", { class: `trick ${last ? "last" : ""}`,
    "aria-label": last ? "last trick" : "trick in progress" });
  for (const played of last ? view.lastTrick : view.trick) {
    const who = view.seats[played.seat];
    trick.append(el("figure", {}, card(played.card),
      el("figcaption", {}, seatName(who && who.name, played.seat))));
  }
  if (last) trick.append(el("span", { class: "label" }, "last trick"));
  const trumpSuit = view.trump ? `${SUITS[view.trump]} trump` : "";
  return el("div", { class: "centre" },
    el("div", { class: "pot" }, el("span", { class: "label" }, "pot"),
      el("strong", { class: "amount" }, exact(view.pot))),
    view.trumpCard ? el("div", { class: "trump" }, card(view.trumpCard),
      el("span", { class: "label" }, trumpSuit)) : null,
    trick,
    el("p", { class: "phase" }, `hand ${view.hand} · ${PHASES[view.phase] || view.phase}`
      + (view.stockCount ? ` · stock ${view.stockCount}` : "")
      + (view.status === "ended" ? ` · table ended${view.endReason ? ` (${view.endReason})` : ""}` : "")));
}

// The whole table. options: perspective ("all" | seat), own (the seat drawn in the player's
// panel instead), events (this table's timeline, for the declarations).
export function renderBourre(view, { perspective = "all", own = null, events = [] } = {}) {
  const said = declarations(events, view.hand);
  const oval = el("div", { class: "oval bourre", "data-game": "bourre" });
  oval.append(el("div", { class: "felt" }), centre(view));
  view.seats.forEach((seat, index) => {
    // rotate so the player's own seat sits at the bottom
    const shift = own === null ? index : (index - own + view.seats.length) % view.seats.length;
    oval.append(seatArea(seat, view, shift, view.seats.length, { perspective, own, said }));
  });
  return oval;
}
