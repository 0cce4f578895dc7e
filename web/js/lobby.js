// The lobby at `/`: create a game (form, schools, seats for people or the computer, time
// control), hand out each seat's join link, and list this browser's games, those waiting for you first.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { formName, playerName, schoolName } from "./data.js";
import * as storage from "./storage.js";
import { timeControlText } from "./panels.js";
import { currentAccount } from "./account.js";
import { showPeople } from "./people.js";

const UNITS = [["seconds", 1], ["minutes", 60], ["hours", 3600], ["days", 86400]];

// A finished game's result in a few words, for "Your games": who won, how, and the score.
function resultText(view) {
  const r = view.result || {};
  const winners = (r.winners || []).map((x) => (x === view.seat ? "you" : playerName(view, x)));
  const who = winners.length ? `${winners.join(" and ")} won` : "over";
  const how = { resignation: " by resignation", abandonment: " by abandonment" }[r.reason] || "";
  const scores = (r.standings || []).map((row) => row.score).join("–");
  return `finished: ${who}${how}${scores ? ` (${scores})` : ""}`;
}

// Copies `text` to the clipboard and says so on the button (a prompt where the clipboard is refused).
export function copyButton(text, label = "Copy") {
  const button = h("button", { type: "button", class: "small copy", "aria-label": label, onclick: async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      window.prompt("Copy this link:", text);
    }
  } }, "Copy");
  return button;
}

function schoolOptions(data, selected) {
  const ids = [...data.geometry.schools, ...data.geometry.school_choices];
  return ids.map((id) => h("option", { value: id, selected: id === selected }, schoolName(data, id)));
}

const DEFAULT_LEVEL = 3;           // what a new computer seat plays at in the form (GET /vocabulary: bot_levels)

function seatRow(data, index, seat, onChange) {
  const row = h("fieldset", { class: "seat-row", "data-seat": index },
    h("legend", {}, `Seat ${index + 1}${index === 0 ? " (plays first)" : ""}`),
    h("label", {}, "Name ", h("input", { name: "name", required: true, maxlength: 40, value: seat.name, autocomplete: "off" })),
    h("label", {}, "School ", h("select", { name: "school" }, schoolOptions(data, seat.school))),
    h("label", {}, "Played by ", h("select", { name: "by", onchange: onChange },
      h("option", { value: "you", selected: seat.by === "you" }, "You"),
      h("option", { value: "human", selected: seat.by === "human" }, "Another person (join link)"),
      h("option", { value: "bot", selected: seat.by === "bot" }, "The computer"))),
    h("label", { class: "bot-level", hidden: seat.by !== "bot" }, "Level ", h("select", { name: "level" },
      data.vocabulary.bot_levels.map((l) => h("option", { value: l.level, selected: l.level === (seat.level || DEFAULT_LEVEL), title: l.about },
        `${l.level} · ${l.name}`)))));
  return row;
}

function defaultSeats(data, form, name) {
  const schools = data.geometry.schools;
  const [n] = data.vocabulary.seats[form];
  return Array.from({ length: n }, (_, i) => ({
    name: i === 0 ? name : `Computer ${i}`.replace(/ 1$/, ""), school: schools[i % schools.length], by: i === 0 ? "you" : "bot",
  }));
}

// Who "you" are in a new game: signed in, your account (every device lists the seat); else this
// browser's guest player, registered under `name` the first time.
async function myPlayer(name) {
  const account = await currentAccount();
  let player = account ? { id: account.id, name: account.name, token: undefined } : storage.player();
  if (!player) {
    player = await api.registerPlayer(name || "You");
    storage.setPlayer(player);
  }
  return player;
}

// Create the game (with your own player token: your seat is yours at once; naming another player
// invites them) and remember its seats' links in this browser.
async function createAndRemember(body, bots, mine, player) {
  const created = await api.createGame(body, mine >= 0 && player ? player.token : undefined);
  const links = created.seats.map((s, i) => ({ seat: s.seat, name: s.name, token: s.token, bot: bots[i] }));
  const mySeat = mine >= 0 ? created.seats[mine] : null;
  storage.rememberGame(created.id, { seat: mySeat ? mySeat.seat : null, token: mySeat ? mySeat.token : null, links });
  return { created, links, mySeat };
}

