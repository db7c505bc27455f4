// /watch/{tableId}: the spectator's table, live over the SSE stream (held spectator_delay
// events behind by the server), and its replay on the same page. Every position shown —
// live or replayed — is exactly GET /tables/{id}/replay?at=N as a spectator sees it; the URL
// keeps the position (?at=N). After a hand settles (option reveal: after_hand) the replay
// holds every seat's cards, and the perspective switch shows any one seat's hand.

import * as api from "./api.js";
import { el, notice, seatName } from "./format.js";
import { t } from "./i18n.js";
import { eventLog } from "./log.js";
import { namedNow, peopleAt, rateSeats } from "./people.js";
import { replayControls } from "./replay.js";
import { resultPanel } from "./result.js";
import * as seats from "./seats.js";
import { gameOf, handStarts, ledgerChart, settling, tableIdFromPath } from "./table.js";

const id = tableIdFromPath();
const app = document.getElementById("app");
const state = { events: [], head: 1, at: null, ended: false, view: null, perspective: "all", game: null,
  hold: null, holdNote: "" };
// Following live, a settled hand stays on screen this long with its cards revealed (option
// reveal: after_hand) before the next deal replaces it.
const HOLD_MS = 4000;
// ... and a moment the game's board module names (e.g. a finished trick) this long.
const MOMENT_MS = 1500;
let shownSeq = 0;
let fetching = false;
let again = false;

const board = el("div", { class: "board-box" });
const perspective = el("select", { name: "perspective", "aria-label": t("watch.perspective_label") });
const chartBox = el("section", { class: "chart-section" });
const results = el("div", { class: "result-box" });
const seek = (n) => { state.at = n >= state.head && !state.ended ? null : n; state.hold = null; show(); };
// "Play from here" (design §9.3): a fork at the version on screen, playing the seat whose
// hand is shown (else the seat to act), with this browser's token when it holds that seat.
const forkButton = el("button", { type: "button", class: "button", "data-fork": "" }, t("watch.play_from_here"));
forkButton.addEventListener("click", playFromHere);

async function playFromHere() {
  const view = state.view;
  if (!view) return;
  const acting = view.toAct && view.toAct.length ? view.toAct[0] : 0;
  const seat = typeof state.perspective === "number" ? state.perspective : acting;
  const held = seats.load(id);
  const token = held && held.seat === seat ? held.token : null;
  forkButton.disabled = true;
  try {
    const forked = await api.fork(id, token, { at: view.version, seat });
    const name = view.seats[seat] ? view.seats[seat].name : "";
    seats.save(forked.tableId, { seat, token: forked.token, name, game: view.game });
    location.assign(`/play/${forked.tableId}`);
  } catch (problem) {
    notice(app, api.words(problem));
    forkButton.disabled = false;
  }
}

const controls = replayControls({
  seek,
  live: () => { state.at = null; state.hold = null; show(); },
});
const log = eventLog({ seek });
let chartKey = "";
const statusBox = el("span", { class: "status-box" });
let statusShown = null;

// "n watching": the open spectators' streams of the table (this page's own among them), read
// again when the stream opens, when it delivers (at most once every WATCHING_GAP_MS: a burst
// of events costs one read) and every WATCHING_MS; one request at a time.
const WATCHING_MS = 15000;
const WATCHING_GAP_MS = 2000;
const watching = el("span", { class: "watching muted", "data-watching": "" });
let watchingAsked = false;
let watchingAgain = false;
let watchingLast = 0;
let watchingLater = null;

function soonWatching() {
  const wait = watchingLast + WATCHING_GAP_MS - Date.now();
  if (wait <= 0) refreshWatching();
  else if (watchingLater === null) {
    watchingLater = setTimeout(() => { watchingLater = null; refreshWatching(); }, wait);
  }
}

async function refreshWatching() {
  if (watchingAsked) { watchingAgain = true; return; }
  watchingAsked = true;
  try {
    do {
      watchingAgain = false;
      watchingLast = Date.now();
      const { spectators } = await api.spectators(id);
      watching.dataset.watching = String(spectators);
      watching.textContent = t("watch.watching", { n: spectators });
    } while (watchingAgain);
  } catch (problem) {
    watching.textContent = ""; // the count is unknown for now: show none rather than a stale one
  } finally {
    watchingAsked = false;
  }
  watching.hidden = state.ended;
}

function syncUrl() {
  const url = new URL(location.href);
  if (state.at === null) url.searchParams.delete("at");
  else url.searchParams.set("at", String(state.at));
  history.replaceState(null, "", url);
}

// The perspective switch: every hand the view holds, or one seat's (only once a settled
// hand is revealed do spectators' views hold seats' cards).
function updatePerspective(view) {
  const revealed = view.seats.some((s) => s.cards);
  perspective.disabled = !revealed;
  const wanted = [el("option", { value: "all" }, revealed ? t("watch.every_hand") : t("watch.public_only")),
    ...view.seats.map((s) => el("option", { value: String(s.seat) }, t("watch.seat_hand", { name: seatName(s.name, s.seat) })))];
  const texts = (options) => [...options].map((o) => o.textContent).join("\u0001");
  if (texts(perspective.options) !== texts(wanted)) perspective.replaceChildren(...wanted);
  perspective.value = String(state.perspective);
}

