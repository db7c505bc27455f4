// The SVG chart across hands of what each game's module reads off the ledger (GET
// /tables/{id}/ledger) and the timeline (its chartSeries: chips per player, score per team, …).
// Both axes are drawn and labelled (x: the hands, y: the units, with its zero line); each line
// has its own colour, dash pattern and marker shape, so lines stay apart without colour too.
// Positions are approximate (pixels), every label is exact (BigInt-safe).

import { exact, signed } from "./format.js";
import { number, t } from "./i18n.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#c92a2a", "#1864ab", "#2b8a3e", "#862e9c", "#e67700", "#0b7285", "#5f3dc4", "#495057"];
const DASHES = ["", "6 3", "2 3", "8 3 2 3"];
const MARKERS = ["circle", "square", "diamond", "triangle"];

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// A marker of shape `kind` centred at (cx, cy).
function marker(kind, cx, cy, colour) {
  const r = 3.5;
  if (kind === "square") return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, fill: colour });
  if (kind === "diamond") {
    return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy} ${cx},${cy + r + 1} ${cx - r - 1},${cy}`, fill: colour });
  }
  if (kind === "triangle") {
    return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy + r} ${cx - r - 1},${cy + r}`, fill: colour });
  }
  return svg("circle", { cx, cy, r, fill: colour });
}

// The x axis's labels a board module gives (chartSeries labels): the start, and each hand.
export const startLabel = () => ({ text: t("chart.start"), tick: t("chart.start") });
export const handLabel = (hand) => ({ text: t("chart.hand", { hand }), tick: number(hand) });

// A point's label on the x axis: a string, or { text, tick } (the words, the short tick).
const labelText = (l) => (typeof l === "string" ? l : l.text);

// Up to five round tick values from low to high, zero among them.
function ticks(low, high) {
  const span = high - low || 1;
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((m) => m >= raw) || raw;
  const out = [];
  for (let v = Math.ceil(low / step) * step; v <= high + 1e-9; v += step) out.push(Math.round(v));
  if (!out.includes(0) && low <= 0 && high >= 0) out.push(0);
  return out;
}

// A line chart of the series; the legend shows each line's current value exactly.
// units: the y axis's label; upto: the version the chart stops at (a replay), or null.
export function chart({ labels, series }, { title, signedValues = false, units = "", upto = null } = {}) {
  if (labels.length < 2) {
    const empty = document.createElement("p");
    empty.className = "muted chart-box";
    empty.textContent = upto ? t("chart.empty_by", { title, version: upto }) : t("chart.empty", { title });
    return empty;
  }
  const width = 560;
  const height = 240;
  const pad = { left: 56, right: 16, top: 16, bottom: 40 };
  const all = series.flatMap((s) => s.values.map(Number));
  const low = Math.min(0, ...all);
  const high = Math.max(1, ...all);
  const x = (i) => pad.left + ((width - pad.left - pad.right) * i) / Math.max(1, labels.length - 1);
  const y = (v) => pad.top + (height - pad.top - pad.bottom) * (1 - (Number(v) - low) / (high - low || 1));
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img",
    "aria-label": title || t("chart.label") });
  root.append(svg("title", {}, title || t("chart.label")));
  // the axes: y on the left with its ticks, x at the bottom; the zero line dashed
  root.append(svg("line", { x1: pad.left, x2: pad.left, y1: pad.top, y2: height - pad.bottom, class: "axis y-axis" }));
  root.append(svg("line", { x1: pad.left, x2: width - pad.right, y1: height - pad.bottom, y2: height - pad.bottom,
    class: "axis x-axis" }));
  for (const v of ticks(low, high)) {
    root.append(svg("line", { x1: pad.left - 4, x2: width - pad.right, y1: y(v), y2: y(v),
      class: v === 0 ? "grid zero" : "grid" }));
    root.append(svg("text", { x: pad.left - 6, y: y(v) + 4, class: "tick", "text-anchor": "end" },
      signedValues ? signed(BigInt(v)) : exact(v)));
  }
  const step = Math.max(1, Math.ceil(labels.length / 8));
  labels.forEach((label, i) => {
    if (i % step === 0 || i === labels.length - 1) {
      root.append(svg("text", { x: x(i), y: height - pad.bottom + 14, class: "tick", "text-anchor": "middle" },
        typeof label === "string" ? label.replace("hand ", "") : label.tick));
    }
  });
  root.append(svg("text", { x: (pad.left + width - pad.right) / 2, y: height - 6, class: "axis-label",
    "text-anchor": "middle" }, t("chart.x_axis")));
  root.append(svg("text", { x: 12, y: (pad.top + height - pad.bottom) / 2, class: "axis-label",
    "text-anchor": "middle", transform: `rotate(-90 12 ${(pad.top + height - pad.bottom) / 2})` }, units || t("chart.y_axis")));
  const style = (n) => ({ colour: COLOURS[n % COLOURS.length], dash: DASHES[n % DASHES.length],
    shape: MARKERS[n % MARKERS.length] });
  // lines with equal values are drawn a pixel or two apart, so none hides another
  const nudge = (n) => (n - (series.length - 1) / 2) * 2;
  series.forEach((s, n) => {
    const { colour, dash, shape } = style(n);
    const d = s.values.map((v, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${(y(v) + nudge(n)).toFixed(1)}`).join(" ");
    root.append(svg("path", { d, fill: "none", stroke: colour, "stroke-width": 2.5, "stroke-dasharray": dash,
      "data-series": s.name }));
    s.values.forEach((v, i) => {
      const dot = marker(shape, x(i), y(v) + nudge(n), colour);
      dot.append(svg("title", {}, t("chart.point", { name: s.name, label: labelText(labels[i]),
        value: signedValues ? signed(v) : exact(v) })));
      root.append(dot);
    });
  });
  const legend = document.createElement("ul");
  legend.className = "legend";
  series.forEach((s, n) => {
    const { colour, dash, shape } = style(n);
    const item = document.createElement("li");
    const swatch = svg("svg", { width: 28, height: 12, viewBox: "0 0 28 12", "aria-hidden": "true" });
    swatch.append(svg("line", { x1: 1, x2: 27, y1: 6, y2: 6, stroke: colour, "stroke-width": 2.5,
      "stroke-dasharray": dash }), marker(shape, 14, 6, colour));
    item.append(swatch);
    // the ledger's value now (e.g. after this hand's antes too), exact; a replay: its last point
    const value = signedValues ? signed(s.now) : exact(s.now);
    item.append(" ", upto ? t("chart.legend_at", { name: s.name, value, version: upto })
      : t("chart.legend_now", { name: s.name, value }));
    legend.append(item);
  });
  const figure = document.createElement("figure");
  figure.className = "chart-box";
  const caption = document.createElement("figcaption");
  caption.textContent = title || "";
  figure.append(caption, root, legend);
  return figure;
}
