// Entry point: `/` shows the lobby, `/play/<id>` a game, `/desk` all the player's games. A join link carries the seat's token in
// the #fragment (never sent to the server in the URL); it is kept in localStorage and removed
// from the address bar.

import { api } from "./api.js";
import { loadData } from "./data.js";
import { clear, h } from "./dom.js";
import { GamePage } from "./game.js";
import { showLobby } from "./lobby.js";
import { currentAccount, showAccount } from "./account.js";
import { mountChat } from "./chat.js";
import { mountNotes } from "./notes.js";
import { showProfile } from "./profile.js";
import { showDesk } from "./desk.js";
import { mountWaitingCounter } from "./header.js";
import { showRules } from "./rules.js";
import { startTutorial } from "./tutorial.js";
import * as storage from "./storage.js";
import { register as registerServiceWorker } from "./push.js";

async function joinFromFragment(gameId) {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const token = params.get("token");
  if (!token) return;
  const view = await api.view(gameId, token);
  storage.rememberGame(gameId, { seat: view.seat, token });
  history.replaceState(null, "", window.location.pathname);
}

async function main() {
  const root = document.getElementById("main");
  try {
    const data = await loadData();
    const match = window.location.pathname.match(/^\/play\/([^/]+)\/?$/);
    const profile = window.location.pathname.match(/^\/profile\/([^/]+)\/?$/);
    currentAccount().then((account) => mountWaitingCounter(account, match ? decodeURIComponent(match[1]) : null));
    if (match) {
      const gameId = decodeURIComponent(match[1]);
      await joinFromFragment(gameId);
      const page = new GamePage(root, gameId, data);
      await page.start();
      // The chat's seat is the one of its own token (the game's link, not a fallback player token).
      const chatToken = storage.game(gameId)?.token || null;
      await mountChat(root, gameId, chatToken, chatToken === page.token ? page.view : undefined);
      await mountNotes(root, gameId, page.token, page.view);
    } else if (window.location.pathname === "/rules") {
      showRules(root, data);
    } else if (window.location.pathname === "/learn") {
      await startTutorial(root, data);
    } else if (window.location.pathname === "/desk") {
      await showDesk(root, data);
    } else if (window.location.pathname === "/account") {
      await showAccount(root);
    } else if (profile) {
      await showProfile(root, decodeURIComponent(profile[1]), data);
    } else {
      await showLobby(root, data);
    }
  } catch (err) {
    clear(root, h("section", { class: "panel error-page" }, h("h1", {}, "Something went wrong"),
      h("p", { class: "error" }, err.message || String(err)), h("p", {}, h("a", { href: "/" }, "Back to the start"))));
  }
}

registerServiceWorker();
main();
