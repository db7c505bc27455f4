// Replay controls (design §5 "replay?at=N"): a slider over the table's versions
// (input[type=range][name=version], the tests' selector), step back and forward, jump to a
// hand's start, play/pause with a speed, and "live". The page decides what a position shows;
// these controls only say which position is wanted: seek(n) or live().

import { el } from "./format.js";

const SPEEDS = [1, 2, 4, 8]; // events per second

export function replayControls({ seek, live }) {
  let head = 1;
  let at = null; // null: live
  let starts = new Map();
  let timer = null;
  let speed = 2;

  const slider = el("input", { type: "range", name: "version", min: 1, max: 1, value: 1,
    "aria-label": "table version" });
  const position = el("output", { class: "position", "aria-live": "polite" }, "");
  const playButton = el("button", { type: "button", title: "play / pause (space)" }, "▶ play");
  const liveButton = el("button", { type: "button", class: "live-button", title: "follow the table live (L)" }, "● live");
  const hands = el("select", { name: "hand", "aria-label": "jump to a hand's start" });
  const speedSelect = el("select", { name: "speed", "aria-label": "replay speed" },
    SPEEDS.map((s) => el("option", { value: s, selected: s === speed }, `${s}×`)));

  const current = () => (at === null ? head : at);
  const go = (n) => {
    const target = Math.max(1, Math.min(head, n));
    seek(target);
  };
  const pause = () => {
    if (timer) clearInterval(timer);
    timer = null;
    playButton.textContent = "▶ play";
  };
  const play = () => {
    if (current() >= head) go(1);
    timer = setInterval(() => {
      if (current() >= head) { pause(); return; }
      go(current() + 1);
    }, 1000 / speed);
    playButton.textContent = "⏸ pause";
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

  const element = el("div", { class: "replay", role: "group", "aria-label": "replay" },
    el("div", { class: "replay-buttons" },
      el("button", { type: "button", title: "start of the hand (Home)", onclick: () => { pause(); handStart(); } }, "⇤ hand start"),
      el("button", { type: "button", title: "step back (←)", onclick: () => { pause(); go(current() - 1); } }, "◀"),
      playButton,
      el("button", { type: "button", title: "step forward (→)", onclick: () => { pause(); go(current() + 1); } }, "▶"),
      speedSelect, hands, liveButton),
    el("label", { class: "slider" }, slider, position));

  // Keyboard: ← → step, Home the hand's start, space play/pause, L live.
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input:not([type=range]), select, textarea")) return;
    const keys = {
      ArrowLeft: () => go(current() - 1), ArrowRight: () => go(current() + 1),
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
      const where = state.ended ? (shown >= head ? " · ended" : "") : at === null ? " · live" : "";
      position.textContent = `version ${shown} of ${head}${where}`
        + (at === null && shown < head ? ` (${state.note || "the hand just settled"})` : "");
      liveButton.disabled = at === null && !state.ended;
      liveButton.textContent = state.ended ? "⇥ end" : "● live";
      const options = [el("option", { value: "" }, "jump to hand…"),
        ...[...starts.entries()].map(([hand, version]) => el("option", { value: version }, `hand ${hand} (v${version})`))];
      if (hands.options.length !== options.length) hands.replaceChildren(...options);
      hands.value = "";
    },
    pause,
  };
}
