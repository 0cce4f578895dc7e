// Conditional replies on the game screen: while the others play, "if they … then I …" rules for your
// next turn, the "then" part built on the board (a rehearsal of your turn from what you know:
// POST /games/{id}/conditionals/rehearse), queued with PUT /games/{id}/conditionals; and what
// became of your last ones. The trigger kinds come from GET /vocabulary (conditionals.triggers).

import { request } from "./api.js";
import { cardName } from "./data.js";
import { clear, h } from "./dom.js";

const path = (id) => `/games/${encodeURIComponent(id)}/conditionals`;

// How the page words each trigger kind after "If they" (the kinds themselves are the server's).
const KIND_WORDS = { summon: "summon a being", destroyed: "destroy a piece of mine", moved: "move a piece of mine",
  flare: "invoke a flare", task: "claim a task", anything: "do anything else" };
const RESULT_WORDS = { played: "played", no_match: "did not match", refused: "not legal", not_tried: "not tried",
  too_late: "too late" };

// The square a rehearsal command is chosen by on the board (none: a button in the panel).
function squareOf(command) {
  return command.square ?? command.to ?? null;
}

export class RepliesPanel {
  // page: the GamePage (its id, token, data, live view and render)
  constructor(page) {
    this.page = page;
    this.info = null;
    this.draft = null;
    this.turn = null;
    this.error = null;
    this.el = h("section", { class: "panel replies", id: "replies", "aria-label": "Conditional replies", hidden: true });
  }

  get triggers() {
    return this.page.data.vocabulary.conditionals.triggers;
  }

  // After a new view: read the seat's replies again when the turn changed hands (only then can a
  // reply have been played or dropped; a step within a turn changes nothing of them).
  async update(view) {
    if (view.seat === null || view.seat === undefined || view.status === "finished") {
      this.el.hidden = true;
      return;
    }
    const turn = `${view.active_seat}:${view.turn ? view.turn.number : ""}`;
    if (this.turn === turn) return;
    this.turn = turn;
    try {
      this.info = await request("GET", path(this.page.id), { token: this.page.token });
    } catch (err) {
      this.info = null;
    }
    if (this.draft && !(this.info && this.info.waiting)) this.draft = null;     // your turn came
    this.render();
  }

  // While a reply is being built, the board shows its rehearsal and marks where to act.
  boardView() {
    if (!this.draft || !this.draft.rehearsal) return null;
    const live = this.page.view;
    const view = { ...this.draft.rehearsal.view, players: live.players, seat: live.seat };
    const marks = new Map();
    if (this.draft.picking === "when") {
      for (const { square } of this.page.data.geometry.squares) marks.set(square, { kind: "choose", label: "Pick this square for the trigger" });
    } else if (!this.draft.rehearsal.ended) {
      for (const c of this.draft.rehearsal.commands) {
        const sq = squareOf(c);
        if (sq) marks.set(sq, { kind: c.type === "summon" ? "summon" : c.type === "place" ? "place" : "choose", label: c.text });
      }
    }
    return { view, marks };
  }

  // A board click while building: the trigger's square, or the commands played there. True when taken.
  takesSquare(square) {
    if (!this.draft) return false;
    if (this.draft.picking === "when") {
      this.draft.when.square = square;
      this.draft.picking = null;
      this.draft.at = null;
      this.refresh();
      return true;
    }
    const here = (this.draft.rehearsal?.commands || []).filter((c) => squareOf(c) === square);
    this.draft.at = here.length ? square : null;
    if (here.length === 1) this.choose(here[0]);
    else this.refresh();
    return true;
  }

  start() {
    this.draft = { when: { kind: "anything" }, then: [], rehearsal: null, picking: null, at: null };
    this.rehearse();
  }

  async rehearse() {
    const draft = this.draft;
    try {
      const answer = await request("POST", `${path(this.page.id)}/rehearse`, { token: this.page.token,
        body: { commands: draft.then } });
      if (this.draft !== draft) return;
      draft.rehearsal = answer;
      this.error = null;
    } catch (err) {
      this.error = err.message;
      if (draft.then.length) draft.then.pop();
    }
    this.refresh();
  }

  choose(command) {
    const { text, squares, ...sent } = command;
    this.draft.then.push({ ...sent, text });
    this.draft.at = null;
    this.rehearse();
  }

  back() {
    this.draft.then.pop();
    this.draft.at = null;
    this.rehearse();
  }

  cancel() {
    this.draft = null;
    this.error = null;
    this.refresh();
  }

  async save(rules) {
    try {
      this.info = await request("PUT", path(this.page.id), { token: this.page.token, body: { rules } });
      this.draft = null;
      this.error = null;
    } catch (err) {
      this.error = err.message;
    }
    this.refresh();
  }

  queue() {
    const when = Object.fromEntries(Object.entries(this.draft.when).filter(([, v]) => v !== null && v !== ""));
    const then = this.draft.then.map(({ text, ...c }) => c);
    this.save([...this.rules(), { when, then }]);
  }