// "Play the computer now": one click to a duel against the computer at the level chosen.
export function playComputerForm(data, defaultName) {
  const level = h("select", { name: "computer-level", id: "computer-level", "aria-label": "The computer's level" },
    data.vocabulary.bot_levels.map((l) => h("option", { value: l.level, selected: l.level === DEFAULT_LEVEL, title: l.about },
      `level ${l.level} · ${l.name}`)));
  const errorEl = h("p", { class: "error", role: "alert", hidden: true });
  return h("form", { class: "play-computer", id: "play-computer", onsubmit: async (e) => {
    e.preventDefault();
    try {
      const player = await myPlayer(defaultName);
      const body = { form: "duel", players: [
        { name: player.name || defaultName, school: "random", player: player.id },
        { name: "Computer", school: "random", bot_level: Number(level.value) }] };
      const { created } = await createAndRemember(body, [false, true], 0, player);
      window.location.assign(`/play/${created.id}`);
    } catch (err) {
      errorEl.textContent = err.message;
      errorEl.hidden = false;
    }
  } }, h("label", {}, "Play the computer now at ", level), " ",
  h("button", { type: "submit", class: "primary", id: "play-computer-button" }, "Play the computer"), errorEl);
}

export async function showLobby(root, data) {
  const me = storage.player();
  let seats = defaultSeats(data, "duel", me ? me.name : "Player");
  const seatBox = h("div", { class: "seat-rows" });
  const formSelect = h("select", { name: "form", id: "form-select" },
    data.geometry.forms.map((f) => h("option", { value: f.id }, f.name)));
  const addBtn = h("button", { type: "button", class: "small", onclick: () => { seats = readSeats(); seats.push({ name: "Computer", school: "random", by: "bot" }); drawSeats(); } }, "Add a seat");
  const removeBtn = h("button", { type: "button", class: "small", onclick: () => { seats = readSeats(); seats.pop(); drawSeats(); } }, "Remove a seat");
  const tcKind = h("select", { name: "tc", id: "tc-kind", "aria-label": "Time limit", onchange: () => drawTc() },
    h("option", { value: "none" }, "No time limit"), h("option", { value: "move" }, "Time per move"),
    h("option", { value: "bank" }, "Time bank for the game"));
  const tcAmount = h("input", { type: "number", name: "tc-amount", min: 1, value: 3, "aria-label": "Amount of time" });
  const tcUnit = h("select", { name: "tc-unit", "aria-label": "Unit" }, UNITS.map(([u, sec]) => h("option", { value: sec, selected: u === "days" }, u)));
  const tcInc = h("input", { type: "number", name: "tc-inc", min: 0, value: 0, "aria-label": "Seconds added each turn" });
  const teamsBox = h("input", { type: "checkbox", name: "teams", id: "teams", onchange: () => { seats = readSeats(); drawSeats(); } });
  const teamsRow = h("label", { class: "check teams-row" }, teamsBox, " Team game: 2 vs 2 (seats 1 and 3 against 2 and 4)");
  const tcBox = h("div", { class: "tc-detail" });
  const tcRest = h("input", { type: "checkbox", name: "tc-weekend-rest" });
  const seed = h("input", { name: "seed", maxlength: 128, placeholder: "random", autocomplete: "off" });
  const errorEl = h("p", { class: "error", role: "alert", hidden: true });
  const createdEl = h("div", { id: "created" });
  const gamesEl = h("div", { id: "my-games" }, h("p", { class: "muted" }, "Loading your games…"));
  const peopleEl = h("div", { id: "people" });

  function readSeats() {
    return [...seatBox.querySelectorAll(".seat-row")].map((row) => ({
      name: row.querySelector("[name=name]").value.trim(),
      school: row.querySelector("[name=school]").value,
      by: row.querySelector("[name=by]").value,
      level: Number(row.querySelector("[name=level]").value),
    }));
  }

  function onByChange(e) {
    const changed = e.target.closest(".seat-row").dataset.seat;
    seats = readSeats();
    if (e.target.value === "you") seats.forEach((s, i) => { if (i !== Number(changed) && s.by === "you") s.by = "human"; });
    drawSeats();
  }

  function drawSeats() {
    // 2 v 2 (the API's `teams`): seats 0 and 2 against 1 and 3, in the forms GET /vocabulary names.
    const teamForm = data.vocabulary.team_forms.includes(formSelect.value);
    teamsRow.hidden = !teamForm;
    const counts = teamsBox.checked && teamForm ? [data.vocabulary.team_seats] : data.vocabulary.seats[formSelect.value];
    const [min, max] = [Math.min(...counts), Math.max(...counts)];
    while (seats.length < min) seats.push({ name: `Computer ${seats.length}`, school: "random", by: "bot" });
    seats = seats.slice(0, max);
    clear(seatBox, seats.map((s, i) => seatRow(data, i, s, onByChange)));
    addBtn.hidden = seats.length >= max;
    removeBtn.hidden = seats.length <= min;
  }

  function drawTc() {
    const kind = tcKind.value;
    clear(tcBox, kind === "none" ? null : [h("label", {}, kind === "move" ? "Each move within " : "Each player has ", tcAmount, " ", tcUnit),
      kind === "bank" ? h("label", {}, " plus ", tcInc, " seconds a turn") : null,
      h("label", { class: "check", title: "In each player's own time zone (set on the account page)" }, tcRest, " Clocks rest at weekends")]);
  }

  formSelect.addEventListener("change", () => { seats = readSeats(); drawSeats(); });

  async function submit(event) {
    event.preventDefault();
    errorEl.hidden = true;
    const list = readSeats();
    const body = { form: formSelect.value, players: [] };
    if (teamsBox.checked && data.vocabulary.team_forms.includes(formSelect.value)) body.teams = true;
    const mine = list.findIndex((s) => s.by === "you");
    try {
      const player = mine >= 0 ? await myPlayer(list[mine].name) : null;
      body.players = list.map((s, i) => {
        const p = { name: s.name || `Seat ${i + 1}`, school: s.school };
        if (s.by === "bot") p.bot_level = s.level;
        if (i === mine && player) p.player = player.id;
        return p;
      });
      if (seed.value.trim()) body.seed = seed.value.trim();
      if (tcKind.value !== "none") {
        body.time_control = { kind: tcKind.value, seconds: Math.round(Number(tcAmount.value) * Number(tcUnit.value)) };
        if (tcKind.value === "bank") body.time_control.increment = Math.round(Number(tcInc.value) || 0);
        if (tcRest.checked) body.time_control.weekend_rest = true;
      }
      const { created, links, mySeat } = await createAndRemember(body, list.map((s) => s.by === "bot"), mine, player);
      const humans = links.filter((l) => !l.bot && l.seat !== (mySeat && mySeat.seat));
      if (!humans.length && mySeat) {
        window.location.assign(`/play/${created.id}`);
        return;
      }
      showCreated(created.id, links, mySeat);
    } catch (err) {
      errorEl.textContent = err.message;
      errorEl.hidden = false;
    }
  }

  function showCreated(id, links, mySeat) {
    const origin = window.location.origin;
    const rows = links.filter((l) => !l.bot).map((l) => {
      const url = `${origin}/play/${id}#token=${l.token}`;
      return h("li", {}, h("span", {}, `${l.name} (seat ${l.seat + 1})${mySeat && l.seat === mySeat.seat ? " — you" : ""}`),
        h("input", { type: "text", readonly: true, value: url, "aria-label": `Join link for ${l.name}`, onfocus: (e) => e.target.select() }),
        copyButton(url, `Copy the join link for ${l.name}`));
    });
    clear(createdEl, h("section", { class: "panel created", "aria-live": "polite" },
      h("h2", {}, "Game created"),
      h("p", {}, "Send each player their own link: it lets them play their seat, so keep it secret."),
      h("ul", { class: "links" }, rows),
      h("p", {}, h("a", { class: "button primary", href: `/play/${id}` }, mySeat ? "Open your seat" : "Watch the game"))));
    createdEl.scrollIntoView({ behavior: "smooth", block: "nearest" });
    listGames(data, gamesEl);
  }

  clear(root, h("div", { class: "lobby" },
    h("section", { class: "panel intro" }, h("h1", {}, "Tash-Kalar Arena"),
      h("p", {}, "Summon beings by arranging your pieces into their patterns, destroy your rivals' pieces, and outscore them. Play a friend by link, or the computer right now."),
      playComputerForm(data, me ? me.name : "Player")),
    peopleEl,
    h("div", { class: "lobby-grid" },
      h("section", { class: "panel new-game", "aria-label": "New game" },
        h("h2", {}, "New game"),
        h("form", { id: "new-game", onsubmit: submit },
          h("label", {}, "Game ", formSelect),
          teamsRow,
          seatBox,
          h("div", { class: "buttons" }, addBtn, removeBtn),
          h("fieldset", { class: "tc" }, h("legend", {}, "Time control"), tcKind, tcBox),
          h("details", {}, h("summary", {}, "More options"), h("label", {}, "Seed (replays the same shuffle) ", seed)),
          errorEl,
          h("button", { type: "submit", class: "primary big", id: "create-game" }, "Create game")),
        createdEl),
      h("section", { class: "panel games", "aria-label": "Your games" }, h("h2", {}, "Your games"), gamesEl))));
  drawSeats();
  drawTc();
  listGames(data, gamesEl);
  showPeople(peopleEl, data);
}

