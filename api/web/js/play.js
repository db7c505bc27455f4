// /play/{tableId}: take a seat (a name), then the table as that seat sees it. The seat's
// token stays in sessionStorage, so a reload resumes the seat. Your hand is sorted; the cards
// of the legal commands (GET /legal) are highlighted and clickable (data-legal="true"), the
// others are not. Bourré: declare play (with the selected discards) or pass, then play a card.
// Burraco: draw or take the pile, meld the selected cards, add them to a meld, discard one.
// A refusal is shown in words (problem details). Keyboard: Tab/←/→ move between cards,
// Enter or Space picks one; p play, s pass, d draw, t take the pile, m meld, x discard.

import * as api from "./api.js";
import { card, sortHand } from "./cards.js";
import { el, notice, seatName } from "./format.js";
import { GAME_NAMES, ledgerChart, renderBoard, tableIdFromPath } from "./table.js";

const id = tableIdFromPath();
const app = document.getElementById("app");
const KEY = `cardroom:seat:${id}`;
let seat = JSON.parse(sessionStorage.getItem(KEY) || "null");
const state = { view: null, legal: [], events: [], selected: [], takeTrump: false, busy: false };
const board = el("div", { class: "board-box" });
const hand = el("section", { class: "hand-panel", "aria-label": "your hand" });
const chartBox = el("section", { class: "chart-section" });
let stopStream = null;
let refreshTimer = null;
let shortcuts = {};

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
const ofType = (type) => state.legal.filter((c) => c.type === type);

// --- taking a seat ---------------------------------------------------------------------

async function seatForm() {
  let view;
  try {
    view = await api.view(id);
  } catch (problem) {
    app.replaceChildren(el("h1", {}, "Table not available"), el("p", { class: "notice error" }, api.words(problem)));
    return;
  }
  const open = view.seats.filter((s) => !s.name).map((s) => s.seat);
  const name = el("input", { name: "name", required: true, maxlength: 40, autocomplete: "nickname", "aria-label": "your name" });
  const choice = el("select", { name: "seat", "aria-label": "seat" },
    el("option", { value: "" }, "first free seat"), open.map((s) => el("option", { value: s }, `seat ${s}`)));
  const form = el("form", { class: "seat-form" },
    el("label", {}, "Your name ", name), el("label", {}, "Seat ", choice),
    el("button", { type: "submit", class: "primary" }, "take a seat"));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const taken = await api.takeSeat(id, name.value.trim(), choice.value === "" ? undefined : Number(choice.value));
      seat = { seat: taken.seat, token: taken.token, name: name.value.trim() };
      sessionStorage.setItem(KEY, JSON.stringify(seat));
      start();
    } catch (problem) {
      notice(app, api.words(problem));
    }
  });
  board.replaceChildren(renderBoard(view, {}));
  app.replaceChildren(el("div", { class: "page play" },
    el("h1", {}, `${GAME_NAMES[view.game]} table — take a seat`),
    open.length ? form : el("p", { class: "notice info" }, "Every seat is taken. ", el("a", { href: `/watch/${id}` }, "Watch instead.")),
    board));
  if (open.length) name.focus();
}

// --- the seat's table ------------------------------------------------------------------

async function post(body) {
  if (state.busy) return;
  state.busy = true;
  app.setAttribute("aria-busy", "true"); // until the answer and the table after it are shown
  try {
    const accepted = await api.command(id, seat.token, body);
    state.selected = [];
    await refresh(accepted.position);
  } catch (problem) {
    notice(app, api.words(problem));
  } finally {
    state.busy = false;
    app.removeAttribute("aria-busy");
  }
}

function toggle(code) {
  const at = state.selected.indexOf(code);
  if (at >= 0) state.selected.splice(at, 1);
  else state.selected.push(code);
  render(code);
}

// The legal declare (Bourré rules 11–13) that discards exactly the selected cards.
function declareMatching(play) {
  return ofType("declare").find((c) => c.play === play
    && (!play || (sameCards(c.discard, state.selected) && Boolean(c.takeTrump) === state.takeTrump)));
}

