// The SVG chart across hands of what each game's module reads off the ledger (GET
// /tables/{id}/ledger) and the timeline (its chartSeries: chips per player, score per team, …).
// Positions are approximate (pixels), every label is exact (BigInt-safe).

import { exact, signed } from "./format.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#d9480f", "#1971c2", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599", "#e03131", "#5c940d"];

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A line chart of the series; the legend shows each line's current value exactly.
export function chart({ labels, series }, { title, signedValues = false } = {}) {
  if (labels.length < 2) {
    const empty = document.createElement("p");
    empty.className = "muted chart-box";
    empty.textContent = `${title}: no hand has settled yet.`;
    return empty;
  }
  const width = 560;
  const height = 220;
  const pad = { left: 16, right: 16, top: 16, bottom: 28 };
  const all = series.flatMap((s) => s.values.map(Number));
  const low = Math.min(0, ...all);
  const high = Math.max(1, ...all);
  const x = (i) => pad.left + ((width - pad.left - pad.right) * i) / Math.max(1, labels.length - 1);
  const y = (v) => pad.top + (height - pad.top - pad.bottom) * (1 - (Number(v) - low) / (high - low || 1));
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-label": title || "chart" });
  root.append(svg("title", {}, title || "chart"));
  root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: y(0), y2: y(0), class: "axis" }));
  const step = Math.max(1, Math.ceil(labels.length / 8));
  labels.forEach((label, i) => {
    if (i % step === 0 || i === labels.length - 1) {
      root.append(svg("text", { x: x(i), y: height - 8, class: "tick", "text-anchor": "middle" },
        label.replace("hand ", "")));
    }
  });
  series.forEach((s, n) => {
    const colour = COLOURS[n % COLOURS.length];
    const d = s.values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    root.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": 2 }));
    s.values.forEach((v, i) => {
      const dot = svg("circle", { cx: x(i), cy: y(v), r: 3, fill: colour });
      dot.append(svg("title", {}, `${s.name}, ${labels[i]}: ${signedValues ? signed(v) : exact(v)}`));
      root.append(dot);
    });
  });
  const legend = document.createElement("ul");
  legend.className = "legend";
  series.forEach((s, n) => {
    const item = document.createElement("li");
    item.style.setProperty("--colour", COLOURS[n % COLOURS.length]);
    // the ledger's value now (e.g. after this hand's antes too), exact
    item.textContent = `${s.name}: ${signedValues ? signed(s.now) : exact(s.now)} now`;
    legend.append(item);
  });
  const figure = document.createElement("figure");
  figure.className = "chart-box";
  const caption = document.createElement("figcaption");
  caption.textContent = title || "";
  figure.append(caption, root, legend);
  return figure;
}
