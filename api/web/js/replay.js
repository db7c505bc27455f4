// Replay controls (design §5 "replay?at=N"): a slider over the table's versions
// (input[type=range][name=version], the tests' selector), step back and forward, jump to a
// hand's start, play/pause with a speed, and "live". The page decides what a position shows;
// these controls only say which position is wanted: seek(n) or live(). Right to left
// (Persian) the slider runs from the right, so "back" points right and ← steps forward.

import { el } from "./format.js";
import { dir, t } from "./i18n.js";

const RTL = dir === "rtl";
const BACK = RTL ? "▶" : "◀";
const FORWARD = RTL ? "◀" : "▶";
const START = RTL ? "⇥" : "⇤";
const END = RTL ? "⇤" : "⇥";

const SPEEDS = [1, 2, 4, 8]; // events per second

export function replayControls({ seek, live }) {
  let head = 1;
  let at = null; // null: live
  let starts = new Map();
  let timer = null;
  let speed = 2;

  const slider = el("input", { type: "range", name: "version", min: 1, max: 1, value: 1,
    "aria-label": t("replay.version_label") });
  const position = el("output", { class: "position", "aria-live": "polite" }, "");
  const playButton = el("button", { type: "button", title: t("replay.play_title") }, `${FORWARD} ${t("replay.play")}`);
  const liveButton = el("button", { type: "button", class: "live-button", title: t("replay.live_title") },
    `● ${t("replay.live")}`);
  const hands = el("select", { name: "hand", "aria-label": t("replay.hands_label") });
  const speedSelect = el("select", { name: "speed", "aria-label": t("replay.speed_label") },
    SPEEDS.map((s) => el("option", { value: s, selected: s === speed }, t("replay.speed", { n: s }))));

  const current = () => (at === null ? head : at);
  const go = (n) => {
    const target = Math.max(1, Math.min(head, n));
    seek(target);
  };
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = null;
    playButton.textContent = `${FORWARD} ${t("replay.play")}`;
  };
  const play = () => {
    if (current() >= head) go(1);
    timer = setInterval(() => {
      if (current() >= head) { pause(); return; }
      go(current() + 1);
    }, 1000 / speed);
    playButton.textContent = `⏸ ${t("replay.pause")}`;
  };
  // The start of the hand shown now, or of the previous hand when already there.
  const handStart = () => {
    const now = current();
    const before = [...starts.values()].filter((v) => v < now);
    go(before.length ? Math.max(...before) : 1);
  };

  slider.addEventListener("input", () => { pause(); go(Number(slider.value)); });
  playButton.addEventListener("click", () => (timer ? pause() : play()));
  liveButton.addEventListener("click", () => { pause(); live(); });
  hands.addEventListener("change", () => { pause(); if (hands.value) go(Number(hands.value)); });
  speedSelect.addEventListener("change", () => {
    speed = Number(speedSelect.value);
    if (timer) { pause(); play(); }
  });

  const element = el("div", { class: "replay", role: "group", "aria-label": t("replay.label") },
    el("div", { class: "replay-buttons" },
      el("button", { type: "button", title: t("replay.hand_start_title"), onclick: () => { pause(); handStart(); } },
        `${START} ${t("replay.hand_start")}`),
      el("button", { type: "button", title: t(RTL ? "replay.back_title_rtl" : "replay.back_title"),
        "aria-label": t("replay.back"), onclick: () => { pause(); go(current() - 1); } }, BACK),
      playButton,
      el("button", { type: "button", title: t(RTL ? "replay.forward_title_rtl" : "replay.forward_title"),
        "aria-label": t("replay.forward"), onclick: () => { pause(); go(current() + 1); } }, FORWARD),
      speedSelect, hands, liveButton),
    el("label", { class: "slider" }, slider, position));

  // Keyboard: ← → step, Home the hand's start, space play/pause, L live.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input:not([type=range]), select, textarea")) return;
    const back = () => go(current() - 1);
    const forward = () => go(current() + 1);
    const keys = {
      ArrowLeft: RTL ? forward : back, ArrowRight: RTL ? back : forward,
      Home: handStart, " ": () => (timer ? pause() : play()), l: () => live(),
    };
    if (event.target === slider && event.key.startsWith("Arrow")) return; // the slider's own
    const action = keys[event.key];
    if (action) { event.preventDefault(); if (event.key !== " ") pause(); action(); }
  });

  return {
    element,
    // head: the latest version the viewer may see; at: the wanted version (null = live).
    update(state) {
      head = state.head;
      at = state.at;
      starts = state.starts || starts;
      // shown: the version on the board (live, a settled hand is held a moment: watch.js)
      const shown = state.shown ?? current();
      slider.max = String(head);
      slider.value = String(shown);
      // an ended table is never "live": its last version is the end
      const where = state.ended ? (shown >= head ? "ended" : "") : at === null ? "live" : "";
      const held = at === null && shown < head ? state.note || t("replay.note.settled") : "";
      position.textContent = t("replay.position", { shown, head, where: where || "none", note: held || "none", held });
      liveButton.disabled = at === null && !state.ended;
      liveButton.textContent = state.ended ? `${END} ${t("replay.end")}` : `● ${t("replay.live")}`;
      const options = [el("option", { value: "" }, t("replay.jump")),
        ...[...starts.entries()].map(([hand, version]) => el("option", { value: version },
          t("replay.hand_option", { hand, version })))];
      if (hands.options.length !== options.length) hands.replaceChildren(...options);
      hands.value = "";
    },
    pause,
  };
}