// The hint-carrying legal command for the selection, or a plain one the server will judge
// (a meld the legal list does not spell out is still tried; a refusal comes back in words).
function meldCommand() {
  return ofType("meld").find((c) => sameCards(c.cards, state.selected))
    || { type: "meld", cards: [...state.selected] };
}
function addCommand(meld) {
  return ofType("add_to_meld").find((c) => c.meld === meld.id && sameCards(c.cards, state.selected))
    || { type: "add_to_meld", meld: meld.id, cards: [...state.selected] };
}

function bourreHand(view) {
  const cards = view.cards || [];
  const plays = new Map(ofType("play_card").map((c) => [c.card, c]));
  const discardable = new Set(ofType("declare").flatMap((c) => c.discard || []));
  const row = el("div", { class: "cards hand" }, sortHand(cards, view.trump).map((code) => {
    if (plays.has(code)) return card(code, { legal: true, onPick: () => post(plays.get(code)) });
    if (discardable.has(code)) {
      return card(code, { legal: true, selected: state.selected.includes(code), onPick: toggle,
        label: `${code}: select to discard` });
    }
    return card(code);
  }));
  const actions = el("div", { class: "actions" });
  if (ofType("declare").length) {
    const play = declareMatching(true);
    const pass = declareMatching(false);
    if (ofType("declare").some((c) => c.takeTrump)) {
      const box = el("input", { type: "checkbox", name: "takeTrump", checked: state.takeTrump });
      box.addEventListener("change", () => { state.takeTrump = box.checked; render(); });
      actions.append(el("label", {}, box, " take the trump card (rule 32)"));
    }
    const n = state.selected.length;
    actions.append(
      el("button", { type: "button", class: "primary", name: "play", disabled: !play, onclick: () => post(play) },
        n ? `play, discarding ${n} (p)` : "play, keep my cards (p)"),
      el("button", { type: "button", name: "pass", disabled: !pass, onclick: () => post(pass) }, "pass (s)"));
    shortcuts = { p: () => play && post(play), s: () => pass && post(pass) };
  } else {
    shortcuts = {};
  }
  return [row, actions];
}

function burracoHand(view) {
  const own = view.seats[seat.seat] || {};
  const cards = own.cards || [];
  const discards = new Map(ofType("discard").map((c) => [c.card, c]));
  const melding = new Set(ofType("meld").flatMap((c) => c.cards)
    .concat(ofType("add_to_meld").flatMap((c) => c.cards)));
  const playing = discards.size > 0; // rule 12: after drawing, meld and discard
  const row = el("div", { class: "cards hand" }, sortHand(cards).map((code) => {
    if (playing && (discards.has(code) || melding.has(code))) {
      return card(code, { legal: true, selected: state.selected.includes(code), onPick: toggle });
    }
    return card(code);
  }));
  const single = state.selected.length === 1 ? discards.get(state.selected[0]) : null;
  const draw = ofType("draw")[0];
  const pile = ofType("take_pile")[0];
  const meld = () => state.selected.length && post(meldCommand());
  const actions = el("div", { class: "actions" },
    el("button", { type: "button", name: "draw", disabled: !draw, onclick: () => post(draw) }, "draw from the stock (d)"),
    el("button", { type: "button", name: "take_pile", disabled: !pile, onclick: () => post(pile) }, "take the pile (t)"),
    el("button", { type: "button", name: "meld", disabled: !playing || !state.selected.length, onclick: meld },
      `meld ${state.selected.length || ""} selected (m)`),
    el("button", { type: "button", name: "discard", class: "primary", disabled: !single, onclick: () => post(single) },
      single ? `discard ${single.card} (x)` : "discard: select one card (x)"));
  shortcuts = { d: () => draw && post(draw), t: () => pile && post(pile), m: meld, x: () => single && post(single) };
  return [row, actions];
}

// Legal commands the buttons above do not cover (e.g. rule 33's second chance), one button each.
function otherCommands() {
  const known = new Set(["declare", "play_card", "draw", "take_pile", "meld", "add_to_meld", "discard"]);
  return state.legal.filter((c) => !known.has(c.type)).map((c) => el("button", { type: "button",
    onclick: () => post(c) }, Object.entries(c).map(([k, v]) => (k === "type" ? v : `${k}: ${v}`)).join(" · ")));
}

// The letter shortcuts each game's hand sets (bourreHand's and burracoHand's ``shortcuts``).
const GAME_KEYS = { bourre: "p play, s pass", burraco: "d draw, t pile, m meld, x discard" };

