// The account: who is signed in (the session cookie), sign-up and sign-in forms, and the account
// page at /account (password, sign out everywhere, API tokens, e-mail preferences, vacation).
// Everything from the server is shown with textContent (dom.js `h`), never as HTML.

import { api, mayHaveSession } from "./api.js";
import { clear, h } from "./dom.js";
import { when } from "./panels.js";
import * as push from "./push.js";
import * as storage from "./storage.js";

let known;

// The signed-in account ({id, name, csrf}) or null; asked once per page.
export async function currentAccount() {
  if (known === undefined) {
    try { known = mayHaveSession() ? await api.me() : null; } catch { known = null; }
    const link = document.getElementById("account-link");
    if (link) link.textContent = known ? known.name : "Sign in";
  }
  return known;
}

function field(label, input) {
  return h("label", { class: "field" }, label, " ", input);
}

// A guest who signs up or in keeps this browser's games: only the seat it played in each (its
// own seat token), never the join links it holds for friends' seats. Such games are unrated.
async function keepGuestGames() {
  const own = Object.entries(storage.games()).filter(([, g]) => g.token).map(([id, g]) => ({ id, token: g.token }));
  if (!own.length) return;
  try { await api.claimGames(own.slice(0, 200)); } catch { /* the games stay this browser's */ }
}

// Sign-up / sign-in form; `done(account)` runs once signed in.
export function signInForm(done) {
  const name = h("input", { name: "account-name", autocomplete: "username", maxlength: 24, required: true });
  const password = h("input", { name: "account-password", type: "password", autocomplete: "current-password",
    minlength: 8, maxlength: 256, required: true });
  const error = h("p", { class: "error", role: "alert", hidden: true });
  async function go(kind) {
    error.hidden = true;
    try {
      const account = kind === "up" ? await api.signUp(name.value.trim(), password.value)
        : await api.signIn(name.value.trim(), password.value);
      known = account;
      await keepGuestGames();
      done(account);
    } catch (err) {
      error.textContent = err.message;
      error.hidden = false;
    }
  }
  return h("form", { class: "sign-in", id: "sign-in", "aria-labelledby": "sign-in-title", onsubmit: (e) => { e.preventDefault(); go("in"); } },
    h("h2", { id: "sign-in-title" }, "Sign in or sign up"),
    field("Name", name), field("Password", password), error,
    h("div", { class: "buttons" },
      h("button", { type: "submit", class: "primary", id: "sign-in-button" }, "Sign in"),
      h("button", { type: "button", id: "sign-up-button", onclick: () => go("up") }, "Sign up")));
}

function section(title, ...children) {
  return h("section", { class: "panel" }, h("h2", {}, title), ...children);
}

function note(el, text, isError) {
  el.textContent = text;
  el.className = isError ? "error" : "muted";
  el.hidden = false;
}

async function passwordSection() {
  const current = h("input", { type: "password", name: "current-password", autocomplete: "current-password" });
  const next = h("input", { type: "password", name: "new-password", autocomplete: "new-password", minlength: 8 });
  const out = h("p", { role: "status", hidden: true });
  return section("Password",
    h("form", { onsubmit: async (e) => {
      e.preventDefault();
      try {
        const r = await api.changePassword(current.value, next.value);
        note(out, `Password changed; ${r.sessions_closed} other session(s) signed out.`);
      } catch (err) { note(out, err.message, true); }
    } }, field("Current", current), field("New", next), h("button", { type: "submit" }, "Change password"), out),
    h("p", {}, h("button", { type: "button", id: "sign-out-everywhere", onclick: async () => {
      await api.signOutEverywhere();
      window.location.assign("/");
    } }, "Sign out everywhere"), " ",
    h("button", { type: "button", id: "sign-out", onclick: async () => { await api.signOut(); window.location.assign("/"); } }, "Sign out")));
}

async function tokensSection() {
  const list = h("ul", { class: "tokens" });
  const label = h("input", { name: "token-label", maxlength: 60, placeholder: "my bot" });
  const shown = h("p", { class: "muted", hidden: true });
  async function draw() {
    const [{ tokens }, mine] = await Promise.all([api.tokens(), api.myGames(null).catch(() => ({ games: [] }))]);
    // a seat's token is named by its game as you know it ("duel vs Bob"), never by the game's id
    const named = new Map(mine.games.map((g) => [g.id, `${g.form_text} vs ${g.opponents.join(", ")}`]));
    clear(list, tokens.map((t) => h("li", {}, t.kind === "seat"
      ? h("span", {}, "The link of your seat in ", h("a", { href: `/play/${encodeURIComponent(t.game_id)}` }, named.get(t.game_id) || "a game"), ` (${t.id})`)
      : h("span", {}, `${t.label} (${t.id})`), " ",
      h("button", { type: "button", class: "small", onclick: async () => { await api.revokeToken(t.id); draw(); } }, "Revoke"))));
  }
  await draw();
  return section("API tokens for scripts and bots",
    h("p", { class: "muted" }, "Send a token as 'Authorization: Bearer <token>'. It acts as you: keep it secret."),
    list,
    h("form", { onsubmit: async (e) => {
      e.preventDefault();
      const made = await api.makeToken(label.value.trim() || "token");
      note(shown, `New token (shown once): ${made.token}`);
      draw();
    } }, field("Label", label), h("button", { type: "submit" }, "Make a token")), shown);
}

