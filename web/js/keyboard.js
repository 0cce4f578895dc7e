// Keyboard play on the game page: one key for each thing a player does often (go to the board, the
// hand, the decision's buttons or the command box; undo, redo, confirm, end the turn), listed on a
// help dialog opened with "?" (or its button in the status bar). The board's own keys (arrows,
// Enter, Space) live in board.js; Escape cancels a selection (game.js).

import { h } from "./dom.js";
import * as storage from "./storage.js";

export const KEYS = [
  ["?", "Show this list of keys"],
  ["B", "Go to the board (to a highlighted square)"],
  ["Arrow keys", "Move between the board's squares"],
  ["Enter or Space", "Choose the focused square, card or button"],
  ["Escape", "Cancel the selection; close this list"],
  ["H", "Go to your hand"],
  ["P", "Go to the buttons of the decision"],
  ["/", "Go to the command box (play in words)"],
  ["U or Ctrl+Z", "Undo your last step"],
  ["Y or Ctrl+Y", "Redo"],
  ["C", "Confirm the question asked (destroying your own piece, a discard)"],
  ["E", "End your turn"],
  ["L", "Go to the log"],
];

export class Keyboard {
  constructor(page) {
    this.page = page;
    this.dialog = h("dialog", { class: "keys-help", id: "keys-help", "aria-labelledby": "keys-title" },
      h("h2", { id: "keys-title" }, "Keys"),
      h("dl", {}, KEYS.map(([key, what]) => [h("dt", {}, h("kbd", {}, key)), h("dd", {}, what)])),
      // single-character keys can be turned off (WCAG 2.1.4): speech input or a stray key press may trigger them
      h("label", { class: "check" }, h("input", { type: "checkbox", id: "single-keys", checked: this.singleKeys(),
        onchange: (e) => storage.setPref("singleKeys", e.target.checked) }), "Use the one-letter keys (all but the arrows, Enter, Escape and Ctrl)"),
      h("form", { method: "dialog" }, h("button", { type: "submit", class: "primary", id: "keys-close" }, "Close")));
    this.button = h("button", { type: "button", class: "small", id: "keys-btn", "aria-keyshortcuts": "?",
      onclick: () => this.help() }, "Keys (?)");
  }

  singleKeys() {
    return storage.pref("singleKeys", true);
  }

  help() {
    if (!this.dialog.isConnected) document.body.append(this.dialog);
    if (!this.dialog.open) this.dialog.showModal();
  }

  // A key pressed anywhere on the page: true when it was one of ours (then nothing else acts on it).
  key(event) {
    const typing = event.target.closest && event.target.closest("input, select, textarea, [contenteditable], dialog");
    if (typing || event.ctrlKey || event.metaKey || event.altKey || event.isComposing || !this.singleKeys()) return false;
    const act = {
      "?": () => this.help(),
      b: () => this.toBoard(),
      h: () => this.first("#hand button, #hand [tabindex='0']"),
      p: () => this.first("#prompt button, #steps button"),
      "/": () => this.page.speech.focus(),
      u: () => this.step("undo"),
      y: () => this.step("redo"),
      c: () => this.confirm(),
      e: () => this.endTurn(),
      l: () => this.first("#log"),
    }[event.key.length === 1 ? event.key.toLowerCase() : event.key];
    if (!act) return false;
    event.preventDefault();
    act();
    return true;
  }

  first(selector) {
    const el = [...document.querySelectorAll(selector)].find((x) => x.getClientRects().length);   // the first one shown
    if (el) el.focus();
    else this.page.explain("There is nothing there to go to now.");
  }

  toBoard() {
    const board = this.page.board;
    const legal = this.page.plan ? [...this.page.plan.squares.keys()] : [];
    board.focus(legal.includes(board.focused) ? board.focused : legal[0] || board.focused);
  }

  step(which) {
    const page = this.page;
    const cmd = page.plan && !page.rewound ? page.plan.steps[which][0] : null;
    if (cmd) page.send(cmd);
    else page.explain(which === "undo" ? "There is no step of yours to undo." : "There is no step to redo.");
  }

  confirm() {
    const page = this.page;
    if (page.confirmCapture) page.send(page.confirmCapture.command, true);
    else if (page.sel.discard) page.promptEl.querySelector("form.discard")?.requestSubmit();
    else page.explain("There is no question to confirm now.");
  }

  endTurn() {
    const page = this.page;
    const cmd = page.rewound ? null : page.legal.commands.find((c) => c.type === "end_turn");
    if (cmd) page.send(cmd);
    else page.explain("You cannot end your turn now.");
  }
}
