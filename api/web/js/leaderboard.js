// /leaderboard: each game's ratings, highest first (people, or bots apart), a page at a time.
import { el, notice } from "/static/js/format.js";
import { t } from "/static/js/i18n.js";
import { accountBox, gameWord, games, leaderboard, playerLink, ratingDetail, shownRating } from "/static/js/people.js";

const app = document.getElementById("app");
const query = new URLSearchParams(location.search);

async function show() {
  const box = el("section", { class: "account-box" });
  const list = el("ol", { class: "leaderboard" });
  const more = el("button", { type: "button", hidden: true }, t("accounts.leaderboard.more"));
  const pick = el("select", { name: "game", "aria-label": t("accounts.profile.game") });
  const pool = el("select", { name: "pool", "aria-label": t("accounts.leaderboard.pool") },
    el("option", { value: "players" }, t("accounts.leaderboard.people")),
    el("option", { value: "bots" }, t("accounts.leaderboard.bots")));
  app.replaceChildren(box, el("h1", {}, t("accounts.leaderboard.title")), el("p", {}, pick, " ", pool), list, more);
  await accountBox(box);
  let cursor = null;
  const load = async (fresh) => {
    if (fresh) { list.replaceChildren(); cursor = null; }
    try {
      const { body, link } = await leaderboard(pick.value, pool.value, cursor);
      for (const line of body) {
        list.append(el("li", {}, playerLink(line.name, pool.value === "bots" ? "bot:" : "player"), " ",
          el("strong", { class: "rating" }, shownRating(line)), " ", el("span", { class: "muted" }, ratingDetail(line))));
      }
      const next = link && /cursor=(\d+)/.exec(link);
      cursor = next ? next[1] : null;
      more.hidden = !cursor;
      if (!list.children.length) list.append(el("li", { class: "muted" }, t("accounts.leaderboard.nobody")));
    } catch (error) {
      notice(app, error.words ? error.words() : String(error));
    }
  };
  try {
    for (const game of await games()) pick.append(el("option", { value: game.game }, gameWord(game.game, game.title)));
  } catch (error) {
    notice(app, error.words ? error.words() : String(error));
  }
  if (query.get("game")) pick.value = query.get("game");
  if (query.get("pool")) pool.value = query.get("pool");
  pick.onchange = pool.onchange = () => load(true);
  more.onclick = () => load(false);
  await load(true);
}

show();
