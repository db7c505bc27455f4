// /review/{tableId}/{hand}?seat=S: one seat's settled hand replayed with what the search bot
// would have played (design §9.4). The review comes from GET
// /tables/{id}/hands/{n}/review?seat=S (202 while the reviewer computes it: the page asks again
// after Retry-After); the board at each version is GET /tables/{id}/replay?at=N drawn from the
// seat's side (perspective and own = S), so the seat's cards show and the others' as the
// reveal allows. Each decision is marked good, inaccuracy or mistake by the share of the hand's
// stake it lost (thresholds in the summary, documented in managers/hand_review.py); picking one
// shows the board as the seat saw it and every move with its value. "Play from here" opens a
// fork at that version for this seat (POST /tables/{id}/fork) and plays it on /play.
//
// Test contract: [data-review-summary] (data-accuracy), ol[data-decisions] >
// li[data-decision="<version>"][data-mark], table[data-moves] > tbody > tr[data-value]
// (data-played, data-best), button[data-fork="<version>"], input[name=version].

import * as api from "./api.js";
import { card } from "./cards.js";
import { el, notice, seatName } from "./format.js";
import { lang, t, tFirst } from "./i18n.js";
import * as held from "./seats.js";
import { gameOf, settling, words } from "./table.js";

const parts = location.pathname.split("/");
const tableId = decodeURIComponent(parts[2] || "");
const hand = Number(parts[3]);
const query = new URLSearchParams(location.search);
const seat = Number(query.get("seat") ?? "0");
const app = document.getElementById("app");
const MARKS = { good: "✓", inaccuracy: "?!", mistake: "?", forced: "□", unvalued: "·" };
const POLL_TRIES = 600; // a long hand (many decisions) takes the reviewer a while
const values = new Intl.NumberFormat(lang, { maximumFractionDigits: 2, signDisplay: "exceptZero" });
const losses = new Intl.NumberFormat(lang, { maximumFractionDigits: 2 });
const state = { review: null, game: null, events: [], names: [], start: 1, end: 1, at: 1, token: null,
  chosen: null };

const stylesheet = document.createElement("link");
stylesheet.rel = "stylesheet";
stylesheet.href = "/static/css/review.css";
document.head.append(stylesheet);

const board = el("div", { class: "board-box" });
const slider = el("input", { type: "range", name: "version", min: 1, max: 1, value: 1,
  "aria-label": t("review.controls.version") });
const position = el("output", { class: "position", "aria-live": "polite" });
const movesBox = el("section", { class: "review-moves", "aria-label": t("review.moves.title") });
const decisionList = el("ol", { class: "review-decisions", "data-decisions": "",
  "aria-label": t("review.decisions.title") });

// The seat's token when this browser holds the seat (a review of a hand never revealed is
// the seat's alone), else none: a spectator's review of a revealed hand.
function heldToken() {
  const mine = held.load(tableId);
  return mine && mine.token && mine.seat === seat ? mine.token : null;
}

