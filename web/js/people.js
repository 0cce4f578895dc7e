// The lobby's people part: sign in, open tables (live from /lobby/stream), quick match,
// invitations, and games to watch. Every value from the server goes in with textContent.

import { api } from "./api.js";
import { currentAccount, signInForm } from "./account.js";
import { clear, h, plural } from "./dom.js";
import { formName, schoolModeName, schoolName } from "./data.js";
import { NEWEST, inbox } from "./inbox.js";
import { timeControlText, when } from "./panels.js";

const CLOCKS = [["none", "No time limit"], ["move:86400", "1 day a move"], ["move:259200", "3 days a move"],
  ["bank:1800", "30 minutes for the game"], ["move:300", "5 minutes a move"]];

function timeControl(value) {
  const [kind, seconds] = value.split(":");
  return kind === "none" ? undefined : { kind, seconds: Number(seconds) };
}

function select(name, options, attrs) {
  return h("select", { name, ...(attrs || {}) }, options.map(([v, text]) => h("option", { value: v }, text)));
}

async function drawLiveGames(list, data) {
  const { games } = await api.liveGames();
  clear(list, games.length ? games.map((g) => h("li", {}, h("a", { href: g.link },
    `${formName(data, g.form)}: ${g.players.join(" vs ")} · ${plural(g.spectators, "spectator")}`)))
    : h("li", { class: "muted" }, "Nobody is playing right now."));
}

