// The page's language (design §5, "Languages"; issue 26). Every word a person reads goes
// through t(key, params) (key: "area.word"): the key's ICU MessageFormat string in the chosen
// language, formatted by FormatJS intl-messageformat (vendored, api/web/vendor/intl-messageformat) with
// the browser's Intl (plurals, numbers, dates). A key the language has no word for yet shows
// its English string (formatted with English plural rules) — never the raw key.
//
// The language: ?lang=<code> in the address, else the one chosen before (cookie "lang" and
// localStorage), else the browser's languages (what it sends as Accept-Language), else English.
// This module loads the catalog (GET /i18n/<code>.json) with a top-level await, so every
// module importing it runs with its words ready; it sets <html lang dir>, the page title, the
// header's words (data-i18n) and the header's language picker (select[data-lang-picker]).

import { IntlMessageFormat } from "../vendor/intl-messageformat/intl-messageformat.js";

// The card room's languages: code, own name, direction (api/i18n.py LANGUAGES, the same).
export const LANGUAGES = [
  { code: "en", name: "English", dir: "ltr" },
  { code: "it", name: "Italiano", dir: "ltr" },
  { code: "kn", name: "ಕನ್ನಡ", dir: "ltr" },
  { code: "bn", name: "বাংলা", dir: "ltr" },
  { code: "fa", name: "فارسی", dir: "rtl" },
  { code: "mn", name: "Монгол", dir: "ltr" },
  { code: "gu", name: "ગુજરાતી", dir: "ltr" },
];
const CODES = LANGUAGES.map((l) => l.code);
const STORE_KEY = "cardroom.lang";
const COOKIE = "lang";
const YEAR = 365 * 24 * 3600;

const known = (code) => {
  const base = String(code || "").toLowerCase().split(/[-_]/)[0];
  return CODES.includes(base) ? base : null;
};

function fromCookie() {
  const found = document.cookie.split(";").map((c) => c.trim().split("="))
    .find(([name]) => name === COOKIE);
  return found ? decodeURIComponent(found[1] || "") : null;
}

function fromStorage() {
  try {
    return localStorage.getItem(STORE_KEY);
  } catch {
    return null; // storage refused (private mode)
  }
}

// The language of this page, by the order of the module comment.
export function chooseLanguage() {
  const asked = known(new URLSearchParams(location.search).get("lang"));
  if (asked) return { code: asked, from: "url" };
  const kept = known(fromCookie()) || known(fromStorage());
  if (kept) return { code: kept, from: "kept" };
  for (const tag of navigator.languages || [navigator.language]) {
    const code = known(tag);
    if (code) return { code, from: "browser" };
  }
  return { code: "en", from: "default" };
}

// Keep a chosen language for later pages (cookie and storage).
export function keepLanguage(code) {
  document.cookie = `${COOKIE}=${encodeURIComponent(code)}; path=/; max-age=${YEAR}; SameSite=Lax`;
  try {
    localStorage.setItem(STORE_KEY, code);
  } catch {
    // storage refused: the cookie still carries it
  }
}

// This page's address in another language (?lang=<code>, the rest kept).
export function addressIn(code, href = location.href) {
  const url = new URL(href, location.href);
  url.searchParams.set("lang", code);
  return url.pathname + url.search + url.hash;
}

async function load(code) {
  try {
    const answer = await fetch(`/i18n/${code}.json`, { headers: { Accept: "application/json" } });
    if (answer.ok) return await answer.json();
  } catch {
    // the network failed: English below
  }
  return null;
}

const choice = chooseLanguage();
if (choice.from === "url") keepLanguage(choice.code);
const catalog = (await load(choice.code)) || (await load("en")) ||
  { lang: "en", dir: "ltr", messages: {}, fallback: {} };

// The page's language code and direction ("ltr" or "rtl").
export const lang = catalog.lang;
export const dir = catalog.dir;

const compiled = new Map();

// The compiled message of `key`: { format (an IntlMessageFormat), english (whether English
// stands in for a word this language lacks) }, or null when no catalog has the key.
function formatter(key) {
  if (compiled.has(key)) return compiled.get(key);
  let found = null;
  const own = catalog.messages[key];
  const english = catalog.fallback[key];
  for (const [text, locale] of [[own, lang], [english, "en"]]) {
    if (typeof text !== "string") continue;
    try {
      const format = new IntlMessageFormat(text, locale);
      found = { format, english: locale !== lang, selects: selectNames(format.getAst()) };
      break;
    } catch (error) {
      console.warn(`i18n: message ${key} (${locale}) does not parse`, error);
    }
  }
  compiled.set(key, found);
  return found;
}

// The arguments a message chooses by ({x, select, …}): their values are matched, not shown.
const SELECT = 5; // the parser's element type of a select (@formatjs/icu-messageformat-parser)
function selectNames(elements, names = new Set()) {
  for (const element of elements) {
    if (element.type === SELECT) names.add(element.value);
    for (const option of Object.values(element.options || {})) selectNames(option.value, names);
    if (element.children) selectNames(element.children, names);
  }
  return names;
}

