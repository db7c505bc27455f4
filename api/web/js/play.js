// /play/{tableId}: take a seat (a name), then the table as that seat sees it. The seat's
// token stays in localStorage (seats.js), so a reload, a new tab or a closed browser resumes the seat. Your hand is sorted; the cards
// of the legal commands (GET /legal) are highlighted and clickable (data-legal="true"), the
// others are not. The hand and its buttons are the game's (its board module's playPanel,
// table.js); a legal command the panel does not offer gets a button of its own. A refusal is
// shown in words (problem details). Keyboard: Tab/←/→ move between cards, Enter or Space
// picks one; the game's letter shortcuts are named under the hand.
// While the table waits for players, each empty seat has an "add a bot" button. When it is the
// seat's turn the document title says so and the turn clock is shown large beside the hand;
// a refusal is shown beside the actions (role=alert) until the next accepted command.

import * as api from "./api.js";
import { card, sortHand } from "./cards.js";
import { countdown } from "./countdown.js";
import { el, notice, seatName } from "./format.js";
import { dir, SEP, t, tFirst } from "./i18n.js";
import * as held from "./seats.js";
import { eventLog } from "./log.js";
import { me as signedIn, mySeat, namedNow, peopleAt, rateSeats } from "./people.js";
import { resultPanel, tableResult } from "./result.js";
import { gameOf, ledgerChart, settling, tableIdFromPath, words } from "./table.js";

const id = tableIdFromPath();
const app = document.getElementById("app");
let seat = held.load(id);
const TITLE = document.title;
// ui: the game panel's own state (kept across renders); game: the table's game (table.js)
const state = { view: null, legal: [], events: [], selected: [], ui: {}, busy: false, game: null, people: [] };
const board = el("div", { class: "board-box" });
const hand = el("section", { class: "hand-panel", "aria-label": t("play.hand_label") });
const refusal = el("p", { class: "refusal notice error", role: "alert", hidden: true });
const waitingBox = el("section", { class: "waiting-seats" });
const tableBar = el("span", { class: "table-actions" });
const chartBox = el("section", { class: "chart-section" });
let stopStream = null;
let refreshTimer = null;
let shortcuts = {};

// --- the log and result panels beside the table (log.js, result.js) ---------------------
// One function mounts them and one draws them, so the page's layout stays the page's own.
const log = eventLog();
const results = el("div", { class: "result-box" });

function storyPanels() {
  return el("aside", { class: "side-column" }, results, log.element);
}

function drawStory(view) {
  const names = view.seats.map((s) => s.name);
  const upto = Math.max(view.version, state.events.length ? state.events[state.events.length - 1].version : 0);
  log.update(state.game, state.events, names, upto);
  const told = resultPanel(state.game, state.events, upto, { names, view, tableId: id, final: false });
  results.replaceChildren(...(told ? [told] : []));
}

const ofType = (type) => state.legal.filter((c) => c.type === type);

// --- taking a seat ---------------------------------------------------------------------

async function seatForm() {
  let view;
  try {
    view = await api.view(id);
  } catch (problem) {
    app.replaceChildren(el("h1", {}, t("play.not_available")), el("p", { class: "notice error" }, api.words(problem)));
    return;
  }
  state.game = await gameOf(view.game);
  const open = view.seats.filter((s) => !s.name).map((s) => s.seat);
  const who = await signedIn(); // signed in: the seat is the account's, under its name (issue 22)
  const name = el("input", { name: "name", required: true, maxlength: 40, autocomplete: "nickname",
    "aria-label": t("play.seat_form.name_label"), value: who ? who.name : held.lastName(), readonly: Boolean(who) });
  const choice = el("select", { name: "seat", "aria-label": t("play.seat_form.seat_label") },
    el("option", { value: "" }, t("play.seat_form.first_free")),
    open.map((s) => el("option", { value: s }, t("core.seat", { seat: s }))));
  const form = el("form", { class: "seat-form" },
    el("label", {}, t("play.seat_form.name"), " ", name), el("label", {}, t("play.seat_form.seat"), " ", choice),
    el("button", { type: "submit", class: "primary" }, t("play.seat_form.take")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      const taken = await api.takeSeat(id, who ? undefined : name.value.trim(), choice.value === "" ? undefined : Number(choice.value));
      seat = { seat: taken.seat, token: taken.token, name: name.value.trim(), game: view.game, account: Boolean(who) };
      held.save(id, seat);
      start();
    } catch (problem) {
      notice(app, api.words(problem));
    }
  });
  board.replaceChildren(state.game.module.renderBoard(view, {}));
  app.replaceChildren(el("div", { class: "page play" },
    el("h1", {}, t("play.seat_form.title", { game: state.game.title })),
    open.length ? form : el("p", { class: "notice info" }, t("play.seat_form.full"), " ",
      el("a", { href: `/watch/${id}` }, t("play.seat_form.watch_instead"))),
    waitingBox, board));
  addBotButtons(view);
  if (open.length) name.focus();
}

