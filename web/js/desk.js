// The desk at /desk: every game of the signed-in player (GET /players/me/desk), those to play first
// (least time left first), then those waiting on others, then the finished ones; a dot on each game
// that changed since the player last looked; one button to the next game waiting; filters by form,
// opponent and rated, kept in the address (?form=&opponent=&rated=) so a reload keeps them. Drawn
// again when the player's own stream brings news (a move, a turn, a game over) and when the tab
// comes back into view.

import { api } from "./api.js";
import { clear, h, plural } from "./dom.js";
import { formName } from "./data.js";
import { currentAccount } from "./account.js";
import { inbox } from "./inbox.js";

const SETTLE_MS = 300;              // a burst of news is drawn once
const HEADINGS = { your_turn: "Your turn", waiting: "Waiting on others", finished: "Finished" };
const BADGES = { your_turn: "Your turn", waiting: "Playing", finished: "Over" };

function filterSelect(name, label, choices, selected, onchange) {
  return h("label", { class: "desk-filter" }, `${label} `, h("select", { name, onchange },
    h("option", { value: "" }, "All"),
    choices.map(([value, text]) => h("option", { value, selected: value === selected }, text))));
}

function gameItem(g) {
  const what = `${g.form_text}${g.opponents.length ? ` vs ${g.opponents.join(", ")}` : ""}`;
  return h("li", { class: `game-item ${g.section === "your_turn" ? "waiting" : g.section === "waiting" ? "others" : g.section}${g.changed ? " changed" : ""}`,
    dataset: { game: g.id, section: g.section } },
  h("a", { href: `/play/${encodeURIComponent(g.id)}` },
    h("span", { class: "game-badge" }, BADGES[g.section] || g.status),
    h("span", { class: "game-what" }, what,
      g.changed ? h("span", { class: "changed-dot", title: "Changed since you last looked" }, " ● new") : null),
    h("span", { class: "game-meta" }, `${g.status_text}${g.rated ? "" : " · unrated"}`)));
}

export async function showDesk(root, data) {
  if (!(await currentAccount())) {
    clear(root, h("section", { class: "panel" }, h("h1", {}, "Your desk"),
      h("p", {}, "Sign in to see all your games in one place. ", h("a", { href: "/account" }, "Sign in"))));
    return;
  }
  let soon;
  const later = () => { clearTimeout(soon); soon = setTimeout(() => drawDesk(root, data).catch(() => {}), SETTLE_MS); };
  document.addEventListener("visibilitychange", () => { if (!document.hidden) later(); });
  inbox().then((news) => news.listen(later)).catch(() => { /* drawn again on coming back */ });
  await drawDesk(root, data);
}

async function drawDesk(root, data) {
  const params = new URLSearchParams(window.location.search);
  const filters = { form: params.get("form") || "", opponent: params.get("opponent") || "", rated: params.get("rated") || "" };
  const query = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
  const desk = await api.desk(query);
  const refilter = (event) => {
    filters[event.target.name] = event.target.value;
    const next = new URLSearchParams(Object.entries(filters).filter(([, v]) => v)).toString();
    history.replaceState(null, "", `/desk${next ? `?${next}` : ""}`);
    drawDesk(root, data);
  };
  const waiting = desk.counts.your_turn;
  const sections = Object.keys(HEADINGS).map((section) => {
    const games = desk.games.filter((g) => g.section === section);
    return games.length ? h("section", { class: `desk-section desk-${section}`, "aria-label": HEADINGS[section] },
      h("h2", {}, `${HEADINGS[section]} (${games.length})`), h("ul", { class: "game-list" }, games.map(gameItem))) : null;
  });
  clear(root, h("section", { class: "panel desk", id: "desk" },
    h("div", { class: "desk-head" },
      h("h1", {}, "Your desk"),
      desk.next ? h("a", { class: "button primary", id: "next-game", href: `/play/${encodeURIComponent(desk.next)}` },
        `Play the next game (${plural(waiting, "waiting", "waiting")})`)
        : h("p", { class: "muted", id: "next-game-none" }, "No game is waiting for you.")),
    h("form", { class: "desk-filters", onsubmit: (e) => e.preventDefault() },
      filterSelect("form", "Form", desk.forms.map((f) => [f, formName(data, f)]), filters.form, refilter),
      filterSelect("opponent", "Opponent", desk.opponents.map((o) => [o, o]), filters.opponent, refilter),
      filterSelect("rated", "Rated", [["true", "Rated"], ["false", "Unrated"]], filters.rated, refilter)),
    desk.games.length ? sections : h("p", { class: "muted" }, query ? "No game matches these filters." : "No games yet.")));
}
