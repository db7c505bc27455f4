// Bourré's board renderer (docs/rules/bourre.md), the ES module the web pages import for a
// Bourré table (GET /games: board; the interface is in /static/js/table.js). The table drawn
// from a table view (domain view fields named in the comments): seats around an oval with
// names, chips and net, the pot, the trump card, declarations (play/pass, cards drawn as
// counts), the trick in progress, tricks won and who is to act. A seat's cards show face up
// when the view holds them (its own seat, or every seat once a settled hand is revealed) and
// the perspective allows; otherwise face down. Also: the player's hand panel (declare, play a
// card), the events told in words, and the chips chart.

import { backs, card, cardName, row, sameCards, sortHand, SUITS } from "/static/js/cards.js";
import { countdown } from "/static/js/countdown.js";
import { handLabel, startLabel } from "/static/js/chart.js";
import { el, exact, seatName, signed, toBig } from "/static/js/format.js";
import { has, list, SEP, t } from "/static/js/i18n.js";

// Bourré's words are its catalog's (domain/bourre/i18n/<lang>.json, keys bourre.*).
const phase = (name) => (has(`bourre.phase.${name}`) ? t(`bourre.phase.${name}`) : name);
// n as a number a message can choose its plural by (a BigInt past 2^53 is close enough).
const count = (n) => Number(toBig(n));

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
  if (seat.passed === true) return t("bourre.declared.passed");
  if (seat.passed === false) {
    return said && said.drawn !== undefined ? t("bourre.declared.plays_drew", { n: said.drawn })
      : t("bourre.declared.plays");
  }
  if (view.decided && view.decided[seat.seat]) return t("bourre.declared.sealed");
  return view.phase === "declare" ? t("bourre.declared.deciding") : "";
}

// The seat's cards as this page may show them. perspective: "all" shows every hand the view
// holds; a seat number shows only that seat's cards; own: the seat drawn elsewhere (play).
function seatCards(seat, view, { perspective, own }) {
  if (seat.seat === own) {
    return el("p", { class: "muted" }, t("bourre.seat.cards_below", { n: seat.cardCount }));
  }
  const visible = seat.cards && (perspective === "all" || perspective === seat.seat)
    && seat.seat !== own;
  const hand = visible ? row(sortHand(seat.cards, view.trump), { size: "small", fan: true })
    : backs(seat.cardCount || 0, "small");
  // seats[].discarded: the cards this seat threw away (rule 13), shown once the view holds them
  if (visible && seat.discarded && seat.discarded.length) {
    return el("div", {}, hand, el("div", { class: "discarded" },
      el("span", { class: "label" }, t("bourre.seat.discarded"), " "), row(seat.discarded, { size: "small", fan: true })));
  }
  return hand;
}

