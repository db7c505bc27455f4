// Cards drawn by the project in CSS (no images): rank and suit pips, red and black suits,
// the joker (JK) and a face-down back. Each face card carries its suit as a class
// (suit-clubs, …): the four-colour deck (deck.js) colours clubs and diamonds. Test contract: every card element
// carries data-card="<code>" ("back" when face down) and nothing else does; a legal,
// clickable card carries data-legal="true".

import { el } from "./format.js";
import { has, t } from "./i18n.js";

export const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
// the suits' names as CSS classes (suit-clubs, …), never shown: the words are the catalog's
const SUIT_NAMES = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
// Rank order for sorting a hand: ace high, then the suits grouped.
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER = ["S", "H", "C", "D"];

export function split(code) {
  if (code === "JK") return { rank: "JK", suit: null };
  return { rank: code.slice(0, -1), suit: code.slice(-1) };
}

// A card's accessible name in the page's language: "queen of hearts" (cards.name.QH; each
// card has its own message, so a language can give each its grammar), "joker", "face-down card".
export function cardName(code) {
  if (has(`cards.name.${code}`)) return t(`cards.name.${code}`);
  const { rank, suit } = split(code);
  return t("cards.name.other", { rank: t(`cards.rank.${rank}`), suit: t(`cards.suit.${suit}`) });
}

// A suit's name in words ("hearts").
export const suitName = (suit) => t(`cards.suit.${suit}`);
// A rank's name in words ("queen", "7").
export const rankName = (rank) => t(`cards.rank.${rank}`);

// A hand sorted for reading: by suit (alternating colours), then rank; jokers last.
export function sortHand(codes, trump) {
  const key = (code) => {
    const { rank, suit } = split(code);
    if (rank === "JK") return 1000;
    const suitIndex = suit === trump ? -1 : SUIT_ORDER.indexOf(suit);
    return (suitIndex + 1) * 20 + RANK_ORDER.indexOf(rank);
  };
  return [...codes].sort((a, b) => key(a) - key(b));
}

// One card element. Options: legal (clickable: a <button> with data-legal="true"),
// selected, onPick(code), size ("small"), note (e.g. what a wild stands for).
export function card(code, { legal = false, selected = false, onPick, size, note, label } = {}) {
  const clickable = legal && onPick;
  const { rank, suit } = split(code);
  const classes = ["card"];
  if (code === "back") classes.push("back");
  else if (rank === "JK") classes.push("joker");
  else classes.push(suit === "H" || suit === "D" ? "red" : "black", `suit-${SUIT_NAMES[suit]}`);
  if (size) classes.push(size);
  if (selected) classes.push("selected");
  if (clickable) classes.push("legal");
  const attrs = {
    class: classes.join(" "),
    "data-card": code,
    "aria-label": label || (note ? t("cards.with_note", { card: cardName(code), note }) : cardName(code)),
    title: label || (note ? t("cards.with_note_title", { card: cardName(code), note }) : cardName(code)),
  };
  let node;
  if (clickable) {
    node = el("button", { ...attrs, type: "button", "data-legal": "true",
      "aria-pressed": selected ? "true" : "false", onclick: () => onPick(code) });
  } else {
    node = el("span", { ...attrs, role: "img" });
  }
  if (code !== "back") {
    const pip = rank === "JK" ? "★" : SUITS[suit];
    const shown = rank === "JK" ? "JK" : rank;
    node.append(
      el("span", { class: "corner", "aria-hidden": "true" }, shown, el("br"), pip),
      el("span", { class: "pip", "aria-hidden": "true" }, pip),
    );
  }
  if (note) node.append(el("span", { class: "note", "aria-hidden": "true" }, note));
  return node;
}

// n face-down cards, drawn overlapping (a hand the viewer may not see).
export function backs(n, size) {
  const row = el("div", { class: "cards fan backs" });
  for (let i = 0; i < n; i += 1) row.append(card("back", { size }));
  return row;
}

// A row of face-up cards (fan: overlapping, as a hand is held).
export function row(codes, { fan = false, size } = {}) {
  const line = el("div", { class: fan ? "cards fan" : "cards" });
  for (const code of codes) line.append(card(code, { size }));
  return line;
}

// Whether two lists hold the same card codes, in any order (a selection and a legal command).
export const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();
