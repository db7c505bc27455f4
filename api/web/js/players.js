// /players/{name}: an account's profile — its kind (a bot badge) and its rating per game.
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
      el("p", {}, el("a", { href: found.links.stats }, "statistics")),
    );
  } catch (error) {
    notice(app, error.words ? error.words() : String(error));
  }
}

show();