async function listGames(data, el) {
  const known = storage.games();
  const me = storage.player();
  const ids = new Set(Object.keys(known));
  const sources = [];
  if (await currentAccount()) sources.push(null);   // null: the signed-in account's games, on any device
  if (me) sources.push(me.token);
  // The server's own rows (the account's games, the guest player's) say how each stands in words.
  const rows = new Map();
  for (const token of sources) {
    try {
      for (const g of (await api.myGames(token)).games) if (!rows.has(g.id)) { rows.set(g.id, g); ids.add(g.id); }
    } catch { /* the player may have been made on another server: the local list still works */ }
  }
  const entries = await Promise.all([...ids].map(async (id) => {
    const created = known[id]?.created || 0;
    if (rows.has(id)) return { id, row: rows.get(id), created };
    try {
      const view = await api.view(id, storage.tokenFor(id));
      return { id, view, created };
    } catch (err) {
      return err.status === 404 ? null : { id, error: err.message, created };
    }
  }));
  const games = entries.filter(Boolean).map((g) => {
    if (g.row) {
      return { ...g, waiting: g.row.your_turn, finished: g.row.status === "finished", left: g.row.seconds_left ?? Infinity,
        what: `${g.row.form_text}${g.row.opponents.length ? ` vs ${g.row.opponents.join(", ")}` : ""}`, state: g.row.status_text };
    }
    const v = g.view;
    const seat = v ? v.seat : null;
    const waiting = Boolean(v && v.status !== "finished" && seat !== null && v.active_seat === seat);
    const finished = Boolean(v && v.status === "finished");
    const others = v ? (v.players || []).filter((p) => p.seat !== seat).map((p) => `${p.name}${p.bot ? ` (computer · level ${p.bot_level || 1})` : ""}`) : [];
    const state = !v ? g.error : finished ? resultText(v) : waiting ? "your turn" : `${playerName(v, v.active_seat)} to play`;
    return { ...g, waiting, finished, left: Infinity, state: `${state}${v ? ` · ${timeControlText(v.time_control)}` : ""}`,
      what: `${v ? formName(data, v.form) : ""}${others.length ? ` vs ${others.join(", ")}` : ""}` };
  });
  games.sort((a, b) => (b.waiting - a.waiting) || (a.left - b.left) || (a.finished - b.finished) || (b.created - a.created));
  if (!games.length) {
    clear(el, h("p", { class: "muted" }, "No games yet: create one."));
    return;
  }
  clear(el, h("ul", { class: "game-list" }, games.map((g) => h("li", {
    class: `game-item${g.waiting ? " waiting" : ""}${g.finished ? " finished" : ""}`, dataset: { game: g.id } },
  h("a", { href: `/play/${g.id}` },
    h("span", { class: "game-badge" }, g.waiting ? "Your turn" : g.finished ? "Over" : "Playing"),
    h("span", { class: "game-what" }, g.what),
    h("span", { class: "game-meta" }, g.state))))));
}