// Right to left, a word of another direction (a Latin name, a card code) put in a message
// is isolated (FSI … PDI), so its parentheses and digits stay in place.
const isolate = (text) => (dir === "rtl" ? `\u2068${text}\u2069` : text);

// Parameters as intl-messageformat takes them: a BigInt (chips, api.js parseJSON) becomes a
// number when exact, else its digits in this language; a string is isolated right to left.
function plain(params, selects) {
  const out = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === "string" && !selects.has(name)) {
      out[name] = isolate(value);
    } else if (typeof value === "bigint") {
      const exactly = value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER);
      out[name] = exactly ? Number(value) : number(value);
    } else {
      out[name] = value;
    }
  }
  return out;
}

// The words of `key` in the page's language with `params` put in (ICU MessageFormat).
export function t(key, params = {}) {
  const message = formatter(key);
  if (!message) {
    console.warn(`i18n: no message ${key}`);
    return key.split(".").pop().replaceAll("_", " ");
  }
  try {
    const text = String(message.format.format(plain(params, message.selects)));
    // English standing in for a missing word reads left to right inside a right-to-left page
    return message.english && dir === "rtl" ? `\u2066${text}\u2069` : text;
  } catch (error) {
    console.warn(`i18n: message ${key} failed to format`, error);
    return String(catalog.messages[key] ?? catalog.fallback[key]);
  }
}

// Whether the catalog has a message for `key` (in this language or in English).
export const has = (key) => key in catalog.messages || key in catalog.fallback;

// The first key of `keys` that exists, formatted; `otherwise` when none does (e.g. a game's
// own word for an option, else the shared one).
export function tFirst(keys, params = {}, otherwise = "") {
  const key = keys.find(has);
  return key ? t(key, params) : otherwise;
}

const numbers = new Intl.NumberFormat(lang, { maximumFractionDigits: 0 });

// What the pages put between the facts of one line ("hand 1 · trick play · stock 33"): a
// middle dot, but in Persian the Arabic comma — a middle dot there reads as a Persian zero (۰).
export const SEP = lang === "fa" ? " ، " : " · ";

// An integer (number or BigInt) in this language's digits and grouping; the minus sign is
// U+2212. Persian shows Persian digits and Bengali Bengali digits (their CLDR defaults).
export function number(n) {
  const value = typeof n === "bigint" ? n : Math.trunc(Number(n));
  return numbers.format(value).replace(/^-/, "−");
}

// A date and time in this language (Intl.DateTimeFormat options, default: date and time).
export function dateTime(value, options = { dateStyle: "medium", timeStyle: "short" }) {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return "";
  return new Intl.DateTimeFormat(lang, options).format(date);
}

// A list joined as the language joins it ("a, b and c").
// A browser without the language's list data (Chromium has none for Mongolian) would answer
// in English: the list is then joined with the catalog's own "and" (core.list_and).
export function list(items, type = "conjunction") {
  // English as the pages write it: no serial comma ("Ann, Bob and Cy")
  const locale = lang === "en" ? "en-GB" : lang;
  const words = items.map(String);
  if (Intl.ListFormat.supportedLocalesOf([locale]).length) {
    return new Intl.ListFormat(locale, { style: "long", type }).format(words);
  }
  const comma = dir === "rtl" ? "، " : ", ";
  if (type !== "conjunction" || words.length < 2) return words.join(comma);
  return `${words.slice(0, -1).join(comma)} ${t("core.list_and")} ${words[words.length - 1]}`;
}

function wirePage() {
  const root = document.documentElement;
  root.lang = lang;
  root.dir = dir;
  const page = root.dataset.page;
  if (page && has(`core.page.${page}`)) document.title = t(`core.page.${page}`);
  for (const node of document.querySelectorAll("[data-i18n]")) {
    node.textContent = t(node.dataset.i18n);
  }
  for (const node of document.querySelectorAll("[data-i18n-title]")) {
    node.title = t(node.dataset.i18nTitle);
  }
  for (const node of document.querySelectorAll("[data-i18n-label]")) {
    node.setAttribute("aria-label", t(node.dataset.i18nLabel));
  }
  for (const picker of document.querySelectorAll("select[data-lang-picker]")) {
    picker.replaceChildren();
    for (const language of LANGUAGES) {
      const option = document.createElement("option");
      option.value = language.code;
      option.lang = language.code;
      option.textContent = language.name;
      option.selected = language.code === lang;
      picker.append(option);
    }
    picker.addEventListener("change", () => {
      keepLanguage(picker.value);
      location.assign(addressIn(picker.value));
    });
  }
  // A page in a language other than English carries it in its address, so a shared link
  // opens in the same language.
  const url = new URL(location.href);
  if (lang !== "en" && url.searchParams.get("lang") !== lang) {
    url.searchParams.set("lang", lang);
    history.replaceState(history.state, "", url.pathname + url.search + url.hash);
  }
}

wirePage();
