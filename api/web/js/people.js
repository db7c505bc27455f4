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

// --- the people at a table (issue 22): names as the accounts hold them now, and ratings ---
// A seat taken by an account (PlayerSeated.account) or a bot (PlayerSeated.bot) is shown as
// the account's profile answers now (GET /players/{name}, looked up once per name per page):
// a guest's seat at a table played before the guest claimed a name shows the claimed name
// (the table's own events keep the name it sat under: its history is not rewritten), and
// a rated account or bot shows its rating in the table's game beside its name.
const profiles = new Map(); // a seat's name -> Promise of its profile (null: none)

function lookUp(name) {
  if (!profiles.has(name)) profiles.set(name, profile(name).catch(() => null));
  return profiles.get(name);
}

// Each seat's person now: [{seat, sat, name, kind, rating}] for the seats accounts and bots
// hold after `events` (the table's timeline), a rating only when the game's is known; `again`
// looks every profile up afresh.
export async function peopleAt(events, game, again = false) {
  if (again) profiles.clear(); // a hand settled: ratings moved
  const sat = new Map();
  for (const event of events) {
    if (event.type === "PlayerSeated") sat.set(event.seat, event.account || event.bot ? event.name : null);
    if (event.type === "SeatLeft") sat.delete(event.seat);
  }
  const found = await Promise.all([...sat].filter(([, name]) => name).map(async ([seat, name]) => {
    const now = await lookUp(name);
    return now && { seat, sat: name, name: now.name, kind: now.kind, rating: (now.ratings || {})[game] || null };
  }));
  return found.filter(Boolean);
}

// The view with each account's seat under the name the account holds now.
export function namedNow(view, people) {
  if (!people || !people.length) return view;
  const now = new Map(people.map((p) => [p.seat, p]));
  return { ...view, seats: view.seats.map((s) => (now.has(s.seat) && s.name === now.get(s.seat).sat
    ? { ...s, name: now.get(s.seat).name } : s)) };
}

// Beside each rated seat's name in a drawn board (section[data-seat] .name): its rating —
// only where the view shows that person at the seat (a replay before they sat shows none).
export function rateSeats(board, people, view) {
  for (const person of people || []) {
    const name = board.querySelector(`section[data-seat="${person.seat}"] .name`);
    const shown = view && view.seats[person.seat] ? view.seats[person.seat].name : person.name;
    if (!name || (shown !== person.name && shown !== person.sat)) continue;
    if (person.name !== person.sat) name.title = t("accounts.sat_as", { name: person.sat });
    if (!person.rating) continue;
    const label = t(person.kind.startsWith("bot:") ? "accounts.rating_of.bot" : "accounts.rating_of.person");
    name.after(" ", el("span", { class: "badge rating", "data-rating": person.rating.ordinal,
      title: t("accounts.rating_title", { label, detail: ratingDetail(person.rating) }) },
    t("accounts.rating_badge", { label, rating: shownRating(person.rating) })));
  }
}
