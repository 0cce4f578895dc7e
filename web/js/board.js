// The arena drawn as SVG from the engine's geometry: 69 squares (the 9x9 grid minus cut corners),
// coloured squares, the side of the board the form uses (High Form's central squares, or the
// Deathmatch side's duel start marks and melee start symbols), pieces by colour and rank, the
// Gateway, the resolving card's marked squares, the squares where a legal command can be made, and
// a preview of what a choice uses and affects (pattern, marked squares, path). Keyboard: arrow keys move
// between squares, Enter or Space acts on the focused one.

import { s } from "./dom.js";
import { colour, playerName, RANK_LABEL } from "./data.js";

const CELL = 60;
const MARGIN = 22;
const SIZE = 2 * MARGIN + 9 * CELL;
const RADIUS = { common: 17, heroic: 20, legendary: 23 };
const FILES = "abcdefghi";
const STEPS = {
  ArrowUp: [0, -1], ArrowDown: [0, 1], ArrowLeft: [-1, 0], ArrowRight: [1, 0],
  Home: null, End: null,
};

function star(cx, cy, outer, inner) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? inner : outer;
    const a = -Math.PI / 2 + (i * Math.PI) / 5;
    points.push(`${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`);
  }
  return points.join(" ");
}

// A piece: a disc in its seat's colour, a ring for a heroic piece, a star for a legendary one, and
// on the board (scale 1) the colour's letter as well, so that no piece is told apart by colour alone.
export function pieceShape(cx, cy, rank, colourIndex, scale = 1) {
  const c = colour(colourIndex);
  const r = RADIUS[rank] * scale;
  const parts = [s("circle", { cx, cy, r, fill: c.fill, stroke: "#1d1810", "stroke-width": 1.5 * scale, class: "piece-body" })];
  let ink = c.text;
  if (rank === "heroic") {
    parts.push(s("circle", { cx, cy, r: r - 6 * scale, fill: "none", stroke: c.text, "stroke-width": 2.5 * scale }));
  } else if (rank === "legendary") {
    parts.push(s("polygon", { points: star(cx, cy, r - 5 * scale, (r - 5 * scale) / 2.3), fill: c.text }));
    ink = c.fill;                   // cut out of the star
  }
  if (scale >= 1 && c.letter) {
    parts.push(s("text", { x: cx, y: cy + 5, "text-anchor": "middle", class: `piece-letter letter-${rank}`, fill: ink,
      "aria-hidden": "true" }, c.letter));
  }
  return parts;
}