// Turning a new account into a bot account (POST /accounts/me/bot): once, after a confirmation.
function botSection(me) {
  const out = h("p", { role: "status", hidden: true });
  const body = h("div", {});
  const ask = () => clear(body, h("p", {}, "A bot account is for a program: it is shown as BOT everywhere, plays casual "
    + "games only (never quick match, never rated), and plays only through the API with its tokens, never from this "
    + "site. Only an account that has played no game can become one, and it stays one for good."),
  h("button", { type: "button", id: "become-bot", onclick: () => sure() }, "Make this a bot account…"));
  const sure = () => clear(body, h("p", { class: "notice" }, "This cannot be undone. Make this account a bot account?"),
    h("button", { type: "button", class: "danger", id: "become-bot-yes", onclick: async () => {
      try {
        await api.becomeBot();
        clear(body, h("p", { id: "bot-status" }, "This is a bot account: run your program with one of its API tokens, "
          + "for example ", h("code", {}, "arena bot --server URL --token T --level N"), "."));
      } catch (err) { ask(); note(out, err.message, true); }
    } }, "Yes, for good"), " ", h("button", { type: "button", onclick: ask }, "No"));
  if (me.bot) clear(body, h("p", { id: "bot-status" }, "This is a bot account: it plays through the API with its tokens."));
  else ask();
  return section("Bot account", body, out);
}

const KIND_NAMES = { your_turn: "It is my turn", deadline_soon: "My time runs out soon", game_over: "A game is over",
  digest: "A daily digest of the games waiting for me" };

async function emailSection() {
  const prefs = await api.emailPrefs();
  const address = h("input", { type: "email", name: "email", value: prefs.address || "", maxlength: 254 });
  const boxes = Object.keys(KIND_NAMES).map((k) => h("input", { type: "checkbox", name: `mail-${k}`, checked: prefs.kinds[k] }));
  const out = h("p", { role: "status", hidden: true });
  const failures = prefs.failures.length
    ? h("div", { class: "failures" }, h("h3", {}, "Failed deliveries"),
      h("ul", {}, prefs.failures.map((f) => h("li", {}, `${f.time}: ${f.subject} (attempt ${f.attempt}): ${f.error}`))))
    : null;
  return section("E-mail",
    prefs.sending === false ? h("p", { class: "notice", id: "no-mail" },
      "This server sends no e-mail: it has no mail server set up. What you choose here is kept, and used if it ever does.") : null,
    h("form", { id: "email-form", onsubmit: async (e) => {
      e.preventDefault();
      const kinds = Object.fromEntries(Object.keys(KIND_NAMES).map((k, i) => [k, boxes[i].checked]));
      try {
        await api.setEmailPrefs(address.value.trim() ? { address: address.value.trim(), kinds } : { kinds });
        note(out, "Saved.");
      } catch (err) { note(out, err.message, true); }
    } }, field("Address", address),
    Object.keys(KIND_NAMES).map((k, i) => h("label", { class: "check" }, boxes[i], " ", KIND_NAMES[k])),
    h("button", { type: "submit" }, "Save"), out), failures);
}

