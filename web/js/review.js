// The review of a finished game, under the board: a button asks for it (POST /games/{id}/review),
// the page looks again until the computer has judged every move, then draws the evaluation graph
// (your side's winning chance after each move; a spectator sees the first seat's) with the marked
// moves as dots; a dot jumps the board to its move. The marks go into the log (game.js), with
// "Better was ..." under your own marked moves.

import { api } from "./api.js";
import { clear, h, s } from "./dom.js";
import { playerName } from "./data.js";

const POLL_MS = 1500;
const WIDTH = 600;
const HEIGHT = 120;
export const MARK_WORDS = { inaccuracy: "?! inaccuracy", mistake: "? mistake", blunder: "?? blunder" };

export class ReviewPanel {
  constructor(gameId, token, { onMarks, onPick }) {
    this.id = gameId;
    this.token = token;
    this.onMarks = onMarks;             // (the review) once it is done: the log shows its marks
    this.onPick = onPick;               // (version): show the board after that move
    this.el = h("section", { class: "panel review", id: "review", "aria-label": "Game review", hidden: true });
    this.review = null;
    this.asked = false;
  }

  // Called with every view: a finished game shows the panel, and reads a review asked for earlier.
  async show(view) {
    this.view = view;
    if (view.status !== "finished") { this.el.hidden = true; return; }
    this.el.hidden = false;
    if (!this.asked) {
      this.asked = true;
      this.review = await api.review(this.id, this.token).catch(() => null);
      if (this.review && this.review.status === "pending") this.poll();
      if (this.review && this.review.status === "done") this.onMarks(this.review);
    }
    this.draw();
  }

  async ask() {
    this.review = { status: "pending", moves: [] };
    this.draw();
    try {
      this.review = await api.askReview(this.id, this.token);
    } catch (err) {
      this.review = { status: "error", detail: err.message, moves: [] };
    }
    if (this.review.status === "pending") this.poll();
    else if (this.review.status === "done") this.onMarks(this.review);
    this.draw();
  }

  poll() {
    setTimeout(async () => {
      this.review = await api.review(this.id, this.token).catch(() => this.review);
      if (this.review.status === "pending") this.poll();
      else if (this.review.status === "done") this.onMarks(this.review);
      this.draw();
    }, POLL_MS);
  }

  draw() {
    const r = this.review;
    const title = h("h2", {}, "Game review");
    if (!r || r.status === "failed") {
      clear(this.el, title, h("p", {}, "The computer can go over every move of this game and mark the inaccuracies, "
        + "mistakes and blunders by how much each one cost in winning chances."),
      h("button", { type: "button", class: "primary", id: "ask-review", onclick: () => this.ask() }, "Review this game"));
    } else if (r.status === "pending") {
      clear(this.el, title, h("p", { role: "status", class: "muted" }, "The computer is going over every move…"));
    } else if (r.status === "error") {
      clear(this.el, title, h("p", { class: "error" }, r.detail));
    } else {
      clear(this.el, title, this.graph(r), this.counts(r));
    }
  }

  // Whose chance the graph follows: your side (a spectator: the first seat's).
  side() {
    const seat = this.view.seat ?? 0;
    const seats = this.view.seats || [];
    const colour = (n) => (seats.find((x) => x.seat === n) || {}).color;
    return { seat, mine: (n) => n === seat || (this.view.form !== "melee" && colour(n) === colour(seat)) };
  }

  graph(r) {
    const { seat, mine } = this.side();
    const melee = this.view.form === "melee";
    const points = r.moves.filter((m) => !melee || m.seat === seat)
      .map((m) => ({ m, y: mine(m.seat) ? m.chance : 1 - m.chance }));
    const x = (i) => (points.length < 2 ? WIDTH / 2 : (i * WIDTH) / (points.length - 1));
    const y = (v) => HEIGHT - v * HEIGHT;
    const line = points.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.y).toFixed(1)}`).join(" ");
    const who = this.view.seat === null || this.view.seat === undefined ? playerName(this.view, seat) : "your side";
    return h("figure", { class: "eval-graph" },
      s("svg", { viewBox: `-6 -6 ${WIDTH + 12} ${HEIGHT + 12}`, role: "img", "aria-label": `Winning chance of ${who}, move by move` },
        s("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT / 2, class: "eval-ahead" }),
        s("rect", { x: 0, y: HEIGHT / 2, width: WIDTH, height: HEIGHT / 2, class: "eval-behind" }),
        s("line", { x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2, class: "eval-even" }),
        s("path", { d: line, class: "eval-line" }),
        points.map((p, i) => (p.m.mark ? s("circle", {
          cx: x(i), cy: y(p.y), r: 6, class: `eval-mark mark-${p.m.mark}`, "data-version": p.m.version, tabindex: 0,
          onclick: () => this.onPick(p.m.version), onkeydown: (e) => { if (e.key === "Enter") this.onPick(p.m.version); },
        }, s("title", {}, `${playerName(this.view, p.m.seat)}: ${MARK_WORDS[p.m.mark]}`)) : null))),
      h("figcaption", {}, `Winning chance of ${who} after each move (above the middle line: ahead). `
        + `Judged with ${r.simulations} simulations a move.`));
  }

  counts(r) {
    const seats = [...new Set(r.moves.map((m) => m.seat))].sort();
    return h("table", { class: "review-counts" },
      h("tr", {}, h("th", {}, ""), ["inaccuracies", "mistakes", "blunders"].map((k) => h("th", {}, k))),
      seats.map((n) => h("tr", {}, h("th", {}, playerName(this.view, n)),
        ["inaccuracy", "mistake", "blunder"].map((k) => h("td", {}, String(r.moves.filter((m) => m.seat === n && m.mark === k).length))))));
  }
}

// The log's marks: the first line of each marked move (its versions run from `version` to `upto`).
export function logMarks(review, lines) {
  const marks = new Map();
  for (const m of (review && review.moves) || []) {
    if (!m.mark) continue;
    const line = lines.find((l) => l.version >= m.version && l.version <= m.upto);
    if (line) marks.set(line.version, m);
  }
  return marks;
}
