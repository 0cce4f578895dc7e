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

export async function request(method, path, { token, body, headers } = {}) {
  const init = { method, headers: { Accept: "application/json", ...(headers || {}) } };
  if (token) init.headers.Authorization = `Bearer ${token}`;
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
  createGame: (body, token) => request("POST", "/games", { body, token }),
  registerPlayer: (name) => request("POST", "/players", { body: { name } }),
  myGames: (token) => request("GET", "/players/me/games", { token }),
  view: (id, token) => request("GET", `/games/${encodeURIComponent(id)}`, { token }),
  legal: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/legal`, { token }),
  moves: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/moves`, { token }),
  moveView: (id, n, token) => request("GET", `/games/${encodeURIComponent(id)}/moves/${n}`, { token }),
  log: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/log`, { token }),
  command: (id, token, command, expectedVersion) => request("POST", `/games/${encodeURIComponent(id)}/commands`, {
    token, body: expectedVersion === undefined ? command : { ...command, expected_version: expectedVersion },
    headers: { "Idempotency-Key": randomKey() },
  }),
  stats: (id, token) => request("GET", `/games/${encodeURIComponent(id)}/stats`, { token }),
  rematch: (id, token) => request("POST", `/games/${encodeURIComponent(id)}/rematch`, { token }),
  resign: (id, token) => request("POST", `/games/${encodeURIComponent(id)}/resign`, { token }),
};