  rules() {
    return (this.info?.rules || []).map(({ when, then }) => ({ when, then }));
  }

  remove(i) {
    this.save(this.rules().filter((_, j) => j !== i));
  }

  refresh() {
    this.render();
    this.page.render();
  }

  // The cards a trigger may name: the others' schools and the legends for a summon, flares, tasks.
  cardChoices(kind) {
    const view = this.page.view;
    const theirs = new Set((view.seats || []).filter((x) => x.seat !== view.seat).map((x) => x.school));
    const decks = kind === "summon" ? new Set([...theirs, "legends"]) : new Set([kind === "flare" ? "flares" : "tasks"]);
    return Object.values(this.page.data.cards.cards).filter((c) => decks.has(c.deck)).map((c) => c.id);
  }

  render() {
    const info = this.info;
    this.el.hidden = !info;
    if (!info) return;
    const told = info.told ? h("div", { class: "replies-told", id: "replies-told" }, h("h3", {}, "Last time"),
      h("ol", {}, info.told.results.map((r) => h("li", { class: `told-${r.result}` },
        h("strong", {}, `Reply ${r.rule + 1}: ${RESULT_WORDS[r.result] || r.result}. `), r.reason)))) : null;
    const queued = info.rules.length ? h("ol", { class: "replies-list", id: "replies-list" }, info.rules.map((r, i) =>
      h("li", {}, r.text, " ", info.waiting ? h("button", { type: "button", class: "small", onclick: () => this.remove(i) }, "Remove") : null)))
      : h("p", { class: "muted" }, info.waiting ? "None queued: your turn will wait for you." : "None queued.");
    const action = !info.waiting ? h("p", { class: "muted" }, "You can queue replies while the others play.")
      : this.draft ? this.builder() : h("button", { type: "button", id: "new-reply", onclick: () => this.start() }, "New reply: if they … then I …");
    clear(this.el, h("h2", {}, "Conditional replies"), told, queued, action,
      this.error ? h("p", { class: "error", role: "alert" }, this.error) : null);
  }

  builder() {
    const d = this.draft;
    const narrowed = this.triggers[d.when.kind] || [];
    const kind = h("select", { id: "reply-kind", "aria-label": "If they", onchange: (e) => {
      d.when = { kind: e.target.value };
      this.refresh();
    } }, Object.keys(this.triggers).map((k) => h("option", { value: k, selected: k === d.when.kind }, KIND_WORDS[k] || k)));
    const field = narrowed.find((f) => f === "card" || f === "task");
    const card = field ? h("select", { id: "reply-card", "aria-label": "Which card", onchange: (e) => {
      d.when[field] = e.target.value || null;
    } }, h("option", { value: "" }, "any card"),
      this.cardChoices(d.when.kind).map((id) => h("option", { value: id, selected: d.when[field] === id }, cardName(this.page.data, id)))) : null;
    const square = narrowed.includes("square") ? h("span", {}, ` ${d.when.kind === "moved" ? "from" : "on"} `,
      h("button", { type: "button", class: "small", id: "reply-square", onclick: () => { d.picking = "when"; this.refresh(); } },
        d.picking === "when" ? "click a square on the board…" : d.when.square || "any square")) : null;
    const rehearsal = d.rehearsal;
    const here = d.at ? rehearsal.commands.filter((c) => squareOf(c) === d.at) : [];
    const offBoard = rehearsal ? rehearsal.commands.filter((c) => !squareOf(c)) : [];
    const options = [...here, ...offBoard];
    return h("div", { class: "reply-builder", id: "reply-builder" },
      h("p", {}, "If they ", kind, " ", card, square),
      h("p", {}, "then I:", h("span", { class: "muted" }, " (the board shows your turn rehearsed; cards you cannot see are guessed)")),
      d.then.length ? h("ol", { class: "reply-then", id: "reply-then" }, d.then.map((c) => h("li", {}, c.text))) : null,
      !rehearsal ? h("p", { class: "muted" }, "Setting up the board…")
        : rehearsal.ended ? h("p", { class: "muted" }, "That is your whole turn.")
        : h("p", { class: "muted" }, d.then.length ? "Next: click a marked square on the board." : "Click a marked square on the board for your first command."),
      options.length && !rehearsal.ended ? h("div", { class: "buttons", id: "reply-options" },
        options.map((c) => h("button", { type: "button", class: "small", onclick: () => this.choose(c) }, c.text))) : null,
      h("div", { class: "buttons" },
        h("button", { type: "button", id: "reply-queue", disabled: !d.then.length, onclick: () => this.queue() }, "Queue this reply"),
        d.then.length ? h("button", { type: "button", class: "small", onclick: () => this.back() }, "Take back the last") : null,
        h("button", { type: "button", class: "small", onclick: () => this.cancel() }, "Cancel")));
  }
}

