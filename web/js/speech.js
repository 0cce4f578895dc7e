// Playing without seeing the board: the board told in words, every new event said through a live
// region, and a command box that answers questions ("what can I summon?", "which squares does the
// Swordmaster need?", "what is on e5?") and takes commands in words ("summon swordmaster on d5",
// "place e4", "end turn"). Every answer is made from what the page already holds: the view, the
// legal commands with the squares they use and affect (GET /legal), and the cards (GET /cards.json).

import { label } from "./choices.js";
import { card as cardData, cardName, colour, playerName, RANK_LABEL } from "./data.js";
import { clear, h } from "./dom.js";
import { statusText } from "./panels.js";

const SQUARE = /\b([a-i][1-9])\b/;
const FILLER = new Set(["a", "an", "the", "on", "to", "at", "in", "with", "piece", "please", "i", "my", "common", "choose", "from", "->", "→", "of"]);
const SHOWN = 12;              // commands listed at most when a phrase fits several
const HELP = "Ask: “what can I do?”, “what can I summon?”, “which squares does the Swordmaster need?”, “what is on e5?”, "
  + "“board”, “status”. Command: “place e5”, “summon swordmaster on d5”, “move e4 to e5”, “undo”, “end turn”, "
  + "or a number from the last list. “yes” confirms a question asked.";