function seatArea(seat, view, index, count, options) {
  const toAct = view.toAct.includes(seat.seat);
  const said = options.said.get(seat.seat);
  // Seats around the oval, seat 0 at the bottom, going clockwise (rule 4: play goes left).
  const angle = Math.PI / 2 + (2 * Math.PI * index) / count;
  const style = `--x:${(50 + 43 * Math.cos(angle)).toFixed(1)}%;`
    + `--y:${(50 + 40 * Math.sin(angle)).toFixed(1)}%`;
  const buyIn = view.options && view.options.buy_in;
  const classes = ["seat"];
  if (toAct) classes.push("to-act");
  if (seat.passed === true) classes.push("passed");
  if (seat.seat === options.own) classes.push("own");
  return el("section", { class: classes.join(" "), "data-seat": seat.seat, style,
    "aria-label": t("core.seat_label", { seat: seat.seat, name: seatName(seat.name, seat.seat) }) },
    el("header", {},
      el("strong", { class: "name" }, seatName(seat.name, seat.seat)),
      view.dealer === seat.seat ? el("span", { class: "badge", title: t("core.dealer") }, t("core.dealer_badge")) : null,
      toAct ? el("span", { class: "badge act" }, t("core.to_act")) : null,
      toAct ? countdown(view) : null),
    el("div", { class: "stats" },
      // seats[].net: chips won or lost so far; chips = buy_in + net when the table has one
      buyIn !== null && buyIn !== undefined
        ? el("span", { class: "chips", title: t("bourre.seat.chips_title") },
          t("bourre.seat.chips", { n: count(toBig(buyIn) + toBig(seat.net)), amount: exact(toBig(buyIn) + toBig(seat.net)) }), " ")
        : null,
      el("span", { class: "net", title: t("bourre.seat.net_title") }, t("bourre.seat.net", { amount: signed(seat.net) })),
      // seats[].tricks: tricks won this hand (rule 25: none while playing is a bourré); a hand
      // settled before any trick with this seat playing: everyone else passed (rule 16)
      view.phase === "settled" && !view.tricksPlayed && seat.passed === false
        ? el("span", { class: "tricks", title: t("bourre.solo.title") }, SEP, t("bourre.solo.board"))
        : el("span", { class: "tricks", title: t("bourre.seat.tricks_title") }, SEP, t("bourre.seat.tricks", { n: seat.tricks }))),
    el("div", { class: "declared" }, declarationText(seat, view, said)),
    seatCards(seat, view, options));
}

let recallOpen = false; // the reader's last-trick fold stays as they left it across renders

function centre(view) {
  // trick: the trick in progress; while the next one has no card yet, lastTrick (dimmed)
  const last = !view.trick.length && view.lastTrick && view.lastTrick.length;
  const trick = el("div", { class: `trick ${last ? "last" : ""}`, role: "group",
    "aria-label": last ? t("bourre.trick.last") : t("bourre.trick.current") });
  for (const played of last ? view.lastTrick : view.trick) {
    const who = view.seats[played.seat];
    trick.append(el("figure", {}, card(played.card),
      el("figcaption", {}, seatName(who && who.name, played.seat))));
  }
  if (last) trick.append(el("span", { class: "label" }, t("bourre.trick.last")));
  // Once the next trick has begun, the last one can still be recalled (in words: the cards
  // drawn on the table stay the trick in progress).
  const recall = !last && view.trick.length && view.lastTrick && view.lastTrick.length
    ? el("details", { class: "last-trick-recall", open: recallOpen,
      ontoggle: (e) => { recallOpen = e.target.open; } }, el("summary", {}, t("bourre.trick.last")),
      view.lastTrick.map((p) => t("bourre.trick.played", { name: seatName(view.seats[p.seat] && view.seats[p.seat].name, p.seat),
        card: cardName(p.card) })).join(SEP))
    : null;
  const trumpSuit = view.trump ? t("bourre.trump", { suit: SUITS[view.trump] }) : "";
  return el("div", { class: "centre" },
    el("div", { class: "pot" }, el("span", { class: "label" }, t("bourre.pot")),
      el("strong", { class: "amount" }, exact(view.pot))),
    view.trumpCard ? el("div", { class: "trump" }, card(view.trumpCard),
      el("span", { class: "label" }, trumpSuit)) : null,
    trick,
    recall,
    el("p", { class: "phase" }, [t("core.hand", { hand: view.hand }), phase(view.phase),
      view.stockCount ? t("bourre.stock", { n: view.stockCount }) : null,
      view.status === "ended" ? (view.endReason ? t("core.table_ended_reason", { reason: endWord(view.endReason) })
        : t("core.table_ended")) : null].filter(Boolean).join(SEP)));
}

