// Chat beside a game: the players' channel for seats, the spectators' for everyone else (and for
// all once the game is over). Live from /games/{id}/chat/stream for a signed-in or anonymous
// viewer (the cookie rides along); a seat-link guest, whose token must go in a header, polls.
// Messages are shown with textContent only.

import { api } from "./api.js";
import { currentAccount } from "./account.js";
import { h } from "./dom.js";

const POLL_MS = 2000;

function channelPanel(gameId, token, channel, canWrite, me) {
  const list = h("ol", { class: "chat-messages", id: `chat-${channel}`, "aria-live": "polite" });
  const input = h("input", { name: `chat-${channel}-text`, maxlength: 500, autocomplete: "off",
    "aria-label": channel === "players" ? "Message to the players" : "Message to the spectators" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  let after = "0";
  const seen = new Set();

  function add(m) {
    if (seen.has(m.id)) return;
    seen.add(m.id);
    after = m.id;
    const tools = [];
    if (me && m.player && m.player !== me.id) {
      tools.push(h("button", { type: "button", class: "small mute", title: "Hide this player's messages",
        onclick: async () => { await api.mute(m.player); list.querySelectorAll(`[data-player="${CSS.escape(m.player)}"]`).forEach((li) => li.remove()); } }, "Mute"));
    }
    if (canWrite) {
      tools.push(h("button", { type: "button", class: "small report", title: "Report to the moderators",
        onclick: async (e) => { await api.report(gameId, token, channel, m.id, "reported from the game page"); e.target.textContent = "Reported"; e.target.disabled = true; } }, "Report"));
    }
    list.append(h("li", { class: "chat-message", dataset: { player: m.player || "" } },
      h("span", { class: "chat-name" }, m.name), ": ", h("span", { class: "chat-text" }, m.text), " ", ...tools));
    list.scrollTop = list.scrollHeight;
  }

  async function poll() {
    try {
      const got = await api.chat(gameId, token, channel, after);
      got.messages.forEach(add);
    } catch { /* shown again at the next poll */ }
    setTimeout(poll, POLL_MS);
  }

  if (token) poll();
  else {
    const source = new EventSource(`/games/${encodeURIComponent(gameId)}/chat/stream?channel=${channel}`);
    source.addEventListener("chat", (e) => add(JSON.parse(e.data)));
    window.addEventListener("pagehide", () => source.close());
  }

  const form = canWrite ? h("form", { class: "chat-form", onsubmit: async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.hidden = true;
    try {
      add(await api.say(gameId, token, channel, text));
      input.value = "";
    } catch (err) { error.textContent = err.message; error.hidden = false; }
  } }, input, h("button", { type: "submit" }, "Send")) : h("p", { class: "muted" }, "Sign in to chat here.");
  return h("section", { class: "panel chat", "data-channel": channel },
    h("h2", {}, channel === "players" ? "Players' chat" : "Spectators' chat"), list, form, error);
}

export async function mountChat(root, gameId, token) {
  const [view, me] = await Promise.all([api.view(gameId, token), currentAccount()]);
  const seated = view.seat !== null && view.seat !== undefined;
  const over = view.status === "finished";
  const panels = [];
  if (seated) panels.push(channelPanel(gameId, token, "players", true, me));
  if (!seated || over) panels.push(channelPanel(gameId, token, "spectators", Boolean(me) && !seated, me));
  const box = h("div", { class: "chats", id: "chat" }, panels);
  (root.querySelector(".side-col") || root).append(box);
  return box;
}
