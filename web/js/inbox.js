// The signed-in player's own news (GET /players/me/stream), one stream per page whoever listens:
// the header's counter of games waiting for you and the lobby's news. `inbox()` answers with the
// notification kinds (GET /notices.json), the newest notes, and `listen(handler)` for each new one.

import { api } from "./api.js";

export const NEWEST = 8;
let opened = null;

export function inbox() {
  opened ??= open();
  return opened;
}

async function open() {
  const [{ kinds }, { notifications, last_id: lastId }] = await Promise.all([api.noticeKinds(), api.latestNotes(NEWEST)]);
  const listeners = new Set();
  const source = new EventSource(`/players/me/stream?after=${encodeURIComponent(lastId)}`);
  for (const { kind } of kinds) {
    source.addEventListener(kind, (e) => {
      const note = JSON.parse(e.data);
      listeners.forEach((handler) => handler(note, kind, e.lastEventId));
    });
  }
  window.addEventListener("pagehide", () => source.close());
  return { kinds: new Map(kinds.map((k) => [k.kind, k])), notes: notifications, listen: (handler) => listeners.add(handler) };
}
