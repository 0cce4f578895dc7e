// What this browser remembers: the player it registered and the seat tokens of its games.
// Tokens are secrets: they stay in localStorage and travel only in Authorization headers.

const KEY = "tash-kalar-arena";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return { player: data.player || null, games: data.games || {}, prefs: data.prefs || {} };
  } catch {
    return { player: null, games: {}, prefs: {} };
  }
}

function save(data) {
  localStorage.setItem(KEY, JSON.stringify(data));
}

export function player() {
  return load().player;
}

export function setPlayer(p) {
  const data = load();
  data.player = { id: p.id, name: p.name, token: p.token };
  save(data);
}

// games[id] = {seat, token, links: [{seat, name, token, bot}], created}
export function game(id) {
  return load().games[id] || null;
}

export function rememberGame(id, entry) {
  const data = load();
  data.games[id] = { ...(data.games[id] || {}), ...entry, created: data.games[id]?.created || Date.now() };
  save(data);
}

export function forgetGame(id) {
  const data = load();
  delete data.games[id];
  save(data);
}

export function games() {
  return load().games;
}

// The token to read and play game `id` with: its seat token, else the player's token, else none.
export function tokenFor(id) {
  const g = game(id);
  if (g && g.token) return g.token;
  const p = player();
  return p ? p.token : null;
}

// This browser's table preferences ({confirmTurnEnd}): what its game pages ask of their seats.
export function pref(name, fallback) {
  const prefs = load().prefs;
  return name in prefs ? prefs[name] : fallback;
}

export function setPref(name, value) {
  const data = load();
  data.prefs = { ...data.prefs, [name]: value };
  save(data);
}
