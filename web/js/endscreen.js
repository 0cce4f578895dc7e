// The end screen: standings with each score broken down, the tie-break that decided, every
// player's statistics, and a Rematch button. Everything comes from the API (the result in
// GET /games/{id}, GET /games/{id}/stats); all text goes in as text nodes.

import { cardName, colour, playerName } from "./data.js";
import { h } from "./dom.js";

const REASONS = { end_of_game: "at the end of the final round", resignation: "by resignation", abandonment: "by abandonment" };
const POINT_REASONS = { destruction: "destroyed pieces", "legend summoned": "legends summoned", flare: "flares",
  "unpaired commons": "unpaired commons", "causality penalty": "causality penalty" };

function ordinal(n) {
  return `${n}${n === 1 ? "st" : n === 2 ? "nd" : n === 3 ? "rd" : "th"}`;
}

function reasonList(points) {
  const entries = Object.entries(points || {});
  return entries.length ? entries.map(([why, n]) => `${n} from ${POINT_REASONS[why] || why}`).join(", ") : "";
}

function breakdownText(view, row, data) {
  const b = row.breakdown || {};
  if (view.form === "melee") {
    return h("span", {}, Object.entries(b.by_color || {}).map(([col, pts], i) => [i ? " · " : "",
      h("span", { class: Number(col) === b.weakest ? "weakest" : "", title: Number(col) === b.weakest ? "the weakest colour: the score" : "" },
        `${colour(Number(col)).name} ${pts}${Number(col) === b.weakest ? " (weakest)" : ""}`)]));
  }
  if (view.form === "high_form") {
    const tasks = (b.tasks || []).map((t) => `${t.name || cardName(data, t.task)} ${t.points}`).join(", ");
    const parts = [`tasks ${b.task_points ?? 0}${tasks ? ` (${tasks})` : ""}`, `legends on the board ${b.legends_on_board ?? 0}`];
    if (b.other_points) parts.push(`other ${b.other_points}`);
    return parts.join(" + ");
  }
  const destroyed = b.destroyed || {};
  const parts = [reasonList(b.by_reason)];
  parts.push(`destroyed: ${destroyed.common || 0} common, ${destroyed.heroic || 0} heroic, ${destroyed.legendary || 0} legendary`);
  return parts.filter(Boolean).join(" · ");
}

// The position of a tie-break key among a standing's keys: two-sided [score, upgraded, pieces];
// melee [lowest colour, second-lowest, (third-lowest), upgraded, pieces].
function keyIndex(name, length) {
  if (name === "upgraded pieces on the board") return length - 2;
  if (name === "pieces on the board") return length - 1;
  return Math.max(0, ["lowest colour", "second-lowest colour", "third-lowest colour"].indexOf(name));     // "score": 0
}

// The tie-break with its counts: "Ann and Bob tied on 12 points; upgraded pieces on the board
// decided it: Ann 4, Bob 3."
function tiebreakText(view, result) {
  const t = result.tiebreak;
  if (!t) return null;
  const tied = result.standings.filter((r) => r.key[0] === result.standings[0].key[0]);
  const names = tied.map((r) => playerName(view, r.seat)).join(" and ");
  const counts = (name) => tied.map((r) => `${playerName(view, r.seat)} ${(t.values[String(r.seat)] || r.key)[keyIndex(name, r.key.length)]}`).join(", ");
  const first = `${names} tied on ${tied[0].key[0]} (${t.tied_on})`;
  if (t.shared) return `${first}, and on every count after it (upgraded pieces: ${counts("upgraded pieces on the board")}; `
    + `pieces: ${counts("pieces on the board")}): they share the win.`;
  return `${first}; ${t.decided_by} decided it: ${counts(t.decided_by)}.`;
}

const STAT_ROWS = [
  ["Pieces placed", (p) => p.pieces_placed], ["Beings summoned", (p) => `${p.beings_summoned}${p.legends_summoned ? ` (${p.legends_summoned} legends)` : ""}`],
  ["Enemy pieces destroyed", (p) => `${p.destroyed.common} common · ${p.destroyed.heroic} heroic · ${p.destroyed.legendary} legendary`],
  ["Upgrades", (p) => p.upgrades], ["Flares invoked", (p) => p.flares], ["Tasks claimed", (p) => p.tasks],
  ["Timeouts", (p) => p.timeouts], ["Undos", (p) => p.undos],
];

export function endScreen(view, stats, data, mySeat, onRematch) {
  const result = (stats && stats.result) || view.result || {};
  const rows = result.standings || [];
  const winners = (result.winners || []).map((s) => playerName(view, s));
  const headline = winners.length ? `${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"} ${REASONS[result.reason] || ""}` : "Game over";
  const table = h("table", { class: "standings" },
    h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Player"), h("th", {}, "Score"), h("th", {}, "How"))),
    h("tbody", {}, rows.map((row) => h("tr", { "data-seat": row.seat, class: row.place === 1 ? "winner" : "" },
      h("td", {}, ordinal(row.place)), h("td", {}, playerName(view, row.seat)),
      h("td", {}, `${row.score}${result.target ? ` / ${result.target}` : ""}`), h("td", { class: "breakdown" }, breakdownText(view, row, data))))));
  const players = stats ? stats.players : [];
  const statTable = players.length ? h("table", { class: "stats" },
    h("thead", {}, h("tr", {}, h("th", {}, h("span", { class: "sr-only" }, "Statistic")), players.map((p) => h("th", {}, p.name || playerName(view, p.seat))))),
    h("tbody", {}, STAT_ROWS.map(([name, get]) => h("tr", {}, h("th", {}, name), players.map((p) => h("td", {}, String(get(p)))))))) : null;
  const tie = tiebreakText(view, result);
  return [
    h("h2", {}, "Game over"),
    h("p", { class: "headline" }, headline.trim() + "."),
    tie ? h("p", { class: "tiebreak" }, tie) : null,
    view.form === "melee" ? h("p", { class: "muted" }, "In a melee your score is your weakest colour; ties go to the next-weakest colour, then to upgraded pieces, then to pieces on the board.") : null,
    table,
    statTable ? h("details", { class: "stats-box", open: true }, h("summary", {}, "Statistics"), statTable) : null,
    mySeat !== null && mySeat !== undefined ? h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", id: "rematch", onclick: onRematch }, "Rematch (the next player starts)")) : null,
  ];
}
