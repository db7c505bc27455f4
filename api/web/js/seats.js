// The seats this browser holds: each seat's bearer token in localStorage, keyed by table
// (`cardroom:seat:{tableId}` → {seat, token, name, game, at}), so a seat survives a reload,
// a new tab and a closed browser on the same device. The lobby lists them ("your tables").
// A seat kept by an older page in sessionStorage is moved here on first read. A signed-in
// account's seat (issue 22) is kept the same way, marked `account`, once the play page has
// read it from the session (people.js mySeat); signing out forgets those.

const PREFIX = "cardroom:seat:";
const NAME = "cardroom:name";

export function load(tableId) {
  const key = PREFIX + tableId;
  let text = localStorage.getItem(key);
  if (!text && typeof sessionStorage !== "undefined" && sessionStorage.getItem(key)) {
    text = sessionStorage.getItem(key);
    localStorage.setItem(key, text);
    sessionStorage.removeItem(key);
  }
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

export function save(tableId, held) {
  localStorage.setItem(PREFIX + tableId, JSON.stringify({ ...held, at: held.at || Date.now() }));
  if (held.name) localStorage.setItem(NAME, held.name);
}

export function forget(tableId) {
  localStorage.removeItem(PREFIX + tableId);
}

// Signing out: the seats this browser held as the account are no longer kept here.
export function forgetAccountSeats() {
  for (const entry of all()) if (entry.account) forget(entry.tableId);
}

// Every seat held here, the most recently taken first: [{tableId, seat, token, name, game, at}].
export function all() {
  const held = [];
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (!key || !key.startsWith(PREFIX)) continue;
    const entry = load(key.slice(PREFIX.length));
    if (entry && entry.token) held.push({ tableId: key.slice(PREFIX.length), ...entry });
  }
  return held.sort((a, b) => (b.at || 0) - (a.at || 0));
}

// The name this browser last sat under (the quick-play and seat forms start from it).
export const lastName = () => localStorage.getItem(NAME) || "";