function markGlyph(cx, cy, kind) {
  const r = CELL / 2 - 6;
  if (kind === "target") {
    return s("path", { d: `M${cx - r / 2},${cy - r / 2}L${cx + r / 2},${cy + r / 2}M${cx + r / 2},${cy - r / 2}L${cx - r / 2},${cy + r / 2}`,
      class: "mark mark-target" });
  }
  return s("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, rx: 6, class: `mark mark-${kind}` });
}

// Where a legal command can be made: a disc or ring; a choice among squares (an effect's question) a
// diamond, so that it differs from a place or summon by its shape as well as its colour.
function targetShape(cx, cy, r, kind) {
  const cls = `target target-${kind}`;
  if (!kind.startsWith("choose")) return s("circle", { cx, cy, r, class: cls });
  const d = r * 1.3;
  return s("polygon", { points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}`, class: cls });
}

const MELEE_SYMBOLS = ["▲", "■", "●"];
const PREVIEW_KEYS = ["pattern", "affects", "path", "being"];

export class Board {
  constructor(geometry, onActivate, onHover = null) {
    this.geometry = geometry;
    this.onActivate = onActivate;
    this.onHover = onHover;
    this.duelStart = new Set(geometry.duel_start || []);
    this.meleeStart = new Map((geometry.melee_start || []).flatMap((pair, i) => pair.map((sq) => [sq, i])));
    this.coord = new Map(geometry.squares.map((q) => [q.square, [q.x, q.y]]));
    this.at = new Map(geometry.squares.map((q) => [`${q.x},${q.y}`, q.square]));
    this.red = new Set(geometry.red);
    this.green = new Set(geometry.green);
    this.central = new Set(geometry.central);
    this.focused = "e5";
    this.cells = new Map();
    this.svg = this.frame();
  }

  frame() {
    const svg = s("svg", { viewBox: `0 0 ${SIZE} ${SIZE}`, class: "board", role: "group",
      "aria-label": "The arena. Arrow keys move between squares; Enter or Space acts on a highlighted one.",
      "aria-describedby": "board-words" });
    svg.append(s("rect", { x: 0, y: 0, width: SIZE, height: SIZE, rx: 14, class: "board-bg" }));
    for (let i = 0; i < 9; i++) {
      const mid = MARGIN + (i + 0.5) * CELL;
      svg.append(s("text", { x: mid, y: MARGIN - 7, class: "coord", "text-anchor": "middle" }, FILES[i]));
      svg.append(s("text", { x: MARGIN - 9, y: mid + 4, class: "coord", "text-anchor": "middle" }, String(i + 1)));
    }
    this.layer = s("g");
    svg.append(this.layer);
    svg.addEventListener("keydown", (e) => this.key(e));
    for (const { square, x, y } of this.geometry.squares) {
      const px = MARGIN + (x - 1) * CELL;
      const py = MARGIN + (y - 1) * CELL;
      const kind = this.red.has(square) ? "red" : this.green.has(square) ? "green" : "plain";
      const g = s("g", { class: `sq sq-${kind}`, "data-square": square, tabindex: -1, role: "button" });
      g.append(s("rect", { x: px + 1, y: py + 1, width: CELL - 2, height: CELL - 2, rx: 5, class: "sq-bg" }));
      // red squares carry a ring, green ones a diamond: their shapes tell them apart without colour
      if (kind === "red") g.append(s("circle", { cx: px + CELL / 2, cy: py + CELL / 2, r: CELL / 2 - 7, class: "sq-ring" }));
      if (kind === "green") {
        const [cx, cy, d] = [px + CELL / 2, py + CELL / 2, CELL / 2 - 5];
        g.append(s("polygon", { points: `${cx},${cy - d} ${cx + d},${cy} ${cx},${cy + d} ${cx - d},${cy}`, class: "sq-ring" }));
      }
      g.append(s("text", { x: px + 4, y: py + 12, class: "sq-name" }, square));
      const side = s("g", { class: "sq-side" });              // printed on the board: beneath the pieces
      const content = s("g", { class: "sq-content" });
      g.append(side, content);
      g.addEventListener("click", () => this.activate(square));
      g.addEventListener("pointerdown", (e) => { this.pointer = e.pointerType; });   // a tap or a mouse click
      g.addEventListener("focus", () => { this.focused = square; this.hover(square); });
      g.addEventListener("mouseenter", () => this.hover(square));
      g.addEventListener("mouseleave", () => this.hover(null));
      this.layer.append(g);
      this.cells.set(square, { g, content, side, px, py, kind });
    }
    return svg;
  }

  hover(square) {
    if (this.onHover) this.onHover(square);
  }

  // What a choice would use and affect: {pattern, affects, path, being} lists of squares (or null).
  preview(squares) {
    for (const [square, { g }] of this.cells) {
      for (const key of PREVIEW_KEYS) {
        const list = squares ? squares[key] : null;
        g.classList.toggle(`pv-${key}`, Boolean(list && (Array.isArray(list) ? list.includes(square) : list === square)));
      }
    }
    this.svg.classList.toggle("previewing", Boolean(squares));
  }

  // The side of the board the form plays on: High Form's centre, or the Deathmatch side's marks.
  drawSide(form) {
    if (this.form === form) return;
    this.form = form;
    const highForm = form === "high_form";
    for (const [square, { g, side, px, py }] of this.cells) {
      const central = highForm && this.central.has(square);
      g.classList.toggle("sq-central", central);
      const parts = [];
      if (!highForm && this.duelStart.has(square)) {
        parts.push(s("path", { d: `M${px + CELL / 2},${py + 8}l8,8l-8,8l-8,-8z`, class: "duel-start" }));
      }
      if (!highForm && this.meleeStart.has(square)) {
        parts.push(s("text", { x: px + CELL - 6, y: py + CELL - 6, class: "melee-start", "text-anchor": "end" },
          MELEE_SYMBOLS[this.meleeStart.get(square)]));
      }
      side.replaceChildren(...parts);
    }
  }

  // view: the position shown; marks: Map square -> {kind, label} of legal targets; recent: changed squares.
  render(view, { marks = new Map(), selected = null, recent = new Set(), readOnly = false, armed = null } = {}) {
    this.drawSide(view.form);
    const pieces = new Map((view.board || []).map((p) => [p.square, p]));
    const effect = view.effect || null;
    const gateways = new Map(Object.entries(view.gateways || {}).filter(([, sq]) => sq).map(([c, sq]) => [sq, Number(c)]));
    if (view.gateway && !gateways.has(view.gateway)) gateways.set(view.gateway, null);
    const marked = new Map((effect && effect.marked || []).map((m) => Array.isArray(m) ? [m[0], m[1]]
      : typeof m === "string" ? [m, "area"] : [m.square, m.kind || "area"]));
    for (const [square, cell] of this.cells) {
      const { g, content, px, py, kind } = cell;
      const cx = px + CELL / 2;
      const cy = py + CELL / 2;
      const piece = pieces.get(square);
      const mark = readOnly ? null : marks.get(square);
      const parts = [];
      if (marked.has(square)) parts.push(markGlyph(cx, cy, marked.get(square)));
      if (effect && effect.origin === square) parts.push(s("rect", { x: px + 3, y: py + 3, width: CELL - 6, height: CELL - 6, rx: 6, class: "origin" }));
      if (gateways.has(square)) {
        parts.push(s("polygon", { points: `${cx},${py + 3} ${px + CELL - 3},${cy} ${cx},${py + CELL - 3} ${px + 3},${cy}`, class: "gateway" }));
      }
      if (piece) parts.push(...pieceShape(cx, cy, piece.rank, piece.color));
      if (mark) parts.push(targetShape(cx, cy, piece ? RADIUS[piece.rank] + 5 : 9, mark.kind));
      content.replaceChildren(...parts);
      g.classList.toggle("legal", Boolean(mark));
      g.classList.toggle("selected", selected === square);
      g.classList.toggle("armed", armed === square);
      g.classList.toggle("recent", recent.has(square));
      let label = `${square}, ${kind === "plain" ? "" : kind + " square, "}`;
      if (g.classList.contains("sq-central")) label += "central square, ";
      const owner = piece && (piece.seat === view.seat ? "your" : `${playerName(view, piece.seat)}’s`);
      label += piece ? `${owner} ${RANK_LABEL[piece.rank].toLowerCase()} piece (${colour(piece.color).name.toLowerCase()})` : "empty";
      if (gateways.has(square)) label += ", the Gateway";
      if (mark) label += `. ${mark.label}`;
      g.setAttribute("aria-label", label);
      g.setAttribute("data-piece", piece ? `${piece.color}-${piece.rank}` : "");
    }
    this.updateTabStop(marks, readOnly);
  }

  updateTabStop(marks, readOnly) {
    if (!this.cells.has(this.focused) || (!readOnly && marks.size && !marks.has(this.focused) && !this.svg.contains(document.activeElement))) {
      this.focused = (!readOnly && marks.size) ? marks.keys().next().value : this.focused;
    }
    for (const [square, { g }] of this.cells) g.setAttribute("tabindex", square === this.focused ? 0 : -1);
  }

  activate(square) {
    this.focused = square;
    this.onActivate(square);
  }

  key(event) {
    const square = event.target.closest && event.target.closest(".sq")?.dataset.square;
    if (!square) return;
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.activate(square);
      return;
    }
    if (!(event.key in STEPS)) return;
    event.preventDefault();
    let next = square;
    if (event.key === "Home" || event.key === "End") {
      const legal = [...this.cells.entries()].filter(([, c]) => c.g.classList.contains("legal")).map(([q]) => q);
      if (legal.length) next = event.key === "Home" ? legal[0] : legal[legal.length - 1];
    } else {
      let [x, y] = this.coord.get(square);
      const [dx, dy] = STEPS[event.key];
      for (let i = 0; i < 9; i++) {
        x += dx; y += dy;
        if (x < 1 || x > 9 || y < 1 || y > 9) break;
        const found = this.at.get(`${x},${y}`);
        if (found) { next = found; break; }
      }
    }
    this.focus(next);
  }

  focus(square) {
    const cell = this.cells.get(square);
    if (!cell) return;
    for (const { g } of this.cells.values()) g.setAttribute("tabindex", -1);
    cell.g.setAttribute("tabindex", 0);
    this.focused = square;
    cell.g.focus({ preventScroll: true });
  }
}
