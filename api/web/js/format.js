// Numbers and names as the pages show them, in the page's language (i18n.js). Every number
// is exact: chips may be BigInt (parseJSON in api.js), so nothing here goes through floating
// point (Intl.NumberFormat formats a BigInt exactly).

import { number, t } from "./i18n.js";

// An integer (number or BigInt) with the language's digits and thousands separators, e.g.
// 9,007,199,254,740,993 in English, ۹٬۰۰۷٬… in Persian.
export function exact(n) {
  if (n === null || n === undefined) return "—";
  return number(n);
}

// A signed amount (a player's net): +3, −2, 0.
export function signed(n) {
  const big = toBig(n);
  return big > 0n ? `+${exact(big)}` : exact(big);
}

// Any integer as a BigInt, for exact sums (chips = buy_in + net).
export const toBig = (n) => (typeof n === "bigint" ? n : BigInt(Math.trunc(Number(n ?? 0))));

// An element with text and attributes: el("span", {class: "x"}, "text", child, …).
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

// The seat's display name, or "seat n" while it is empty.
export const seatName = (name, seat) => name || t("core.seat", { seat });

// A message line shown to the player (problem details in words, or a note).
export function notice(root, text, kind = "error") {
  let box = root.querySelector(".notice");
  if (!box) {
    box = el("p", { class: "notice", role: "alert" });
    root.prepend(box);
  }
  box.className = `notice ${kind}`;
  box.textContent = text;
  box.hidden = !text;
}