// The whole table. options: perspective ("all" | seat), own (the seat drawn in the player's
// panel instead), events (this table's timeline, for the declarations).
export function renderBoard(view, { perspective = "all", own = null, events = [] } = {}) {
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

// --- the player's panel (play page) --------------------------------------------------------

// The command types the panel below offers; the page adds a button for any other.
export const commands = ["declare", "play_card"];

// The seat's hand and its actions. ctx: seat, selected (codes), ui (this page's own state),
// ofType(type) (the legal commands of a type), post(command), toggle(code), render().
export function playPanel(view, ctx) {
  const cards = view.cards || [];
  const plays = new Map(ctx.ofType("play_card").map((c) => [c.card, c]));
  const declares = ctx.ofType("declare");
  const discardable = new Set(declares.flatMap((c) => c.discard || []));
  const handRow = el("div", { class: "cards hand" }, sortHand(cards, view.trump).map((code) => {
    if (plays.has(code)) {
      const button = card(code, { legal: true, onPick: () => ctx.post(plays.get(code)) });
      button.dataset.action = "play_card"; // the command this button issues
      return button;
    }
    if (discardable.has(code)) {
      return card(code, { legal: true, selected: ctx.selected.includes(code), onPick: ctx.toggle,
        label: t("bourre.play.select_discard", { card: cardName(code) }) });
    }
    return card(code);
  }));
  const actions = el("div", { class: "actions" });
  let shortcuts = {};
  if (declares.length) {
    // The legal declare (rules 11–13) that discards exactly the selected cards.
    const matching = (play) => declares.find((c) => c.play === play
      && (!play || (sameCards(c.discard, ctx.selected) && Boolean(c.takeTrump) === Boolean(ctx.ui.takeTrump))));
    const play = matching(true);
    const pass = matching(false);
    if (declares.some((c) => c.takeTrump)) {
      const box = el("input", { type: "checkbox", name: "takeTrump", checked: ctx.ui.takeTrump });
      box.addEventListener("change", () => { ctx.ui.takeTrump = box.checked; ctx.render(); });
      actions.append(el("label", {}, box, " ", t("bourre.play.take_trump")));
    }
    const n = ctx.selected.length;
    actions.append(
      el("button", { type: "button", class: "primary", name: "play", "data-action": "declare", "data-play": "true",
        disabled: !play, onclick: () => ctx.post(play) },
        n ? t("bourre.play.play_discarding", { n }) : t("bourre.play.play_keep")),
      el("button", { type: "button", name: "pass", "data-action": "declare", "data-play": "false",
        disabled: !pass, onclick: () => ctx.post(pass) }, t("bourre.play.pass")));
    shortcuts = { p: () => play && ctx.post(play), s: () => pass && ctx.post(pass) };
  }
  return { row: handRow, actions, shortcuts, keys: t("bourre.play.keys") };
}

// --- events in words, the chart ------------------------------------------------------------

// The events that end a hand (its cards may then be shown), and those of them that add a
// hand to the ledger (the page then reads it again).
export const settles = ["HandSettled"];
export const scores = ["HandSettled"];
// Following live, the watch page holds a finished trick a moment on the table (rules 17–18).
export const holds = ["TrickWon"];

// Seats listed in words: "Ann", "Ann and Bob", "Ann, Bob and Cy" (the language's list).
function seatList(seats, names) {
  return list(seats.map((s) => seatName(names[s], s)));
}

// Why a table ended (view.endReason), in words.
const endWord = (reason) => (has(`log.ended.${reason}`) ? t(`log.ended.${reason}`) : reason);
const chips = (n) => t("bourre.chips", { n: count(n), amount: exact(n) });

// Rule 16's words: everyone else passed, the last player takes the pot without play.

// What the hand's settlement did (rules 23–27), in one line: who took what of which pot.
function settlement(event, names) {
  const pot = exact(event.pot);
  if (event.winner !== null && event.winner !== undefined) {
    const stays = toBig(event.pot) - toBig(event.cap);
    const who = seatName(names[event.winner], event.winner);
    const won = stays > 0n
      ? t("bourre.settle.wins_capped", { who, chips: chips(event.cap), pot, stays: exact(stays) })
      : t("bourre.settle.wins_all", { who, chips: chips(event.cap) });
    return event.solo ? t("bourre.solo.headline", { won }) : won;
  }
  const paid = event.payouts.some((p) => toBig(p) > 0n);
  const tied = seatList(event.tied, names);
  if (event.tied.length && paid) return t("bourre.settle.split", { who: tied, pot });
  if (event.tied.length) return t("bourre.settle.tie_stays", { who: tied, pot });
  return t("bourre.settle.nobody", { pot });
}

// One of Bourré's events in words (domain/bourre/events.py); undefined for the others.
export function describe(event, names = []) {
  const who = event.seat !== undefined && event.seat !== null ? seatName(names[event.seat], event.seat) : "";
  switch (event.type) {
    case "Anted":
      return t(event.reason === "double_ante" ? "bourre.event.Anted_second" : "bourre.event.Anted",
        { who: seatList(event.seats, names), n: event.seats.length, chips: chips(event.amount) });
    case "Dealt":
      return event.trumpCard
        ? t("bourre.event.Dealt_trump", { hand: event.hand, dealer: seatName(names[event.dealer], event.dealer),
          card: cardName(event.trumpCard) })
        : t("bourre.event.Dealt", { hand: event.hand, dealer: seatName(names[event.dealer], event.dealer) });
    case "Declared":
      return "play" in event ? t(event.play ? "bourre.event.Declared_play" : "bourre.event.Declared_pass", { who })
        : t("bourre.event.Declared_sealed", { who });
    case "DecisionsRevealed": {
      const playing = (event.plays || []).map((p, s) => (p ? s : null)).filter((s) => s !== null);
      return playing.length
        ? t("bourre.event.DecisionsRevealed", { who: seatList(playing, names), n: playing.length })
        : t("bourre.event.DecisionsRevealed_none");
    }
    case "Reshuffled": return t("bourre.event.Reshuffled");
    case "Discarded": {
      const n = event.discarded ? event.discarded.length : event.discardCount;
      const drawn = event.drawn ? event.drawn.length : event.drawnCount;
      const took = Boolean(event.tookTrump);
      return n ? t(took ? "bourre.event.Discarded_trump" : "bourre.event.Discarded", { who, n, drawn })
        : t(took ? "bourre.event.Discarded_none_trump" : "bourre.event.Discarded_none", { who });
    }
    case "SecondChanceDeclared":
      return t(event.play ? "bourre.event.SecondChanceDeclared_stay" : "bourre.event.SecondChanceDeclared_pass", { who });
    case "CardPlayed": return t("bourre.event.CardPlayed", { who, card: cardName(event.card) });
    case "TrickWon": return t("bourre.event.TrickWon", { who, trick: event.trick, card: cardName(event.card) });
    case "HandSettled": {
      const settled = settlement(event, names);
      return event.bourre.length
        ? t("bourre.event.HandSettled_bourre", { hand: event.hand, settlement: settled,
          who: seatList(event.bourre, names), n: event.bourre.length, chips: chips(event.bourrePayment) })
        : t("bourre.event.HandSettled", { hand: event.hand, settlement: settled });
    }
    case "CloseRequested": return t("bourre.event.CloseRequested", { who });
    default: return undefined;
  }
}

// --- a hand's result and the table's standings (result.js draws the panel) ----------------

// Hand `event.hand`'s result (HandSettled, rules 23–27): who won the pot and how much, who was
// bourré and what they owe, the tricks, and the next pot (carried + bourré payments, before
// the next antes). Each figure carries a data- attribute the tests compare with the ledger.
export function handResult(event, { names = [] } = {}) {
  if (event.type !== "HandSettled") return null;
  const next = toBig(event.carried) + toBig(event.bourrePayment) * BigInt(event.bourre.length);
  const rows = event.tricks.map((tricks, seat) => {
    const won = toBig(event.payouts[seat] || 0);
    const bourre = event.bourre.includes(seat);
    const outcome = won > 0n ? t("bourre.result.wins", { chips: chips(won) })
      : bourre ? t("bourre.result.owes", { chips: chips(event.bourrePayment) })
      : event.tied.includes(seat) ? t("bourre.result.tied") : "";
    return el("tr", { "data-player": seat, "data-payout": won.toString(),
      "data-owes": bourre ? toBig(event.bourrePayment).toString() : "0" },
    el("th", { scope: "row" }, seatName(names[seat], seat)),
    // rule 16 (solo): no trick was played — the winner is deemed to take all five
    event.solo ? el("td", {}, seat === event.winner ? t("bourre.solo.tricks") : t("bourre.solo.passed"))
      : el("td", { class: "num" }, exact(tricks)),
    el("td", {}, outcome));
  });
  return el("div", { class: "hand-result bourre" },
    el("p", { class: "headline", "data-pot": toBig(event.pot).toString(),
      "data-winner": event.winner ?? "" }, t("bourre.result.headline", { hand: event.hand, settlement: settlement(event, names) })),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("bourre.result.player")),
      el("th", { scope: "col" }, t("bourre.result.tricks")), el("th", { scope: "col" }, t("bourre.result.result")))),
    el("tbody", {}, rows)),
    event.bourre.length ? el("p", { class: "bourre-line" }, t("bourre.result.bourre_line",
      { who: seatList(event.bourre, names), n: event.bourre.length, chips: chips(event.bourrePayment) })) : null,
    el("p", { class: "next-pot", "data-next-pot": next.toString() }, next > 0n
      ? t("bourre.result.next_pot", { pot: exact(next), carried: exact(event.carried),
        bourre: exact(next - toBig(event.carried)) })
      : t("bourre.result.nothing_carries")));
}

