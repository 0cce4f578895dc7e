// The panels around the board: the status line, the seats (scores, supplies, decks, clocks), the
// High Form tasks, and the log in words.

import { h, plural, s } from "./dom.js";
import { cardName, colour, playerName, schoolName } from "./data.js";
import { cardTile } from "./cards.js";
import { MARK_WORDS } from "./review.js";

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const t = Math.max(0, Math.round(seconds));
  const d = Math.floor(t / 86400), hh = Math.floor((t % 86400) / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  if (d) return `${d} ${d === 1 ? "day" : "days"}${hh ? ` ${hh} h` : ""}`;
  if (hh) return `${hh}h ${String(m).padStart(2, "0")}m`;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

// A moment in the reader's own style: "2 Dec, 03:01" (the year only when it is not this one).
export function when(iso) {
  const at = new Date(iso);
  const options = { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" };
  if (at.getFullYear() !== new Date().getFullYear()) options.year = "numeric";
  return at.toLocaleString(undefined, options);
}

// A time limit in words: "45 s", "5 min", "2 h", "3 days" (or a mix: "1 h 30 min").
export function limitText(seconds) {
  const t = Math.max(0, Math.round(seconds || 0));
  const units = [[86400, (n) => `${n} ${n === 1 ? "day" : "days"}`], [3600, (n) => `${n} h`], [60, (n) => `${n} min`], [1, (n) => `${n} s`]];
  const parts = [];
  let left = t;
  for (const [size, say] of units) {
    const n = Math.floor(left / size);
    if (n) parts.push(say(n));
    left -= n * size;
    if (parts.length === 2) break;
  }
  return parts.length ? parts.join(" ") : "0 s";
}

// The whole time a seat has (per move, or its bank), for the warning under 20 % left.
function fullTime(tc) {
  return tc && tc.kind !== "none" && tc.seconds ? tc.seconds : null;
}

// The score that starts the final round, as the engine gives it in every view.
export function targetOf(view) {
  return view.target ?? null;
}

function triggerText(view) {
  const target = targetOf(view);
  const who = view.form === "melee" ? "a player has " + target + " points in one colour" : "a side reaches " + target + " points";
  return `Target ${target}: the final round starts when ${who}, or when a school deck runs out.`;
}

// Until when the seat's player is on vacation (their clocks stand still), or null.
export function awayUntil(clocks, seat) {
  const away = (clocks && clocks.vacation || []).find((x) => x.seat === seat);
  return away && Date.parse(away.until) > Date.now() ? away.until : null;
}

// Seconds left for `seat` now, counting down locally from the server's clocks snapshot.
export function remaining(clocks, seat, skew) {
  if (!clocks || !clocks.seats) return null;
  const entry = clocks.seats.find((x) => x.seat === seat);
  if (!entry || entry.remaining === null || entry.remaining === undefined) return null;
  if (clocks.waiting_for !== seat || !clocks.now || awayUntil(clocks, seat) || restingUntil(clocks, seat)) return entry.remaining;
  const elapsed = (Date.now() - skew - Date.parse(clocks.now)) / 1000;
  return entry.remaining - Math.max(0, elapsed);
}

function stripScore(score, target) {
  const melee = meleeScore(score);
  return melee ? `${score.score ?? 0} · best ${melee.best}/${target}` : `${score.score ?? 0}/${target}`;
}

export function timeControlText(tc) {
  if (!tc || tc.kind === "none") return "No time limit";
  const rest = tc.weekend_rest ? " · clocks rest at weekends" : "";
  if (tc.kind === "move") return `${limitText(tc.seconds)} per move${rest}`;
  return `${limitText(tc.seconds)} in the bank${tc.increment ? ` + ${limitText(tc.increment)} a turn` : ""}${rest}`;
}

// The seat's weekend under way (weekend rest: its clock stands still until `until`), or null.
function restingUntil(clocks, seat) {
  const rest = ((clocks && clocks.resting) || []).find((r) => r.seat === seat);
  return rest && Date.parse(rest.until) > Date.now() ? rest : null;
}

// A seat's colour as a small disc carrying the colour's letter (the name beside it says it in words).
function swatch(c) {
  return h("span", { class: "swatch", style: `background:${c.fill};color:${c.text}`, "aria-hidden": "true" }, c.letter);
}

export function statusText(view, data, mySeat) {
  if (view.status === "finished") {
    const r = view.result || {};
    const winners = (r.winners || []).map((s) => playerName(view, s));
    const why = r.reason ? ` (${String(r.reason).replace(/_/g, " ")})` : "";
    return winners.length ? `Game over: ${winners.join(" and ")} ${winners.length > 1 ? "win" : "wins"}${why}` : `Game over${why}`;
  }
  const p = view.pending;
  const waiting = view.active_seat;
  const who = waiting === mySeat ? "You" : playerName(view, waiting);
  if (p && p.seat !== undefined) {
    const card = p.card ? ` (${cardName(data, p.card)})` : "";
    return p.seat === mySeat ? `${p.prompt || "Choose"}${card}` : `Waiting for ${playerName(view, p.seat)}: ${p.prompt || "a decision"}${card}`;
  }
  if (!view.turn) return view.status === "setup" ? "Setting up" : "";
  const t = view.turn;
  const acts = `${plural(t.actions_left, "action")} left`;
  return waiting === mySeat ? `Your turn · ${acts}` : `${who} to play · ${acts}`;
}

function clockIcon() {
  return s("svg", { viewBox: "0 0 16 16", class: "icon", "aria-hidden": "true" },
    s("circle", { cx: 8, cy: 8, r: 6.5, fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    s("path", { d: "M8 4.2V8l2.6 1.6", fill: "none", stroke: "currentColor", "stroke-width": 1.6, "stroke-linecap": "round" }));
}

// What some schools add to a seat: Everfrost's frozen card, Etherweave's pending being and stasis, teams' sideways cards.
function seatExtras(seat, data) {
  const facts = [];
  if (seat.frozen) facts.push(`frozen: ${cardName(data, seat.frozen)}`);
  if (seat.pending_being) facts.push(`pending: ${cardName(data, seat.pending_being)}`);
  if (seat.stasis) facts.push(`in stasis: ${colour(seat.stasis.color).name.toLowerCase()} ${seat.stasis.rank}`);
  const out = facts.length ? [h("div", { class: "seat-facts" }, facts.map((f) => h("span", {}, f)))] : [];
  if (typeof seat.sideways === "number" && seat.sideways) out.push(h("p", { class: "sideways-note", "data-sideways": seat.seat }, SIDEWAYS_WORDS(seat.sideways)));
  return out.length ? out : null;
}

// Team play: the crosswise cards at the bottom of a deck, said where they show.
const SIDEWAYS_WORDS = (n) => `${n} card${n === 1 ? "" : "s"} lie sideways at the bottom of this deck. `
  + "Drawing the last upright card starts the final round; the sideways ones can still be drawn after that.";

// The form as the header says it: "Deathmatch (duel) · 2 v 2", "Melee · 3 players".
export function formLabel(view, formName) {
  const n = (view.seats || []).length;
  if (view.teams) return `${formName} · 2 v 2`;
  if (view.form === "melee") return `${formName} · ${n} players`;
  return formName;
}

// Who plays: "Ann vs Computer", "Ann & Cid vs Bob & Dee" (teammates share a colour).
export function sidesText(view) {
  const sides = new Map();
  for (const seat of view.seats || []) sides.set(seat.color, [...(sides.get(seat.color) || []), playerName(view, seat.seat)]);
  return [...sides.values()].map((names) => names.join(" & ")).join(" vs ");
}

// Team play: one line per team with the score it shares, its colour and players.
function teamHeads(view, mySeat) {
  const scores = new Map((view.scores || []).map((x) => [x.seat, x]));
  const teams = new Map();
  for (const seat of view.seats || []) teams.set(seat.color, [...(teams.get(seat.color) || []), seat.seat]);
  return [...teams.entries()].map(([color, seats]) => h("p", { class: "team-score", "data-team": color },
    swatch(colour(color)), " ",
    h("strong", {}, `${seats.includes(mySeat) ? "Your team" : `Team ${colour(color).name}`}: ${(scores.get(seats[0]) || {}).score ?? 0} / ${targetOf(view)}`),
    ` · ${seats.map((s) => playerName(view, s)).join(" & ")}`));
}

// What a seat's points came from, in words: "2 for destroyed pieces, 1 for a legend summoned" (by
// reason, from GET /stats while the game runs), or High Form's tasks and legends on the board.
const WHY = { destruction: "destroyed pieces", "legend summoned": "legends summoned", flare: "the opponents' flares",
  "unpaired commons": "unpaired commons", "causality penalty": "causality penalty" };

export function scoreWhy(view, data, seat, stats) {
  const entry = (view.scores || []).find((x) => x.seat === seat) || {};
  if (view.form === "high_form") {
    const color = ((view.seats || []).find((x) => x.seat === seat) || {}).color;
    const legends = (view.board || []).filter((p) => p.color === color && p.rank === "legendary").length;
    const tasks = (entry.tasks || []).map((t) => cardName(data, t));
    return `${tasks.length ? `tasks: ${tasks.join(", ")}` : "no task yet"} · ${plural(legends, "legend")} on the board (1 each)`;
  }
  const player = stats && (stats.players || []).find((p) => p.seat === seat);
  if (!player) return null;
  const flat = {};
  const add = (why, n) => { if (typeof n === "number") flat[why] = (flat[why] || 0) + n; };
  for (const [key, value] of Object.entries(player.points || {})) {
    if (value && typeof value === "object") for (const [why, n] of Object.entries(value)) add(why, n);   // melee: by colour
    else add(key, value);
  }
  const parts = Object.entries(flat).filter(([, n]) => n).map(([why, n]) => `${n} for ${WHY[why] || why}`);
  return parts.length ? `scored ${parts.join(", ")}` : "no points scored yet";
}

export function seatsPanel(view, data, mySeat, skew, stats = null) {
  const scores = new Map((view.scores || []).map((x) => [x.seat, x]));
  const rows = (view.seats || []).map((seat) => {
    const c = colour(seat.color);
    const player = (view.players || []).find((x) => x.seat === seat.seat) || {};
    const score = scores.get(seat.seat) || {};
    const active = view.active_seat === seat.seat && view.status !== "finished";
    const left = remaining(view.clocks, seat.seat, skew);
    const full = fullTime(view.time_control);
    const low = left !== null && full && left < 0.2 * full;
    const tags = [];
    if (seat.seat === mySeat) tags.push(h("span", { class: "tag tag-you" }, "you"));
    if (player.title) tags.push(h("span", { class: "tag tag-bot tag-title", title: "a bot account: a program plays this seat through the API" }, "bot account"));
    if (player.bot) tags.push(h("span", { class: "tag tag-bot", title: "the computer plays this seat" }, `computer · level ${player.bot_level || 1}`));
    const melee = meleeScore(score);
    const target = targetOf(view);
    const away = awayUntil(view.clocks, seat.seat);
    const resting = away ? null : restingUntil(view.clocks, seat.seat);
    return h("li", { class: `seat${active ? " active" : ""}`, "data-seat": seat.seat },
      h("div", { class: "seat-head" },
        swatch(c),
        h("span", { class: "seat-name" }, player.name || `Seat ${seat.seat + 1}`), tags,
        active ? h("span", { class: "to-play" }, "to play") : null,
        h("span", { class: "score", title: melee ? `Score: the weakest colour; the best colour against the target of ${target}`
          : `Score, against the target of ${target}` },
          String(score.score ?? 0), h("span", { class: "target" }, `${melee ? ` · best ${melee.best}` : ""} / ${target}`)),
        left !== null ? h("span", { class: `clock big${active ? " running" : ""}${low ? " low" : ""}`, "data-clock": seat.seat,
          title: low ? "time left: under a fifth of the limit" : "time left" }, clockIcon(), duration(left)) : null),
      h("div", { class: "seat-facts" },
        h("span", {}, schoolName(data, seat.school)),
        seat.chosen_by !== undefined ? h("span", { class: "school-by" }, `chosen by ${playerName(view, seat.chosen_by)}`) : null,
        seat.banned ? h("span", { class: "school-ban" }, `banned ${schoolName(data, seat.banned)}`) : null,
        h("span", {}, `hand ${seat.hand_size}`),
        h("span", {}, `deck ${seat.deck_size}`),
        h("span", {}, `discard ${(seat.discard || []).length}`),
        h("span", { title: "pieces left in supply" }, `supply ${seat.supply.non_legendary}+${seat.supply.legendary}★`)),
      away ? h("div", { class: "seat-facts seat-vacation" },
        `On vacation until ${when(away)}: the clock stands still.`) : null,
      resting ? h("div", { class: "seat-facts seat-vacation seat-resting" },
        `Weekend (${resting.time_zone}) until ${when(resting.until)}: the clock stands still.`) : null,
      seatExtras(seat, data),
      ((why) => why ? h("div", { class: "seat-facts score-why", "data-score-why": seat.seat }, why) : null)(scoreWhy(view, data, seat.seat, stats)),
      melee ? h("div", { class: "seat-facts by-color" }, "points by colour: ", melee.parts) : null,
      score.tasks && score.tasks.length ? h("div", { class: "seat-facts" }, `tasks: ${score.tasks.map((t) => cardName(data, t)).join(", ")}`) : null);
  });
  const decks = [`legends deck ${view.legends?.deck_size ?? "?"}`, `flares deck ${view.flares?.deck_size ?? "?"}`];
  if (view.tasks) decks.push(`tasks deck ${view.tasks.deck_size}`);
  const extra = [];
  if (view.final_round) extra.push(h("p", { class: "final-round" }, `Final round: ${String(view.final_round.reason || "").replace(/_/g, " ")}`));
  if (view.clocks && view.clocks.deadline) {
    extra.push(h("p", { class: "deadline" }, `Deadline for ${playerName(view, view.clocks.waiting_for)}: `,
      h("time", { datetime: view.clocks.deadline }, when(view.clocks.deadline))));
  }
  // teammates side by side, under their team's shared score
  const order = view.teams ? [...rows.keys()].sort((a, b) => (view.seats[a].color - view.seats[b].color) || a - b) : [...rows.keys()];
  return [view.teams ? teamHeads(view, mySeat) : null, h("ul", { class: "seats" }, order.map((i) => rows[i])), h("p", { class: "trigger" }, triggerText(view)), h("p", { class: "decks" }, decks.join(" · ")),
    h("p", { class: "time-control" }, timeControlText(view.time_control)), extra];
}

export function tasksPanel(view, data, claim) {
  if (!view.tasks) return null;
  const t = view.tasks;
  const met = new Set(t.claimable || []);
  const tiles = (t.current || []).map((id) => {
    const action = claim.get(id);
    const tile = cardTile(data, id, { actions: action ? [{ label: "Claim", cls: "primary", onClick: () => action() }] : [] });
    if (met.has(id)) {
      tile.classList.add("task-met");
      tile.prepend(h("span", { class: "tag tag-met" }, "met now"));
    }
    return tile;
  });
  return h("section", { class: "panel tasks", "aria-label": "Tasks" },
    h("h2", {}, "Tasks"), h("div", { class: "task-row" }, tiles),
    t.next ? h("p", { class: "muted" }, `Next: ${cardName(data, t.next)}`) : null);
}

// Where an imported game comes from (GET /games/{id} `provenance`); nothing for a game played here.
export function provenanceNote(provenance) {
  const origin = provenance && provenance.origin;
  if (origin === "unsigned") return "Imported record without a valid signature: nothing shows it was really played, and it is not rated.";
  if (origin === "foreign") return `Imported record signed by a key this server does not trust (${provenance.key_id}): it is not rated.`;
  if (origin === "trusted") return `Imported record, signed by trusted key ${provenance.key_id}.`;
  return null;
}

// Each line jumps the rewind slider to its move (onPick(move)); undone steps are struck through.
// `marks`: the game review's marked moves by the version of their first log line (review.js).
export function logPanel(lines, onPick, marks = new Map()) {
  if (!lines.length) return h("p", { class: "muted" }, "Nothing has happened yet.");
  return h("ol", { class: "log-lines" }, lines.map((l) => {
    const marked = marks.get(l.version);
    return h("li", {
      "data-version": l.version, "data-move": l.move ?? "", class: l.undone ? "undone" : "",
      title: l.undone ? "Taken back (undone). Click to see this move." : "Click to see the board after this move",
    }, h("button", { type: "button", class: "log-line", onclick: () => onPick && l.move !== undefined && onPick(l.move) },
      l.text, l.undone ? h("span", { class: "tag tag-undone" }, "undone") : null,
      l.conditional ? h("span", { class: "tag tag-conditional", title: "played by a conditional reply" }, "conditional reply") : null,
      marked ? h("span", { class: `tag review-mark mark-${marked.mark}`, "data-mark": marked.mark }, MARK_WORDS[marked.mark]) : null),
    marked && marked.better_text ? h("p", { class: "better" }, marked.better_text) : null);
  }));
}

// A melee seat's points in each colour: the weakest (its score) marked, and the best (which ends the
// game when it reaches the target); null outside a melee.
function meleeScore(score) {
  if (!score.by_color) return null;
  const entries = Object.entries(score.by_color).map(([col, pts]) => [Number(col), pts]);
  if (!entries.length) return null;
  const weakest = Math.min(...entries.map(([, pts]) => pts));
  const best = Math.max(...entries.map(([, pts]) => pts));
  const parts = entries.flatMap(([col, pts], i) => [i ? " · " : null,
    h("span", pts === weakest ? { class: "weakest", title: "the weakest colour: this is the score" } : {},
      `${colour(col).name} ${pts}${pts === weakest ? " (weakest)" : ""}`)]).filter(Boolean);
  return { best, parts };
}

// The compact strip above the board (what a phone shows first): each player with score against the
// target and clock, and whose turn it is with the actions left.
export function stripPanel(view, data, mySeat, skew) {
  const scores = new Map((view.scores || []).map((x) => [x.seat, x]));
  const full = fullTime(view.time_control);
  const chips = (view.seats || []).map((seat) => {
    const player = (view.players || []).find((x) => x.seat === seat.seat) || {};
    const active = view.active_seat === seat.seat && view.status !== "finished";
    const left = remaining(view.clocks, seat.seat, skew);
    const low = left !== null && full && left < 0.2 * full;
    return h("span", { class: `strip-seat${active ? " active" : ""}`, "data-strip-seat": seat.seat },
      swatch(colour(seat.color)),
      h("span", { class: "strip-name" }, seat.seat === mySeat ? `${player.name || "You"} (you)` : player.name || `Seat ${seat.seat + 1}`),
      h("span", { class: "strip-score" }, stripScore(scores.get(seat.seat) || {}, targetOf(view))),
      left !== null ? h("span", { class: `clock${active ? " running" : ""}${low ? " low" : ""}` }, duration(left)) : null);
  });
  return [h("div", { class: "strip-seats" }, chips), h("p", { class: "strip-status" }, statusText(view, data, mySeat))];
}
