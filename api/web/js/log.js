// The table's whole log beside the table (issue 21 "see every move"): one line per event of
// the timeline the page may see, narrated in words by the game's board module (its
// describe(event, names), table.js) with the table's own events told generically — never a
// raw event type. Test contract: ol[data-log] > li[data-version]. On /watch each line is a
// link to that version (?at=N); the line of the version on screen is marked aria-current.
// A hand's first line carries a "hand n" heading so a long evening stays readable.

import { el } from "./format.js";
import { t } from "./i18n.js";
import { describe } from "./table.js";

// The log element, kept by the page and filled by update() on every render.
export function eventLog({ seek } = {}) {
  const list = el("ol", { class: "event-log", "data-log": "", "aria-label": t("log.list_label") });
  const box = el("section", { class: "log-panel", "aria-label": t("log.panel_label") },
    el("h2", {}, t("log.title")), list);
  let shown = 0;
  let drawn = 0;
  let lastName = "";

  // A line's words: the version, then what happened.
  const line = (game, event, names) => {
    const words = describe(game, event, names);
    const attrs = { "data-version": event.version, "data-type": event.type };
    if (event.hand && event.type === "Dealt") attrs.class = "hand-start";
    const version = () => el("span", { class: "v" }, t("log.version", { version: event.version }));
    if (!seek) return el("li", attrs, version(), " ", words);
    const link = el("a", { href: `?at=${event.version}`, onclick: (click) => {
      if (click.ctrlKey || click.metaKey || click.shiftKey) return; // a new tab: follow the href
      click.preventDefault();
      seek(event.version);
    } }, version(), " ", words);
    return el("li", attrs, link);
  };

  return {
    element: box,
    // events: the page's timeline; upto: the version on screen; names: the seats' names.
    update(game, events, names, upto) {
      const visible = events.filter((e) => e.version <= upto);
      const nameKey = names.join("\u0001");
      // Lines are appended as events arrive; a seek back, a new name or a new game redraws all.
      if (visible.length < drawn || nameKey !== lastName) {
        list.replaceChildren();
        drawn = 0;
      }
      lastName = nameKey;
      const stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 24;
      for (const event of visible.slice(drawn)) list.append(line(game, event, names));
      drawn = visible.length;
      if (shown !== upto) {
        const old = list.querySelector("[aria-current]");
        if (old) old.removeAttribute("aria-current");
        const now = list.lastElementChild;
        if (now) now.setAttribute("aria-current", "step");
        shown = upto;
      }
      if (stick || !seek) box.scrollTop = box.scrollHeight; // follow the newest line
    },
  };
}
