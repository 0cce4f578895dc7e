// The game page: fetches the seat's view, legal commands, moves and log; draws them; turns clicks
// and keys into commands; follows the game live; rewinds read-only; recovers after a reload or a
// lost connection.

import { api, mayHaveSession } from "./api.js";
import { Board } from "./board.js";
import { cardTile } from "./cards.js";
import { findDiscard, label, plan, previewOf } from "./choices.js";
import { endScreen } from "./endscreen.js";
import { Keyboard } from "./keyboard.js";
import { RematchPanel } from "./rematch.js";
import { RepliesPanel } from "./replies.js";
import { card as cardData, cardName, formName, playerName } from "./data.js";
import { clear, h } from "./dom.js";
import * as notify from "./notify.js";
import { formLabel, logPanel, provenanceNote, seatsPanel, sidesText, statusText, stripPanel, tasksPanel } from "./panels.js";
import { ReviewPanel, logMarks } from "./review.js";
import { RewindBar } from "./rewind.js";
import { Speech } from "./speech.js";
import * as storage from "./storage.js";
import { LiveStream } from "./stream.js";
import { plainWords, refetches } from "./words.js";

const STREAM_TEXT = { connecting: "Connecting…", live: "Live", reconnecting: "Reconnecting…", ended: "Game over", failed: "Not live" };

function boardMap(view) {
  return new Map((view.board || []).map((p) => [p.square, `${p.color}-${p.rank}`]));
}

export class GamePage {
  // opts.tutor: the tutorial's lessons (web/js/tutorial.js), shown in the status bar and told of every drawing
  constructor(root, gameId, data, opts = {}) {
    this.root = root;
    this.tutor = opts.tutor || null;
    this.id = gameId;
    this.data = data;
    this.token = storage.tokenFor(gameId);
    this.view = null;
    this.legal = { version: 0, commands: [] };
    this.moves = [];
    this.log = [];
    this.rewound = null;
    this.sel = { card: null, from: null, discard: null, returns: new Set() };
    this.chooser = null;
    this.confirmResign = false;
    this.recent = new Set();
    this.error = null;
    this.busy = false;
    this.heldTap = null;        // a square tapped while our own command was still settling
    this.seq = 0;
    this.seekSeq = 0;
    this.skew = 0;
    this.board = new Board(data.geometry, (sq) => this.onSquare(sq), (sq) => this.hoverSquare(sq));
    this.stats = null;
    // The strip above the board is drawn only on narrow screens (where the side column is far away).
    this.narrow = window.matchMedia("(max-width: 700px)");
    this.narrow.addEventListener("change", () => this.render());
    this.handClosed = this.narrow.matches;        // a phone's hand drawer starts closed: names only
    this.rewindBar = new RewindBar((n) => this.seek(n));
    this.reviewMarks = new Map();
    this.replies = new RepliesPanel(this);
    this.keyboard = new Keyboard(this);      // keys for every action, listed on a help dialog ("?")
    this.speech = new Speech(this);          // the board and the events in words, a command box
  }

