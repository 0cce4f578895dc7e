// Your private notes on a game, beside it: only your seat reads or writes them (GET and PUT
// /games/{id}/notes); nobody else ever sees them. Saved when you press Save or leave the box.
// Shown with a textarea's value only.

import { api } from "./api.js";
import { h } from "./dom.js";

export async function mountNotes(root, gameId, token, view) {
  if (view.seat === null || view.seat === undefined) return null;
  let note;
  try { note = await api.notes(gameId, token); } catch { return null; }
  const box = h("textarea", { name: "notes", rows: 4, maxlength: 10000, "aria-label": "Your private notes on this game",
    placeholder: "Only you can read these." });
  box.value = note.text;
  const status = h("span", { class: "muted notes-status", "aria-live": "polite" }, note.updated ? "Saved" : "");
  let saved = note.text;
  async function save() {
    if (box.value === saved) return;
    try {
      const answer = await api.setNotes(gameId, token, box.value);
      saved = answer.text;
      status.textContent = "Saved";
    } catch (err) { status.textContent = err.message; }
  }
  box.addEventListener("input", () => { status.textContent = box.value === saved ? "Saved" : "Not saved yet"; });
  box.addEventListener("blur", save);
  const panel = h("section", { class: "panel notes", id: "notes" },
    h("h2", {}, "Your notes"), box,
    h("div", { class: "notes-bar" }, h("button", { type: "button", class: "small", id: "save-notes", onclick: save }, "Save"), status));
  (root.querySelector(".side-col") || root).append(panel);
  return panel;
}
