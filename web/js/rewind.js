// The rewind bar: a move slider and step buttons that pick an earlier position (read-only), and
// "Back to live". It only reports the move picked; the game page fetches and shows it.

import { h } from "./dom.js";

export class RewindBar {
  // onSeek(n): n = a move number to show, or null for the live position
  constructor(onSeek) {
    this.onSeek = onSeek;
    this.moves = [];
    this.current = null;
    this.slider = h("input", { type: "range", min: 0, max: 0, value: 0, id: "rewind-slider",
      "aria-label": "Move to show", oninput: () => this.seek(Number(this.slider.value)) });
    const step = (label, text, fn) => h("button", { type: "button", class: "step", "aria-label": label, title: label, onclick: fn }, text);
    this.first = step("First move", "«", () => this.seek(0));
    this.prev = step("Previous move", "‹", () => this.seek(this.shown() - 1));
    this.next = step("Next move", "›", () => this.seek(this.shown() + 1));
    this.last = step("Latest move", "»", () => this.seek(this.latest()));
    this.live = h("button", { type: "button", class: "live-btn", onclick: () => this.seek(null) }, "Back to live");
    this.caption = h("p", { class: "rewind-caption", "aria-live": "polite" });
    this.el = h("section", { class: "rewind", "aria-label": "Rewind" },
      h("div", { class: "rewind-controls" }, this.first, this.prev, this.slider, this.next, this.last, this.live),
      this.caption);
  }

  latest() {
    return Math.max(0, this.moves.length - 1);
  }

  shown() {
    return this.current === null ? this.latest() : this.current;
  }

  seek(n) {
    if (n !== null) n = Math.max(0, Math.min(this.latest(), n));
    if (n === this.latest() && this.current === null) return this.update(this.moves);
    this.onSeek(n === this.latest() ? null : n);
  }

  // words(n): what move n did, from the log ("Ann summons Swordmaster on d5. …"), or null
  update(moves, current = this.current, words = () => null) {
    this.moves = moves;
    this.current = current;
    const shown = this.shown();
    this.slider.max = this.latest();
    this.slider.value = shown;
    this.slider.setAttribute("aria-valuetext", `move ${shown} of ${this.latest()}`);
    this.first.disabled = this.prev.disabled = shown <= 0;
    this.next.disabled = this.last.disabled = shown >= this.latest();
    this.live.hidden = current === null;
    const move = moves[shown];
    const said = move && shown > 0 ? words(shown) || `${move.text}.` : "";
    const text = !move ? "" : shown === 0 ? "Before the first move: the starting position." : `Move ${shown} of ${this.latest()}: ${said}`;
    this.caption.textContent = current === null ? (shown ? `Last move. ${text}` : "No move yet.") : text;
    this.el.classList.toggle("rewinding", current !== null);
  }
}
