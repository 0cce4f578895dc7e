// The game's reference data (cards, board geometry and the engine's vocabulary, all served from the
// engine) and names for things.

import { api } from "./api.js";

let loaded = null;

export async function loadData() {
  if (!loaded) {
    loaded = Promise.all([api.cards(), api.geometry(), api.vocabulary()]).then(([cards, geometry, vocabulary]) => {
      for (const rank of vocabulary.ranks) RANK_LABEL[rank] = rank[0].toUpperCase() + rank.slice(1);
      COLOURS.push(...vocabulary.seat_colours);
      return { cards, geometry, vocabulary };
    });
  }
  return loaded;
}

// The seats' colours with the letter drawn on their pieces (GET /vocabulary: seat_colours, from
// server/colours.py), filled by loadData before anything is drawn.
export const COLOURS = [];

export function colour(index) {
  return COLOURS[index % COLOURS.length];
}

// Filled from the engine's ranks (GET /vocabulary) by loadData, before anything is drawn.
export const RANK_LABEL = {};

export function card(data, id) {
  return data.cards.cards[id] || { id, name: id, kind: "unknown", summary: "" };
}

export function cardName(data, id) {
  return card(data, id).name;
}

export function schoolName(data, id) {
  const deck = data.cards.decks.find((d) => d.id === id);
  if (deck) return deck.name;
  if (id === "random") return "Random school";
  if (id === "draft") return "Draft (pick in turn)";
  return schoolModeName(data, id);
}

// How a table chooses its schools, in the words of the one registry (GET /vocabulary: school_modes).
export function schoolModeName(data, id) {
  return (data.vocabulary.school_modes.find((m) => m.id === id) || {}).name || id;
}

// A form's name ("duel" -> "Duel"), or its id when the geometry does not list it.
export function formName(data, id) {
  return (data.geometry.forms.find((f) => f.id === id) || {}).name || id;
}

export function playerName(view, seat) {
  const p = (view.players || []).find((x) => x.seat === seat);
  return p ? p.name : `Seat ${seat + 1}`;
}