async function getJSON(path, token) {
  const headers = { Accept: "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { headers });
  const text = await response.text();
  const body = text ? api.parseJSON(text) : null;
  if (!response.ok) throw new api.Problem(body || {}, response.status);
  return { status: response.status, body, retry: Number(response.headers.get("Retry-After") || 1) };
}

// The review, asked again while the reviewer computes it (202 + Retry-After).
async function loadReview() {
  const path = `/tables/${encodeURIComponent(tableId)}/hands/${hand}/review?seat=${seat}`;
  for (let tries = 0; tries < POLL_TRIES; tries += 1) {
    const answer = await getJSON(path, state.token);
    if (answer.status === 200) return answer.body;
    notice(app, t("review.computing"), "info");
    await new Promise((resolve) => setTimeout(resolve, Math.max(0.25, Math.min(answer.retry, 5)) * 1000));
  }
  throw new Error(t("review.not_ready"));
}

// The fields whose values differ among `commands` (the moves of one decision): only those
// tell the moves apart, so only those are shown (a field every move leaves false stays out).
function varying(commands) {
  const keys = new Set(commands.flatMap((c) => Object.keys(c)));
  return new Set([...keys].filter((key) => new Set(commands.map((c) => JSON.stringify(c[key]))).size > 1));
}

const isCard = (value) => typeof value === "string" && /^(10|[2-9JQKA])[SHDC]$|^JK$/.test(value);

// A command in words: its type (the game's word when it has one) and the fields that set it
// apart from the other moves (`shown`), cards drawn as cards.
function move(command, shown) {
  const { type, ...fields } = command;
  const name = tFirst([`${state.game.name}.command.${type}`, `review.command.${type}`], {}, words(type));
  const bits = [el("span", { class: "move-type" }, name)];
  for (const [key, value] of Object.entries(fields)) {
    if (!shown.has(key) && !isCard(value)) continue;
    const label = tFirst([`${state.game.name}.field.${key}`], {}, words(key));
    if (isCard(value)) {
      bits.push(" ", card(value, { size: "small" }));
    } else if (Array.isArray(value) && value.every(isCard)) {
      bits.push(" ", value.length ? el("span", { class: "move-field" }, `${label}:`) : el("span", { class: "move-field" },
        t("review.move.none", { label })), ...value.map((code) => card(code, { size: "small" })));
    } else if (typeof value === "boolean") {
      bits.push(" ", el("span", { class: "move-field" }, value ? label : t("review.move.no", { label })));
    } else if (value !== null) {
      bits.push(" ", el("span", { class: "move-field" }, `${label} ${value}`));
    }
  }
  return el("span", { class: "move" }, ...bits);
}

const markWords = (mark) => t(`review.mark.${mark}`);
const badge = (mark) => el("span", { class: `mark mark-${mark}`, title: markWords(mark) },
  `${MARKS[mark] || ""} ${markWords(mark)}`);

function summaryBox(review) {
  const s = review.summary;
  const th = s.thresholds;
  const biggest = s.biggestMistakes.map((m) => el("li", {},
    el("a", { href: `#v${m.version}`, onclick: (click) => { click.preventDefault(); choose(m.version); } },
      t("review.summary.at_version", { version: m.version })), " ", move(m.played, varying([m.played, m.best])), " → ",
    move(m.best, varying([m.played, m.best])),
    " ", t("review.summary.lost", { loss: losses.format(m.loss) })));
  return el("section", { class: "result review-summary", "data-review-summary": "",
    "data-accuracy": s.accuracy ?? "" },
  el("h2", {}, t("review.summary.title")),
  el("p", { class: "accuracy" }, s.accuracy === null ? t("review.summary.no_choices")
    : t("review.summary.accuracy", { accuracy: s.accuracy, good: s.good, choices: s.choices })),
  el("p", {}, t("review.summary.counts", { inaccuracies: s.inaccuracies, mistakes: s.mistakes,
    decisions: s.decisions })),
  biggest.length ? el("div", {}, el("h3", {}, t("review.summary.biggest")), el("ol", {}, biggest)) : null,
  el("p", { class: "muted legend" }, t("review.summary.thresholds", {
    inaccuracy: Math.round(th.inaccuracy * 100), mistake: Math.round(th.mistake * 100),
    stake: losses.format(s.stake) })),
  review.engine && review.engine.rounds
    ? el("p", { class: "muted legend" }, t("review.summary.engine", { rounds: review.engine.rounds })) : null);
}

function decisionItem(decision) {
  const item = el("li", { "data-decision": decision.version, "data-mark": decision.mark, id: `v${decision.version}` },
    el("button", { type: "button", class: "decision-pick", onclick: () => choose(decision.version) },
      el("span", { class: "v" }, `v${decision.version}`), " ",
      move(decision.played, varying(decision.moves.map((m) => m.command))), " ", badge(decision.mark),
      decision.loss ? el("span", { class: "loss" }, ` −${losses.format(decision.loss)}`) : null));
  return item;
}

function movesTable(decision) {
  const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
  const shown = varying(decision.moves.map((m) => m.command));
  const rows = decision.moves.map((m) => {
    const played = same(m.command, decision.played);
    const best = same(m.command, decision.best);
    return el("tr", { "data-value": m.value ?? "", "data-played": played ? "true" : null,
      "data-best": best ? "true" : null, class: played ? "played" : "" },
    el("td", {}, move(m.command, shown)),
    el("td", { class: "value" }, m.value === null ? "—" : values.format(m.value)),
    el("td", {}, [played ? t("review.moves.played") : "", best ? t("review.moves.best") : ""]
      .filter(Boolean).join(" · ")));
  });
  return el("table", { class: "moves", "data-moves": decision.version },
    el("caption", {}, t("review.moves.caption", { version: decision.version })),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, t("review.moves.move")),
      el("th", { scope: "col" }, t("review.moves.value")), el("th", { scope: "col" }, ""))),
    el("tbody", {}, rows));
}

function forkButton(decision) {
  return el("button", { type: "button", class: "primary", "data-fork": decision.version,
    onclick: (click) => playFrom(decision.version, click.target) }, t("review.fork.button"));
}

// POST /tables/{id}/fork {at, seat}: a new table from this position as the seat saw it, the
// unseen cards dealt anew, the other seats bots; its token plays the seat on /play.
async function playFrom(version, button) {
  button.disabled = true;
  try {
    const headers = { Accept: "application/json", "Content-Type": "application/json" };
    if (state.token) headers.Authorization = `Bearer ${state.token}`;
    const response = await fetch(`/tables/${encodeURIComponent(tableId)}/fork`,
      { method: "POST", headers, body: JSON.stringify({ at: version, seat }) });
    const text = await response.text();
    const body = text ? api.parseJSON(text) : {};
    if (!response.ok) throw new api.Problem(body, response.status);
    held.save(body.tableId, { seat, token: body.token, name: state.names[seat] || "", game: state.game.name });
    location.href = `/play/${body.tableId}`;
  } catch (problem) {
    button.disabled = false;
    notice(app, api.words(problem));
  }
}

