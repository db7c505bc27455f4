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
import { t, tFirst } from "./i18n.js";
import { me } from "./people.js";
import * as held from "./seats.js";
import { gameTitle, games } from "./table.js";

const app = document.getElementById("app");
const REFRESH_MS = 3000;

const live = el("tbody", { id: "live-tables" });
const waiting = el("tbody", { id: "waiting-tables" });
const ended = el("tbody", { id: "ended-tables" });
const mine = el("tbody", { id: "your-tables" });
let titles = {}; // game name -> title, from GET /games

function names(entry) {
  return (entry.names || []).map((n, i) => n || t("lobby.seat_open", { seat: i })).join(", ");
}

// The lobby's one-line state of a table: the pot, or the teams' scores.
function standing(entry) {
  if (entry.pot !== undefined && entry.pot !== null) return t("lobby.pot", { amount: exact(entry.pot) });
  if (entry.totals) return t("lobby.score", { scores: entry.totals.map(exact).join(" – ") });
  return "";
}

function line(entry, link) {
  return el("tr", { "data-table": entry.tableId },
    el("td", {}, titles[entry.game] || gameTitle(entry.game, entry.game)),
    el("td", {}, names(entry)),
    el("td", {}, entry.hand ? t("lobby.hand", { hand: entry.hand }) : "—"),
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
  live.replaceChildren(...open.filter((row) => row.status === "playing")
    .map((row) => line(row, el("a", { href: `/watch/${row.tableId}` }, t("lobby.watch")))));
  // waiting for players: "waiting" or "seating" — anything not yet playing
  waiting.replaceChildren(...open.filter((row) => row.status !== "playing")
    .map((row) => line(row, el("span", {}, el("a", { href: `/play/${row.tableId}`, class: "button primary" }, t("lobby.join")),
      " ", el("a", { href: `/watch/${row.tableId}` }, t("lobby.watch"))))));
  for (const body of [live, waiting]) {
    if (!body.children.length) body.append(el("tr", {}, el("td", { colspan: 5, class: "muted" }, t("lobby.none_now"))));
  }
  // Ended tables, newest first: replay each from its first event.
  const rows = over.slice(-20).reverse()
    .map((row) => line(row, el("a", { href: `/watch/${row.tableId}?at=1` }, t("lobby.replay"))));
  ended.replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, t("lobby.none_yet")))]));
  yourTables(open, over);
}

// --- your tables: the seats this browser holds ---------------------------------------------

function yourTables(open, over) {
  const known = new Map([...open, ...over].map((row) => [row.tableId, row]));
  const rows = held.all().map((h) => {
    const entry = known.get(h.tableId) || { tableId: h.tableId, game: h.game, names: [] };
    const status = entry.status || "";
    const link = status === "ended"
      ? el("a", { href: `/watch/${h.tableId}?at=1`, "data-resume": h.tableId }, t("lobby.ended_replay"))
      : el("a", { href: `/play/${h.tableId}`, class: "button primary", "data-resume": h.tableId },
        t("lobby.resume_as", { name: h.name || t("core.seat", { seat: h.seat }) }));
    return line(entry, link);
  });
  mine.replaceChildren(...(rows.length ? rows
    : [el("tr", {}, el("td", { colspan: 5, class: "muted" }, t("lobby.no_seat_here")))]));
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
  const game = el("select", { name: "game", "aria-label": t("lobby.game") },
    catalogue.map((g) => el("option", { value: g.game, selected: g.game === own.game }, gameTitle(g.game, g.title))));
  const bot = el("select", { name: "bot", "aria-label": t("lobby.bot_kind") });
  const seats = el("input", { type: "number", name: "seats", "aria-label": t("lobby.players"), required: true });
  const name = el("input", { name: "name", "aria-label": t("lobby.your_name"), required: true, maxlength: 32,
    autocomplete: "nickname", value: who ? who.name : held.lastName() || t("lobby.quick.default_name"),
    readonly: Boolean(who) });
  const entry = () => catalogue.find((g) => g.game === game.value);
  const fit = () => {
    const kindsOf = kinds[game.value] || {};
    bot.replaceChildren(...Object.entries(kindsOf).map(([k, text]) =>
      el("option", { value: k, title: tFirst([`${game.value}.bot.${k}`], {}, text), selected: k === "basic" },
        tFirst([`bots.kind.${k}`], {}, k))));
    const range = seatRange(seatsOption(entry()));
    Object.assign(seats, { min: range.min, max: range.max, value: range.value });
    if (range.step === null) seats.step = range.max - range.min || 1;
  };
  game.addEventListener("change", fit);
  fit();
  const button = el("button", { type: "submit", class: "primary" }, t("lobby.quick.play_now"));
  const form = el("form", { class: "quick-play", "data-quick-play": own.game },
    el("h3", {}, gameTitle(own.game, own.title)),
    el("label", {}, t("lobby.game"), " ", game), el("label", {}, t("lobby.your_name"), " ", name),
    el("label", {}, t("lobby.players"), " ", seats), el("label", {}, t("lobby.bots"), " ", bot), button);
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
      el("thead", {}, el("tr", {}, [t("lobby.column.game"), t("lobby.column.players"), t("lobby.column.hand"),
        t("lobby.column.standing"), ""].map((h) => el("th", {}, h)))),
      body));
}