// Push notifications: which kinds (as GET /notices.json declares them), this device in or out, and
// every device opted in (a phone kept in a drawer can be removed from here).
async function pushSection() {
  const [prefs, declared, mine] = await Promise.all([api.pushPrefs(), api.noticeKinds(), push.current()]);
  const kinds = declared.kinds.filter((k) => k.push);
  const boxes = kinds.map((k) => h("input", { type: "checkbox", name: `push-${k.kind}`, checked: prefs.kinds[k.kind] }));
  const out = h("p", { role: "status", id: "push-status", hidden: true });
  const devices = h("ul", { class: "devices", id: "push-devices" });
  const here = h("div", { id: "push-here" });
  const thisId = await push.idOf(mine);
  function draw(subscriptions) {
    clear(devices, subscriptions.length ? subscriptions.map((s) => h("li", {},
      h("span", {}, `${s.id === thisId ? "This browser" : "A browser"} (${s.service}), since ${when(s.created)}`), " ",
      h("button", { type: "button", class: "small", onclick: async () => {
        try { await (s.id === thisId ? push.optOut(s.id) : api.removePushSubscription(s.id)); redraw(); }
        catch (err) { note(out, err.message, true); }
      } }, "Remove"))) : h("li", { class: "muted" }, "No device yet."));
    const opted = subscriptions.some((s) => s.id === thisId);
    clear(here, !push.supported()
      ? h("p", { class: "muted" }, "This browser cannot receive push notifications.")
      : opted ? h("p", {}, "This browser gets push notifications.")
        : h("button", { type: "button", id: "push-opt-in", onclick: async () => {
          try { await push.optIn(prefs.public_key); note(out, "This browser gets push notifications now."); redraw(); }
          catch (err) { note(out, err.message, true); }
        } }, "Send push notifications to this browser"));
  }
  async function redraw() { draw((await api.pushPrefs()).subscriptions); }
  draw(prefs.subscriptions);
  // A browser that opted in but is not listed (its push service renewed the subscription, or the
  // server removed an expired one the browser still holds) is handed over again.
  if (mine && Notification.permission === "granted" && !prefs.subscriptions.some((s) => s.id === thisId)) {
    api.addPushSubscription(mine.toJSON()).then(redraw, () => {});
  }
  return section("Push notifications", h("p", { class: "muted" },
    "Notifications on this device even when no page of the site is open. Turn them on in each browser you use."),
  here, devices,
  h("form", { id: "push-form", onsubmit: async (e) => {
    e.preventDefault();
    try {
      await api.setPushPrefs(Object.fromEntries(kinds.map((k, i) => [k.kind, boxes[i].checked])));
      note(out, "Saved.");
    } catch (err) { note(out, err.message, true); }
  } }, kinds.map((k, i) => h("label", { class: "check" }, boxes[i], " ", k.label)),
  h("button", { type: "submit" }, "Save")), out);
}

// Where weekend rest falls for you: an IANA zone, this browser's offered until you choose one.
async function timeZoneSection() {
  const mine = await api.timeZone();
  const here = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
  const zones = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  const input = h("input", { name: "time-zone", list: "time-zones", autocomplete: "off", value: mine.chosen ? mine.time_zone : here });
  const out = h("p", { role: "status", hidden: true });
  const form = h("form", { onsubmit: async (e) => {
    e.preventDefault();
    try {
      const saved = await api.setTimeZone(input.value.trim());
      note(out, `Saved: ${saved.time_zone}.`);
    } catch (err) { note(out, err.message, true); }
  } }, field("Time zone", input), h("datalist", { id: "time-zones" }, zones.map((z) => h("option", { value: z }))),
  h("button", { type: "submit", id: "save-time-zone" }, "Save"));
  return section("Time zone", h("p", { class: "muted" },
    `In games whose clocks rest at weekends, your clock stands still from Saturday 00:00 to Monday 00:00 here${mine.chosen ? "" : " (UTC until you save one)"}.`),
  form, out);
}

async function vacationSection() {
  const status = h("p", { id: "vacation-status" });
  const days = h("input", { type: "number", name: "vacation-days", min: 0.1, step: 0.1, value: 7 });
  const out = h("p", { role: "status", hidden: true });
  const controls = h("div", {});
  async function draw(v) {
    status.textContent = v.active ? `On vacation until ${when(v.until)}: your clocks are paused.`
      : `Not on vacation. ${v.left_days} of ${v.allowance_days} days left this year.`;
    clear(controls, v.active
      ? h("button", { type: "button", id: "end-vacation", onclick: async () => draw(await api.endVacation()) }, "Come back now")
      : h("form", { onsubmit: async (e) => {
        e.preventDefault();
        try { draw(await api.startVacation(Number(days.value))); } catch (err) { note(out, err.message, true); }
      } }, field("Days", days), h("button", { type: "submit", id: "start-vacation" }, "Go on vacation")));
  }
  await draw(await api.vacation());
  return section("Vacation", h("p", { class: "muted" },
    "While you are away, your per-move and bank clocks stand still in every game, and your opponents see it."),
  status, controls, out);
}

async function mutesSection() {
  const list = h("ul", { class: "mutes", id: "mutes" });
  async function draw() {
    const { muted } = await api.mutes();
    clear(list, muted.length ? muted.map((m) => h("li", {}, h("span", {}, m.name), " ",
      h("button", { type: "button", class: "small", onclick: async () => { await api.unmute(m.id); draw(); } }, "Unmute")))
      : h("li", { class: "muted" }, "Nobody."));
  }
  await draw();
  return section("Muted players", h("p", { class: "muted" }, "You do not see their chat messages, in any game."), list);
}

export async function showAccount(root) {
  const me = await currentAccount();
  if (!me) {
    clear(root, h("div", { class: "account" }, h("section", { class: "panel" },
      signInForm(() => window.location.assign("/account")))));
    return;
  }
  clear(root, h("div", { class: "account" },
    h("section", { class: "panel" }, h("h1", {}, me.bot ? `BOT ${me.name}` : me.name),
      h("p", {}, h("a", { href: `/profile/${encodeURIComponent(me.name)}` }, "Your public profile"))),
    await passwordSection(), await emailSection(), await pushSection(), await vacationSection(), await timeZoneSection(), await mutesSection(),
    await tokensSection(), botSection(me)));
}