export async function showPeople(el, data) {
  const me = await currentAccount();
  if (!me) {                            // games to watch need no account
    const watchEl = h("ul", { class: "game-list", id: "live-games" });
    clear(el, h("section", { class: "panel people" },
      h("p", {}, "Sign in to find opponents in the lobby, chat, and see your games on any device. "
        + "The games you played here as a guest stay yours."),
      signInForm(() => window.location.reload()),
      h("h2", {}, "Games to watch"), watchEl));
    await drawLiveGames(watchEl, data);
    return;
  }
  const error = h("p", { class: "error", role: "alert", hidden: true });
  const fail = (err) => { error.textContent = err.message; error.hidden = false; };
  const tablesEl = h("ul", { class: "table-list", id: "open-tables" });
  const invitesEl = h("div", { id: "invitations" });
  const liveEl = h("ul", { class: "game-list", id: "live-games" });
  const notesEl = h("ul", { class: "notes", id: "notifications", "aria-live": "polite" });
  const seekEl = h("p", { id: "seek-status", role: "status" });
  const forms = data.geometry.forms.map((f) => [f.id, f.name]);
  const form = select("table-form", forms, { id: "table-form", "aria-label": "Form" });
  const seats = select("table-seats", [["2", "2 players"]], { id: "table-seats", "aria-label": "Players" });
  const words = data.vocabulary;
  const schools = select("table-schools", words.school_modes.map((m) => [m.id, m.name]), { "aria-label": "Schools" });
  const mySchool = select("table-school", data.geometry.schools.map((s) => [s, schoolName(data, s)]));
  const mySchoolLabel = h("label", { hidden: true }, "Your school ", mySchool);
  schools.addEventListener("change", () => { mySchoolLabel.hidden = schools.value !== "fixed"; });
  const clock = select("table-clock", CLOCKS.map(([v, t]) => [v, t]), { "aria-label": "Clock" });
  const rated = h("input", { type: "checkbox", name: "table-rated", checked: true });
  const weekends = h("input", { type: "checkbox", name: "table-weekend-rest" });
  const weekendsLabel = h("label", { class: "check", title: "No clock runs on Saturday and Sunday, in each player's own time zone (set on your account page)" },
    weekends, " clocks rest at weekends");
  const low = h("input", { type: "number", name: "rating-min", step: 1, placeholder: "any", "aria-label": "Lowest rating" });
  const high = h("input", { type: "number", name: "rating-max", step: 1, placeholder: "any", "aria-label": "Highest rating" });
  const teams = h("input", { type: "checkbox", name: "table-teams", id: "table-teams" });
  const teamsLabel = h("label", { class: "check" }, teams, " 2 v 2");
  // Places the computer takes at the table, at a level (a table with the computer is casual); at
  // least one place stays for another person.
  const computers = h("select", { name: "table-computers", id: "table-computers", "aria-label": "Places for the computer" });
  const computerLevel = select("table-computer-level", data.vocabulary.bot_levels.map((l) => [l.level, `level ${l.level} · ${l.name}`]),
    { id: "table-computer-level", "aria-label": "The computer's level" });
  computerLevel.value = "3";
  const computerLabel = h("label", {}, " with ", computers, " at ", computerLevel);
  const drawComputers = () => {
    const room = Number(seats.value) - 2;
    const kept = Math.min(Number(computers.value || 0), room);
    clear(computers, Array.from({ length: room + 1 }, (_, n) => h("option", { value: n, selected: n === kept },
      n ? `${n} computer${n > 1 ? "s" : ""}` : "no computer")));
    computerLabel.hidden = room < 1;
    computerLevel.hidden = !Number(computers.value);
    rated.disabled = Boolean(Number(computers.value));      // the computer never plays rated
    if (rated.disabled) rated.checked = false;
  };
  const drawSeatChoice = () => {
    teamsLabel.hidden = !words.team_forms.includes(form.value);
    if (teamsLabel.hidden) teams.checked = false;
    clear(seats, (teams.checked ? [words.team_seats] : words.seats[form.value]).map((n) => h("option", { value: n }, `${n} players`)));
    drawComputers();
  };
  form.addEventListener("change", drawSeatChoice);
  teams.addEventListener("change", drawSeatChoice);
  seats.addEventListener("change", drawComputers);
  computers.addEventListener("change", drawComputers);
  drawComputers();

  async function drawTables() {
    const { tables } = await api.tables();
    if (!tables.length) {
      clear(tablesEl, h("li", { class: "muted" }, "No open tables: open one."));
      return;
    }
    clear(tablesEl, tables.map((t) => {
      const seated = t.players.some((p) => p.player === me.id);
      const buttons = [];
      if (!seated) {
        buttons.push(h("button", { type: "button", class: "small join", "aria-expanded": String(choosing?.table === t.id),
          onclick: () => join(t) }, "Join"));
      }
      if (seated) buttons.push(h("button", { type: "button", class: "small leave", onclick: () => api.leaveTable(t.id).catch(fail) }, "Leave"));
      if (seated && t.creator === me.id && t.can_start) {
        buttons.push(h("button", { type: "button", class: "small", onclick: () => api.startTable(t.id).then(go).catch(fail) }, `Start with ${t.players.length}`));
      }
      const range = t.rating_min !== null || t.rating_max !== null ? ` · rating ${t.rating_min ?? "…"} to ${t.rating_max ?? "…"}` : "";
      return h("li", { class: "table-item", "data-table": t.id },
        h("span", { class: "table-what" }, `${t.form_text || formName(data, t.form)} · ${t.players.length}/${t.seats} · ${schoolModeName(data, t.schools)} · ${timeControlText(t.time_control)} · ${t.rated ? "rated" : "casual"}${range}`),
        h("span", { class: "table-who" }, t.players.map((p) => (p.bot_level ? `${p.name} (computer · level ${p.bot_level})` : p.name)).join(", ")), ...buttons,
        choosing?.table === t.id && !seated ? schoolChooser(t) : null);
    }));
    const open = tablesEl.querySelector(".school-chooser");
    if (open && choosing.focus) {
      choosing.focus = false;
      (open.querySelector("input:checked") || open.querySelector("button")).focus();
    }
  }

  // A fixed-schools table: each player picks their own school, in the table's row (not a prompt).
  // The choice survives the list being redrawn by the live feed; Escape or Cancel closes it.
  let choosing = null;                  // {table, school, focus}
  function schoolChooser(t) {
    const taken = new Map(t.players.filter((p) => p.school).map((p) => [p.school, p.name]));
    const free = data.geometry.schools.filter((id) => !taken.has(id));
    if (!free.includes(choosing.school)) choosing.school = free[0];
    const close = () => {
      choosing = null;
      drawTables().then(() => tablesEl.querySelector(`[data-table="${CSS.escape(t.id)}"] button.join`)?.focus());
    };
    const legendId = `school-legend-${t.id}`;
    return h("form", { class: "school-chooser", "aria-labelledby": legendId,
      onkeydown: (e) => { if (e.key === "Escape") { e.preventDefault(); close(); } },
      onsubmit: async (e) => {
        e.preventDefault();
        if (!choosing?.school) return;
        error.hidden = true;
        try { go(await api.joinTable(t.id, { school: choosing.school })); } catch (err) { fail(err); drawTables(); }
      } },
    h("fieldset", {}, h("legend", { id: legendId }, "Choose your school"),
      data.geometry.schools.map((id) => h("label", { class: "school-choice" },
        h("input", { type: "radio", name: `school-${t.id}`, value: id, checked: id === choosing.school,
          disabled: taken.has(id), onchange: () => { choosing.school = id; } }),
        " ", schoolName(data, id), taken.has(id) ? ` (${taken.get(id)} plays it)` : ""))),
    h("button", { type: "submit", class: "primary small", disabled: !free.length },
      free.length ? "Join with this school" : "No school left"), " ",
    h("button", { type: "button", class: "small", onclick: close }, "Cancel"));
  }

  // The join answer and the lobby feed both announce a started game: leave for it once, or the
  // second navigation aborts the first.
  let leaving = false;
  function play(gameId) {
    if (leaving) return;
    leaving = true;
    window.location.assign(`/play/${encodeURIComponent(gameId)}`);
  }

  function go(table) {
    if (table && table.game_id) play(table.game_id);
  }

  async function join(t) {
    if (t.schools === "fixed") {
      choosing = choosing?.table === t.id ? null : { table: t.id, school: null, focus: true };
      await drawTables();
      return;
    }
    try {
      go(await api.joinTable(t.id, {}));
    } catch (err) { fail(err); }
  }

  async function drawInvitations() {
    let list = [];
    try { list = (await api.invitations()).invitations.filter((i) => i.status === "invited"); } catch { list = []; }
    const who = (i) => i.invited_by_name || "Someone";
    clear(invitesEl, list.length ? [h("h3", {}, "Invitations"), h("ul", {}, list.map((i) => h("li", { class: "invitation" },
      `${who(i)} invites you to ${formName(data, i.form)} as ${i.name} (seat ${i.seat + 1} of ${i.players.length}); `
      + `answer by ${when(i.expires)}. ${i.start_text || ""} `,
      h("button", { type: "button", class: "small", onclick: () => api.answerInvitation(i.id, "accept").then(() => play(i.game_id)).catch(fail) }, "Accept"), " ",
      h("button", { type: "button", class: "small", onclick: () => api.answerInvitation(i.id, "decline").then(drawInvitations).catch(fail) }, "Decline"))))] : []);
  }

  // Every kind of notification, as the server declares them (GET /notices.json), and your news.
  const news = await inbox();
  const kinds = news.kinds;
  // A rematch offer opens the finished game, where it is answered; its start opens the new game.
  const rematchOf = (n) => (n.type === "rematch_offer" && n.state !== "started" && n.rematch_of ? n.rematch_of : n.game_id);

  // What happened to you lately (your turn, invitations and their answers or expiry), newest first,
  // live from your own stream; an invitation's news redraws the invitations.
  function addNote(n, streamId) {
    if (notesEl.querySelector(`[data-note="${CSS.escape(n.id)}"]`)) return;
    notesEl.querySelector("li.muted")?.remove();
    const ms = Number(String(streamId || "").split("-")[0]);        // a stream id starts with its time
    const at = ms ? ` · ${when(ms)}` : "";
    const linked = kinds.get(n.type)?.link ?? true;
    const link = n.game_id && linked ? h("a", { href: `/play/${encodeURIComponent(rematchOf(n))}` }, n.text) : n.text;
    notesEl.prepend(h("li", { class: `note note-${n.type}`, dataset: { note: n.id } }, link, h("span", { class: "muted" }, at)));
    while (notesEl.children.length > NEWEST) notesEl.lastChild.remove();
  }

  async function drawNotes() {
    if (!news.notes.length) clear(notesEl, h("li", { class: "muted" }, "Nothing yet."));
    news.notes.forEach((n) => addNote(n, n.stream_id));
    news.listen((note, kind, streamId) => {
      addNote(note, streamId);
      if (kind.startsWith("invitation")) drawInvitations();
    });
  }

  const drawLive = () => drawLiveGames(liveEl, data);

  // A search started on this page goes to its game when matched; a match found earlier (another
  // page, another device) is only a notice with a link, so the lobby never traps anyone.
  let seekTimer;
  let seeking = false;
  async function watchSeek() {
    clearTimeout(seekTimer);
    const s = await api.mySeek();
    if (s.status === "matched" && seeking) { play(s.game_id); return; }
    if (s.status === "matched") {
      clear(seekEl, "Your quick match found a game: ", h("a", { href: `/play/${encodeURIComponent(s.game_id)}`, id: "matched-game" }, "open it"), ".");
    } else {
      clear(seekEl, s.status === "waiting" ? [`Looking for an opponent (${s.window_text || "ratings close to yours"})… `,
        h("button", { type: "button", class: "small", id: "seek-computer", onclick: async () => {
          seeking = false;
          await api.cancelSeek().catch(() => null);
          document.getElementById("play-computer")?.requestSubmit();       // the lobby's "Play the computer now"
        } }, "Play the computer instead")] : []);
    }
    if (s.status === "waiting") seekTimer = setTimeout(watchSeek, 2000);
  }
  const seekForm = select("seek-form", forms, { id: "seek-form", "aria-label": "Form" });
  const seekClock = select("seek-clock", CLOCKS.map(([v, t]) => [v, t]), { "aria-label": "Clock" });

  const openForm = h("form", { id: "open-table", onsubmit: async (e) => {
    e.preventDefault();
    error.hidden = true;
    const body = { form: form.value, seats: Number(seats.value), schools: schools.value, rated: rated.checked };
    if (teams.checked) body.teams = true;
    if (schools.value === "fixed") body.school = mySchool.value;
    if (timeControl(clock.value)) body.time_control = { ...timeControl(clock.value), ...(weekends.checked ? { weekend_rest: true } : {}) };
    if (low.value !== "") body.rating_min = Number(low.value);
    if (high.value !== "") body.rating_max = Number(high.value);
    if (!computerLabel.hidden && Number(computers.value)) body.computers = Array(Number(computers.value)).fill(Number(computerLevel.value));
    try { await api.openTable(body); await drawTables(); } catch (err) { fail(err); }
  } }, h("label", {}, "Game ", form), " ", teamsLabel, " ", seats, computerLabel, " ", schools, " ", mySchoolLabel, " ", clock, " ", weekendsLabel,
  h("label", { class: "check" }, rated, " rated"), h("label", {}, " Ratings ", low, " to ", high),
  h("button", { type: "submit", class: "primary", id: "open-table-button" }, "Open a table"));

  clear(el, h("section", { class: "panel people" },
    h("p", { id: "signed-in" }, `Signed in as ${me.name} · `, h("a", { href: "/account" }, "account"), " · ",
      h("a", { href: `/profile/${encodeURIComponent(me.name)}` }, "profile")),
    invitesEl,
    h("h2", {}, "News"), notesEl,
    h("h2", {}, "Open tables"), tablesEl, openForm,
    h("h2", {}, "Quick match"),
    h("form", { id: "quick-match", onsubmit: async (e) => {
      e.preventDefault();
      const body = { form: seekForm.value };
      if (timeControl(seekClock.value)) body.time_control = timeControl(seekClock.value);
      try { seeking = true; await api.seek(body); watchSeek(); } catch (err) { seeking = false; fail(err); }
    } }, seekForm, " ", seekClock, " ", h("button", { type: "submit", id: "find-opponent" }, "Find an opponent"), " ",
    h("button", { type: "button", id: "stop-seek", onclick: async () => {
      seeking = false;
      await api.cancelSeek();
      seekEl.textContent = "Stopped: you are not looking for an opponent.";
    } }, "Stop")), seekEl,
    error,
    h("h2", {}, "Games to watch"), liveEl));

  await Promise.all([drawTables(), drawInvitations(), drawLive(), watchSeek(), drawNotes()]);
  const { feed } = await api.tables();
  const live = new EventSource(`/lobby/stream?after=${encodeURIComponent(feed)}`);
  const changed = (e) => {
    const entry = JSON.parse(e.data);
    const mine = entry.kind === "started" && entry.table.players.some((p) => p.player === me.id);
    if (mine) go(entry.table);
    else if (entry.kind === "matched" && entry.players.includes(me.id)) { if (seeking) play(entry.game_id); else watchSeek(); }
    else drawTables();
  };
  for (const kind of ["opened", "changed", "started", "closed", "expired", "matched"]) live.addEventListener(kind, changed);
  window.addEventListener("pagehide", () => live.close());
}