function render(focusCode) {
  const view = state.view;
  // A keyboard player keeps their place in the hand when the table updates under them.
  const active = document.activeElement;
  const focused = active && hand.contains(active) ? active.dataset.card : undefined;
  const me = view.seats[seat.seat] || {};
  board.replaceChildren(renderBoard(view, { own: seat.seat, events: state.events,
    onMeld: view.game === "burraco" && state.selected.length && ofType("discard").length
      ? (meld) => post(addCommand(meld)) : undefined }));
  const [row, actions] = view.game === "burraco" ? burracoHand(view) : bourreHand(view);
  actions.append(...otherCommands());
  const turn = view.toAct.includes(seat.seat) ? "your turn" : view.status === "waiting"
    ? "waiting for players" : view.status === "ended" ? "the table has ended" : "waiting for the others";
  hand.replaceChildren(el("h2", {}, `Your hand — ${seatName(me.name, seat.seat)}, seat ${seat.seat} · ${turn}`),
    row, actions, el("p", { class: "keys" }, `Keys: Tab or ←/→ between cards, Enter picks; ${GAME_KEYS[view.game]}.`));
  const keep = focusCode || focused;
  if (keep) {
    const again = hand.querySelector(`button[data-card="${keep}"]`);
    if (again) again.focus();
  }
}

// The seat's view as of the latest event the stream brought: the view comes from the read
// models, which may trail the event store by a moment, so a view older than that is read
// again (for up to 10 s, polling) before the legal commands are matched with it.
async function freshView(after) {
  const wanted = state.events.length ? state.events[state.events.length - 1].version : 0;
  let view = await api.view(id, seat.token, after);
  for (let tries = 0; view.version < wanted && tries < 100; tries += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    view = await api.view(id, seat.token);
  }
  return view;
}

async function refresh(after) {
  try {
    const view = await freshView(after);
    const legal = await api.legal(id, seat.token);
    state.view = view;
    state.legal = legal;
    render();
  } catch (problem) {
    if (problem.status === 401) { // the token is no longer valid here: take a seat again
      sessionStorage.removeItem(KEY);
      seat = null;
      if (stopStream) stopStream();
      seatForm();
      return;
    }
    notice(app, api.words(problem));
  }
}

async function refreshChart() {
  try {
    chartBox.replaceChildren(await ledgerChart(id, state.view.game, state.events));
  } catch (problem) {
    chartBox.replaceChildren(el("p", { class: "muted" }, api.words(problem)));
  }
}

function onEvent(event) {
  const last = state.events.length ? state.events[state.events.length - 1].version : 0;
  if (event.version > last) state.events.push(event);
  if (["HandSettled", "HandScored", "TableEnded"].includes(event.type)) refreshChart();
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh(), 60); // a burst of events costs one refresh
}

async function start() {
  app.replaceChildren(el("div", { class: "page play" },
    el("h1", {}, "Table ", el("small", { class: "muted" }, id.slice(0, 8)), " ",
      el("a", { href: `/watch/${id}`, class: "button" }, "watch / replay")),
    board, hand, chartBox));
  try {
    state.events = await api.timeline(id, seat.token);
  } catch (problem) {
    if (problem.status !== 401) notice(app, api.words(problem));
  }
  await refresh();
  if (!seat) return;
  const h1 = app.querySelector("h1");
  h1.firstChild.textContent = `${GAME_NAMES[state.view.game]} table `;
  refreshChart();
  const last = state.events.length ? state.events[state.events.length - 1].version : 0;
  if (state.view.status !== "ended") stopStream = api.stream(id, seat.token, onEvent, { after: last });
}

document.addEventListener("keydown", (event) => {
  if (!seat || event.target.closest("input, select, textarea")) return;
  const cards = [...hand.querySelectorAll("button.card")];
  const at = cards.indexOf(document.activeElement);
  if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && cards.length) {
    event.preventDefault();
    const step = event.key === "ArrowRight" ? 1 : -1;
    cards[(at + step + cards.length) % cards.length].focus();
    return;
  }
  const action = shortcuts[event.key];
  if (action && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); action(); }
});

if (seat) start();
else seatForm();
