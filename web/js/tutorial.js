// The tutorial (/learn): a short scripted duel against the Tutor, played on the real game page.
// The page creates an ordinary game from a prepared position (`setup`), holds both seats' tokens,
// and plays the Tutor's moves from a script. Each lesson names the move it teaches and moves on
// only when the game shows that the engine accepted it (the board, the hand, the log, the turn).

import { api } from "./api.js";
import { h } from "./dom.js";
import { GamePage } from "./game.js";
import * as storage from "./storage.js";

const piece = (square, seat, rank = "common") => ({ square, seat, rank });
// You (blue): two diagonal lines of commons that let the Assassin land on e5 either way round.
// The Tutor (red): a common on d4, heroic pieces enough for your flare's upper half.
export const POSITION = {
  board: [piece("d2", 0), piece("c3", 0), piece("b4", 0), piece("h4", 0), piece("g3", 0), piece("f2", 0),
    piece("d4", 1), piece("f4", 1, "heroic"), piece("b7", 1, "heroic"), piece("h7", 1, "heroic"),
    piece("e8", 1, "heroic"), piece("g8", 1, "heroic")],
  hands: { 0: ["northern-assassin", "flares-00"], 1: [] },
  turn: { seat: 0, actions_left: 2 },
};
const TUTOR_SQUARES = ["a5", "i5", "a6", "i6", "b8", "h8"];     // the Tutor places its commons out of your way

const mine = (view, pred) => (view.board || []).filter((p) => p.seat === 0 && pred(p));
const at = (view, sq) => (view.board || []).find((p) => p.square === sq);
const hand = (view) => ((view.seats || [])[0] || {}).hand || [];
const undoneLines = (page) => page.log.filter((l) => l.undone).length;

// Each lesson: what to do, and when the game shows it was done (`done(page, start)`, where start
// is what `begin(page)` noted when the lesson began).
const LESSONS = [
  { title: "1. Place a piece", text: "An action can put a common piece of yours on any empty square. Click an empty square, for example b6.",
    begin: (p) => mine(p.view, () => true).length,
    done: (p, n) => mine(p.view, (x) => x.rank === "common").length > n },
  { title: "2. Summon a creature", text: "Your blue pieces on d2, c3, b4 form the Assassin's pattern, and so do those on h4, g3, f2. "
    + "Click the Assassin card, then the lit square e5. The game then asks which way round the pattern is used: each way marks "
    + "another square, whose piece the Assassin destroys. Take the way that marks d4 for now.",
    done: (p) => !p.view.pending && Boolean(at(p.view, "e5") && at(p.view, "e5").seat === 0 && !hand(p.view).includes("northern-assassin")) },
  { title: "3. Undo", text: "The heroic piece on f4 was the better target: it is worth a point, the common only half of one. "
    + "Press Undo in the bar at the top: your last step is taken back and nobody else has seen it as final.",
    begin: (p) => undoneLines(p),
    done: (p, n) => undoneLines(p) > n },
  { title: "4. Choose the other way round", text: "Now pick the orientation that marks f4 (click f4, or its button). "
    + "If Undo took back the whole summon, summon the Assassin on e5 again first.",
    done: (p) => !(at(p.view, "f4") && at(p.view, "f4").seat === 1) && Boolean(at(p.view, "e5") && at(p.view, "e5").seat === 0) },
  { title: "5. End your turn", text: "Both actions are used. Your turn ends only when you confirm it: press “Confirm: end my turn”. "
    + "At the end of your turn the enemy pieces you destroyed are paid for: the heroic one gives you a point.",
    done: (p) => p.view.active_seat !== 0 || (p.view.turn && p.view.turn.seat !== 0) },
  { title: "6. The Tutor plays", text: "The Tutor places two pieces. Watch the score: your destroyed heroic piece earned you 1 point.",
    done: (p) => p.view.active_seat === 0 && p.view.turn && p.view.turn.seat === 0 },
  { title: "7. Play a flare", text: "The Tutor has at least three more upgraded pieces than you, so the upper half of your flare works. "
    + "Click the flare card, then “Invoke”, then choose where its new piece goes. A flare costs no action, "
    + "but in a duel it gives your opponent a point.",
    done: (p) => !hand(p.view).includes("flares-00") && !p.view.pending },
  { title: "8. Finish the game's lesson", text: "Use your two actions (place two pieces), then confirm the end of your turn.",
    done: (p) => p.view.active_seat !== 0 },
];

export class Tutor {
  constructor(tutorToken) {
    this.tutorToken = tutorToken;
    this.index = 0;
    this.start = undefined;
    this.el = h("section", { class: "tutor", id: "lesson", "aria-live": "polite" });
    this.playing = false;
  }

  // Called after each drawing of the page: move on when the lesson's move was accepted, play the
  // Tutor's turn when it comes, and show the lesson.
  update(page) {
    while (this.index < LESSONS.length) {
      const lesson = LESSONS[this.index];
      if (this.start === undefined) this.start = lesson.begin ? lesson.begin(page) : null;
      if (!lesson.done(page, this.start)) break;
      this.index += 1;
      this.start = undefined;
    }
    if (page.view.active_seat === 1 && !this.playing) this.playTutor(page);
    this.draw();
  }

  async playTutor(page) {
    this.playing = true;
    try {
      for (let moves = 0; moves < 4; moves++) {
        const view = await api.view(page.id, this.tutorToken);
        if (view.active_seat !== 1 || view.status === "finished") break;
        const legal = (await api.legal(page.id, this.tutorToken)).commands;
        const places = legal.filter((c) => c.type === "place");
        const move = places.find((c) => TUTOR_SQUARES.includes(c.square)) || places[0] || legal.find((c) => c.type === "end_turn");
        if (!move) break;
        await new Promise((resolve) => setTimeout(resolve, 400));        // a moment to see it coming
        await api.command(page.id, this.tutorToken, move, legal.version);
      }
    } catch (err) {
      page.showError(err);
    } finally {
      this.playing = false;
    }
  }

  draw() {
    const finished = this.index >= LESSONS.length;
    const lesson = LESSONS[Math.min(this.index, LESSONS.length - 1)];
    this.el.replaceChildren(...(finished
      ? [h("p", { class: "lesson-title", id: "tutorial-done" }, "Tutorial complete: you can play Tash-Kalar."),
        h("p", { class: "lesson-text" }, "Start a real game from the games page, or read the rules once more. ",
          h("a", { href: "/" }, "Games"), " · ", h("a", { href: "/rules" }, "Rules"))]
      : [h("p", { class: "lesson-step" }, `Tutorial · lesson ${this.index + 1} of ${LESSONS.length}`),
        h("p", { class: "lesson-title", "data-lesson": this.index + 1 }, lesson.title),
        h("p", { class: "lesson-text" }, lesson.text)]));
  }
}

// Create the tutorial's game and open it with the Tutor beside it.
export async function startTutorial(root, data) {
  document.title = "Tutorial · Tash-Kalar Arena";
  const created = await api.createGame({ form: "duel", seed: "tutorial", setup: POSITION, players: [
    { name: "Apprentice", school: "northern" }, { name: "Tutor", school: "southern" }] });
  const [you, tutor] = created.seats;
  storage.rememberGame(created.id, { seat: you.seat, token: you.token, tutorial: true });
  history.replaceState(null, "", "/learn");
  const page = new GamePage(root, created.id, data, { tutor: new Tutor(tutor.token) });
  await page.start();
}
