// The rules page (/rules): how to play, in our own words, with pattern pictures drawn from the
// served card data (the same diagrams the hand shows), and a link to the interactive tutorial.

import { card as cardData } from "./data.js";
import { patternDiagram } from "./cards.js";
import { clear, h } from "./dom.js";

const EXAMPLES = ["northern-swordmaster", "northern-herald", "northern-assassin", "legends-fire-dragon"];

function section(id, title, ...body) {
  return h("section", { class: "panel rules-part", id, "aria-labelledby": `${id}-h` }, h("h2", { id: `${id}-h` }, title), body);
}

function points(...items) {
  return h("ul", {}, items.map((item) => h("li", {}, item)));
}

// A card's pattern with its name: the being square framed, required pieces drawn by rank.
function example(data, id) {
  const c = cardData(data, id);
  if (!c.pattern) return null;
  return h("figure", { class: "rules-figure", "data-card": id }, patternDiagram(c, 0),
    h("figcaption", {}, h("strong", {}, c.name), ` (${c.rank || "legend"}): `, c.summary || ""));
}

export function showRules(root, data) {
  const figures = EXAMPLES.map((id) => example(data, id)).filter(Boolean);
  document.title = "How to play · Tash-Kalar Arena";
  clear(root, h("article", { class: "rules" },
    h("h1", {}, "How to play Tash-Kalar"),
    h("p", { class: "lead" }, "Two to four mages fight in an arena of 69 squares. You put pieces down, and when your "
      + "pieces form the shape drawn on one of your cards you can call up that creature: it lands on the board and "
      + "does what its card says. The forms of play decide what earns points."),
    h("p", {}, h("a", { href: "/learn", class: "button primary", id: "start-tutorial" }, "Try the tutorial: a short guided game"),
      " ", h("a", { href: "/" }, "Back to the games")),
    h("nav", { class: "panel rules-toc", "aria-label": "On this page" }, points(
      h("a", { href: "#turn" }, "Your turn"), h("a", { href: "#summon" }, "Summoning and patterns"),
      h("a", { href: "#flares" }, "Flares"), h("a", { href: "#scoring" }, "Points and the end"),
      h("a", { href: "#teams" }, "Team games"), h("a", { href: "#table" }, "At the table here"))),
    section("turn", "Your turn",
      h("p", {}, "A turn gives you two actions (the very first turn of the game only one). You must use them all. Each action is one of:"),
      points(h("span", {}, h("strong", {}, "Place"), ": put a common piece of your colour on any empty square."),
        h("span", {}, h("strong", {}, "Summon"), ": call up a creature from your hand whose pattern your pieces form (below)."),
        h("span", {}, h("strong", {}, "Discard"), ": once a turn, throw away one creature of your school, and if you like send other cards from your hand under their decks.")),
      h("p", {}, "Flares cost no action. When the turn is over you draw back up to three creatures of your school, "
        + "two legends and one flare. Your school deck is never shuffled again, so when it runs dry the end is near.")),
    section("summon", "Summoning and patterns",
      h("p", {}, "Every creature card shows a small map. The framed square is where the creature will stand; the discs "
        + "are pieces of yours that must already be on the board in exactly that arrangement. Turning the map a quarter, "
        + "half or three quarters, or flipping it over, is allowed: the game finds each way it fits and, when the effect "
        + "depends on which one you used, asks you to choose its orientation."),
      h("p", {}, "A stronger piece may stand in for a weaker one (a heroic disc counts as a common, a legendary as either). "
        + "Enemy pieces never help you. The creature's piece lands on the framed square, wiping out whatever stood there, "
        + "then its effect happens, then the card goes to your discard pile."),
      h("div", { class: "rules-figures" }, figures),
      h("p", { class: "muted" }, "In the pictures: the dashed frame is the creature's square; coloured squares are what the effect "
        + "points at, turned along with the pattern.")),
    section("flares", "Flares",
      h("p", {}, "A flare is your comeback card. It has two halves, each with a number: the top half works when your "
        + "opponent has at least that many more upgraded (heroic or legendary) pieces on the board than you; the bottom "
        + "half when they have at least that many more pieces in all. If both hold, both happen, top first. Playing a "
        + "flare costs no action, but in a Deathmatch it hands your opponent a point.")),
    section("scoring", "Points and the end",
      points(
        h("span", {}, h("strong", {}, "High Form"), ": claim tasks (each shows what board situation it wants) at the end of "
          + "your turn, and score one point for each of your legendary pieces standing on the board. 9 points ends it."),
        h("span", {}, h("strong", {}, "Deathmatch"), ": at the end of your turn, each enemy piece you destroyed that turn pays: "
          + "a legendary 2, a heroic 1, two commons 1 (a common left over is lost). Calling up a legend gives 1 at once; each "
          + "flare your opponent plays gives you 1. 18 points ends a duel."),
        h("span", {}, h("strong", {}, "Melee"), " (3 or 4 players): you keep a score in each rival's colour and only your worst one "
          + "counts, so you must hurt everybody.")),
      h("p", {}, "When the target is reached (or a school deck is used up), the turn finishes and everyone plays exactly one "
        + "more turn, the one who set it off last. The most points wins; on a tie, more upgraded pieces on the board wins, "
        + "then more pieces in all. The result table shows those counts.")),
    section("teams", "Team games (2 v 2)",
      h("p", {}, "Partners sit opposite each other and share one colour, one supply and one score, but each keeps their own "
        + "school deck and hand. Legends travel: at the end of your turn you hand your legends to your partner, who draws the legends for the team."),
      h("p", {}, "While it is your turn you may hand the turn to your partner: they finish any effect in progress and may spend "
        + "your remaining actions only on placing pieces; then you end the turn. No flare can be played after that."),
      h("p", {}, "The lowest six cards of every deck lie sideways. Drawing your last upright card starts the final round; "
        + "the sideways cards can still be drawn afterwards.")),
    section("table", "At the table here",
      points("The bar at the top always says what the game is waiting for and holds every button you need: choices, Undo, Redo and the end of your turn.",
        "Click a card to pick it; its squares light up on the board. A click that cannot be used says why.",
        "Your turn ends when you confirm it (you can switch this off at the table). Until then Undo takes back any step that revealed nothing new.",
        "The log tells the game in words; click any line to see the board at that moment, and use the arrow keys to step through the moves.")),
  ));
}
