// The SVG chart across hands: Bourré chips (net) per player, Burraco score per team, from the
// ledger (GET /tables/{id}/ledger) and, for Bourré's per-hand nets, the timeline's chip events.
// Positions are approximate (pixels), every label is exact (BigInt-safe).

import { exact, signed, toBig } from "./format.js";

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#d9480f", "#1971c2", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599", "#e03131", "#5c940d"];

function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// Bourré: each player's net after every settled hand. Chips move only by the antes (Anted:
// amount from each of seats, rules 2, 30, 33) and the settlement (HandSettled: payouts, and
// bourrePayment from each bourré seat, rules 23–25), exactly as the ledger sums them.
export function bourreSeries(ledger, events) {
  const nets = ledger.players.map(() => 0n);
  const points = [];
  for (const event of events) {
    if (event.type === "Anted") {
      for (const seat of event.seats) nets[seat] -= toBig(event.amount);
    } else if (event.type === "HandSettled") {
      event.payouts.forEach((paid, seat) => { nets[seat] += toBig(paid); });
      for (const seat of event.bourre) nets[seat] -= toBig(event.bourrePayment);
      points.push({ hand: event.hand, values: [...nets] });
    }
  }
  return {
    labels: ["start", ...points.map((p) => `hand ${p.hand}`)],
    series: ledger.players.map((p, i) => ({
      name: p.name || `seat ${p.seat}`,
      values: [0n, ...points.map((pt) => pt.values[i])],
      now: p.net, // the ledger's net, exact
    })),
  };
}

// Burraco: each team's running score after every scored hand (ledger hands[].scores).
export function burracoSeries(ledger) {
  const totals = ledger.teams.map(() => 0n);
  const values = ledger.teams.map(() => [0n]);
  for (const hand of ledger.hands) {
    hand.scores.forEach((score, team) => {
      totals[team] += toBig(score);
      values[team].push(totals[team]);
    });
  }
  return {
    labels: ["start", ...ledger.hands.map((h) => `hand ${h.hand}`)],
    series: ledger.teams.map((t, i) => ({ name: `Team ${t.team}`, values: values[i], now: t.total })),
  };
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
    // the ledger's value now (Bourré: after this hand's antes too), exact
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
