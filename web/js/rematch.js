// The rematch offer of a finished game, on its page: offer one or accept the offer in force, see
// who has accepted and until when, withdraw your offer or decline another's. Once the last player
// accepts, the new game opens with your own seat (its token comes from your own call, never from
// another player's). The game's stream says when the offer changes (its `rematch` events, see
// stream.js); the panel then asks for its own view. It also looks again when the offer expires,
// and now and then in case the stream is down.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import * as storage from "./storage.js";

const FALLBACK_MS = 30000;

export class RematchPanel {
  constructor(gameId, token, onError) {
    this.id = gameId;
    this.token = token;
    this.onError = onError;
    this.el = h("div", { class: "rematch-offer", id: "rematch-offer", role: "status", "aria-live": "polite" });
    this.timer = null;
    this.leaving = false;
  }

  // Shown once the game is over and the page is a player's (a spectator has no say).
  show() {
    this.shown = true;
    if (this.timer === null) this.refresh();
    else queueMicrotask(() => { if (this.last) this.draw(this.last); });   // the end screen was drawn anew
    return this.el;
  }

  async offer() {
    try {
      this.draw(await api.rematch(this.id, this.token));
    } catch (err) { this.onError(err); }
  }

  async refuse() {
    try {
      this.draw(await api.refuseRematch(this.id, this.token));
    } catch (err) { this.onError(err); }
  }

  // The game's stream says the offer changed: look at it (a player's panel only).
  news() {
    if (this.shown) this.refresh();
  }

  async refresh() {
    clearTimeout(this.timer);
    try {
      this.draw(await api.rematchOffer(this.id, this.token));
    } catch { /* looked at again below */ }
    if (this.leaving) return;
    const expires = this.last && this.last.status === "offered" ? Date.parse(this.last.expires) - Date.now() + 500 : Infinity;
    this.timer = setTimeout(() => this.refresh(), Math.max(500, Math.min(FALLBACK_MS, expires)));
  }

  draw(offer) {
    this.last = offer;
    if (offer.status === "started" && offer.token) {
      this.open(offer);
      return;
    }
    const open = offer.status === "offered";
    const mine = open && offer.offered_by === offer.seat;
    const who = (offer.seats || []).map((s) => `${s.name}${s.accepted ? " ✓" : ""}`).join(", ");
    const ask = document.getElementById("rematch");                 // the end screen's own button offers
    if (ask) ask.hidden = open;                                      // while an offer is open, these answer it
    clear(this.el, offer.status === "none" ? null : [
      h("p", { class: "rematch-text" }, offer.text),
      open ? h("p", { class: "muted" }, `Accepted so far: ${who}.`) : null,
      h("div", { class: "buttons" },
        open && !offer.accepted ? h("button", { type: "button", class: "primary", id: "accept-rematch", onclick: () => this.offer() }, "Accept the rematch") : null,
        open ? h("button", { type: "button", id: mine ? "withdraw-rematch" : "decline-rematch", onclick: () => this.refuse() },
          mine ? "Withdraw the offer" : "Decline") : null)]);
  }

  open(offer) {
    if (this.leaving) return;
    this.leaving = true;
    clearTimeout(this.timer);
    storage.rememberGame(offer.id, { seat: offer.seat, token: offer.token });
    clear(this.el, h("p", {}, "The rematch has started: ", h("a", { href: `/play/${encodeURIComponent(offer.id)}` }, "open it")));
    window.location.assign(`/play/${encodeURIComponent(offer.id)}`);
  }
}
