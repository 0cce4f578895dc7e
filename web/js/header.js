// The header of every page: how many games wait for you, as a link to the next one. On a game's
// page that game is left out, so after your last command the header says where to play next.
// Counted again whenever your own stream brings news (your turn, a move, a game over...), after
// your own command on this page, when the tab comes back into view, and once a minute in case the
// stream is down (a move of yours on another device tells nobody).

import { api } from "./api.js";
import { h } from "./dom.js";
import { inbox } from "./inbox.js";

const FALLBACK_MS = 60000;
const SETTLE_MS = 300;              // a burst of news is counted once

export function mountWaitingCounter(account, currentGameId) {
  const nav = document.querySelector("header.top nav");
  if (!nav || !account) return;
  const link = h("a", { id: "waiting-games", class: "waiting-games", hidden: true, "aria-live": "polite" });
  nav.prepend(link);
  async function refresh() {
    try {
      const { games } = await api.myGames(null, true);
      const others = games.filter((g) => g.id !== currentGameId);
      link.hidden = !others.length;
      if (others.length) {
        link.href = `/play/${encodeURIComponent(others[0].id)}`;
        link.textContent = currentGameId ? `Next game waiting for you (${others.length})` : `Your turn in ${others.length} game${others.length === 1 ? "" : "s"}`;
        link.dataset.short = currentGameId ? `Next game (${others.length})` : `Your turn (${others.length})`;    // a phone's header
        link.title = `${others[0].form_text} vs ${others[0].opponents.join(", ")}: ${others[0].status_text}`;
      }
    } catch { link.hidden = true; }
  }
  let soon;
  const later = () => { clearTimeout(soon); soon = setTimeout(refresh, SETTLE_MS); };
  refresh();
  setInterval(refresh, FALLBACK_MS);
  document.addEventListener("arena:moved", refresh);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) later(); });
  inbox().then((news) => news.listen(later)).catch(() => { /* the fallback counts */ });
}
