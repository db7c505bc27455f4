// /: the lobby. Live tables (watch), tables waiting for players (join), ended tables
// (replay), and the form that creates a table with the game's options. The games and their
// options come from GET /games (each option's label shown, its rule and explanation as the
// tooltip, each choice in words; the game's presets fill the form, every option sits in an
// "all options" fold); open tables from GET /tables, ended ones from GET /tables?status=ended (the most
// recently opened first). Live updates: the lobby is read again every few seconds.
// "Play now against bots": one quick-play form per game opens a table, seats the person and
// fills every other seat with a server-side bot of the chosen kind (GET /bots, POST
// /tables/{id}/seats {bot}), then lands on /play/{id} seated. "Your tables": the seats this
// browser holds (seats.js, localStorage), each with a resume link.

import * as api from "./api.js";
import { el, exact, notice } from "./format.js";
import { me } from "./people.js";
import * as held from "./seats.js";
import { games } from "./table.js";

const app = document.getElementById("app");
const REFRESH_MS = 3000;

const live = el("tbody", { id: "live-tables" });
const waiting = el("tbody", { id: "waiting-tables" });
const ended = el("tbody", { id: "ended-tables" });
const mine = el("tbody", { id: "your-tables" });
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
  yourTables(open, over);
}

// --- your tables: the seats this browser holds ---------------------------------------------

function yourTables(open, over) {
  const known = new Map([...open, ...over].map((t) => [t.tableId, t]));
  const rows = held.all().map((h) => {
    const entry = known.get(h.tableId) || { tableId: h.tableId, game: h.game, names: [] };
    const status = entry.status || "";
    const link = status === "ended"
      ? el("a", { href: `/watch/${h.tableId}?at=1`, "data-resume": h.tableId }, "ended: replay")
      : el("a", { href: `/play/${h.tableId}`, class: "button primary", "data-resume": h.tableId },
        `resume as ${h.name || `seat ${h.seat}`}`);
    return line(entry, link);
  });
  mine.replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, "no seat taken in this browser yet"))]));
}

// --- play now against bots -----------------------------------------------------------------

// The seat counts a game's "seats" option allows (its schema: an int range or choices).
function seatRange(spec) {
  if (!spec) return { min: 2, max: 8, value: 4 };
  if (spec.choices) return { min: Math.min(...spec.choices), max: Math.max(...spec.choices),
    value: spec.suggested || spec.default || spec.choices[spec.choices.length - 1], step: null };
  return { min: spec.min, max: spec.max, value: spec.suggested || spec.default || spec.min };
}

const seatsOption = (entry) => entry.options.find((o) => o.name === "seats" || o.name === "players");

// Open a table of `game` with `seats` seats, take one as `name` and give a bot every other.
// Signed in (`account`), the account takes the seat under its own name (issue 22).
async function quickPlay(game, kind, seats, name, account = false) {
  const option = seatsOption(game);
  const options = option ? { [option.name]: seats } : {};
  const created = await api.createTable({ game: game.game, options });
  const taken = await api.takeSeat(created.tableId, account ? undefined : name);
  held.save(created.tableId, { seat: taken.seat, token: taken.token, name, game: game.game, account });
  for (let i = 1; i < seats; i += 1) await api.addBot(created.tableId, kind);
  return created.tableId;
}

function quickPlayForm(catalogue, kinds, own, who) {
  const game = el("select", { name: "game", "aria-label": "game" },
    catalogue.map((g) => el("option", { value: g.game, selected: g.game === own.game }, g.title)));
  const bot = el("select", { name: "bot", "aria-label": "bot kind" });
  const seats = el("input", { type: "number", name: "seats", "aria-label": "players", required: true });
  const name = el("input", { name: "name", "aria-label": "your name", required: true, maxlength: 32,
    autocomplete: "nickname", value: who ? who.name : held.lastName() || "You", readonly: Boolean(who) });
  const entry = () => catalogue.find((g) => g.game === game.value);
  const fit = () => {
    const kindsOf = kinds[game.value] || {};
    bot.replaceChildren(...Object.entries(kindsOf).map(([k, text]) =>
      el("option", { value: k, title: text, selected: k === "basic" }, k)));
    const range = seatRange(seatsOption(entry()));
    Object.assign(seats, { min: range.min, max: range.max, value: range.value });
    if (range.step === null) seats.step = range.max - range.min || 1;
  };
  game.addEventListener("change", fit);
  fit();
  const button = el("button", { type: "submit", class: "primary" }, "play now");
  const form = el("form", { class: "quick-play", "data-quick-play": own.game },
    el("h3", {}, own.title),
    el("label", {}, "game ", game), el("label", {}, "your name ", name),
    el("label", {}, "players ", seats), el("label", {}, "bots ", bot), button);
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    button.disabled = true;
    try {
      const id = await quickPlay(entry(), bot.value, Number(seats.value), name.value.trim(), Boolean(who));
      location.href = `/play/${id}`;
    } catch (problem) {
      button.disabled = false;
      notice(app, api.words(problem));
    }
  });
  return form;
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
    // each value in words (choiceLabels); the value posted stays the wire's
    const words = spec.choiceLabels || spec.choices.map(String);
    input = el("select", { name }, spec.choices.map((c, i) =>
      el("option", { value: String(c), selected: c === start }, words[i])));
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