  async start() {
    this.layout();
    try {
      await this.refresh();
    } catch (err) {
      clear(this.root, h("section", { class: "panel error-page" }, h("h1", {}, "This game cannot be shown"),
        h("p", { class: "error" }, err.message), h("p", {}, h("a", { href: "/" }, "Back to your games"))));
      return;
    }
    await this.applyConfirmTurnEnd();           // before the first click can be made
    this.stream = new LiveStream(this.id, this.token, {
      onEvent: (e) => this.streamed(e),
      onChat: (message) => document.dispatchEvent(new CustomEvent("arena:chat", { detail: message })),
      onRematch: () => this.rematchPanel?.news(),
      onStatus: (status, detail) => this.streamStatus(status, detail),
    }, { chat: true });
    // Resume from one event back: the server then answers at once (it sends nothing, not even its
    // headers, until an event or its 15 s keep-alive), and the repeated event is ignored.
    this.stream.start(Math.max(0, (this.view.latest ?? this.view.version) - 1));
    this.ticker = setInterval(() => this.tick(), 1000);
    document.addEventListener("keydown", (e) => this.keyboard.key(e) || this.key(e));
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.scheduleUpdate(); });
  }

  liveVersion() {
    return this.view ? this.view.version : 0;
  }

  // BGA's table: a status bar pinned to the top holds the prompt and every button of the decision
  // (choices, confirm, undo, redo, end turn) and explains a misclick; the board sits under it,
  // sized to what is left of the screen; the hand beside it (on a phone: a drawer at the bottom).
  layout() {
    this.reviewPanel = new ReviewPanel(this.id, this.token, {
      onMarks: (review) => { this.review = review; this.renderedLog = null; this.renderLog(); },
      onPick: (version) => this.seekVersion(version),
    });
    this.statusEl = h("p", { class: "status-text", id: "status", "aria-live": "polite" });
    this.streamEl = h("span", { class: "stream-status", id: "stream-status" }, "Connecting…");
    this.notifyBtn = h("button", { type: "button", class: "small", id: "notify-btn", onclick: () => this.askNotify() }, "Notify me");
    this.errorEl = h("div", { class: "error", id: "error", role: "alert", hidden: true });
    this.noteEl = h("p", { class: "misclick", id: "misclick", role: "status", hidden: true });
    this.promptEl = h("section", { class: "prompt", id: "prompt", "aria-label": "What to do" });
    this.handEl = h("section", { class: "panel hand", id: "hand", "aria-label": "Your hand" });
    this.seatsEl = h("section", { class: "panel players", id: "players", "aria-label": "Players" });
    this.tasksEl = h("div", { id: "tasks" });
    this.logList = h("div", { class: "log-scroll", id: "log", tabindex: 0, "aria-label": "Game log" });
    this.originEl = h("p", { class: "provenance", id: "provenance", hidden: true });
    this.shareEl = h("div", { id: "share" });
    this.titleEl = h("h1", { class: "game-title" }, "Game");
    this.stripEl = h("section", { class: "strip", id: "strip", "aria-label": "Players, scores and clocks" });
    this.endEl = h("details", { class: "panel end-screen", id: "end-screen", "aria-label": "Result", hidden: true });
    this.stepsEl = h("div", { class: "buttons steps", id: "steps" });
    this.optionsEl = h("div", { class: "table-options", id: "table-options" });
    this.barEl = h("div", { class: "status-bar", id: "status-bar" },
      h("div", { class: "status-main" }, this.tutor ? this.tutor.el : null, this.titleEl, this.statusEl, this.promptEl, this.stepsEl, this.noteEl, this.errorEl,
        this.rematchSlot = h("div", { id: "rematch-slot" })),
      h("div", { class: "status-side" }, this.streamEl, this.notifyBtn, this.keyboard.button,
        h("a", { href: "/rules", class: "rules-link", id: "rules-link", target: "_blank", rel: "noopener" }, "Rules"),
        this.resignEl = h("span", { class: "resign-slot" }), this.optionsEl));
    clear(this.root, h("div", { class: "game" }, this.barEl,
      this.gridEl = h("div", { class: "game-grid" },
        h("div", { class: "board-col" }, this.stripEl,
          h("div", { class: "board-wrap" }, this.board.svg), this.reviewPanel.el),
        h("aside", { class: "side-col" }, this.endEl, this.handEl, this.speech.el, this.replies.el, this.seatsEl, this.tasksEl, this.rewindBar.el,
          h("section", { class: "panel log", "aria-label": "Log" }, h("h2", {}, "Log"), this.originEl, this.logList),
          this.keyEl = h("p", { class: "board-key", id: "board-key" }), this.shareEl))));
    // the board takes the height the status bar leaves (the bar grows with a long list of choices);
    // measured at the grid, which does not stick: the pinned bar's own bottom moves with the scroll
    const fit = () => {
      const top = this.gridEl.getBoundingClientRect().top + window.scrollY;
      document.documentElement.style.setProperty("--above-board", `${Math.ceil(Math.max(0, top))}px`);
    };
    new ResizeObserver(fit).observe(this.barEl);
    window.addEventListener("resize", fit);
    fit();
  }

  // --- data ---------------------------------------------------------------------------------------

  // A streamed event the page has not seen yet: what changed is fetched once the burst is over
  // (a command appends several events at once), in one request (GET /games/{id}/changes).
  streamed(event) {
    if (event.id !== null && event.id <= this.liveVersion()) return;
    this.scheduleUpdate();
  }

  scheduleRefresh() {
    this.schedule(() => this.refresh());
  }

  scheduleUpdate() {
    if (!this.view) this.scheduleRefresh();
    else this.schedule(() => this.update());
  }

  schedule(run) {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => run().catch((err) => this.showError(err)), 60);
  }

  // Everything afresh: on opening the page and after a refusal that says the page is stale.
  async refresh() {
    const n = ++this.seq;
    const [view, legal, moves, log] = await Promise.all([
      api.view(this.id, this.token), api.legal(this.id, this.token), api.moves(this.id, this.token), api.log(this.id, this.token)]);
    if (n !== this.seq) return;
    await this.show(n, view, legal, moves.moves || [], log.lines || []);
  }

  // Only what changed since the version shown: the game, the legal commands, the new log lines
  // and the moves from the one under way on, applied to the log and move list the page has.
  async update() {
    const n = ++this.seq;
    const d = await api.changes(this.id, this.token, this.liveVersion());
    if (n !== this.seq) return;
    const log = this.log.filter((line) => line.version <= d.log_after).concat(d.log || []);
    const moves = this.moves.slice(0, d.moves_from).concat(d.moves || []);
    await this.show(n, d.game, d.legal, moves, log);
  }

  async show(n, view, legal, moves, log) {
    if (legal.version !== view.version) {
      this.scheduleUpdate();                      // a command landed between the two reads
    }
    const recent = await this.changedSquares(view, moves);
    if (n !== this.seq) return;
    const before = this.view;
    if (view.clocks && view.clocks.now) this.skew = Date.now() - Date.parse(view.clocks.now);
    if (before && view.version !== before.version) {
      this.explain(null);
      this.confirmCapture = null;
      this.chooser = null;
      this.confirmResign = false;
    }
    this.recent = recent;
    this.view = view;
    if (this.error && this.error.code === "offline") this.clearError();     // reached the server again
    this.legal = legal;
    this.moves = moves;
    this.log = log;
    this.keepSelection();
    this.turnSignal(before);
    this.replies.update(view);
    if (view.status === "finished" && (!this.stats || this.stats.version !== view.version)) {
      this.stats = await api.stats(this.id, this.token).catch(() => null);
    }
    // the points by reason, fetched again whenever a score changes (the seats panel explains each score)
    const scores = JSON.stringify(view.scores || []);
    if (view.form !== "high_form" && scores !== this.statsScores) {
      this.statsScores = scores;
      this.liveStats = this.stats || await api.stats(this.id, this.token).catch(() => null);
    }
    this.render();
  }

  // The squares the other players changed since my last move (for a spectator: in the last run of
  // moves by one seat), compared with the position after that move, fetched once per baseline.
  async changedSquares(view, moves) {
    let i = moves.length - 1;
    if (i < 1) return new Set();
    const me = view.seat;
    const last = moves[i].seat;
    if (me !== null && me !== undefined) {
      if (last === me) return new Set();
      while (i > 0 && moves[i].seat !== me) i--;
    } else {
      while (i > 0 && moves[i].seat === last) i--;
    }
    try {
      if (!this.baseline || this.baseline.move !== i) {
        this.baseline = { move: i, board: boardMap(await api.moveView(this.id, i, this.token)) };
      }
    } catch {
      return new Set();
    }
    const a = this.baseline.board, b = boardMap(view);
    return new Set([...a.keys(), ...b.keys()].filter((sq) => a.get(sq) !== b.get(sq)));
  }

  keepSelection() {
    const cmds = this.legal.commands;
    const mine = (this.view.seats || []).find((x) => x.seat === this.view.seat);
    if (this.sel.card && !(mine && (mine.hand || []).includes(this.sel.card))) this.sel.card = null;
    if (this.sel.from && !cmds.some((c) => c.type === "move" && c.from === this.sel.from)) this.sel.from = null;
    if (this.sel.discard && !cmds.some((c) => c.type === "discard" && c.card === this.sel.discard)) {
      this.sel.discard = null;
      this.sel.returns = new Set();
    }
  }

  turnSignal(before) {
    const v = this.view;
    const mine = v.seat !== null && v.seat !== undefined && v.status !== "finished" && v.active_seat === v.seat;
    const wasMine = before && before.status !== "finished" && before.active_seat === before.seat;
    // the chat beside the game opens the spectators' channel to the seats once it is over (chat.js)
    this.root.dataset.status = v.status;      // for the chat, which may mount after this
    if (before && before.status !== "finished" && v.status === "finished") document.dispatchEvent(new CustomEvent("arena:finished"));
    if (mine && before && !wasMine) notify.turnStarted(statusText(v, this.data, v.seat));
    else if (mine) document.title = "● Your turn · Tash-Kalar Arena";
    else notify.turnOver(v.status === "finished" ? "Game over" : null);
  }

  // --- acting -------------------------------------------------------------------------------------

  async send(command, confirmed = false) {
    if (this.busy) {            // a button pressed while the last command settles: sent once it has, if still offered
      this.queued = command;
      return;
    }
    const own = confirmed ? [] : this.ownCaptured(command);
    if (own.length) {           // a command that destroys your own piece asks first
      this.confirmCapture = { command, own };
      this.render();
      return;
    }
    this.confirmCapture = null;
    this.busy = true;
    this.chooser = null;
    this.root.classList.add("busy");
    this.root.setAttribute("aria-busy", "true");
    let answered = null;
    try {
      answered = await api.command(this.id, this.token, command, this.legal.version);
      this.clearError();
      this.sel = { card: null, from: null, discard: null, returns: new Set() };
    } catch (err) {
      this.showError(err);
    }
    try {
      // until the page holds the position after this command: an update the stream started meanwhile
      // supersedes ours and leaves the old position on screen a moment longer
      for (let tries = 0; tries < 40; tries++) {
        await this.update();
        if (!answered || this.legal.version >= answered.version) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } catch (err) {
      this.showError(err);
    } finally {                 // not before: a tap on the old position would be sent as a stale command
      this.busy = false;
      this.root.classList.remove("busy");
      this.root.removeAttribute("aria-busy");
    }
    // A tap made on the new position while ours was still settling (a stream update can draw it
    // before our own refresh returns) counts, unless the page never caught up with our command,
    // the game moved on after the tap, or the selection it was made with changed.
    const queued = this.queued;
    this.queued = null;
    const same = (c) => JSON.stringify({ ...c, squares: undefined }) === JSON.stringify({ ...queued, squares: undefined });
    if (queued && this.legal.commands.some(same)) { this.send(queued); return; }
    const tap = this.heldTap;
    this.heldTap = null;
    const caughtUp = !answered || this.legal.version >= answered.version;
    if (tap && caughtUp && tap.version === this.legal.version && tap.sel === this.selKey()) this.onSquare(tap.square);
  }

  // Every refusal in plain words with what to do (words.js); the code stays for those who look.
  showError(err) {
    this.error = err;
    clear(this.errorEl,
      h("p", { class: "plain" }, plainWords(err)),
      err.problem && err.problem.rule ? h("p", { class: "rule" }, `Rule: ${err.problem.rule}`) : null,
      h("button", { type: "button", class: "small", onclick: () => this.clearError() }, "Dismiss"));
    this.errorEl.dataset.code = err.code || "";
    this.errorEl.hidden = false;
    if (refetches(err)) this.scheduleRefresh();
  }

  clearError() {
    this.error = null;
    this.errorEl.hidden = true;
    clear(this.errorEl);
  }

  // Hovering (or focusing) a square previews what acting there would use and affect; a square a
  // tap has armed keeps its preview until the next tap.
  hoverSquare(square) {
    if (this.rewound || !this.plan) return;
    const entry = (square && this.plan.squares.get(square)) || (this.armed && this.plan.squares.get(this.armed));
    const squares = entry && entry.commands.length ? previewOf(entry.commands[0]) : null;
    this.board.preview(squares);
  }

  // On a touch screen there is no hover: the first tap on a square whose command uses and affects
  // squares only shows them (the square is armed); a second tap on it acts.
  armsFirst(square, entry) {
    const cmd = entry.commands.length === 1 ? entry.commands[0] : null;
    if (!cmd || !previewOf(cmd) || this.board.pointer !== "touch" || this.armed === square) return false;
    this.armed = square;
    this.render();
    return true;
  }

  onSquare(square) {
    if (!this.plan) return;
    if (!this.rewound && this.replies.takesSquare(square)) return;
    if (this.rewound) { this.explain("You are looking at an earlier position: nothing can be played from here. Use “Back to live” to play."); return; }
    if (this.busy) {
      this.heldTap = { square, version: this.legal.version, sel: this.selKey() };
      return;
    }
    const entry = this.plan.squares.get(square);
    if (!entry) {
      this.armed = null;
      this.chooser = null;
      this.explain(this.squareWhy(this.view, square));
      return;
    }
    this.explain(null);
    if (entry.unselect) { this.sel.from = null; this.render(); return; }
    if (entry.selectFrom) { this.sel.from = entry.selectFrom; this.render(); return; }
    if (this.armsFirst(square, entry)) return;
    this.armed = null;
    this.pick(`Choose what to do on ${square}`, entry.commands);
  }

  // A note in the status bar saying why a click did nothing (cleared by the next useful click).
  explain(text) {
    this.noteEl.hidden = !text;
    this.noteEl.textContent = text || "";
    if (text) this.render();
  }

  // What a square tap means besides the square: the card, piece or discard chosen before it.
  selKey() {
    return [this.sel.card, this.sel.from, this.sel.discard].join("|");
  }

  // Send the command, or when there are several, ask which one.
  pick(title, commands) {
    if (commands.length === 1) {
      this.send(commands[0]);
      return;
    }
    this.chooser = { title, commands };
    this.render();
  }

  selectCard(id) {
    if (this.rewound) return;
    this.sel.from = null;
    this.sel.discard = null;
    this.chooser = null;
    this.sel.card = this.sel.card === id ? null : id;
    if (this.sel.card && this.narrow.matches) this.handClosed = true;     // the board's squares come into sight
    this.render();
    if (this.sel.card) this.board.focus(this.plan.squares.keys().next().value);
  }

  key(event) {
    if ((event.ctrlKey || event.metaKey) && (event.key === "z" || event.key === "y") && this.plan && !this.rewound) {
      const step = this.plan.steps[event.key === "z" && !event.shiftKey ? "undo" : "redo"][0];
      if (step) { event.preventDefault(); this.send(step); }
      return;
    }
    // ← and → step through the moves (as the rewind bar's buttons), unless a field or the board has the keys
    const typing = event.target.closest && event.target.closest("input, select, textarea, .board, [contenteditable]");
    if ((event.key === "ArrowLeft" || event.key === "ArrowRight") && !typing && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      this.rewindBar.seek(this.rewindBar.shown() + (event.key === "ArrowLeft" ? -1 : 1));
      return;
    }
    if (event.key !== "Escape") return;
    if (this.sel.card || this.sel.from || this.sel.discard || this.chooser || this.confirmResign) {
      this.sel = { card: null, from: null, discard: null, returns: new Set() };
      this.chooser = null;
      this.confirmResign = false;
      this.render();
    } else if (this.rewound) {
      this.seek(null);
    }
  }

  // BGA's "confirm the end of my turn": the signed-in account's preference (GET /accounts/me/table,
  // the same on every device) when it has one, else this browser's, on unless turned off. The seat's
  // option lives in the game (seat_options); the page asks for it when the seat's option differs.
  wantsConfirm() {
    const chosen = this.tablePrefs && this.tablePrefs.confirm_turn_end;
    return typeof chosen === "boolean" ? chosen : storage.pref("confirmTurnEnd", true);
  }

  async applyConfirmTurnEnd() {
    if (this.tablePrefs === undefined) this.tablePrefs = mayHaveSession() ? await api.tablePrefs().catch(() => null) : null;
    const v = this.view;
    const seat = v && (v.seats || []).find((x) => x.seat === v.seat);
    if (!seat || v.status === "finished" || Boolean(seat.confirm_turn_end) === this.wantsConfirm()) return;
    try {
      await api.command(this.id, this.token, { type: "seat_options", confirm_turn_end: this.wantsConfirm() });
      await this.update();
    } catch (err) {
      if (err.code === "game_over") return;      // it ended meanwhile: no turn left to confirm
      this.showError(err);
    }
  }

  renderOptions(view) {
    const seated = view.seat !== null && view.seat !== undefined && view.status !== "finished";
    clear(this.optionsEl, seated ? h("label", { class: "check", title: "Your turn then waits for you to confirm its end; until then you can still undo." },
      h("input", { type: "checkbox", id: "confirm-turn-end", checked: this.wantsConfirm(), onchange: (e) => {
        storage.setPref("confirmTurnEnd", e.target.checked);
        if (this.tablePrefs) {              // signed in: every device follows
          this.tablePrefs.confirm_turn_end = e.target.checked;
          api.setTablePrefs({ confirm_turn_end: e.target.checked }).catch((err) => this.showError(err));
        }
        this.applyConfirmTurnEnd();
      } }), "Confirm turn end") : null);
  }

  // Asks for browser notifications, then says what it did (the button goes once answered).
  async askNotify() {
    const answer = await notify.ask();
    const said = {
      granted: "Notifications on: this browser tells you when it is your turn while this page is open.",
      denied: "Notifications blocked: allow them in this browser's site settings to be told of your turn.",
    }[answer] || "This browser shows no notifications; the tab's title tells you when it is your turn.";
    document.getElementById("notify-said")?.remove();
    this.notifyBtn.after(h("span", { class: "muted", id: "notify-said", role: "status" }, said));
    this.render();
  }

  async seek(n) {
    const ticket = ++this.seekSeq;
    if (n === null) {
      this.rewound = null;
      this.render();
      return;
    }
    try {
      const view = await api.moveView(this.id, n, this.token);
      if (ticket !== this.seekSeq) return;
      this.rewound = { move: n, view };
      this.render();
    } catch (err) {
      this.showError(err);
    }
  }

  // --- drawing ------------------------------------------------------------------------------------

  render() {
    const live = this.view;
    if (!live) return;
    const shown = this.rewound ? this.rewound.view : live;
    const mySeat = live.seat;
    const commands = this.rewound ? [] : this.legal.commands;
    this.plan = plan(commands, this.sel, live, this.data);
    this.titleEl.textContent = `${formLabel(live, formName(this.data, live.form))} · ${sidesText(live)}`;
    this.statusEl.textContent = this.rewound ? `Replay, read-only: ${this.rewound.move ? `after move ${this.rewound.move} of ${this.moves.length - 1}` : "before the first move"}`
      : statusText(live, this.data, mySeat);
    this.statusEl.classList.toggle("your-turn", !this.rewound && live.status !== "finished" && live.active_seat === mySeat && mySeat !== null);
    this.root.classList.toggle("rewinding", Boolean(this.rewound));
    const marks = new Map([...this.plan.squares].map(([sq, e]) => [sq, { kind: e.kind, label: e.label }]));
    if (this.armed && !this.plan.squares.has(this.armed)) this.armed = null;
    const rehearsing = this.rewound ? null : this.replies.boardView();     // a conditional reply being built
    if (rehearsing) this.board.render(rehearsing.view, { marks: rehearsing.marks });
    else this.board.render(shown, { marks, selected: this.plan.from && this.sel.from ? this.plan.from : null,
      recent: this.rewound ? new Set() : this.recent, readOnly: Boolean(this.rewound), armed: this.armed });
    if (this.armed) this.hoverSquare(null);
    this.steps = this.stepButtons(live, mySeat);
    this.renderPrompt(live, mySeat);
    this.renderHand(shown, mySeat);
    clear(this.seatsEl, h("h2", {}, "Players"), seatsPanel(shown, this.data, mySeat, this.skew, this.rewound ? null : this.liveStats));
    const claims = new Map([...this.plan.tasks].map(([task, cmd]) => [task, () => this.send(cmd)]));
    clear(this.tasksEl, tasksPanel(shown, this.data, claims));
    this.renderLog();
    this.reviewPanel.show(live);
    this.renderSteps();
    this.renderStrip(shown, mySeat);
    this.renderEnd(live, mySeat);
    this.renderKey(shown);
    const origin = [provenanceNote(live.provenance), live.start_text].filter(Boolean).join(" ");   // who chose the start
    this.originEl.hidden = !origin;
    this.originEl.textContent = origin || "";
    this.rewindBar.update(this.moves, this.rewound ? this.rewound.move : null, (n) => this.moveWords(n));
    this.renderShare(live);
    this.renderOptions(live);
    if (this.tutor) this.tutor.update(this);
    this.speech.update();
    this.notifyBtn.hidden = !notify.supported() || notify.permission() !== "default" || mySeat === null
      || live.status === "finished";
  }

  renderPrompt(view, mySeat) {
    const parts = [];
    if (this.rewound) {
      parts.push(h("p", {}, "You are looking at an earlier position; nothing can be played from here."),
        h("button", { type: "button", class: "primary", onclick: () => this.seek(null) }, "Back to live"));
      clear(this.promptEl, parts);
      return;
    }
    const effect = view.effect;
    if (effect && effect.card) {
      const c = cardData(this.data, effect.card);
      parts.push(h("div", { class: "effect" }, h("strong", {}, `${c.name}`),
        ` (${playerName(view, effect.seat ?? view.active_seat)}) is resolving. `, h("span", { class: "muted" }, c.summary || "")));
    }
    if (this.confirmCapture) {
      const { command, own } = this.confirmCapture;
      parts.push(h("p", { class: "prompt-title capture-warning", id: "capture-warning" },
        `This destroys your own piece on ${own.join(" and ")}. Do it anyway?`),
      h("div", { class: "buttons" },
        h("button", { type: "button", class: "danger", id: "capture-yes", onclick: () => this.send(command, true) }, "Yes, destroy my piece"),
        h("button", { type: "button", id: "capture-no", onclick: () => { this.confirmCapture = null; this.render(); } }, "No, choose again")));
      clear(this.promptEl, parts);
      return;
    }
    if (this.chooser) {
      parts.push(h("p", { class: "prompt-title" }, this.chooser.title),
        h("div", { class: "buttons" }, this.chooser.commands.map((cmd) => this.commandButton(cmd, "primary", label(cmd, view, this.data))),
        h("button", { type: "button", onclick: () => { this.chooser = null; this.render(); } }, "Cancel")));
      clear(this.promptEl, parts);
      return;
    }
    if (this.sel.discard) {
      parts.push(this.discardDialog(view));
      clear(this.promptEl, parts);
      return;
    }
    const mine = mySeat !== null && view.status !== "finished" && (view.active_seat === mySeat);
    if (this.armed) {
      parts.push(h("p", { class: "prompt-title armed-note" }, `Tap ${this.armed} again to confirm, or tap another square.`));
    }
    if (view.status === "finished") {
      parts.push(h("p", { class: "prompt-title dup" }, statusText(view, this.data, mySeat)));     // the status line says it
    } else if (mySeat === null) {
      parts.push(h("p", {}, `You are watching. ${statusText(view, this.data, mySeat)}.`));
    } else if (!mine) {
      const waiting = playerName(view, view.active_seat);
      const bot = (view.players || []).find((p) => p.seat === view.active_seat && p.bot);
      parts.push(h("p", { class: "waiting" }, bot ? `The computer (${waiting}) is thinking…` : `Waiting for ${waiting}.`));
    } else {
      const p = view.pending;
      if (this.sel.card) {
        parts.push(this.cardPrompt(view, this.sel.card));
      } else if (this.sel.from) {
        parts.push(h("p", { class: "prompt-title" }, `Move the piece on ${this.sel.from}: choose where.`),
          h("div", { class: "buttons" }, h("button", { type: "button", onclick: () => { this.sel.from = null; this.render(); } }, CANCEL_LABEL)));
      } else if (p && p.seat === mySeat) {
        parts.push(h("p", { class: "prompt-title dup" }, p.prompt || "Choose"));     // the status line says it
        if (this.plan.squares.size) parts.push(h("p", { class: "hint" }, hintFor(this.plan)));
      } else {
        parts.push(h("p", { class: "prompt-title dup" }, "Your turn."), h("p", { class: "hint" }, hintFor(this.plan)));
      }
      const claims = [...this.plan.tasks.values()].map((cmd) => ({ cmd, label: `Claim ${cardName(this.data, cmd.task)}` }));
      if (this.plan.buttons.length || claims.length) {
        parts.push(h("div", { class: "buttons" }, [...claims, ...this.plan.buttons].map(({ cmd, label: text }) =>
          this.commandButton(cmd, cmd.type === "skip" ? "" : "primary",
            cmd.type === "skip" && view.pending ? "Skip this step" : cmd.type === "end_turn" ? "Confirm: end my turn" : text)),
        this.takeSteps()));
        if (this.plan.buttons.some((b) => b.cmd.squares)) {
          parts.push(h("p", { class: "hint" }, "Point at an option to see on the board what it uses and affects; or click a highlighted square."));
        }
      }
    }
    if (!this.rewound && view.status !== "finished" && view.active_seat === mySeat && (view.players || []).some((x) => x.bot)) {
      const shown = this.hint && this.hint.version === this.legal.version ? this.hint.text : null;
      parts.push(h("div", { class: "buttons hint-row" },
        h("button", { type: "button", class: "small", id: "hint", onclick: () => this.askHint() }, "Hint"),
        shown ? h("span", { class: "hint-text", role: "status" }, shown) : null));
    }
    const resign = this.plan.resign && !this.rewound;
    if (resign && this.confirmResign) {
      parts.push(h("div", { class: "buttons resign" }, h("span", {}, "Resign this game?"),
        h("button", { type: "button", class: "danger", onclick: () => this.send(this.plan.resign) }, "Yes, resign"),
        h("button", { type: "button", onclick: () => { this.confirmResign = false; this.render(); } }, "No")));
    }
    clear(this.resignEl, resign && !this.confirmResign ? h("button", { type: "button", class: "link",
      onclick: () => { this.confirmResign = true; this.render(); } }, "Resign…") : null);
    clear(this.promptEl, parts);
  }

  // What the strongest computer level would play (GET /games/{id}/hint: games against the computer only)
  async askHint() {
    const version = this.legal.version;
    try {
      const answer = await api.hint(this.id, this.token);
      const c = answer.command;
      const what = [c.type.replace("_", " "), c.card ? cardName(this.data, c.card) : "", c.square ? `on ${c.square}` : "",
        c.from ? `from ${c.from} to ${c.to}` : ""].filter(Boolean).join(" ");
      this.hint = { version: answer.version, text: `The computer (level ${answer.level}) would ${what}.` };
    } catch (err) {
      this.hint = { version, text: err.message };
    }
    this.render();
  }

  // A selected card in the status bar: what it can do now (summon on a highlighted square, invoke,
  // warp, discard), or why it can do nothing.
  cardPrompt(view, id) {
    const name = cardName(this.data, id);
    const acts = this.plan.cards.get(id) || { summon: [], flare: [], warp: [], discard: [] };
    const buttons = [];
    if (acts.flare.length) buttons.push(h("button", { type: "button", class: "primary", onclick: () => this.pick(`Invoke ${name} against…`, acts.flare) }, `Invoke ${name}`));
    if (acts.warp.length) buttons.push(h("button", { type: "button", class: "primary", onclick: () => this.pick(`Warp ${name}`, acts.warp) }, `Warp ${name}`));
    if (acts.discard.length) {
      buttons.push(h("button", { type: "button", onclick: () => { this.sel = { card: null, from: null, discard: id, returns: new Set() }; this.render(); } }, "Discard…"));
    }
    buttons.push(h("button", { type: "button", id: "card-cancel", onclick: () => this.selectCard(id) }, CANCEL_LABEL));
    const title = acts.summon.length ? `Summon ${name}: choose a highlighted square.`
      : acts.flare.length || acts.warp.length || acts.discard.length ? `${name}: choose what to do with it.`
        : `${name} cannot be used now: ${this.cardWhy(view, id)}`;
    return [h("p", { class: "prompt-title" }, title), h("div", { class: "buttons" }, buttons)];
  }

  // The squares of my own pieces (my side's, in team play) that `cmd` would destroy: /legal lists
  // with each choice the squares whose piece it removes (`squares.destroys`).
  ownCaptured(cmd) {
    const v = this.view;
    const destroys = (cmd.squares && cmd.squares.destroys) || [];
    if (!v || v.seat === null || v.seat === undefined || !destroys.length) return [];
    const myColour = ((v.seats || []).find((x) => x.seat === v.seat) || {}).color;
    const mine = new Set((v.board || []).filter((p) => p.color === myColour).map((p) => p.square));
    return destroys.filter((sq) => mine.has(sq));
  }

  // Why a card in hand has no use at this moment, in words.
  cardWhy(view, id) {
    const c = cardData(this.data, id);
    if (view.pending && view.pending.seat === view.seat) return "answer the question in play first.";
    if (view.turn && view.turn.actions_left <= 0) return "your actions for this turn are spent.";
    if (c.kind === "flare") return "neither of its two conditions is met on the board (a flare is played once a turn).";
    if (c.pattern) return "its pattern (drawn on the card) is nowhere on the board with your pieces, or your supply lacks the piece.";
    return "it has no use at this moment.";
  }

  // Why a square that is not highlighted does nothing, in words (a misclick is explained, never ignored).
  squareWhy(view, square) {
    const mySeat = view.seat;
    if (view.status === "finished") return "The game is over: nothing more can be played.";
    if (mySeat === null || mySeat === undefined) return "You are watching this game: only its players can play.";
    const p = view.pending;
    if (p && p.seat !== mySeat) return `${playerName(view, p.seat)} must answer first: ${p.prompt || "a question"}.`;
    if (view.active_seat !== mySeat) return `It is not your turn: the game waits for ${playerName(view, view.active_seat)}.`;
    const piece = (view.board || []).find((x) => x.square === square);
    const highlighted = this.plan.squares.size ? " Choose one of the highlighted squares." : "";
    if (this.sel.card) return `${cardName(this.data, this.sel.card)} cannot be summoned with its marked square on ${square}: its pattern is not there.${highlighted}`;
    if (this.sel.from) return `The piece on ${this.sel.from} cannot go to ${square}.${highlighted}`;
    if (p) return `${square} is not one of the choices of “${p.prompt || "this question"}”.${highlighted}`;
    if (view.turn && view.turn.actions_left <= 0) return "Your actions for this turn are spent: end your turn, or undo a step.";
    if (piece && this.legal.commands.some((c) => c.type === "place")) return `${square} is taken: a new common piece goes on an empty square.`;
    const summonable = [...this.plan.cards.values()].some((c) => c.summon.length);
    return `Nothing can be done on ${square} now.${highlighted}${summonable ? " To summon, click a card in your hand first." : ""}`;
  }

  discardDialog(view) {
    const options = this.plan.cards.get(this.sel.discard)?.discard || [];
    const returnable = [...new Set(options.flatMap((c) => c.returns || []))];
    const boxes = returnable.map((id) => h("label", { class: "check" },
      h("input", { type: "checkbox", value: id, checked: this.sel.returns.has(id), onchange: (e) => {
        if (e.target.checked) this.sel.returns.add(id); else this.sel.returns.delete(id);
      } }), ` ${cardName(this.data, id)}`));
    const confirm = () => {
      const cmd = findDiscard(options, [...this.sel.returns]);
      if (cmd) this.send(cmd);
      else this.showError({ code: "not_allowed", message: "These cards cannot be returned together." });
    };
    return h("form", { class: "discard", onsubmit: (e) => { e.preventDefault(); confirm(); } },
      h("p", { class: "prompt-title" }, `Discard ${cardName(this.data, this.sel.discard)}`),
      returnable.length ? h("fieldset", {}, h("legend", {}, "Return cards to the bottom of their decks (optional)"), boxes) : null,
      h("div", { class: "buttons" }, h("button", { type: "submit", class: "primary" }, "Discard"),
        h("button", { type: "button", onclick: () => { this.sel.discard = null; this.sel.returns = new Set(); this.render(); } }, "Cancel")));
  }

  renderHand(view, mySeat) {
    const seat = (view.seats || []).find((x) => x.seat === mySeat);
    if (mySeat === null || !seat) {
      clear(this.handEl, h("h2", {}, "Hands"), h("p", { class: "muted" }, "You are a spectator: hands are hidden."));
      return;
    }
    const hand = seat.hand || [];
    const tiles = hand.map((id) => {
      const acts = this.rewound ? null : this.plan.cards.get(id);
      const actions = [];
      if (acts && acts.flare.length) {
        actions.push({ label: "Invoke flare", cls: "primary", onClick: () => this.pick(`Invoke ${cardName(this.data, id)} against…`, acts.flare) });
      }
      if (acts && acts.warp.length) {
        actions.push({ label: "Warp", cls: "primary", onClick: () => this.pick(`Warp ${cardName(this.data, id)}`, acts.warp) });
      }
      if (acts && acts.discard.length) {
        actions.push({ label: "Discard…", onClick: () => {
          this.sel = { card: null, from: null, discard: id, returns: new Set() };
          this.chooser = null;
          this.render();
        } });
      }
      const selectable = Boolean(acts && acts.summon.length);
      const tile = cardTile(this.data, id, { colourIndex: seat.color, selectable, selected: this.sel.card === id,
        onSelect: (c) => this.selectCard(c), actions });
      // a click anywhere on the card selects it: its uses (or why it has none now) go to the status bar
      if (!this.rewound) tile.addEventListener("click", (e) => { if (!e.target.closest("button")) this.selectCard(id); });
      return tile;
    });
    const discard = seat.discard || [];
    const toggle = h("button", { type: "button", class: "small hand-toggle", id: "hand-toggle", "aria-expanded": String(!this.handClosed),
      onclick: () => { this.handClosed = !this.handClosed; this.render(); } }, this.handClosed ? "Cards ▲" : "Close ▼");
    this.handEl.classList.toggle("closed", Boolean(this.handClosed));
    // on a phone the closed drawer shows the cards by name: a tap on one selects it as on the card
    const chips = h("div", { class: "hand-chips" }, hand.map((id) => h("button", { type: "button",
      class: `hand-chip${this.sel.card === id ? " selected" : ""}`, "data-chip": id, onclick: () => this.selectCard(id) }, cardName(this.data, id))));
    clear(this.handEl, h("h2", {}, `Your hand (${hand.length})`, toggle), chips,
      h("div", { class: "cards" }, tiles.length ? tiles : h("p", { class: "muted" }, "No cards in hand.")),
      discard.length ? h("p", { class: "muted discard-pile" }, `Discard pile: ${discard.map((c) => cardName(this.data, c)).join(", ")}`) : null);
  }

  // A button that sends `cmd`, previewing its squares on the board while pointed at or focused.
  commandButton(cmd, cls, text) {
    const squares = previewOf(cmd);
    const show = () => this.board.preview(squares);
    const hide = () => this.board.preview(null);
    return h("button", { type: "button", class: cls, "data-task": cmd.task, "data-command": cmd.type,
      onclick: () => { hide(); this.send(cmd); },
      onmouseenter: squares ? show : null, onmouseleave: squares ? hide : null,
      onfocus: squares ? show : null, onblur: squares ? hide : null }, text);
  }

  // Undo and redo join the row of the decision's buttons when there is one (one line in the bar).
  takeSteps() {
    const taken = this.steps;
    this.steps = [];
    return taken;
  }

  renderSteps() {
    clear(this.stepsEl, this.steps);
    this.stepsEl.hidden = !this.steps.length;
  }

  // Undo / Redo within the turn, and Cancel on a multi-step prompt (back to before the action).
  stepButtons(view, mySeat) {
    const steps = this.rewound ? { undo: [], redo: [] } : this.plan.steps;
    const buttons = [];
    const p = view.pending;
    const multiStep = p && p.seat === mySeat && ["pickup", "place_pickup", "orientation", "legend_color"].includes(p.kind);
    if (steps.undo.length) {
      if (multiStep) buttons.push(h("button", { type: "button", id: "cancel-action", onclick: () => this.send(steps.undo[0]) }, "Cancel this action"));
      buttons.push(h("button", { type: "button", id: "undo-btn", title: "Take back your last step (Ctrl+Z)", onclick: () => this.send(steps.undo[0]) }, "↶ Undo"));
    }
    if (steps.redo.length) {
      buttons.push(h("button", { type: "button", id: "redo-btn", title: "Play the step again (Ctrl+Y)", onclick: () => this.send(steps.redo[0]) }, "↷ Redo"));
    }
    return buttons;
  }

  renderEnd(view, mySeat) {
    if (view.status !== "finished") { this.endEl.hidden = true; return; }
    this.rematchPanel ??= new RematchPanel(this.id, this.token, (err) => this.showError(err));
    const key = `${view.version}:${Boolean(this.stats)}`;
    if (this.renderedEnd !== key) {         // drawn once per result: a collapsed panel stays collapsed
      this.renderedEnd = key;
      const [heading, ...rest] = endScreen(view, this.stats, this.data, mySeat, () => this.rematchPanel.offer());
      clear(this.endEl, h("summary", { id: "end-summary" }, heading.textContent), rest);
      // a rematch offer is a decision: in the status bar, in view on any screen
      if (mySeat !== null && mySeat !== undefined) clear(this.rematchSlot, this.rematchPanel.show());
    }
    // it sits beside the board, never above it; replaying collapses it, going back to live opens it
    const replaying = Boolean(this.rewound);
    if (this.endWasReplaying !== replaying) { this.endEl.open = !replaying; this.endWasReplaying = replaying; }
    this.endEl.hidden = false;
  }

  // What the board shows, in the form's own words: the legend matches what is drawn.
  renderKey(view) {
    const items = [[h("span", { class: "key-dot" }), " you can act here"], [h("span", { class: "key-choose" }), " a square to choose"],
      [h("span", { class: "key-recent" }), " changed by the last moves"],
      [h("span", { class: "key-preview" }), " what a choice uses / affects"]];
    if (view.form === "high_form") items.push([h("span", { class: "key-central" }), " central squares"]);
    else items.push([h("span", { class: "key-duel" }), " duel start marks"], [h("span", { class: "key-melee" }, "▲■●"), " melee start squares"]);
    items.push([h("span", { class: "key-ring" }), " red squares"], [h("span", { class: "key-diamond" }), " green squares"]);
    if (Object.values(view.gateways || {}).some(Boolean) || view.gateway) items.push([h("span", { class: "key-gate" }), " the Gateway"]);
    clear(this.keyEl, items.flatMap((item, i) => (i ? [" · ", ...item] : item)));
  }

  renderLog() {
    const el = this.logList;
    const atBottom = el.scrollHeight - el.scrollTop - el.clientHeight < 30;
    const key = `${this.log.length}:${this.log.filter((l) => l.undone).length}`;
    if (this.renderedLog !== key) {
      this.renderedLog = key;
      this.shownMove = undefined;
      clear(el, logPanel(this.log, (move) => this.seek(move === this.moves.length - 1 ? null : move), logMarks(this.review, this.log)));
      if (atBottom || !this.logScrolled) { el.scrollTop = el.scrollHeight; this.logScrolled = true; }
    }
    // the entries of the move on the board are marked, and brought into the log's view once (not
    // the setup's while no move has been made: they are the whole log)
    const shown = this.rewound ? this.rewound.move : this.moves.length > 1 ? this.moves.length - 1 : null;
    if (this.shownMove === shown) return;
    this.shownMove = shown;
    const lines = [...el.querySelectorAll("li[data-move]")];
    for (const li of lines) li.classList.toggle("shown", li.dataset.move === String(shown));
    const first = lines.find((li) => li.dataset.move === String(shown));
    if (first && this.rewound) {        // scroll the log box only, never the page
      const top = first.offsetTop - el.offsetTop;
      if (top < el.scrollTop || top > el.scrollTop + el.clientHeight - first.offsetHeight) el.scrollTop = Math.max(0, top - el.clientHeight / 3);
    }
  }

  // The board after the move whose events start at `version` (a dot of the review's graph).
  seekVersion(version) {
    const line = this.log.find((l) => l.version >= version && l.move !== undefined);
    if (line) this.seek(line.move === this.moves.length - 1 ? null : line.move);
  }

  // The words of the log for move n (what a caption says of it), or null when the log has none.
  moveWords(n) {
    const said = this.log.filter((l) => l.move === n).map((l) => l.text);
    return said.length ? said.join(" ") : null;
  }

  renderShare(view) {
    const entry = storage.game(this.id);
    const links = (entry && entry.links || []).filter((l) => !l.bot && l.seat !== view.seat);
    const origin = window.location.origin;
    const row = (text, url) => h("li", {}, h("span", {}, text), h("input", { type: "text", readonly: true, value: url, "aria-label": text,
      onfocus: (e) => e.target.select() }), h("button", { type: "button", class: "small", onclick: () => copy(url) }, "Copy"));
    clear(this.shareEl, h("details", { class: "panel share" }, h("summary", {}, "Invite and share"),
      h("ul", { class: "links" }, links.map((l) => row(`Join link for ${l.name} (seat ${l.seat + 1})`, `${origin}/play/${this.id}#token=${l.token}`)),
        row("Watch link (spectators)", `${origin}/play/${this.id}`))));
  }

  streamStatus(status, detail) {
    this.streamEl.textContent = STREAM_TEXT[status] || status;
    this.streamEl.dataset.status = status;
    if (detail) this.streamEl.title = detail;
    if (status === "live" && this.wasDown) this.scheduleUpdate();
    this.wasDown = status === "reconnecting" || status === "failed";
  }

  tick() {
    if (this.view && this.view.clocks && !this.rewound) {
      clear(this.seatsEl, h("h2", {}, "Players"), seatsPanel(this.view, this.data, this.view.seat, this.skew, this.liveStats));
      this.renderStrip(this.view, this.view.seat);
    }
  }

  renderStrip(view, mySeat) {
    if (this.narrow.matches) clear(this.stripEl, stripPanel(view, this.data, mySeat, this.skew));
    else clear(this.stripEl);
  }
}

// Esc is named only where there is a keyboard to press it (not on a phone).
const CANCEL_LABEL = window.matchMedia("(hover: none)").matches ? "Cancel" : "Cancel (Esc)";

function hintFor(p) {
  const kinds = new Set([...p.squares.values()].map((e) => e.kind));
  const hints = [];
  if (kinds.has("place")) hints.push("click a highlighted square to place a piece");
  if (p.cards.size && [...p.cards.values()].some((c) => c.summon.length)) hints.push("select a card to summon it");
  if (kinds.has("choose")) hints.push("click a highlighted square to choose it");
  if (kinds.has("move-from")) hints.push("click a highlighted piece to move it");
  if (kinds.has("move-to")) hints.push("click where the piece goes");
  if (p.tasks.size) hints.push("claim a task you have achieved");
  if (!hints.length) return p.buttons.some((b) => b.cmd.type === "end_turn") ? "Your actions are done: confirm the end of your turn, or undo a step to play it differently." : "Choose with the buttons here.";
  const text = hints.join(", or ");
  return text[0].toUpperCase() + text.slice(1) + ".";
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    window.prompt("Copy this link:", text);
  }
}

