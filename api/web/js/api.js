// The API client of the web card room: every call of design §5 the pages make, JSON parsed
// with exact integers, problem details turned into words, and the live SSE stream.

import { has, lang, t } from "./i18n.js";

// Problem types are "urn:cardroom:problem:<slug>" (api/problems.py); the slug names the
// message a page shows (errors.type.<slug>), whatever the server's English detail says.
const PROBLEM_BASE = "urn:cardroom:problem:";

// Integers past 2^53 (chips without a pot limit may compound past it) become
// BigInt: JSON.parse hands the reviver the number's source text, so nothing is rounded.
export function parseJSON(text) {
  return JSON.parse(text, (key, value, context) => {
    if (typeof value === "number" && !Number.isSafeInteger(value) && context
        && /^-?\d+$/.test(context.source)) {
      return BigInt(context.source);
    }
    return value;
  });
}

// A refusal from the server (RFC 9457 problem details: type, title, status, detail, and the
// rule, option or field that is wrong).
export class Problem extends Error {
  constructor(body, status) {
    super(body.detail || body.title || `HTTP ${status}`);
    this.status = body.status || status;
    this.title = body.title || "";
    this.type = body.type || "";
    this.detail = body.detail || "";
    this.rule = body.rule;
    this.option = body.option;
    this.field = body.field;
  }

  // The problem type's slug ("illegal-command"), or "" for a body without one.
  get slug() {
    return this.type.startsWith(PROBLEM_BASE) ? this.type.slice(PROBLEM_BASE.length) : "";
  }

  // The refusal in words a player can act on, e.g. "Not allowed: it is seat 1's turn". The
  // server's detail is English: in English it is shown as it is; in another language the
  // problem type's message stands for it (errors.type.<slug>), with the rule, option or field.
  words() {
    const status = has(`errors.status.${this.status}`) ? t(`errors.status.${this.status}`)
      : this.title || t("errors.refused");
    const own = has(`errors.type.${this.slug}`) ? t(`errors.type.${this.slug}`) : "";
    const detail = lang === "en" || !own ? this.detail || own : own;
    const params = { what: status, detail, rule: this.rule, option: this.option, field: this.field };
    if (this.rule) return t("errors.refusal_rule", params);
    if (this.option) return t("errors.refusal_option", params);
    if (this.field) return t("errors.refusal_field", params);
    return t("errors.refusal", params);
  }
}

// Any failure in words: a Problem's own words, or the error's message.
export const words = (error) => (error && error.words ? error.words() : String(error && error.message || error));

function headers(token, extra = {}) {
  const h = { Accept: "application/json", ...extra };
  if (token) h.Authorization = `Bearer ${token}`;
  return h;
}

// One call of the API: JSON in and out, a refusal (or no answer) thrown as a Problem.
export async function call(method, path, { token, body, extra } = {}) {
  const init = { method, headers: headers(token, extra) };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    throw new Problem({ title: t("errors.network"), detail: String(error.message || error) }, 0);
  }
  const text = await response.text();
  const parsed = text ? parseJSON(text) : null;
  if (!response.ok) throw new Problem(parsed || {}, response.status);
  return parsed;
}

const table = (id) => `/tables/${encodeURIComponent(id)}`;

// GET /tables: the lobby's open tables (waiting or playing), or those of one status
// (waiting|playing|ended), optionally of one game; one page of up to 200 lines.
export function lobby(game, status) {
  const query = new URLSearchParams({ limit: "200" });
  if (game) query.set("game", game);
  if (status) query.set("status", status);
  return call("GET", `/tables?${query}`);
}
// GET /games: every game with its title, options (name, type, default, min, max, choices,
// label, rule, …) and the URL of its board renderer module.
export const games = () => call("GET", "/games");
// POST /tables: {game, options, seed?} -> {tableId, version, position}.
export const createTable = (body) => call("POST", "/tables", { body });
// POST /tables/{id}/fork: {at, seat} -> {tableId, forkOf, at, seat, token}: a sandbox from that
// position as the caller saw it (design §9.3), the token playing the seat.
export const fork = (id, token, body) => call("POST", `${table(id)}/fork`, { token, body });
// POST /tables/{id}/seats: {name, seat?} -> {seat, token} (the token is shown only once).
export const takeSeat = (id, name, seat) =>
  call("POST", `${table(id)}/seats`, { body: seat === undefined ? { name } : { name, seat } });
