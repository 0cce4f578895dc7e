// The HTTP API: JSON in and out, refusals (application/problem+json) raised as ApiError.

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.code = problem.code || "http_error";
    this.problem = problem;
  }
}

function randomKey() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The session's CSRF token (the arena_csrf cookie): a write the session cookie authenticates needs it.
function csrfToken() {
  const found = document.cookie.split("; ").find((c) => c.startsWith("arena_csrf="));
  return found ? decodeURIComponent(found.slice("arena_csrf=".length)) : null;
}

// Whether this browser holds a session: the readable arena_csrf cookie lives exactly as long as the
// HttpOnly session cookie, so a guest page need not ask the server (and log a 401) to know.
export function mayHaveSession() {
  return csrfToken() !== null;
}

export async function request(method, path, { token, body, headers } = {}) {
  const init = { method, headers: { Accept: "application/json", ...(headers || {}) } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
  else if (method !== "GET" && csrfToken()) init.headers["X-CSRF-Token"] = csrfToken();
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, { code: "offline", detail: "The server cannot be reached; check your connection." });
  }
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = null; }
  if (!response.ok) {
    throw new ApiError(response.status, data && typeof data === "object" ? data
      : { code: "http_error", detail: `The server answered ${response.status} ${response.statusText}.` });
  }
  return data;
}

export const api = {
  cards: () => request("GET", "/cards.json"),
  geometry: () => request("GET", "/geometry.json"),
  vocabulary: () => request("GET", "/vocabulary"),
  noticeKinds: () => request("GET", "/notices.json"),
  createGame: (body, token) => request("POST", "/games", { body, token }),
  registerPlayer: (name) => request("POST", "/players", { body: { name } }),
  myGames: (token, waiting) => request("GET", `/players/me/games${waiting ? "?waiting=1" : ""}`, { token }),
  desk: (query) => request("GET", `/players/me/desk${query ? `?${query}` : ""}`),
  claimGames: (games) => request("POST", "/players/me/games/claim", { body: { games } }),
  view: (id, token) => request("GET", `/games/${encodeURIComponent(id)}`, { token }),
  legal: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/legal`, { token }),
  hint: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/hint`, { token }),
  review: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/review`, { token }),
  askReview: (id, token) => request("POST", `/games/${encodeURIComponent(id)}/review`, { token }),
  moves: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/moves`, { token }),
  moveView: (id, n, token) => request("GET", `/games/${encodeURIComponent(id)}/moves/${n}`, { token }),
  log: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/log`, { token }),
  changes: (id, token, after) => request("GET", `/games/${encodeURIComponent(id)}/changes?after=${after}`, { token }),
  command: (id, token, command, expectedVersion) => request("POST", `/games/${encodeURIComponent(id)}/commands`, {
    token, body: expectedVersion === undefined ? command : { ...command, expected_version: expectedVersion },
    headers: { "Idempotency-Key": randomKey() },
  }),
  notes: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/notes`, { token }),
  setNotes: (id, token, text) => request("PUT", `/games/${encodeURIComponent(id)}/notes`, { token, body: { text } }),
  stats: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/stats`, { token }),
  rematch: (id, token) => request("POST", `/games/${encodeURIComponent(id)}/rematch`, { token }),
  rematchOffer: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/rematch`, { token }),
  refuseRematch: (id, token) => request("DELETE", `/games/${encodeURIComponent(id)}/rematch`, { token }),
  resign: (id, token) => request("POST", `/games/${encodeURIComponent(id)}/resign`, { token }),
  // accounts, lobby, chat, profiles (a signed-in browser's cookie authenticates these)
  me: () => request("GET", "/accounts/me"),
  signUp: (name, password) => request("POST", "/accounts", { body: { name, password } }),
  signIn: (name, password) => request("POST", "/accounts/session", { body: { name, password } }),
  signOut: () => request("DELETE", "/accounts/session"),
  signOutEverywhere: () => request("POST", "/accounts/me/sign-out-everywhere"),
  changePassword: (current, next) => request("POST", "/accounts/me/password", { body: { current, new: next } }),
  tokens: () => request("GET", "/accounts/me/tokens"),
  makeToken: (label) => request("POST", "/accounts/me/tokens", { body: { label } }),
  becomeBot: () => request("POST", "/accounts/me/bot", { body: { irreversible: true } }),
  revokeToken: (id) => request("DELETE", `/accounts/me/tokens/${encodeURIComponent(id)}`),
  emailPrefs: () => request("GET", "/accounts/me/email"),
  tablePrefs: () => request("GET", "/accounts/me/table"),
  setTablePrefs: (body) => request("PUT", "/accounts/me/table", { body }),
  setEmailPrefs: (body) => request("PUT", "/accounts/me/email", { body }),
  pushPrefs: () => request("GET", "/accounts/me/push"),
  setPushPrefs: (kinds) => request("PUT", "/accounts/me/push", { body: { kinds } }),
  addPushSubscription: (body) => request("POST", "/accounts/me/push/subscriptions", { body }),
  removePushSubscription: (id) => request("DELETE", `/accounts/me/push/subscriptions/${encodeURIComponent(id)}`),
  timeZone: () => request("GET", "/accounts/me/time-zone"),
  setTimeZone: (timeZone) => request("PUT", "/accounts/me/time-zone", { body: { time_zone: timeZone } }),
  vacation: () => request("GET", "/accounts/me/vacation"),
  startVacation: (days) => request("POST", "/accounts/me/vacation", { body: { days } }),
  endVacation: () => request("DELETE", "/accounts/me/vacation"),
  tables: () => request("GET", "/lobby/tables"),
  openTable: (body) => request("POST", "/lobby/tables", { body }),
  joinTable: (id, body) => request("POST", `/lobby/tables/${encodeURIComponent(id)}/join`, { body: body || {} }),
  leaveTable: (id) => request("POST", `/lobby/tables/${encodeURIComponent(id)}/leave`),
  startTable: (id) => request("POST", `/lobby/tables/${encodeURIComponent(id)}/start`),
  seek: (body) => request("POST", "/lobby/seeks", { body }),
  mySeek: () => request("GET", "/lobby/seeks/me"),
  cancelSeek: () => request("DELETE", "/lobby/seeks/me"),
  invitations: () => request("GET", "/players/me/invitations"),
  answerInvitation: (id, verb) => request("POST", `/players/me/invitations/${encodeURIComponent(id)}/${verb}`),
  liveGames: () => request("GET", "/games/live"),
  profile: (who) => request("GET", `/profiles/${encodeURIComponent(who)}`),
  chat: (id, token, channel, after) => request("GET",
    `/games/${encodeURIComponent(id)}/chat?channel=${channel}&after=${encodeURIComponent(after || "0")}`, { token }),
  say: (id, token, channel, text) => request("POST", `/games/${encodeURIComponent(id)}/chat`, { token, body: { channel, text } }),
  mute: (player) => request("POST", "/accounts/me/mutes", { body: { player } }),
  mutes: () => request("GET", "/accounts/me/mutes"),
  latestNotes: (n) => request("GET", `/players/me/notifications?newest=${n}`),
  unmute: (player) => request("DELETE", `/accounts/me/mutes/${encodeURIComponent(player)}`),
  report: (id, token, channel, messageId, reason) => request("POST",
    `/games/${encodeURIComponent(id)}/chat/${channel}/${encodeURIComponent(messageId)}/report`, { token, body: { reason } }),
};