// Put `value` in an option's input (the form's own shape, as readOption reads it).
function writeOption(form, spec, value) {
  const input = form.elements[`opt-${spec.name}`];
  if (spec.type === "bool") input.checked = Boolean(value);
  else input.value = value === null || value === undefined ? "" : String(value);
}

// A preset fills the form: its options, every other option at its start value.
function applyPreset(form, specs, preset) {
  for (const spec of specs) {
    const start = spec.required ? spec.suggested : spec.default;
    writeOption(form, spec, Object.hasOwn(preset.options, spec.name) ? preset.options[spec.name] : start);
  }
}

function createForm(catalogue) {
  const fields = el("fieldset");
  const entries = Object.fromEntries(catalogue.map((g) => [g.game, g]));
  const specs = Object.fromEntries(catalogue.map((g) => [g.game, g.options]));
  const game = el("select", { name: "game", "aria-label": "game" },
    catalogue.map((g) => el("option", { value: g.game }, g.title)));
  const presets = el("p", { class: "presets", "data-presets": "" });
  const fold = el("details", { class: "all-options" }, el("summary", {}, "all options"), fields);
  const press = (chosen) => {
    for (const button of presets.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.preset === chosen));
    }
  };
  const showFields = () => {
    const entry = entries[game.value];
    fields.replaceChildren(...specs[game.value].map(optionInput));
    const offered = entry.presets || [];
    presets.replaceChildren(...(offered.length ? ["presets: "] : []), ...offered.map((preset) =>
      el("button", { type: "button", class: "preset", "data-preset": preset.name, title: preset.help,
        "aria-pressed": "false",
        onclick: () => { applyPreset(form, specs[game.value], preset); press(preset.name); } },
      preset.label)));
    // no preset to choose from: every option is shown at once
    fold.open = !offered.length;
    if (offered.length) { applyPreset(form, specs[game.value], offered[0]); press(offered[0].name); }
  };
  // an option changed by hand: no preset is chosen any more
  for (const kind of ["input", "change"]) fields.addEventListener(kind, () => press(null));
  const form = el("form", { class: "create" },
    el("p", {}, el("label", {}, "game ", game)), presets, fold,
    el("p", {}, el("button", { type: "submit", class: "primary" }, "create table")));
  game.addEventListener("change", showFields);
  showFields();
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
  const quickBox = el("div", { class: "quick-box" });
  app.replaceChildren(el("div", { class: "page lobby" },
    el("h1", {}, "Lobby"),
    el("section", { class: "quick" }, el("h2", {}, "Play now against bots"), quickBox),
    tableOf("Your tables", mine),
    tableOf("Live tables", live),
    tableOf("Waiting for players", waiting),
    tableOf("Ended tables (replay)", ended),
    el("h2", {}, "Create a table"), createBox));
  try {
    const catalogue = await games();
    titles = Object.fromEntries(catalogue.map((g) => [g.game, g.title]));
    createBox.replaceChildren(createForm(catalogue));
    const [kinds, who] = await Promise.all([api.bots(), me()]);
    quickBox.replaceChildren(...catalogue.filter((g) => kinds[g.game])
      .map((g) => quickPlayForm(catalogue, kinds, g, who)));
  } catch (problem) {
    createBox.replaceChildren(el("p", { class: "notice error" }, api.words(problem)));
  }
  refresh();
  setInterval(refresh, REFRESH_MS);
}

main();
