// High card's board renderer (the interface: /static/js/table.js), served from this package
// as any game's (GET /games: board). Each seat with its name, its hands won, its cards face
// up when the view holds them (face down otherwise) and the card it played; the hand's winner.

import { backs, card, cardName, row } from "/static/js/cards.js";
import { el, seatName } from "/static/js/format.js";

export function renderBoard(view, { perspective = "all", own = null } = {}) {
  const seats = el("div", { class: "seats" });
  for (const seat of view.seats) {
    const visible = seat.cards && seat.seat !== own && (perspective === "all" || perspective === seat.seat);
    seats.append(el("section", { class: "seat", "data-seat": seat.seat,
      "aria-label": `seat ${seat.seat}: ${seatName(seat.name, seat.seat)}` },
    el("header", {}, el("strong", { class: "name" }, seatName(seat.name, seat.seat)),
      ` · ${seat.wins} hand${seat.wins === 1 ? "" : "s"} won`),
    visible ? row(seat.cards, { size: "small" }) : backs(seat.cardCount || 0, "small"),
    seat.played ? el("figure", { class: "played" }, card(seat.played), el("figcaption", {}, "played")) : null));
  }
  const winner = view.winner === null || view.winner === undefined ? "" : ` · ${seatName(view.seats[view.winner].name, view.winner)} wins`;
  return el("div", { class: "board highcard", "data-game": "highcard" }, seats,
    el("p", { class: "phase" }, `high card · hand ${view.hand}${winner}`));
}

export const settles = ["HandWon"];

export function describe(event, names = []) {
  const who = seatName(names[event.seat], event.seat);
  if (event.type === "Dealt") return `hand ${event.hand} dealt`;
  if (event.type === "CardPlayed") return `${who} played ${cardName(event.card)}`;
  if (event.type === "HandWon") return `${who} wins hand ${event.hand} with ${cardName(event.card)}`;
  return undefined;
}
