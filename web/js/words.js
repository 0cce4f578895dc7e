// Plain words for every refusal the page can meet. The server's `detail` is already a sentence a
// player understands with what to do (tests/server/test_plain_words.py holds it to that), so it is
// shown as it comes. The page keeps its own words only where it knows more than the server: when
// no answer came at all, when it has just fetched the new position, and when the request was the
// page's own mistake (the server's words then name fields a player never typed).

const PAGE_WORDS = {
  stale_version: "The game moved on while you were choosing; here is the new position. Choose again.",
  offline: "The server cannot be reached. Check your connection; the page reconnects by itself.",
  http_error: "The server could not answer. Try again in a moment.",
  malformed_request: "The page sent something the server did not understand. Reload the page and try again.",
  malformed_json: "The page sent something the server did not understand. Reload the page and try again.",
  idempotency_key_reused: "The page sent two different commands under one key. Reload the page and try again.",
  not_allowed: "These cards cannot be returned together. Pick another set.",
};

export function plainWords(err) {
  const code = err && err.code;
  if (code && PAGE_WORDS[code]) return PAGE_WORDS[code];
  const detail = (err && err.message) || "";
  if (detail) return /[.!?]$/.test(detail) ? detail : `${detail}.`;
  return PAGE_WORDS.http_error;
}

// Whether the page should fetch the position again after this refusal (the game moved on).
export function refetches(err) {
  return ["stale_version", "not_an_option", "no_decision_pending", "not_your_turn", "not_your_decision"].includes(err && err.code);
}
