// /: the lobby. Live tables (watch), tables waiting for players (join), ended tables
// (replay), and the form that creates a table with the game's options. The games and their
// options come from GET /games (each option's label shown, its rule and explanation as the
// tooltip); open tables from GET /tables, ended ones from GET /tables?status=ended (the most
// recently opened first). Live updates: the lobby is read again every few seconds.

import * as api from "./api.js";
import { el, exact, notice } from "./format.js";
import { games } from "./table.js";

const app = document.getElementById("app");
const REFRESH_MS = 3000;

const live = el("tbody", { id: "live-tables" });
const waiting = el("tbody", { id: "waiting-tables" });
const ended = el("tbody", { id: "ended-tables" });
let titles = {}; // game name -> title, from GET /games

function names(entry) {
  return (entry.names || []).map((n, i) => n || `(seat ${i} open)`).join(", ");
}

// The lobby's one-line state of a table: the pot, or the teams' scores.
function standing(entry) {
  if (entry.pot !== undefined && entry.pot !== null) return `pot ${exact(entry.pot)}`;
  if (entry.totals) return `score ${entry.totals.map(exact).join(" – ")}`;
  return "";
}

function line(entry, link) {
  return el("tr", { "data-table": entry.tableId },
    el("td", {}, titles[entry.game] || entry.game),
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
  // waiting for players: "waiting" or "seating" — anything not yet playing
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

// One option's input: its label shown, its rule and explanation as the tooltip (title).
function optionInput(spec) {
  const name = `opt-${spec.name}`;
  const start = spec.required ? spec.suggested : spec.default;
  let input;
  if (spec.type === "bool") {
    input = el("input", { type: "checkbox", name, checked: start });
  } else if (spec.type === "choice") {
    input = el("select", { name }, spec.choices.map((c) => el("option", { value: String(c), selected: c === start }, String(c))));
  } else {
    input = el("input", { type: "number", name, min: spec.min, max: spec.max, step: spec.type === "int" ? 1 : "any",
      value: start === null ? "" : start, placeholder: spec.nullable ? "none" : "", required: spec.required });
  }
  const rule = spec.rule ? `Rule ${spec.rule}: ` : "";
  return el("label", { title: `${rule}${spec.help || spec.label} (option ${spec.name})` },
    el("span", { class: "option-label" }, spec.label, spec.required ? " *" : "",
      spec.rule ? el("span", { class: "rule tip" }, ` rule ${spec.rule}`) : ""),
    input);
}

// An option's value as the form holds it.
function readOption(form, spec) {
  const input = form.elements[`opt-${spec.name}`];
  if (spec.type === "bool") return input.checked;
  if (spec.type === "choice") {
    return typeof spec.choices[0] === "number" ? Number(input.value) : input.value;
  }
  if (input.value === "") return spec.nullable ? null : spec.default;
  return Number(input.value);
}

// The options object to post: the required ones and those that differ from the default
// (the server records every key with its default).
function optionsFrom(form, specs) {
  const out = {};
  for (const spec of specs) {
    const value = readOption(form, spec);
    if (spec.required || value !== spec.default) out[spec.name] = value;
  }
  return out;
}

function createForm(catalogue) {
  const fields = el("fieldset");
  const specs = Object.fromEntries(catalogue.map((g) => [g.game, g.options]));
  const game = el("select", { name: "game", "aria-label": "game" },
    catalogue.map((g) => el("option", { value: g.game }, g.title)));
  const showFields = () => fields.replaceChildren(...specs[game.value].map(optionInput));
  game.addEventListener("change", showFields);
  showFields();
  const form = el("form", { class: "create" },
    el("p", {}, el("label", {}, "game ", game)), fields,
    el("p", {}, el("button", { type: "submit", class: "primary" }, "create table")));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const options = optionsFrom(form, specs[game.value]);
    try {
      const created = await api.createTable({ game: game.value, options });
      location.href = `/play/${created.tableId}`;
    } catch (problem) {
      notice(app, api.words(problem));
    }
  });
  return form;
}

async function main() {
  const createBox = el("div", { class: "create-box" }, el("p", { class: "muted" }, "Loading the games…"));
  app.replaceChildren(el("div", { class: "page lobby" },
    el("h1", {}, "Lobby"),
    tableOf("Live tables", live),
    tableOf("Waiting for players", waiting),
    tableOf("Ended tables (replay)", ended),
    el("h2", {}, "Create a table"), createBox));
  try {
    const catalogue = await games();
    titles = Object.fromEntries(catalogue.map((g) => [g.game, g.title]));
    createBox.replaceChildren(createForm(catalogue));
  } catch (problem) {
    createBox.replaceChildren(el("p", { class: "notice error" }, api.words(problem)));
  }
  refresh();
  setInterval(refresh, REFRESH_MS);
}

main();
