// Chat beside a game: the players' channel for seats, the spectators' for everyone else (and for
// all once the game is over). Live on the game's own stream (stream.js with chat, which hands each
// message to this page as an "arena:chat" event); what was said before the page opened is read
// once from /games/{id}/chat. Messages are shown with textContent only.

import { api } from "./api.js";
import { currentAccount } from "./account.js";
import { h } from "./dom.js";

function channelPanel(gameId, token, channel, canWrite, me, mySeat) {
  const list = h("ol", { class: "chat-messages", id: `chat-${channel}`, "aria-live": "polite" });
  const input = h("input", { name: `chat-${channel}-text`, maxlength: 500, autocomplete: "off",
    "aria-label": channel === "players" ? "Message to the players" : "Message to the spectators" });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const seen = new Set();
  const muted = new Set();
  let pending = [];                  // live messages that came before the history was read

  function add(m) {
    if (seen.has(m.id) || muted.has(m.player)) return;
    seen.add(m.id);
    const tools = [];
    if (me && m.player && m.player !== me.id) {
      tools.push(h("button", { type: "button", class: "small mute", title: "Hide this player's messages",
        onclick: async () => {
          await api.mute(m.player);
          muted.add(m.player);
          list.querySelectorAll(`[data-player="${CSS.escape(m.player)}"]`).forEach((li) => li.remove());
        } }, "Mute"));
    }
    const mine = (me && m.player === me.id) || (mySeat !== null && mySeat !== undefined && m.seat === mySeat);
    if (canWrite && !mine) {                   // one reports others' messages, never one's own
      tools.push(h("button", { type: "button", class: "small report", title: "Report to the moderators",
        onclick: async (e) => { await api.report(gameId, token, channel, m.id, "reported from the game page"); e.target.textContent = "Reported"; e.target.disabled = true; } }, "Report"));
    }
    list.append(h("li", { class: "chat-message", dataset: { player: m.player || "" } },
      h("span", { class: "chat-name" }, m.name), ": ", h("span", { class: "chat-text" }, m.text), " ", ...tools));
    list.scrollTop = list.scrollHeight;
  }

  document.addEventListener("arena:chat", (e) => {
    if (e.detail.channel !== channel) return;
    if (pending) pending.push(e.detail);
    else add(e.detail);
  });
  (async () => {
    try {
      for (let after = "0"; ;) {                 // a page at a time, the oldest first
        const got = await api.chat(gameId, token, channel, after);
        got.messages.forEach(add);
        if (got.last_id === after) break;
        after = got.last_id;
      }
    } catch { /* the stream's backlog brings them */ }
    pending.forEach(add);
    pending = null;
  })();

  const form = canWrite ? h("form", { class: "chat-form", onsubmit: async (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    error.hidden = true;
    try {
      add(await api.say(gameId, token, channel, text));
      input.value = "";
    } catch (err) { error.textContent = err.message; error.hidden = false; }
  } }, input, h("button", { type: "submit" }, "Send"))
    : h("p", { class: "muted" }, me ? "Only the spectators write here." : "Sign in to chat here.");
  return h("section", { class: "panel chat", "data-channel": channel },
    h("h2", {}, channel === "players" ? "Players' chat" : "Spectators' chat"), list, form, error);
}

// `view`: the game as the page already read it (with this token's seat); read here only without one.
export async function mountChat(root, gameId, token, view) {
  const [game, me] = await Promise.all([view || api.view(gameId, token), currentAccount()]);
  const seated = game.seat !== null && game.seat !== undefined;
  const over = game.status === "finished" || root.dataset.status === "finished";   // also when it ended meanwhile
  const panels = [];
  if (seated) panels.push(channelPanel(gameId, token, "players", true, me, game.seat));
  if (!seated || over) panels.push(channelPanel(gameId, token, "spectators", Boolean(me) && !seated, me));
  const box = h("div", { class: "chats", id: "chat" }, panels);
  if (seated && !over) {          // the game ends while the page is open: its stream now carries the spectators' chat
    document.addEventListener("arena:finished", () => box.append(channelPanel(gameId, token, "spectators", false, me)),
      { once: true });
  }
  (root.querySelector(".side-col") || root).append(box);
  return box;
}
