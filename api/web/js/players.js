// /players/{name}: an account's profile — its kind (a bot badge), its rating per game and
// its recent tables (newest first), each linked to its watch page.
import { el, notice } from "/static/js/format.js";
import { accountBox, profile, ratingDetail, shownRating } from "/static/js/people.js";

const app = document.getElementById("app");
const name = decodeURIComponent(location.pathname.split("/").pop());

async function show() {
  const box = el("section", { class: "account-box" });
  app.replaceChildren(box, el("h1", {}, name));
  await accountBox(box);
  try {
    const found = await profile(name);
    const rows = Object.entries(found.ratings).map(([game, r]) =>
      el("tr", {}, el("td", {}, game), el("td", { class: "rating" }, shownRating(r)),
        el("td", {}, ratingDetail(r)), el("td", {}, el("a", { href: `/leaderboard?game=${encodeURIComponent(game)}&pool=${r.pool}` }, "leaderboard"))));
    app.append(
      el("p", { class: "kind" }, found.bot ? el("span", { class: "badge" }, "bot") : found.kind),
      rows.length
        ? el("table", { class: "ratings" }, el("thead", {}, el("tr", {}, el("th", {}, "game"), el("th", {}, "rating"), el("th", {}, "detail"), el("th", {}))), el("tbody", {}, rows))
        : el("p", { class: "muted" }, "Not rated yet: ratings come from tables where every seat is a signed-in account."),
      el("h2", {}, "Recent tables"),
      recentTables(found.recentTables || []),
      el("p", {}, el("a", { href: found.links.stats }, "statistics")),
    );
  } catch (error) {
    notice(app, error.words ? error.words() : String(error));
  }
}

function recentTables(tables) {
  if (!tables.length) return el("p", { class: "muted" }, "No table yet.");
  const rows = tables.map((t) => el("tr", {},
    el("td", {}, t.game), el("td", {}, t.status), el("td", {}, (t.players || []).filter(Boolean).join(", ")),
    el("td", {}, el("a", { href: t.status === "ended" ? `${t.links.watch}?at=1` : t.links.watch },
      t.status === "ended" ? "replay" : "watch"))));
  return el("table", { class: "recent-tables" },
    el("thead", {}, el("tr", {}, el("th", {}, "game"), el("th", {}, "status"), el("th", {}, "players"), el("th", {}))),
    el("tbody", {}, rows));
}

show();
