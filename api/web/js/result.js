// A hand's result and a table's end, told beside the table (issue 21 "read the result").
// Test contract: [data-result] around a hand's result (data-result="hand", data-hand="n")
// and the table's final standings (data-result="table"). The figures come from the events
// the page may see (the event that settles the hand, which holds its money or score flow),
// drawn by the game's board module (handResult, standings) so they equal the ledger's; a
// game without them gets the settling event in words. Nothing later than the version on
// screen is told (no spoilers while replaying).

import { el, seatName } from "./format.js";
import { SEP, t } from "./i18n.js";
import { describe, describeType, endReason, settling } from "./table.js";

// The result shown at version `upto`: the last hand settled by then, and the final standings
// once the table has ended (unless `final` is false: the play page shows them in place of the
// hand). ctx: { names, view, tableId, links, final } (links: each settled hand's history and
// provably-fair check, for the watch page).
export function resultPanel(game, events, upto, { names = [], view = null, tableId = "", links = false, final = true } = {}) {
  const seen = events.filter((e) => e.version <= upto);
  const settles = settling(game);
  const settled = seen.filter((e) => settles.includes(e.type));
  const ended = seen.find((e) => e.type === "TableEnded");
  const box = el("div", { class: "results" });
  if (ended && final) box.append(tableResult(game, seen, ended, { names, view }));
  const last = settled[settled.length - 1];
  if (last) {
    const module = game.module;
    const told = module.handResult ? module.handResult(last, { names, view, events: seen }) : null;
    box.append(el("section", { class: "result hand-result-box", "data-result": "hand", "data-hand": last.hand,
      "aria-label": t("result.hand_label", { hand: last.hand }) },
    el("h2", {}, t("result.hand_title", { hand: last.hand })),
    told || el("p", {}, describe(game, last, names)),
    links ? reviewLine(last.hand, tableId, names) : null));
  }
  if (links && settled.length) box.append(handLinks(settled, tableId, game.name));
  return box.childElementCount ? box : null;
}

// The table's end: why, and the final standings (the game's standings, best first).
export function tableResult(game, seen, ended, { names, view }) {
  const module = game.module;
  const rows = module.standings ? module.standings(seen, { names, view }) : [];
  return el("section", { class: "result table-result", "data-result": "table", role: "status",
    "aria-label": t("result.table_label") },
  el("h2", {}, t("result.table_title")),
  el("p", {}, ended.reason ? t("result.why", { reason: endReason(ended) }) : ""),
  rows.length ? el("ol", { class: "standings" }, rows.map((row) => {
    // equal values share a place (1, 1, 3)
    const place = 1 + rows.filter((other) => other.value > row.value).length;
    return el("li", { value: place, "data-place": row.seat, "data-value": row.value.toString() },
      el("strong", {}, row.name), " ", place === 1 ? t("result.standing_first", { shown: row.shown }) : row.shown);
  })) : null);
}

// Each settled hand's history (its events told in order) and its provably-fair check (the
// deal's commitment, deck and salt), as the API serves them.
function handLinks(settled, tableId, gameName) {
  const base = `/tables/${encodeURIComponent(tableId)}/hands`;
  return el("details", { class: "hand-links" }, el("summary", {}, t("result.links.title")),
    el("ul", {}, settled.map((e) => el("li", { "data-hand": e.hand },
      t("result.links.hand", { hand: e.hand, how: describeType(e.type, gameName) }), " ",
      el("a", { href: `${base}/${e.hand}/history`, "data-history": e.hand }, t("result.links.history")), SEP,
      el("a", { href: `${base}/${e.hand}/verify`, "data-verify": e.hand }, t("result.links.verify"))))));
}

// Each seat's review of a settled hand: what the search bot would have played (review.js).
function reviewLine(hand, tableId, names) {
  const base = `/review/${encodeURIComponent(tableId)}/${hand}`;
  return el("p", { class: "review-links" }, t("review.link.lead"), " ", names.flatMap((name, seat) => [
    seat ? SEP : "",
    el("a", { href: `${base}?seat=${seat}`, "data-review": seat }, seatName(name, seat))]));
}
