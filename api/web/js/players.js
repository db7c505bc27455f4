// /players/{name}: an account's profile — its kind (a bot badge), its rating per game and
// its recent tables (newest first), each linked to its watch page.
import { el, notice } from "/static/js/format.js";
import { t } from "/static/js/i18n.js";
import { accountBox, gameWord, profile, ratingDetail, shownRating } from "/static/js/people.js";

const app = document.getElementById("app");
const name = decodeURIComponent(location.pathname.split("/").pop());

async function show() {
  const box = el("section", { class: "account-box" });
  app.replaceChildren(box, el("h1", {}, name));
  await accountBox(box);
  try {
    const found = await profile(name);
    const rows = Object.entries(found.ratings).map(([game, r]) =>
      el("tr", {}, el("td", {}, gameWord(game)), el("td", { class: "rating" }, shownRating(r)),
        el("td", {}, ratingDetail(r)), el("td", {}, el("a", { href: `/leaderboard?game=${encodeURIComponent(game)}&pool=${r.pool}` },
          t("accounts.profile.leaderboard")))));
    app.append(
      el("p", { class: "kind" }, found.bot ? el("span", { class: "badge" }, t("accounts.bot"))
        : t(`accounts.kind.${found.kind}`)),
      rows.length
        ? el("table", { class: "ratings" }, el("thead", {}, el("tr", {}, el("th", {}, t("accounts.profile.game")),
          el("th", {}, t("accounts.profile.rating")), el("th", {}, t("accounts.profile.detail")), el("th", {}))), el("tbody", {}, rows))
        : el("p", { class: "muted" }, t("accounts.profile.not_rated")),
      el("h2", {}, t("accounts.profile.recent")),
      recentTables(found.recentTables || []),
      el("p", {}, el("a", { href: found.links.stats }, t("accounts.profile.statistics"))),
    );
  } catch (error) {
    notice(app, error.words ? error.words() : String(error));
  }
}

function recentTables(tables) {
  if (!tables.length) return el("p", { class: "muted" }, t("accounts.profile.no_table"));
  const rows = tables.map((table) => el("tr", {},
    el("td", {}, gameWord(table.game)), el("td", {}, t(`accounts.status.${table.status}`)),
    el("td", {}, (table.players || []).filter(Boolean).join(", ")),
    el("td", {}, el("a", { href: table.status === "ended" ? `${table.links.watch}?at=1` : table.links.watch },
      table.status === "ended" ? t("lobby.replay") : t("lobby.watch")))));
  return el("table", { class: "recent-tables" },
    el("thead", {}, el("tr", {}, el("th", {}, t("accounts.profile.game")), el("th", {}, t("accounts.profile.status")),
      el("th", {}, t("accounts.profile.players")), el("th", {}))),
    el("tbody", {}, rows));
}

show();
