// /: the lobby. Live tables (watch), tables waiting for players (join), ended tables
// (replay), and the form that creates a table with the game's options (tooltips from the
// rules docs, options.js). Open tables come from GET /tables, ended ones from
// GET /tables?status=ended (the most recently opened first). Live updates: the lobby is read
// again every few seconds.

import * as api from "./api.js";
import { el, exact, notice } from "./format.js";
import { OPTIONS, optionsFrom } from "./options.js";
import { GAME_NAMES } from "./table.js";

const app = document.getElementById("app");
const REFRESH_MS = 3000;

const live = el("tbody", { id: "live-tables" });
const waiting = el("tbody", { id: "waiting-tables" });
const ended = el("tbody", { id: "ended-tables" });

function names(entry) {
  return (entry.names || []).map((n, i) => n || `(seat ${i} open)`).join(", ");
}

// The lobby's one-line state of a table: the pot (Bourré) or the teams' scores (Burraco).
function standing(entry) {
  if (entry.pot !== undefined && entry.pot !== null) return `pot ${exact(entry.pot)}`;
  if (entry.totals) return `score ${entry.totals.map(exact).join(" – ")}`;
  return "";
}

function line(entry, link) {
  return el("tr", { "data-table": entry.tableId },
    el("td", {}, GAME_NAMES[entry.game] || entry.game),
    el("td", {}, names(entry)),
    el("td", {}, entry.hand ? `hand ${entry.hand}` : "—"),
    el("td", {}, standing(entry)),
    el("td", {}, link));
}

async function refresh() {
  let open;
  let over;
  try {
    [open, over] = await Promise.all([api.lobby(), api.lobby(undefined, "ended")]);
  } catch (problem) {
    notice(app, api.words(problem));
    return;
  }
  notice(app, "");
  live.replaceChildren(...open.filter((t) => t.status === "playing")
    .map((t) => line(t, el("a", { href: `/watch/${t.tableId}` }, "watch"))));
  // waiting for players: "waiting" (Bourré) or "seating" (Burraco) — anything not yet playing
  waiting.replaceChildren(...open.filter((t) => t.status !== "playing")
    .map((t) => line(t, el("span", {}, el("a", { href: `/play/${t.tableId}`, class: "button primary" }, "join"),
      " ", el("a", { href: `/watch/${t.tableId}` }, "watch")))));
  for (const body of [live, waiting]) {
    if (!body.children.length) body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, "none right now")));
  }
  // Ended tables, newest first: replay each from its first event.
  const rows = over.slice(-20).reverse()
    .map((t) => line(t, el("a", { href: `/watch/${t.tableId}?at=1` }, "replay")));
  ended.replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "none yet"))]));
}

function tableOf(title, body) {
  return el("section", {}, el("h2", {}, title),
    el("table", { class: "tables" },
      el("thead", {}, el("tr", {}, ["game", "players", "hand", "pot / score", ""].map((h) => el("th", {}, h)))),
      body));
}

// One option's input, with its rule text as the tooltip (title) and as a visible hint.
function optionInput(spec) {
  const name = `opt-${spec.key}`;
  let input;
  if (spec.kind === "bool") {
    input = el("input", { type: "checkbox", name, checked: spec.default });
  } else if (spec.kind === "choice") {
    input = el("select", { name }, spec.choices.map((c) => el("option", { value: String(c), selected: c === spec.default }, String(c))));
  } else {
    input = el("input", { type: "number", name, min: spec.min, max: spec.max, step: 1,
      value: spec.default === null ? "" : spec.default, placeholder: spec.kind === "optint" ? "none" : "" });
  }
  return el("label", { title: spec.help },
    el("span", {}, el("span", { class: "option-name tip" }, spec.key), spec.required ? " *" : ""),
    input, el("span", { class: "help" }, spec.help));
}

function readOption(form, spec) {
  const input = form.elements[`opt-${spec.key}`];
  if (spec.kind === "bool") return input.checked;
  if (spec.kind === "choice") {
    return typeof spec.default === "number" ? Number(input.value) : input.value;
  }
  if (input.value === "") return spec.kind === "optint" ? null : spec.default;
  return Number(input.value);
}

function createForm() {
  const fields = el("fieldset");
  const game = el("select", { name: "game", "aria-label": "game" },
    Object.keys(OPTIONS).map((g) => el("option", { value: g }, GAME_NAMES[g])));
  const showFields = () => fields.replaceChildren(...OPTIONS[game.value].map(optionInput));
  game.addEventListener("change", showFields);
  showFields();
  const form = el("form", { class: "create" },
    el("p", {}, el("label", {}, "game ", game)), fields,
    el("p", {}, el("button", { type: "submit", class: "primary" }, "create table")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = optionsFrom(game.value, (spec) => readOption(form, spec));
    try {
      const created = await api.createTable({ game: game.value, options });
      location.href = `/play/${created.tableId}`;
    } catch (problem) {
      notice(app, api.words(problem));
    }
  });
  return form;
}

app.replaceChildren(el("div", { class: "page lobby" },
  el("h1", {}, "Lobby"),
  tableOf("Live tables", live),
  tableOf("Waiting for players", waiting),
  tableOf("Ended tables (replay)", ended),
  el("h2", {}, "Create a table"), createForm()));
refresh();
setInterval(refresh, REFRESH_MS);
