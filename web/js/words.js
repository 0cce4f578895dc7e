// Plain words for everything the server can refuse: each problem+json code the page can meet, as a
// sentence a player understands with what to do next. Rule refusals already carry a sentence from
// the engine (their `detail`), which is shown with the rule it comes from.

const SENTENCES = {
  stale_version: "The game moved on while you were choosing; here is the new position. Choose again.",
  offline: "The server cannot be reached. Check your connection; the page reconnects by itself.",
  store_unavailable: "The game server is busy or restarting. Wait a few seconds and try again; nothing was lost.",
  rate_limited: "You are sending commands too quickly. Wait a moment and try again.",
  too_many_requests: "You are sending commands too quickly. Wait a moment and try again.",
  unauthorized: "This browser has no valid seat for this game. Open your join link again.",
  invalid_token: "This browser has no valid seat for this game. Open your join link again.",
  not_your_seat: "You are watching this game: only its players can act. Open your join link to play.",
  not_your_turn: "It is not your turn yet. Wait for the other player; the page updates by itself.",
  not_your_decision: "Another player has to decide first. Wait a moment; the page updates by itself.",
  decision_pending: "Answer the question shown above the board first.",
  no_decision_pending: "There is nothing to answer right now; the position has changed. Look at the board again.",
  not_an_option: "That choice is no longer open; the position has changed. Pick one of the highlighted options.",
  game_over: "The game has ended; nothing more can be played. See the result below.",
  game_not_found: "There is no such game. Check the link, or go back to your games.",
  move_not_found: "That move is not in this game. Use the slider to pick one that is.",
  no_undo: "There is nothing you can take back now: undo works only within your own turn, and never past a card drawn or another player's decision.",
  no_redo: "There is nothing to redo.",
  idempotency_key_reused: "The page sent two different commands under one key. Reload the page and try again.",
  malformed_request: "The page sent something the server did not understand. Reload the page and try again.",
  game_not_over: "The game is still being played; this is available once it is over.",
  http_error: "The server could not answer. Try again in a moment.",
  not_allowed: "These cards cannot be returned together. Pick another set.",
};

// Codes whose engine sentence (`detail`) says best what went wrong: shown as they come.
const RULE_STATUSES = new Set([422]);

export function plainWords(err) {
  const code = err && err.code;
  if (code && SENTENCES[code] && !(RULE_STATUSES.has(err.status) && code !== "game_over" && !code.startsWith("no_"))) {
    return SENTENCES[code];
  }
  const detail = (err && err.message) || "";
  if (detail) return detail.endsWith(".") ? detail : `${detail}.`;
  return SENTENCES.http_error;
}

// Whether the page should fetch the position again after this refusal (the game moved on).
export function refetches(err) {
  return ["stale_version", "not_an_option", "no_decision_pending", "not_your_turn", "not_your_decision"].includes(err && err.code);
}
