// /tournaments: every event, newest first, and the form that creates one (design §10).
import { words } from "/static/js/api.js";
import { el, notice } from "/static/js/format.js";
import { t } from "/static/js/i18n.js";
import { gameWord, games } from "/static/js/people.js";
import { formatWord, json } from "/static/js/tournament_words.js";

const app = document.getElementById("app");

function line(found) {
  const text = t("tournaments.line", {
    game: gameWord(found.game), format: formatWord(found.format),
    status: t(`tournaments.status.${found.status}`), entries: found.entries, places: found.places,
  });
  return el("li", { "data-tournament": found.tournamentId },
    el("a", { href: `/tournaments/${found.tournamentId}` }, found.name || text), " ",
    found.name ? el("span", { class: "muted" }, text) : null);
}

function number(name, label, value, max) {
  return el("label", {}, label, " ", el("input", { type: "number", name, min: 1, max, value, required: true }));
}

async function form() {
  const game = el("select", { name: "game" });
  for (const entry of await games()) game.append(el("option", { value: entry.game }, gameWord(entry.game, entry.title)));
  const format = el("select", { name: "format" },
    ...["duplicate", "swiss", "sit-and-go"].map((f) => el("option", { value: f }, formatWord(f))));
  const bots = el("select", { name: "bots" });
  const kinds = async () => {
    const all = await json("GET", "/bots");
    bots.replaceChildren(el("option", { value: "" }, t("tournaments.field.no_bots")),
      ...Object.keys(all[game.value] || {}).map((kind) => el("option", { value: kind }, kind)));
  };
  game.onchange = kinds;
  await kinds();
  const box = el("form", { class: "create-tournament" },
    el("h2", {}, t("tournaments.create")),
    el("label", {}, t("tournaments.field.name"), " ", el("input", { name: "name", maxlength: 80 })),
    el("label", {}, t("tournaments.field.game"), " ", game),
    el("label", {}, t("tournaments.field.format"), " ", format),
    number("tables", t("tournaments.field.tables"), 2, 50),
    number("rounds", t("tournaments.field.rounds"), 1, 50),
    number("boardsPerRound", t("tournaments.field.boards"), 1, 20),
    el("label", {}, t("tournaments.field.bots"), " ", bots),
    el("label", {}, t("tournaments.field.bots_after"), " ",
      el("input", { type: "number", name: "botsAfterSeconds", min: 1, max: 86400 })),
    el("button", { type: "submit" }, t("tournaments.create")));
  box.onsubmit = async (event) => {
    event.preventDefault();
    const data = new FormData(box);
    const body = {
      game: data.get("game"), format: data.get("format"), name: data.get("name") || "",
      tables: Number(data.get("tables")), rounds: Number(data.get("rounds")),
      boardsPerRound: Number(data.get("boardsPerRound")), bots: data.get("bots") || null, options: {},
    };
    if (body.format === "sit-and-go") Object.assign(body, { tables: 1, rounds: 1 });
    const wait = data.get("botsAfterSeconds");
    if (body.format === "sit-and-go" && wait) body.botsAfterSeconds = Number(wait);
    try {
      const made = await json("POST", "/tournaments", body);
      location.assign(`/tournaments/${made.tournamentId}`);
    } catch (error) {
      notice(app, words(error));
    }
  };
  return box;
}

async function show() {
  const list = el("ul", { id: "tournaments" });
  app.replaceChildren(el("h1", {}, t("tournaments.title")), list);
  try {
    const all = await json("GET", "/tournaments");
    list.append(...all.map(line));
    if (!all.length) list.append(el("li", { class: "muted" }, t("tournaments.none")));
    app.append(await form());
  } catch (error) {
    notice(app, words(error));
  }
}

show();