// --- the seat's table ------------------------------------------------------------------

async function post(body) {
  if (state.busy) return;
  state.busy = true;
  app.setAttribute("aria-busy", "true"); // until the answer and the table after it are shown
  try {
    const accepted = await api.command(id, seat.token, body);
    refuse("");
    state.selected = [];
    await refresh(accepted.position);
  } catch (problem) {
    refuse(api.words(problem));
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

// The game's hand and buttons (its module's playPanel), or the bare hand for a game without.
function panel(view) {
  const module = state.game.module;
  if (module.playPanel) {
    return module.playPanel(view, { seat: seat.seat, selected: state.selected, ui: state.ui, ofType,
      post, toggle, render: () => render() });
  }
  const own = view.seats[seat.seat] || {};
  return { row: el("div", { class: "cards hand" }, sortHand(own.cards || view.cards || []).map((c) => card(c))),
    actions: el("div", { class: "actions" }), shortcuts: {}, keys: "" };
}

// Legal commands the game's panel does not offer (e.g. a second chance to pass), one button each.
function otherCommands() {
  const known = new Set(state.game.module.playPanel ? state.game.module.commands || [] : []);
  const game = state.game.name;
  // a command's words: <game>.command.<type> (or the table's play.command.<type>), each field
  // as <game>.command.<type>.<field>.<value> when the game words it, else "field: value"
  const word = (type) => tFirst([`${game}.command.${type}`, `play.command.${type}`], {}, words(type));
  const field = (type, k, v) => tFirst([`${game}.command.${type}.${k}.${v}`], {}, `${k}: ${v}`);
  return state.legal.filter((c) => !known.has(c.type)).map((c) => el("button", { type: "button",
    "data-action": c.type, onclick: () => post(c) },
  Object.entries(c).map(([k, v]) => (k === "type" ? word(v) : field(c.type, k, v))).join(SEP)));
}

function render(focusCode) {
  const view = namedNow(state.view, state.people); // accounts under their names now (people.js)
  // A keyboard player keeps their place in the hand when the table updates under them.
  const active = document.activeElement;
  const focused = active && hand.contains(active) ? active.dataset.card : undefined;
  const me = view.seats[seat.seat] || {};
  if (view.status === "ended") { endedPanel(view); return; }
  const { row, actions, shortcuts: keys, keys: hint, board: extra } = panel(view);
  shortcuts = keys || {};
  board.replaceChildren(state.game.module.renderBoard(view, { own: seat.seat, events: state.events,
    ...(extra || {}) }));
  rateSeats(board, state.people, view);
  drawStory(view);
  actions.append(...otherCommands());
  const mine = view.toAct.includes(seat.seat);
  const turn = mine ? t("play.turn.mine") : view.status === "waiting"
    ? t("play.turn.waiting") : view.status === "ended" ? t("play.turn.ended") : t("play.turn.others");
  turnSignals(view, mine);
  hand.classList.toggle("my-turn", mine);
  hand.replaceChildren(el("h2", {}, t("play.hand_title", { name: seatName(me.name, seat.seat), seat: seat.seat }), SEP,
    el("span", { class: mine ? "turn mine" : "turn" }, turn), mine ? bigClock(view) : null),
  ...[el("div", { "data-my-hand": seat.seat }, row), actions, refusal.textContent ? refusal : null,
    el("p", { class: "keys" }, hint ? t("play.keys_more", { more: hint }) : t("play.keys"))]
    .filter(Boolean));
  addBotButtons(view);
  tableActions(view);
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
    state.game = await gameOf(view.game);
    state.view = view;
    state.legal = legal;
    render();
  } catch (problem) {
    if (problem.status === 401) { // the token is no longer valid here: take a seat again
      held.forget(id);
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
    chartBox.replaceChildren(await ledgerChart(id, state.game, state.events));
  } catch (problem) {
    chartBox.replaceChildren(el("p", { class: "muted" }, api.words(problem)));
  }
}

function onEvent(event) {
  const last = state.events.length ? state.events[state.events.length - 1].version : 0;
  if (event.version > last) state.events.push(event);
  if ([...settling(state.game), "TableEnded"].includes(event.type)) refreshChart();
  if (["PlayerSeated", "SeatLeft"].includes(event.type)) lookPeople();
  if (settling(state.game).includes(event.type)) lookPeople(true);
  clearTimeout(refreshTimer);
  refreshTimer = setTimeout(() => refresh(), 60); // a burst of events costs one refresh
}

async function start() {
  app.replaceChildren(el("div", { class: "page play" },
    el("h1", {}, t("play.table"), " ", el("small", { class: "muted" }, id.slice(0, 8)), " ",
      el("a", { href: `/watch/${id}`, class: "button" }, t("play.watch_replay")), tableBar),
    waitingBox,
    el("div", { class: "table-and-log" }, el("div", { class: "table-column" }, board, hand), storyPanels()),
    chartBox));
  try {
    state.events = await api.timeline(id, seat.token);
  } catch (problem) {
    if (problem.status !== 401) notice(app, api.words(problem));
  }
  await refresh();
  if (!seat || !state.view) return;
  const h1 = app.querySelector("h1");
  h1.firstChild.textContent = t("play.game_table", { game: state.game.title });
  refreshChart();
  lookPeople();
  const last = state.events.length ? state.events[state.events.length - 1].version : 0;
  if (state.view.status !== "ended") stopStream = api.stream(id, seat.token, onEvent, { after: last });
}

document.addEventListener("keydown", (event) => {
  if (!seat || event.target.closest("input, select, textarea")) return;
  const cards = [...hand.querySelectorAll("button.card")];
  const at = cards.indexOf(document.activeElement);
  if ((event.key === "ArrowRight" || event.key === "ArrowLeft") && cards.length) {
    event.preventDefault();
    // the hand runs right to left in a right-to-left page: → then goes back
    const step = (event.key === "ArrowRight") === (dir !== "rtl") ? 1 : -1;
    cards[(at + step + cards.length) % cards.length].focus();
    return;
  }
  const action = shortcuts[event.key];
  if (action && !event.ctrlKey && !event.metaKey && !event.altKey) { event.preventDefault(); action(); }
});

// The people seated as their accounts are now: names, ratings (issue 22); drawn once known.
async function lookPeople(again = false) {
  state.people = await peopleAt(state.events, state.game.name, again);
  if (state.view) render();
}

// --- the seat's turn, refusals, bots for empty seats (issue 21) ---------------------------------

// The title says when it is the seat's turn (a background tab shows it too).
function turnSignals(view, mine) {
  document.title = mine ? t("play.title_your_turn") : TITLE;
}

// The turn clock, large, beside the hand while it runs for this seat.
function bigClock(view) {
  const clock = countdown(view);
  if (clock) clock.classList.add("big");
  return clock;
}

// A refusal beside the actions, in words; "" clears it (the next accepted command). The alert
// is on the page only while it says something.
function refuse(text) {
  refusal.textContent = text;
  refusal.hidden = !text;
  if (!text) refusal.remove();
  else if (!refusal.isConnected) hand.querySelector(".actions")?.after(refusal);
}

// While the table waits for players: an "add a bot" button for each empty seat.
let botKinds = null;
async function addBotButtons(view) {
  if (view.status !== "waiting") { waitingBox.replaceChildren(); return; }
  if (!botKinds) botKinds = api.bots().catch(() => ({}));
  const kinds = Object.keys((await botKinds)[view.game] || {});
  if (!kinds.length) return;
  const kind = el("select", { name: "bot", "aria-label": t("play.bots.kind") },
    kinds.map((k) => el("option", { value: k, selected: k === "basic",
      title: tFirst([`${view.game}.bot.${k}`], {}, "") || undefined }, tFirst([`bots.kind.${k}`], {}, k))));
  const empty = view.seats.filter((s) => !s.name);
  waitingBox.replaceChildren(el("h2", {}, t("play.bots.title")),
    el("p", { class: "bot-row" }, el("label", {}, t("play.bots.kind"), " ", kind), empty.map((s) =>
      el("button", { type: "button", "data-add-bot": s.seat, onclick: async (event) => {
        event.target.disabled = true;
        try {
          await api.addBot(id, kind.value, s.seat);
        } catch (problem) {
          notice(app, api.words(problem));
        }
        if (seat) refresh(); // seated: the stream brings the bot's seat too
        else seatForm();
      } }, t("play.bots.add", { seat: s.seat })))));
}

// --- leave and rematch (issue 21) ----------------------------------------------------------

// An ended table: where the hand was, the final result (why it ended, the standings) and the
// rematch; no hand, no keys (nothing is left to play). The board stays as it ended.
function endedPanel(view) {
  const me = view.seats[seat.seat] || {};
  const names = view.seats.map((s) => s.name);
  board.replaceChildren(state.game.module.renderBoard(view, { own: seat.seat, events: state.events }));
  rateSeats(board, state.people, view);
  drawStory(view);
  turnSignals(view, false);
  shortcuts = {};
  hand.classList.remove("my-turn");
  hand.classList.add("ended");
  const ended = state.events.find((e) => e.type === "TableEnded");
  hand.replaceChildren(...[ended ? tableResult(state.game, state.events, ended, { names, view })
    : el("h2", {}, t("result.table_title")),
  el("p", { class: "actions" },
    el("button", { type: "button", class: "primary", "data-rematch": "", onclick: rematch },
      t("play.rematch_again", { name: seatName(me.name, seat.seat), seat: seat.seat })),
    " ", el("a", { href: `/watch/${id}`, class: "button" }, t("play.replay_table"))),
  refusal.textContent ? refusal : null].filter(Boolean));
  tableBar.replaceChildren();
}

// "leave": a bot plays the seat from now on (a waiting table frees it); the page then
// watches. "rematch" on an ended table (endedPanel): a new table with the same options and
// seats.
function tableActions(view) {
  const buttons = [];
  if (view.status !== "ended") {
    buttons.push(el("button", { type: "button", "data-leave": "", title: view.status === "waiting"
      ? t("play.leave.waiting_title") : t("play.leave.playing_title"), onclick: leave },
    view.status === "waiting" ? t("play.leave.waiting") : t("play.leave.playing")));
  }
  tableBar.replaceChildren(...buttons);
}

async function leave(event) {
  event.target.disabled = true;
  try {
    await api.command(id, seat.token, { type: "leave_seat" });
  } catch (problem) {
    event.target.disabled = false;
    refuse(api.words(problem));
    return;
  }
  held.forget(id);
  if (stopStream) stopStream();
  location.href = `/watch/${id}`;
}

// Who held each seat when the table ended: a bot's kind, or null for a person (a seat its
// person left is a bot's).
function holders(events, seats) {
  const kinds = new Array(seats).fill(null);
  for (const event of events) {
    if (event.type === "PlayerSeated" || event.type === "SeatLeft") kinds[event.seat] = event.bot || null;
  }
  return kinds;
}

async function rematch(event) {
  event.target.disabled = true;
  try {
    const view = state.view;
    const created = await api.createTable({ game: view.game, options: view.options });
    const taken = await api.takeSeat(created.tableId, seat.account ? undefined : seat.name || state.view.seats[seat.seat].name, seat.seat);
    held.save(created.tableId, { seat: taken.seat, token: taken.token, name: seat.name, game: view.game, account: seat.account });
    const kinds = holders(state.events, view.seats.length);
    for (const [at, kind] of kinds.entries()) {
      if (kind && at !== seat.seat) await api.addBot(created.tableId, kind, at);
    }
    location.href = `/play/${created.tableId}`;
  } catch (problem) {
    event.target.disabled = false;
    refuse(api.words(problem));
  }
}

// No seat kept here: a signed-in account's seat at this table (taken on another device)
// comes from the session; otherwise the seat form.
async function resume() {
  const found = await mySeat(id);
  if (found) {
    seat = { seat: found.seat, token: found.token, name: found.name, account: true };
    held.save(id, seat);
    start();
  } else {
    seatForm();
  }
}

if (seat) start();
else resume();