// POST /tables/{id}/seats {bot, seat?}: a server-side bot of a kind (GET /bots) takes a seat.
export const addBot = (id, bot, seat) =>
  call("POST", `${table(id)}/seats`, { body: seat === undefined ? { bot } : { bot, seat } });
// GET /bots: each game's bot kinds with a one-line description.
export const bots = () => call("GET", "/bots");
// GET /tables/{id}: the table as the caller may see it (a seat with its token, or a spectator).
// ?after=<position> (read-your-writes) waits, bounded, until the read models have caught up.
export const view = (id, token, after) =>
  call("GET", after ? `${table(id)}?after=${after}` : table(id), { token });
// GET /tables/{id}/legal: the caller's legal commands, as command objects ready to post.
export const legal = (id, token) => call("GET", `${table(id)}/legal`, { token });
// GET /tables/{id}/timeline?from=&limit=: the events as the caller may see them, every page
// (the server answers at most TIMELINE_PAGE events a call; a full page means more may follow).
const TIMELINE_PAGE = 1000;
export async function timeline(id, token, from) {
  const events = [];
  let next = from || 1;
  for (;;) {
    const page = await call("GET", `${table(id)}/timeline?from=${next}&limit=${TIMELINE_PAGE}`, { token });
    events.push(...page);
    if (page.length < TIMELINE_PAGE) return events;
    next = page[page.length - 1].version + 1;
  }
}
// GET /tables/{id}/replay?at=N: the caller's view as of version N (time travel).
export const replay = (id, at, token) => call("GET", `${table(id)}/replay?at=${at}`, { token });
// GET /tables/{id}/ledger: the game's ledger (chips or scores per hand, design §5).
export const ledger = (id) => call("GET", `${table(id)}/ledger`);
// GET /tables/{id}/spectators: {"spectators": n}, the open spectators' streams of the table.
export const spectators = (id) => call("GET", `${table(id)}/spectators`);
// POST /tables/{id}/commands with the seat's token and an Idempotency-Key (a retry is safe).
export const command = (id, token, body) =>
  call("POST", `${table(id)}/commands`, {
    token, body, extra: { "Idempotency-Key": crypto.randomUUID() },
  });

// GET /tables/{id}/stream: Server-Sent Events redacted for the caller. Read with fetch (an
// EventSource cannot send the seat's Authorization header); reconnects with Last-Event-ID
// and stops for good once the table has ended (the server closes the stream after
// TableEnded). onEvent(event) gets each event with its version; onOpen() is called each time
// the stream (re)opens; returns a stop function.
export function stream(id, token, onEvent, { after, onOpen } = {}) {
  let stopped = false;
  let controller = null;
  let last = after;
  let ended = false;
  (async () => {
    while (!stopped && !ended) {
      controller = new AbortController();
      const extra = last === undefined || last === null ? {} : { "Last-Event-ID": String(last) };
      try {
        const response = await fetch(`${table(id)}/stream`, {
          headers: headers(token, { Accept: "text/event-stream", ...extra }),
          signal: controller.signal,
        });
        if (!response.ok) { ended = response.status === 404; throw new Error(response.status); }
        if (onOpen) onOpen();
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = "";
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value.replace(/\r\n/g, "\n");
          let cut;
          while ((cut = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const data = block.split("\n").filter((l) => l.startsWith("data:"))
              .map((l) => l.slice(5).replace(/^ /, "")).join("\n");
            if (!data) continue;
            const event = parseJSON(data);
            last = event.version;
            if (event.type === "TableEnded") ended = true;
            onEvent(event);
          }
        }
      } catch (error) {
        if (stopped) return;
      }
      if (!stopped && !ended) await new Promise((r) => setTimeout(r, 1500));
    }
  })();
  return () => { stopped = true; if (controller) controller.abort(); };
}
