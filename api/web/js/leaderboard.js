// /leaderboard: each game's ratings, highest first (people, or bots apart), a page at a time.
import { el, notice } from "/static/js/format.js";
import { accountBox, games, leaderboard, playerLink, ratingDetail, shownRating } from "/static/js/people.js";

const app = document.getElementById("app");
const query = new URLSearchParams(location.search);

async function show() {
  const box = el("section", { class: "account-box" });
  const list = el("ol", { class: "leaderboard" });
  const more = el("button", { type: "button", hidden: true }, "More");
  const pick = el("select", { name: "game" });
  const pool = el("select", { name: "pool" }, el("option", { value: "players" }, "people"), el("option", { value: "bots" }, "bots"));
  app.replaceChildren(box, el("h1", {}, "Leaderboard"), el("p", {}, pick, " ", pool), list, more);
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
      if (!list.children.length) list.append(el("li", { class: "muted" }, "Nobody rated yet."));
    } catch (error) {
      notice(app, error.words ? error.words() : String(error));
    }
  };
  try {
    for (const game of await games()) pick.append(el("option", { value: game.game }, game.title || game.game));
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
