// The turn clock (design §9): a table with option turn_seconds gives its views a `deadline`
// (ISO time). The seat to act shows the seconds left, from that deadline and the browser's
// clock, updated every second by one timer for the whole page.

import { el } from "./format.js";
import { t } from "./i18n.js";

export function secondsLeft(deadline, now = Date.now()) {
  return Math.max(0, Math.ceil((Date.parse(deadline) - now) / 1000));
}

// The countdown badge for a seat to act, or null when the view has no deadline.
export function countdown(view) {
  if (!view.deadline || view.status !== "playing") return null;
  return el("span", { class: "badge countdown", "data-deadline": view.deadline,
    title: t("core.clock.title") }, t("core.clock.seconds", { n: secondsLeft(view.deadline) }));
}

function tick() {
  for (const node of document.querySelectorAll("[data-deadline]")) {
    node.textContent = t("core.clock.seconds", { n: secondsLeft(node.dataset.deadline) });
  }
}

setInterval(tick, 1000);
