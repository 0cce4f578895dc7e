// The panels around the board: the status line, the seats (scores, supplies, decks, clocks), the
// High Form tasks, and the log in words.

import { h, plural, s } from "./dom.js";
import { cardName, colour, playerName, schoolName } from "./data.js";
import { cardTile } from "./cards.js";

export function duration(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const t = Math.max(0, Math.round(seconds));
  const d = Math.floor(t / 86400), hh = Math.floor((t % 86400) / 3600), m = Math.floor((t % 3600) / 60), sec = t % 60;
  if (d) return `${d}d ${hh}h`;
  if (hh) return `${hh}h ${String(m).padStart(2, "0")}m`;
  return `${m}:${String(sec).padStart(2, "0")}`;
}

// Seconds left for `seat` now, counting down locally from the server's clocks snapshot.
export function remaining(clocks, seat, skew) {
  if (!clocks || !clocks.seats) return null;
  const entry = clocks.seats.find((x) => x.seat === seat);
  if (!entry || entry.remaining === null || entry.remaining === undefined) return null;
  if (clocks.waiting_for !== seat || !clocks.now) return entry.remaining;
  const elapsed = (Date.now() - skew - Date.parse(clocks.now)) / 1000;
  return entry.remaining - Math.max(0, elapsed);
}

export function timeControlText(tc) {
  if (!tc || tc.kind === "none") return "No time limit";
  if (tc.kind === "move") return `${duration(tc.seconds)} per move`;
  return `${duration(tc.seconds)} bank${tc.increment ? ` + ${duration(tc.increment)} a turn` : ""}`;
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
  if (typeof seat.sideways === "number" && seat.sideways) facts.push(`sideways ${seat.sideways}`);
  return facts.length ? h("div", { class: "seat-facts" }, facts.map((f) => h("span", {}, f))) : null;
}

export function seatsPanel(view, data, mySeat, skew) {
  const scores = new Map((view.scores || []).map((x) => [x.seat, x]));
  const rows = (view.seats || []).map((seat) => {
    const c = colour(seat.color);
    const player = (view.players || []).find((x) => x.seat === seat.seat) || {};
    const score = scores.get(seat.seat) || {};
    const active = view.active_seat === seat.seat && view.status !== "finished";
    const left = remaining(view.clocks, seat.seat, skew);
    const tags = [];
    if (seat.seat === mySeat) tags.push(h("span", { class: "tag tag-you" }, "you"));
    if (player.bot) tags.push(h("span", { class: "tag tag-bot" }, "computer"));
    const byColor = score.by_color ? Object.entries(score.by_color).map(([col, pts]) => `${colour(Number(col)).name} ${pts}`).join(" · ") : "";
    return h("li", { class: `seat${active ? " active" : ""}`, "data-seat": seat.seat },
      h("div", { class: "seat-head" },
        h("span", { class: "swatch", style: `background:${c.fill}`, "aria-hidden": "true" }),
        h("span", { class: "seat-name" }, player.name || `Seat ${seat.seat + 1}`), tags,
        active ? h("span", { class: "to-play" }, "to play") : null,
        h("span", { class: "score", title: "Score" }, String(score.score ?? 0))),
      h("div", { class: "seat-facts" },
        h("span", {}, schoolName(data, seat.school)),
        h("span", {}, `hand ${seat.hand_size}`),
        h("span", {}, `deck ${seat.deck_size}`),
        h("span", {}, `discard ${(seat.discard || []).length}`),
        h("span", { title: "pieces left in supply" }, `supply ${seat.supply.non_legendary}+${seat.supply.legendary}★`),
        left !== null ? h("span", { class: `clock${active ? " running" : ""}`, "data-clock": seat.seat, title: "time left" },
          clockIcon(), duration(left)) : null),
      seatExtras(seat, data),
      byColor ? h("div", { class: "seat-facts by-color" }, `points by colour: ${byColor}`) : null,
      score.tasks && score.tasks.length ? h("div", { class: "seat-facts" }, `tasks: ${score.tasks.map((t) => cardName(data, t)).join(", ")}`) : null);
  });
  const decks = [`legends deck ${view.legends?.deck_size ?? "?"}`, `flares deck ${view.flares?.deck_size ?? "?"}`];
  if (view.tasks) decks.push(`tasks deck ${view.tasks.deck_size}`);
  const extra = [];
  if (view.final_round) extra.push(h("p", { class: "final-round" }, `Final round: ${String(view.final_round.reason || "").replace(/_/g, " ")}`));
  if (view.clocks && view.clocks.deadline) {
    extra.push(h("p", { class: "deadline" }, `Deadline for ${playerName(view, view.clocks.waiting_for)}: `,
      h("time", { datetime: view.clocks.deadline }, new Date(view.clocks.deadline).toLocaleString())));
  }
  return [h("ul", { class: "seats" }, rows), h("p", { class: "decks" }, decks.join(" · ")),
    h("p", { class: "time-control" }, timeControlText(view.time_control)), extra];
}

export function tasksPanel(view, data, claim) {
  if (!view.tasks) return null;
  const t = view.tasks;
  const tiles = (t.current || []).map((id) => {
    const action = claim.get(id);
    return cardTile(data, id, { actions: action ? [{ label: "Claim", cls: "primary", onClick: () => action() }] : [] });
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

export function logPanel(lines) {
  if (!lines.length) return h("p", { class: "muted" }, "Nothing has happened yet.");
  return h("ol", { class: "log-lines" }, lines.map((l) => h("li", { "data-version": l.version }, l.text)));
}
