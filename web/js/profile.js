// A player's profile at /profile/<name>: ratings per form with their history, statistics by form
// and by school, current games, finished games with links to their replay. textContent only.

import { api } from "./api.js";
import { clear, h } from "./dom.js";
import { formName, schoolName } from "./data.js";
import { when } from "./panels.js";

function statsTable(title, rows, label) {
  return h("table", { class: "stats" }, h("caption", {}, title),
    h("tr", {}, h("th", {}, ""), h("th", {}, "Games"), h("th", {}, "Wins")),
    Object.entries(rows).map(([k, v]) => h("tr", {}, h("td", {}, label(k)), h("td", {}, String(v.games)), h("td", {}, String(v.wins)))));
}

export async function showProfile(root, who, data) {
  const p = await api.profile(who);
  const ratings = Object.entries(p.ratings);
  clear(root, h("div", { class: "profile", id: "profile" },
    h("section", { class: "panel" }, h("h1", {}, p.title ? `${p.title} ${p.name}` : p.name),
      p.vacation ? h("p", { class: "vacation" }, `On vacation until ${when(p.vacation.until)}`) : null,
      h("h2", {}, "Ratings"),
      ratings.length ? h("ul", { class: "ratings" }, ratings.map(([form, r]) => h("li", {},
        `${formName(data, form)}: ${r.display_rating ?? r.ordinal.toFixed(1)} (${r.games} rated game${r.games === 1 ? "" : "s"}${r.provisional ? "; ? until 10" : ""})`,
        (p.history[form] || []).length ? h("span", { class: "muted" }, ` · history ${(p.history[form] || []).map((x) => x.display_value ?? x.ordinal.toFixed(1)).join(" → ")}`) : null)))
        : h("p", { class: "muted" }, "No rated games yet.")),
    h("section", { class: "panel" }, h("h2", {}, "Statistics"),
      Object.keys(p.stats.by_form).length ? [statsTable("By form", p.stats.by_form, (k) => formName(data, k)),
        statsTable("By school", p.stats.by_school, (k) => schoolName(data, k))] : h("p", { class: "muted" }, "No finished games yet.")),
    h("section", { class: "panel" }, h("h2", {}, "Current games"),
      p.current.length ? h("ul", { class: "game-list" }, p.current.map((g) => h("li", {}, h("a", { href: g.link },
        `${formName(data, g.form)} vs ${g.opponents.join(", ")}${g.to_play ? ` · ${p.name} to play` : ""}`))))
        : h("p", { class: "muted" }, "None.")),
    h("section", { class: "panel" }, h("h2", {}, "Finished games"),
      p.finished.length ? h("ul", { class: "game-list finished" }, p.finished.map((g) => h("li", {},
        h("a", { href: g.replay }, `${formName(data, g.form)} vs ${g.opponents.map((o) => o.name).join(", ")}: ${g.result}`),
        h("span", { class: "muted" }, ` · ${g.ended}${g.rating ? ` · ${g.rating.before.display_value ?? g.rating.before.ordinal.toFixed(1)} → ${g.rating.after.display_value ?? g.rating.after.ordinal.toFixed(1)}` : ""}`))))
        : h("p", { class: "muted" }, "None yet."))));
}