function render() {
  const view = namedNow(state.view, state.people); // accounts as named now, rated (people.js)
  const names = view.seats.map((s) => s.name);
  board.replaceChildren(state.game.module.renderBoard(view, { perspective: state.perspective,
    events: state.events.filter((e) => e.version <= view.version) }));
  rateSeats(board, state.people, view);
  log.update(state.game, state.events, names, view.version);
  const told = resultPanel(state.game, state.events, view.version, { names, view, tableId: id, links: true });
  results.replaceChildren(...(told ? [told] : []));
  updatePerspective(view);
  forkButton.disabled = !(view.status === "playing" && view.toAct && view.toAct.length) || Boolean(view.forkOf);
  if (statusShown !== state.ended) { statusShown = state.ended; statusBox.replaceChildren(headerStatus()); }
  // The chart holds the hands scored by the version on screen, no later (no spoilers).
  const scored = state.events.filter((e) => e.version <= view.version
    && [...settling(state.game), "TableEnded"].includes(e.type)).length;
  const key = `${scored}:${view.version >= state.head}`;
  if (key !== chartKey) { chartKey = key; refreshChart(view.version); }
  controls.update({ head: state.head, at: state.at, starts: handStarts(state.events), ended: state.ended,
    shown: view.version, note: state.hold !== null ? state.holdNote : undefined });
}

// Show the wanted position: replay?at=N (N = the live head when following live). Requests
// that arrive out of order are dropped; a burst of live events costs one request at a time.
async function show() {
  syncUrl();
  if (fetching) { again = true; return; }
  fetching = true;
  try {
    do {
      again = false;
      const at = state.at !== null ? state.at : state.hold !== null ? state.hold : state.head;
      const seq = ++shownSeq;
      const view = await api.replay(id, at);
      if (at === state.head) await liveDeadline(view);
      if (seq === shownSeq && !again) { state.view = view; render(); notice(app, ""); }
    } while (again);
  } catch (problem) {
    notice(app, api.words(problem));
  } finally {
    fetching = false;
  }
}

// Following live, the turn clock's deadline (design §9) comes from the live view, when it
// shows the same version as the replay drawn (it may trail the timeline for a moment: read again, for up to 10 s).
async function liveDeadline(view) {
  for (let tries = 0; tries < 50; tries += 1) {
    const live = await api.view(id);
    if (live.version === view.version && live.deadline) view.deadline = live.deadline;
    if (live.version >= view.version) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function refreshChart(upto) {
  try {
    chartBox.replaceChildren(await ledgerChart(id, state.game, state.events, { upto }));
  } catch (problem) {
    chartBox.replaceChildren(el("p", { class: "muted" }, api.words(problem)));
  }
}

function onEvent(event) {
  const last = state.events.length ? state.events[state.events.length - 1].version : 0;
  if (event.version > last) state.events.push(event);
  state.head = Math.max(state.head, event.version);
  if (event.type === "TableEnded") state.ended = true;
  const settles = settling(state.game);
  // A settled hand is held a while; a moment the game names (its board module's holds, e.g.
  // a trick's last card) is held briefly, so bots' quick play stays readable — never over a
  // hold already running.
  const settled = settles.includes(event.type);
  const moment = (state.game.module.holds || []).includes(event.type) && state.hold === null;
  if (state.at === null && (settled || moment)) {
    const version = event.version;
    state.hold = version;
    state.holdNote = settled ? t("replay.note.settled") : t("replay.note.moment");
    setTimeout(() => {
      if (state.hold !== version) return; // a later hold took over
      state.hold = null;
      if (state.at === null) show();
    }, settled ? HOLD_MS : MOMENT_MS);
  }
  soonWatching();
  if (state.at === null) show();
  else controls.update({ head: state.head, at: state.at, starts: handStarts(state.events), ended: state.ended });
}

// The header's status: an ended table says so and offers its replay, never a seat.
function headerStatus() {
  if (state.ended) {
    return el("span", { class: "status-line" }, el("span", { class: "badge ended", "data-status": "ended" }, t("watch.ended")),
      " ", el("a", { href: `/watch/${id}?at=1`, class: "button", onclick: (click) => {
        click.preventDefault(); seek(1);
      } }, t("watch.replay_from_start")));
  }
  return el("span", { class: "status-line" }, el("span", { class: "badge live", "data-status": "live" }, t("watch.live")),
    " ", el("a", { href: `/play/${id}`, class: "button" }, t("watch.take_seat")));
}

async function main() {
  let first;
  try {
    first = await api.view(id);
    state.events = await api.timeline(id);
    state.game = await gameOf(first.game);
  } catch (problem) {
    app.replaceChildren(el("h1", {}, t("play.not_available")), el("p", { class: "notice error" }, api.words(problem)));
    return;
  }
  const lastEvent = state.events.length ? state.events[state.events.length - 1].version : 1;
  state.head = Math.max(1, lastEvent);
  state.ended = first.status === "ended";
  const wanted = Number(new URLSearchParams(location.search).get("at"));
  if (Number.isInteger(wanted) && wanted >= 1) state.at = Math.min(wanted, state.head);
  perspective.addEventListener("change", () => {
    state.perspective = perspective.value === "all" ? "all" : Number(perspective.value);
    render();
  });
  app.replaceChildren(
    el("div", { class: "page watch" },
      el("h1", {}, t("play.game_table", { game: state.game.title }), " ",
        el("small", { class: "muted" }, id.slice(0, 8)), " ", statusBox, " ", watching),
      el("div", { class: "table-and-log" },
        el("div", { class: "table-column" }, board,
          el("div", { class: "controls" }, controls.element,
            el("label", { class: "perspective" }, t("watch.perspective"), " ", perspective), " ", forkButton)),
        el("aside", { class: "side-column" }, results, log.element)),
      chartBox));
  await show();
  peopleAt(state.events, state.game.name).then((people) => { state.people = people; if (state.view) render(); });
  if (state.ended) { watching.hidden = true; return; }
  api.stream(id, null, onEvent, { after: state.head, onOpen: refreshWatching });
  const every = setInterval(() => (state.ended ? clearInterval(every) : refreshWatching()), WATCHING_MS);
}

main();