function words(text) {
  return String(text).toLowerCase().replace(/[.,;:!?“”"()]/g, " ").split(/\s+/).filter((w) => w && !FILLER.has(w));
}

function listed(items) {
  return items.length > 1 ? `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}` : items.join("");
}

// An offset of a card's pattern from its being square, in board directions (row 1 is north).
function offsetWords(dx, dy) {
  const parts = [];
  if (dy) parts.push(`${Math.abs(dy)} ${dy < 0 ? "north" : "south"}`);
  if (dx) parts.push(`${Math.abs(dx)} ${dx < 0 ? "west" : "east"}`);
  return parts.join(" and ");
}

export class Speech {
  constructor(page) {
    this.page = page;
    this.said = null;              // the newest log version already announced
    this.choices = [];             // the last numbered list of commands
    this.announcer = h("div", { class: "sr-only", id: "announcer", role: "log", "aria-live": "polite", "aria-label": "Announcements" });
    this.boardWords = h("p", { class: "sr-only", id: "board-words" });
    this.input = h("input", { type: "text", id: "say", name: "say", autocomplete: "off", spellcheck: "false",
      "aria-label": "Command", "aria-describedby": "say-help", placeholder: "e.g. what can I do?" });
    this.answers = h("div", { class: "answers", id: "answers", role: "log", "aria-live": "polite", "aria-label": "Answers" });
    this.el = h("section", { class: "panel speech", id: "speech", "aria-label": "Play in words" },
      h("h2", {}, "Play in words"),
      h("form", { class: "say-form", onsubmit: (e) => { e.preventDefault(); this.submit(); } },
        this.input, h("button", { type: "submit", class: "small" }, "Ask")),
      h("p", { class: "muted say-help", id: "say-help" }, HELP),
      this.answers, this.boardWords, this.announcer);
  }

  focus() {
    this.input.focus();
  }

  // Called after every drawing: the board's words refreshed, the new log lines announced.
  update() {
    const page = this.page;
    if (!page.view) return;
    this.boardWords.textContent = this.describeBoard();
    const newest = page.log.length ? page.log[page.log.length - 1].version : 0;
    if (this.said === null) { this.said = newest; return; }      // what happened before the page opened is in the log
    const fresh = page.log.filter((l) => l.version > this.said && !l.undone).map((l) => l.text);
    this.said = Math.max(this.said, newest);
    if (fresh.length) this.announce(fresh.join(" "));
  }

  announce(text) {
    this.announcer.append(h("p", {}, text));
    while (this.announcer.childElementCount > 6) this.announcer.firstChild.remove();
  }

  answer(text) {
    clear(this.answers, h("p", {}, text));
  }

  submit() {
    const said = this.input.value.trim();
    if (!said) return;
    this.input.value = "";
    this.answer(`${said}: ${this.reply(said)}`);
  }

  // --- what is said back --------------------------------------------------------------------------

  reply(said) {
    const page = this.page;
    const text = said.toLowerCase();
    if (/^(help|\?)$|what can i (say|ask)/.test(text)) return HELP;
    if (/^(board|describe|describe the board|where)\b/.test(text)) return this.describeBoard();
    if (/^(status|score|scores|whose turn)/.test(text)) return this.status();
    if (page.confirmCapture && /^(yes|y|confirm)$/.test(text)) { page.send(page.confirmCapture.command, true); return "Done."; }
    if (page.confirmCapture && /^(no|n|cancel)$/.test(text)) { page.confirmCapture = null; page.render(); return "Cancelled."; }
    if (/what can i summon/.test(text)) return this.summonable();
    const need = text.match(/(?:squares|where|pattern).*?(?:does|do|for|of)\s+(?:the\s+)?(.+?)(?:\s+need.*)?\??$/);
    if (need && /need|pattern|squares/.test(text)) return this.needs(need[1]);
    const square = text.match(SQUARE);
    if (square && (/^(what|who)/.test(text) || text === square[1])) return this.square(square[1]);
    if (/what can i do|^(options|choices|list|what now)/.test(text)) return this.options();
    if (/^\d+$/.test(text)) {
      const cmd = this.choices[Number(text) - 1];
      return cmd ? this.send(cmd) : "There is no such number in the last list.";
    }
    return this.command(text);
  }

  status() {
    const v = this.page.view;
    const scores = (v.seats || []).map((s) => {
      const score = (v.scores || []).find((x) => x.seat === s.seat);
      return score ? `${playerName(v, s.seat)} ${score.score}` : null;
    }).filter(Boolean);
    return `${statusText(v, this.page.data, v.seat)}.${scores.length ? ` Scores: ${scores.join(", ")}.` : ""}`;
  }

  // The board in words: each colour's pieces by rank, then the squares where something can be done.
  describeBoard() {
    const page = this.page;
    const v = page.view;
    const byColour = new Map();
    for (const p of v.board || []) {
      if (!byColour.has(p.color)) byColour.set(p.color, new Map());
      const ranks = byColour.get(p.color);
      ranks.set(p.rank, [...(ranks.get(p.rank) || []), p.square]);
    }
    const mine = ((v.seats || []).find((x) => x.seat === v.seat) || {}).color;
    const sides = [...byColour].sort(([a], [b]) => (b === mine) - (a === mine)).map(([col, ranks]) => {
      const owners = (v.seats || []).filter((x) => x.color === col && x.seat !== v.seat).map((x) => `${playerName(v, x.seat)}’s`);
      const pieces = [...ranks].map(([rank, squares]) => `${(RANK_LABEL[rank] || rank).toLowerCase()} on ${listed(squares.sort())}`);
      const whose = col === mine ? ["Your", ...owners.map((o) => `and ${o}`)].join(" ") : owners.join(" and ") || "The";
      return `${whose} pieces (${colour(col).name.toLowerCase()}): ${pieces.join("; ")}.`;
    });
    const empty = page.data.geometry.squares.length - (v.board || []).length;
    const act = page.plan ? [...page.plan.squares.keys()] : [];
    return `Board: ${sides.join(" ") || "no pieces."} ${empty} empty squares.${act.length ? ` You can act on ${act.length > 20 ? `${act.length} squares` : listed(act)}.` : ""}`;
  }

  square(sq) {
    const cell = this.page.board.cells.get(sq);
    if (!cell) return `${sq} is not a square of the arena.`;
    const entry = this.page.plan && this.page.plan.squares.get(sq);
    const acts = entry ? entry.commands.map((c) => label(c, this.page.view, this.page.data)) : [];
    const said = cell.g.getAttribute("aria-label");
    return `${said}.${acts.length && !said.includes(acts[0]) ? ` You can: ${acts.join("; ")}.` : ""}`;
  }

  summonable() {
    const page = this.page;
    const cards = [...page.plan.cards].filter(([, acts]) => acts.summon.length);
    if (!cards.length) {
      const hand = ((page.view.seats || []).find((x) => x.seat === page.view.seat) || {}).hand || [];
      return hand.length ? `Nothing can be summoned now. ${hand.map((id) => `${cardName(page.data, id)}: ${page.cardWhy(page.view, id)}`).join(" ")}`
        : "Nothing can be summoned now: your hand is empty.";
    }
    return cards.map(([id, acts]) => `${cardName(page.data, id)} on ${listed([...new Set(acts.summon.map((c) => c.square))])}`).join("; ") + ".";
  }

  // The squares a card needs: for each legal summon, the squares its pattern uses and what it
  // affects (from /legal); for a card that cannot be summoned now, its pattern from the card itself.
  needs(name) {
    const page = this.page;
    const wanted = words(name).join(" ");
    const all = Object.values(page.data.cards.cards);
    const found = all.find((c) => c.name.toLowerCase() === wanted) || all.find((c) => c.name.toLowerCase().includes(wanted));
    if (!found) return `I know no card called “${name}”.`;
    const summons = page.legal.commands.filter((c) => c.type === "summon" && c.card === found.id);
    if (summons.length) {
      return `${found.name}: ` + summons.map((c) => {
        const sq = c.squares || {};
        return `on ${c.square} it uses ${listed(sq.pattern || [])}${sq.affects && sq.affects.length ? ` and affects ${listed(sq.affects)}` : ""}`;
      }).join("; ") + ".";
    }
    const c = cardData(page.data, found.id);
    const cells = (c.pattern || []).map(([dx, dy, rank]) => `a ${rank} piece ${offsetWords(dx, dy)}`);
    return `${found.name} cannot be summoned now. Its pattern, from the square it is summoned on: ${listed(cells) || "no pieces"}.`;
  }

  // Everything that can be done now, numbered (places on the board grouped, each with its number).
  options() {
    const page = this.page;
    if (page.view.status === "finished") return "The game is over.";
    const cmds = page.legal.commands.filter((c) => c.type !== "seat_options");
    if (!cmds.length || page.view.active_seat !== page.view.seat && !(page.view.pending && page.view.pending.seat === page.view.seat)) {
      return `Nothing now. ${this.status()}`;
    }
    this.choices = cmds;
    return cmds.map((c, i) => `${i + 1}: ${label(c, page.view, page.data)}`).join("; ") + ".";
  }

  // A command in words: the legal commands whose label holds every word said (in any order).
  command(text) {
    const page = this.page;
    const said = words(text);
    if (!said.length) return HELP;
    const cmds = page.legal.commands.filter((c) => c.type !== "seat_options");
    const named = cmds.map((c) => [c, label(c, page.view, page.data)]);
    const exact = named.filter(([, l]) => words(l).join(" ") === said.join(" "));
    const fits = exact.length ? exact : named.filter(([, l]) => {
      const have = new Set(words(l));
      return said.every((w) => have.has(w));
    });
    if (fits.length === 1) return this.send(fits[0][0]);
    if (!fits.length) return `That is not something you can do now. Say “what can I do?” for the list, or “help”.`;
    this.choices = fits.map(([c]) => c);
    const shown = fits.slice(0, SHOWN).map(([, l], i) => `${i + 1}: ${l}`);
    return `Which one? ${shown.join("; ")}${fits.length > SHOWN ? `; and ${fits.length - SHOWN} more` : ""}. Say its number.`;
  }

  send(cmd) {
    const page = this.page;
    const own = page.ownCaptured(cmd);
    page.send(cmd);
    return own.length ? `This destroys your own piece on ${listed(own)}. Say “yes” to do it, or “no”.`
      : `${label(cmd, page.view, page.data)}: sent.`;
  }
}
