// A card as the page shows it: name, rank, pattern diagram (with the being square and the marked
// squares) and the effect summary; flares show both halves, tasks their points.

import { h, s } from "./dom.js";
import { card as cardData, RANK_LABEL } from "./data.js";
import { pieceShape } from "./board.js";

const C = 18;
const ARROW = "M0,-5L4,3L0,1L-4,3Z";

const MARK_HELP = {
  target: "marked target", direction: "direction it can act in", area: "marked area", secondary: "secondary mark",
  purple: "purple mark", "mirror-source": "mirror source", "mirror-target": "mirror target", "pattern-piece": "pattern piece",
};

export function patternDiagram(card, colourIndex = 0) {
  const cells = card.pattern || [];
  const marks = card.marked || [];
  const xs = [0, ...cells.map((c) => c[0]), ...marks.map((m) => m[0])];
  const ys = [0, ...cells.map((c) => c[1]), ...marks.map((m) => m[1])];
  const minX = Math.min(...xs), maxX = Math.max(...xs), minY = Math.min(...ys), maxY = Math.max(...ys);
  const w = (maxX - minX + 1) * C, ht = (maxY - minY + 1) * C;
  const svg = s("svg", { viewBox: `-2 -2 ${w + 4} ${ht + 4}`, class: "pattern", role: "img",
    width: w + 4, height: ht + 4, "aria-label": describePattern(card) });
  const at = (dx, dy) => [(dx - minX) * C, (dy - minY) * C];
  for (let y = minY; y <= maxY; y++) {
    for (let x = minX; x <= maxX; x++) {
      const [px, py] = at(x, y);
      svg.append(s("rect", { x: px + 0.5, y: py + 0.5, width: C - 1, height: C - 1, class: "pat-cell" }));
    }
  }
  for (const [dx, dy, kind] of marks) {
    const [px, py] = at(dx, dy);
    if (kind === "direction") {
      const angle = Math.atan2(dy, dx) * 180 / Math.PI + 90;
      svg.append(s("path", { d: ARROW, class: "pat-arrow", transform: `translate(${px + C / 2},${py + C / 2}) rotate(${angle})` }));
    } else {
      svg.append(s("rect", { x: px + 2, y: py + 2, width: C - 4, height: C - 4, class: `pat-mark pat-mark-${kind}` }));
    }
  }
  for (const [dx, dy, rank] of cells) {
    const [px, py] = at(dx, dy);
    svg.append(...pieceShape(px + C / 2, py + C / 2, rank, colourIndex, 0.3));
  }
  const [bx, by] = at(0, 0);
  if (card.own_square) svg.append(...pieceShape(bx + C / 2, by + C / 2, card.own_square, colourIndex, 0.3));
  svg.append(s("rect", { x: bx + 1, y: by + 1, width: C - 2, height: C - 2, class: "pat-being" }));
  return svg;
}

function describePattern(card) {
  const ranks = {};
  for (const c of card.pattern || []) ranks[c[2]] = (ranks[c[2]] || 0) + 1;
  const parts = Object.entries(ranks).map(([r, n]) => `${n} ${r}`);
  let text = `Pattern: ${parts.join(" and ") || "no pieces"}`;
  if (card.own_square) text += `; the being square must hold your ${card.own_square} piece`;
  if (card.anchor === "free") text += "; summoned onto any empty uncoloured square";
  const kinds = [...new Set((card.marked || []).map((m) => MARK_HELP[m[2]] || m[2]))];
  if (kinds.length) text += `; marked: ${kinds.join(", ")}`;
  return text;
}

function flareHalves(c) {
  return h("div", { class: "flare-halves" },
    h("p", {}, h("b", {}, `${c.upper.threshold}+ more upgraded: `), c.upper.summary),
    h("p", {}, h("b", {}, `${c.lower.threshold}+ more pieces: `), c.lower.summary));
}

// A card tile. opts: {colourIndex, selected, selectable, onSelect, actions: [{label, onClick, cls}], compact}
export function cardTile(data, id, opts = {}) {
  const c = cardData(data, id);
  const kind = c.kind === "flare" ? "flare" : c.deck === "legends" ? "legend" : c.kind === "task" ? "task" : "being";
  const rank = c.rank ? RANK_LABEL[c.rank] : kind === "flare" ? "Flare" : kind === "task" ? `${c.points} pt` : "";
  const head = h("div", { class: "card-head" },
    h("span", { class: "card-name" }, c.name),
    h("span", { class: `card-rank rank-${c.rank || kind}` }, rank));
  const body = [];
  if (c.pattern) body.push(h("div", { class: "card-pattern" }, patternDiagram(c, opts.colourIndex || 0)));
  if (kind === "flare" && c.upper) body.push(flareHalves(c));
  else body.push(h("p", { class: "card-summary" }, c.summary || ""));
  const attrs = { class: `card card-${kind}${opts.selected ? " selected" : ""}${opts.selectable ? " selectable" : ""}`,
    "data-card": id };
  const tile = h("article", attrs, head, h("div", { class: "card-body" }, body));
  // Zoom: hover enlarges (CSS); a tap or click on the name toggles it, for touch screens.
  head.setAttribute("title", "Tap to zoom");
  head.addEventListener("click", (e) => { e.stopPropagation(); tile.classList.toggle("zoomed"); });
  const buttons = [];
  if (opts.selectable) {
    buttons.push(h("button", { class: "card-pick", type: "button", "aria-pressed": opts.selected ? "true" : "false",
      "aria-label": `${opts.selected ? "Choose a square for" : "Summon"} ${c.name}`,
      onclick: () => opts.onSelect(id) }, opts.selected ? "Choose a square…" : "Summon"));
  }
  for (const a of opts.actions || []) buttons.push(h("button", { type: "button", class: a.cls || "", onclick: a.onClick }, a.label));
  if (buttons.length) tile.append(h("div", { class: "card-actions" }, buttons));
  return tile;
}

export function cardChip(data, id) {
  const c = cardData(data, id);
  return h("span", { class: "chip", title: c.summary || "" }, c.name);
}