function choose(version) {
  state.chosen = version;
  show(version);
}

// Show the board at `version` and, when a decision was taken there, its moves.
async function show(version) {
  state.at = Math.max(state.start, Math.min(state.end, version));
  slider.value = String(state.at);
  position.textContent = t("review.controls.position", { version: state.at, start: state.start, end: state.end });
  const decision = state.review.decisions.find((d) => d.version === state.at);
  for (const item of decisionList.children) {
    if (Number(item.dataset.decision) === state.at) item.setAttribute("aria-current", "step");
    else item.removeAttribute("aria-current");
  }
  movesBox.replaceChildren(...(decision
    ? [el("h2", {}, t("review.moves.title")), movesTable(decision), forkButton(decision),
      el("a", { href: `/watch/${encodeURIComponent(tableId)}?at=${decision.version}`, class: "watch-link" },
        t("review.watch_link"))]
    : [el("p", { class: "muted" }, t("review.moves.none"))]));
  try {
    const view = await api.replay(tableId, state.at, state.token);
    if (view.version !== state.at) return;
    board.replaceChildren(state.game.module.renderBoard(view, { perspective: seat,
      events: state.events.filter((e) => e.version <= state.at) }));
  } catch (problem) {
    notice(app, api.words(problem));
  }
}

function step(by) {
  show(state.at + by);
}

// The next decision after (or before) the version on screen.
function nextDecision(direction) {
  const versions = state.review.decisions.map((d) => d.version);
  const found = direction > 0 ? versions.find((v) => v > state.at) : [...versions].reverse().find((v) => v < state.at);
  if (found !== undefined) choose(found);
}

async function main() {
  document.title = t("review.page_title", { hand });
  if (!tableId || !Number.isInteger(hand) || hand < 1 || !Number.isInteger(seat) || seat < 0) {
    app.replaceChildren(el("h1", {}, t("review.unavailable")), el("p", { class: "notice error" }, t("review.bad_address")));
    return;
  }
  state.token = heldToken();
  try {
    state.review = await loadReview();
    state.game = await gameOf(state.review.game);
    state.events = await api.timeline(tableId, state.token);
  } catch (problem) {
    app.replaceChildren(el("h1", {}, t("review.unavailable")), el("p", { class: "notice error" }, api.words(problem)));
    return;
  }
  const ours = state.events.filter((e) => e.hand === hand);
  const settles = settling(state.game);
  state.start = Math.max(1, (ours.length ? ours[0].version : 1) - 1);
  const settled = ours.find((e) => settles.includes(e.type));
  state.end = settled ? settled.version : (ours.length ? ours[ours.length - 1].version : state.start);
  for (const e of state.events) {
    if (e.type === "PlayerSeated") state.names[e.seat] = e.name;
  }
  slider.min = String(state.start);
  slider.max = String(state.end);
  slider.addEventListener("input", () => show(Number(slider.value)));
  decisionList.replaceChildren(...state.review.decisions.map(decisionItem));
  const who = seatName(state.names[seat], seat);
  app.replaceChildren(el("div", { class: "page review" },
    el("h1", {}, t("review.heading", { hand, name: who, seat })),
    el("p", { class: "muted" }, el("a", { href: `/watch/${encodeURIComponent(tableId)}` }, t("review.back_to_table"))),
    el("div", { class: "table-and-log" },
      el("div", { class: "table-column" }, board,
        el("div", { class: "controls review-controls", role: "group", "aria-label": t("review.controls.label") },
          el("button", { type: "button", onclick: () => nextDecision(-1), title: t("review.controls.previous_decision") }, "⇤"),
          el("button", { type: "button", onclick: () => step(-1), title: t("review.controls.back") }, "◀"),
          el("button", { type: "button", onclick: () => step(1), title: t("review.controls.forward") }, "▶"),
          el("button", { type: "button", onclick: () => nextDecision(1), title: t("review.controls.next_decision") }, "⇥"),
          el("label", { class: "slider" }, slider, position)),
        movesBox),
      el("aside", { class: "side-column" }, summaryBox(state.review),
        el("section", { class: "log-panel" }, el("h2", {}, t("review.decisions.title")),
          state.review.decisions.length ? decisionList : el("p", { class: "muted" }, t("review.decisions.none")))))));
  const first = state.review.decisions[0];
  await (first ? choose(first.version) : show(state.start));
}

main();