// Each player's net chips after the events (the ledger's players[].net): antes paid, pots
// won, bourré payments (rules 27–28).
function nets(events, count) {
  const totals = Array.from({ length: count }, () => 0n);
  for (const event of events) {
    if (event.type === "Anted") for (const seat of event.seats) totals[seat] -= toBig(event.amount);
    if (event.type === "HandSettled") {
      event.payouts.forEach((paid, seat) => { totals[seat] += toBig(paid); });
      for (const seat of event.bourre) totals[seat] -= toBig(event.bourrePayment);
    }
  }
  return totals;
}

// The standings after `events` (a table's end: its final standings): each player's net chips,
// best first.
export function standings(events, { names = [] } = {}) {
  const totals = nets(events, names.length);
  return totals.map((net, seat) => ({ seat, name: seatName(names[seat], seat), value: net,
    shown: t("bourre.chips", { n: count(net < 0n ? -net : net), amount: signed(net) }) })).sort((a, b) => (b.value > a.value ? 1 : b.value < a.value ? -1 : a.seat - b.seat));
}

// Each player's net after every settled hand, for the chart. Chips move only by the antes
// (Anted: amount from each of seats, rules 2, 30, 33) and the settlement (HandSettled:
// payouts, and bourrePayment from each bourré seat, rules 23–25), exactly as the ledger sums them.
export function chartSeries(ledger, events) {
  const nets = ledger.players.map(() => 0n);
  const points = [];
  for (const event of events) {
    if (event.type === "Anted") {
      for (const seat of event.seats) nets[seat] -= toBig(event.amount);
    } else if (event.type === "HandSettled") {
      event.payouts.forEach((paid, seat) => { nets[seat] += toBig(paid); });
      for (const seat of event.bourre) nets[seat] -= toBig(event.bourrePayment);
      points.push({ hand: event.hand, values: [...nets] });
    }
  }
  return {
    title: t("bourre.chart.title"),
    signedValues: true,
    units: t("bourre.chart.units"),
    labels: [startLabel(), ...points.map((p) => handLabel(p.hand))],
    series: ledger.players.map((p, i) => ({
      name: seatName(p.name, p.seat),
      values: [0n, ...points.map((pt) => pt.values[i])],
      now: p.net, // the ledger's net, exact
    })),
  };
}