// An option's words in the page's language: the game's own (<game>.option.<name>…), else
// the shared options' (options.<name>…, the options every game has), else the server's English.
const optionWords = (game, name, suffix, english) =>
  tFirst([`${game}.option.${name}${suffix}`, `options.${name}${suffix}`], {}, english);

// One option's input: its label shown, its rule and explanation as the tooltip (title).
function optionInput(game, spec) {
  const name = `opt-${spec.name}`;
  const start = spec.required ? spec.suggested : spec.default;
  let input;
  if (spec.type === "bool") {
    input = el("input", { type: "checkbox", name, checked: start });
  } else if (spec.type === "choice") {
    // each value in words (choiceLabels); the value posted stays the wire's
    const words = spec.choiceLabels || spec.choices.map(String);
    input = el("select", { name }, spec.choices.map((c, i) =>
      el("option", { value: String(c), selected: c === start }, optionWords(game, spec.name, `.choice.${c}`, words[i]))));
  } else {
    input = el("input", { type: "number", name, min: spec.min, max: spec.max, step: spec.type === "int" ? 1 : "any",
      value: start === null ? "" : start, placeholder: spec.nullable ? t("lobby.option.none") : "", required: spec.required });
  }
  const label = optionWords(game, spec.name, "", spec.label);
  const help = optionWords(game, spec.name, ".help", spec.help || spec.label);
  const tip = spec.rule ? t("lobby.option.tip_rule", { rule: spec.rule, help, name: spec.name })
    : t("lobby.option.tip", { help, name: spec.name });
  return el("label", { title: tip },
    el("span", { class: "option-label" }, label, spec.required ? " *" : "",
      spec.rule ? el("span", { class: "rule tip" }, " ", t("lobby.option.rule", { rule: spec.rule })) : ""),
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

// A preset's words: the game's own (<game>.preset.<name>…), else the server's English.
const presetWords = (game, name, suffix, english) => tFirst([`${game}.preset.${name}${suffix}`], {}, english);

function createForm(catalogue) {
  const fields = el("fieldset");
  const entries = Object.fromEntries(catalogue.map((g) => [g.game, g]));
  const specs = Object.fromEntries(catalogue.map((g) => [g.game, g.options]));
  const game = el("select", { name: "game", "aria-label": t("lobby.game") },
    catalogue.map((g) => el("option", { value: g.game }, gameTitle(g.game, g.title))));
  const presets = el("p", { class: "presets", "data-presets": "" });
  const fold = el("details", { class: "all-options" }, el("summary", {}, t("lobby.all_options")), fields);
  const press = (chosen) => {
    for (const button of presets.querySelectorAll("button")) {
      button.setAttribute("aria-pressed", String(button.dataset.preset === chosen));
    }
  };
  const showFields = () => {
    const entry = entries[game.value];
    fields.replaceChildren(...specs[game.value].map((spec) => optionInput(game.value, spec)));
    const offered = entry.presets || [];
    presets.replaceChildren(...(offered.length ? [t("lobby.presets"), " "] : []), ...offered.map((preset) =>
      el("button", { type: "button", class: "preset", "data-preset": preset.name,
        title: presetWords(game.value, preset.name, ".help", preset.help),
        "aria-pressed": "false",
        onclick: () => { applyPreset(form, specs[game.value], preset); press(preset.name); } },
      presetWords(game.value, preset.name, "", preset.label))));
    // no preset to choose from: every option is shown at once
    fold.open = !offered.length;
    if (offered.length) { applyPreset(form, specs[game.value], offered[0]); press(offered[0].name); }
  };
  // an option changed by hand: no preset is chosen any more
  for (const kind of ["input", "change"]) fields.addEventListener(kind, () => press(null));
  const form = el("form", { class: "create" },
    el("p", {}, el("label", {}, t("lobby.game"), " ", game)), presets, fold,
    el("p", {}, el("button", { type: "submit", class: "primary" }, t("lobby.create_table"))));
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
  const createBox = el("div", { class: "create-box" }, el("p", { class: "muted" }, t("lobby.loading_games")));
  const quickBox = el("div", { class: "quick-box" });
  app.replaceChildren(el("div", { class: "page lobby" },
    el("h1", {}, t("lobby.title")),
    el("section", { class: "quick" }, el("h2", {}, t("lobby.quick.title")), quickBox),
    tableOf(t("lobby.yours"), mine),
    tableOf(t("lobby.live"), live),
    tableOf(t("lobby.waiting"), waiting),
    tableOf(t("lobby.ended"), ended),
    el("h2", {}, t("lobby.create")), createBox));
  try {
    const catalogue = await games();
    titles = Object.fromEntries(catalogue.map((g) => [g.game, gameTitle(g.game, g.title)]));
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
