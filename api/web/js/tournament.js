// /tournaments/{id}: one event (design §10) — its entries (and, while it waits, entering and
// starting it), the standings kept live while it plays, every round's tables with a link to
// watch each, and each board: closed until every table of its round has played it, then its
// traveller (every table's result side by side, the deck checked against its commitment).
import { words } from "/static/js/api.js";
import { el, exact, notice } from "/static/js/format.js";
import { list, t } from "/static/js/i18n.js";
import { gameWord } from "/static/js/people.js";
import { formatWord, json } from "/static/js/tournament_words.js";

const app = document.getElementById("app");
const id = decodeURIComponent(location.pathname.split("/")[2] || "");
const base = `/tournaments/${encodeURIComponent(id)}`;
const LIVE_EVERY_MS = 1000; // re-read while it plays: the standings move as rounds end
let shown = null; // the traveller open on the page (a board number)

const names = (event, entry) => {
  const found = event.entries.find((e) => e.entry === entry);
  return found ? list(found.names) : `#${entry}`;
};

function entries(event) {
  const box = el("section", { id: "entries" }, el("h2", {}, t("tournaments.entries")),
    el("ul", {}, ...event.entries.map((e) => el("li", { "data-entry": e.entry }, list(e.names)))));
  if (event.status !== "waiting") return box;
  const field = el("input", { name: "names", required: true, maxlength: 70 });
  const enter = el("form", { class: "enter" },
    el("label", {}, t("tournaments.entry"), " ", field),
    el("button", { type: "submit" }, t("tournaments.enter")));
  enter.onsubmit = async (event_) => {
    event_.preventDefault();
    const given = field.value.split(",").map((n) => n.trim()).filter(Boolean);
    try {
      const made = await json("POST", `${base}/entries`, given.length > 1 ? { names: given } : { name: given[0] || "" });
      notice(app, t("tournaments.entered", { names: list(made.names), tokens: made.tokens.join(" ") }), "info");
      await refresh();
    } catch (error) {
      notice(app, words(error));
    }
  };
  const start = el("button", { type: "button", id: "start" }, t("tournaments.start"));
  start.onclick = async () => {
    try {
      await json("POST", `${base}/start`);
      await live();
    } catch (error) {
      notice(app, words(error));
    }
  };
  box.append(enter, start);
  return box;
}

function standings(event) {
  const rows = event.standings.map((row) => el("tr", { "data-entry": row.entry },
    el("td", {}, exact(row.rank)), el("td", {}, list(row.names)), el("td", { class: "score" }, exact(row.score)),
    el("td", {}, exact(row.tiebreak)), el("td", {}, exact(row.played))));
  const ended = event.rounds.filter((r) => r.ended).map((r) => r.round);
  return el("section", {},
    el("h2", {}, t("tournaments.standings")),
    el("p", { class: "muted", id: "standings-note" },
      t("tournaments.standings.note", { rounds: ended.length, last: ended.length ? ended[ended.length - 1] : 0 })),
    el("table", { id: "standings" },
      el("thead", {}, el("tr", {}, ...["rank", "entry", "score", "tiebreak", "played"].map((c) => el("th", {}, t(`tournaments.col.${c}`))))),
      el("tbody", {}, ...rows)));
}

function rounds(event) {
  return el("section", { id: "rounds" }, el("h2", {}, t("tournaments.rounds")),
    ...event.rounds.map((round) => el("div", { "data-round": round.round },
      el("h3", {}, t(round.ended ? "tournaments.round_ended" : "tournaments.round", { round: round.round })),
      el("ul", {}, ...round.tables.map((table) => el("li", { "data-table": table.tableId },
        table.boards.length
          ? t("tournaments.table_boards", { table: table.table + 1, boards: table.boards.length, list: list(table.boards.map(String)) })
          : t("tournaments.table", { table: table.table + 1 }),
        " — ", table.entries.map((entry) => names(event, entry)).join(" · "), " ",
        el("a", { href: table.links.watch }, t("tournaments.watch")),
        table.finished ? el("span", { class: "muted" }, " · ", t("tournaments.finished")) : null))),
      round.byes.length ? el("p", {}, t("tournaments.byes", { names: list(round.byes.map((e) => names(event, e))) })) : null)));
}

function boards(event) {
  if (!event.boards.length) return null;
  return el("section", { id: "boards" }, el("h2", {}, t("tournaments.boards")),
    el("ul", {}, ...event.boards.map((board) => el("li", { "data-board": board.board },
      t("tournaments.board", { board: board.board }), " ",
      el("code", { title: t("tournaments.commitment", { commitment: board.commitment }) }, board.commitment.slice(0, 12)), " ",
      board.open
        ? el("button", { type: "button", class: "traveller", onclick: () => traveller(board.board) }, t("tournaments.traveller"))
        : el("span", { class: "closed muted" }, t("tournaments.board_closed"))))),
    el("div", { id: "traveller" }));
}

async function sha256(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function traveller(number) {
  shown = number;
  const box = document.getElementById("traveller");
  try {
    const found = await json("GET", `${base}/boards/${number}`);
    const sides = found.tables.length ? found.tables[0].result.sides.map((s) => s.seats) : [];
    const checks = (await sha256(`${found.deck.join(" ")}|${found.salt}`)) === found.commitment;
    box.replaceChildren(el("h3", {}, t("tournaments.traveller_of", { board: number })),
      el("table", { class: "traveller-table" },
        el("thead", {}, el("tr", {}, el("th", {}, t("tournaments.col.table")),
          ...sides.flatMap((seats) => [el("th", {}, t("tournaments.col.side", { seats: list(seats.map(String)) })),
            el("th", {}, t("tournaments.col.points")), el("th", {}, t("tournaments.col.board_score"))]))),
        el("tbody", {}, ...found.tables.map((row) => el("tr", { "data-table": row.tableId },
          el("td", {}, el("a", { href: `/watch/${row.tableId}` }, t("tournaments.table", { table: (row.table ?? 0) + 1 }))),
          ...row.result.sides.flatMap((side) => [el("td", {}, list(side.names)), el("td", {}, exact(side.score)),
            el("td", { class: "board-score" }, exact(side.boardScore))]))))),
      checks ? el("p", { class: "muted" }, t("tournaments.deck_checked")) : null);
  } catch (error) {
    notice(box, words(error));
  }
}

async function refresh() {
  const event = await json("GET", base);
  app.replaceChildren(
    el("h1", {}, event.name || t("tournaments.heading", { game: gameWord(event.game), format: formatWord(event.format) })),
    el("p", { id: "status", "data-status": event.status }, t(`tournaments.status.${event.status}`)),
    entries(event), standings(event), rounds(event), boards(event) || "");
  if (shown !== null && event.boards.some((b) => b.board === shown && b.open)) await traveller(shown);
  return event;
}

async function live() {
  try {
    const event = await refresh();
    if (event.status === "playing") setTimeout(live, LIVE_EVERY_MS); // waiting: the form stays as typed
  } catch (error) {
    notice(app, words(error));
    setTimeout(live, LIVE_EVERY_MS * 5);
  }
}

live();
