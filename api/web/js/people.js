// Accounts, sessions and ratings (design §2.2) as the web pages use them: the session travels
// in the HttpOnly cookie the server sets (the page never sees the token), so these calls
// carry no Authorization header; writes are same-site (the server refuses others).
import { Problem, parseJSON } from "/static/js/api.js";
import { el, notice } from "/static/js/format.js";
import { t, tFirst } from "/static/js/i18n.js";
import * as held from "/static/js/seats.js";

async function call(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  const parsed = text ? parseJSON(text) : null;
  if (!response.ok) throw new Problem(parsed || {}, response.status);
  return { body: parsed, link: response.headers.get("Link") };
}

export const me = () => call("GET", "/me").then((r) => r.body, () => null);
// The seat the signed-in account holds at a table, with its token ({seat, token, name}), or
// null: any device of the account continues the seat (issue 22).
export const mySeat = (tableId) => call("GET", `/me/seats/${encodeURIComponent(tableId)}`)
  .then((r) => r.body, () => null);
export const register = (name, password) => call("POST", "/accounts", { name, password });
export const signIn = (name, password) => call("POST", "/sessions", { name, password });
export const signOut = () => call("DELETE", "/sessions/current");
export const guest = () => call("POST", "/guests");
export const claim = (name, password) => call("POST", "/me/claim", { name, password });
export const profile = (name) => call("GET", `/players/${encodeURIComponent(name)}`).then((r) => r.body);
export const games = () => call("GET", "/games").then((r) => r.body);
export function leaderboard(game, pool, cursor) {
  const query = new URLSearchParams({ game, pool });
  if (cursor) query.set("cursor", cursor);
  return call("GET", `/leaderboard?${query}`);
}

// "μ 27.6 · σ 8.1 · 3 hands", and the displayed rating (the ordinal) on its own.
export const shownRating = (r) => (r ? t("accounts.rating", { rating: r.ordinal }) : "–");
export const ratingDetail = (r) => t("accounts.rating_detail", { mu: r.mu, sigma: r.sigma, hands: r.hands });
// A game's title in the page's language (<game>.title), else its own name.
export const gameWord = (game, english) => tFirst([`${game}.title`], {}, english || game);

// A bot's name carries a badge; a person's a link to their profile.
export function playerLink(name, kind) {
  const link = el("a", { href: `/players/${encodeURIComponent(name)}` }, name);
  return kind && kind.startsWith("bot:") ? el("span", {}, link, " ", el("span", { class: "badge" }, t("accounts.bot"))) : link;
}

// The sign-in box: who is signed in, or forms to register, sign in, or play as a guest (and
// claim it). ``changed`` runs after every change of session.
export async function accountBox(root, changed = () => {}) {
  const who = await me();
  root.replaceChildren();
  const form = (label, act) => {
    const name = el("input", { name: "name", placeholder: t("accounts.name"), autocomplete: "username", required: true });
    const password = el("input", { name: "password", type: "password", placeholder: t("accounts.password"), required: true });
    return el("form", {
      class: "account-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await act(name.value, password.value);
          await accountBox(root, changed);
          changed();
        } catch (error) {
          notice(root, error.words ? error.words() : String(error));
        }
      },
    }, name, password, el("button", { type: "submit" }, label));
  };
  const out = el("button", {
    type: "button",
    onclick: async () => {
      await signOut().catch(() => null);
      held.forgetAccountSeats(); // the account's seats no longer answer on this device
      await accountBox(root, changed);
      changed();
    },
  }, t("accounts.sign_out"));
  if (who && who.kind === "guest") {
    root.append(el("p", { class: "signed-in" }, t("accounts.guest_as"), " ", el("strong", {}, who.name), " ", out),
      el("p", { class: "muted" }, t("accounts.keep_games")), form(t("accounts.claim"), claim));
  } else if (who) {
    root.append(el("p", { class: "signed-in" }, t("accounts.signed_in_as"), " ", playerLink(who.name, who.kind), " ", out));
  } else {
    root.append(form(t("accounts.sign_in"), signIn),
      form(t("accounts.register"), async (n, p) => { await register(n, p); await signIn(n, p); }),
      el("button", { type: "button", onclick: async () => { await guest(); await accountBox(root, changed); changed(); } },
        t("accounts.play_as_guest")));
  }
  return who;
}
