// What the player can do now, worked out from the legal commands (GET /legal) and what is selected:
// which squares to highlight and what a click there sends, which cards can be summoned, flared or
// discarded, and which buttons to show. Pure: no DOM, no network.

import { cardName, colour, playerName, RANK_LABEL, schoolName } from "./data.js";

const DIRECTION_NAMES = { n: "↑ North", ne: "↗ North-east", e: "→ East", se: "↘ South-east", s: "↓ South",
  sw: "↙ South-west", w: "← West", nw: "↖ North-west" };
const BUTTON_FIELDS = ["option", "direction", "color", "rank", "orientation", "school", "card"];
const CARD_ACTIONS = ["summon", "flare", "discard", "warp"];          // commands made from a card in hand
const ON_BOARD = ["place", "move"];

function colourLabel(view, index) {
  const seats = (view.seats || []).filter((x) => x.color === index).map((x) => playerName(view, x.seat));
  return `${colour(index).name}${seats.length ? ` (${seats.join(", ")})` : ""}`;
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function label(cmd, view, data) {
  switch (cmd.type) {
    case "place": return `Place a common piece on ${cmd.square}`;
    case "summon": {
      let text = `Summon ${cardName(data, cmd.card)} on ${cmd.square}`;
      if (cmd.improvise !== undefined) text += `, improvising with a ${colour(cmd.improvise).name.toLowerCase()} piece`;
      return text;
    }
    case "move": return `Move ${cmd.from} → ${cmd.to}`;
    case "skip": return "Skip";
    case "end_turn": return "End turn";
    case "resign": return "Resign";
    case "claim_win": return "Claim the win";
    case "pass_control": return "Pass control to your teammate";
    case "thaw": return "Thaw your frozen card";
    case "warp": return `Warp ${cardName(data, cmd.card)}`;
    case "claim_task": return `Claim ${cardName(data, cmd.task)}`;
    case "flare": return `Invoke ${cardName(data, cmd.card)}${cmd.against !== undefined ? ` against ${colourLabel(view, cmd.against)}` : ""}`;
    case "discard": {
      const back = (cmd.returns || []).map((c) => cardName(data, c));
      return `Discard ${cardName(data, cmd.card)}${back.length ? `, returning ${back.join(", ")}` : ""}`;
    }
    case "choose": {
      const parts = [];
      if (cmd.square !== undefined) parts.push(cmd.square);
      if (cmd.rank !== undefined) parts.push(RANK_LABEL[cmd.rank] || cmd.rank);
      if (cmd.color !== undefined) parts.push(colourLabel(view, cmd.color));
      if (cmd.option !== undefined) parts.push(capital(String(cmd.option)));
      if (cmd.direction !== undefined) parts.push(DIRECTION_NAMES[cmd.direction] || cmd.direction);
      if (cmd.orientation !== undefined) parts.push(`Orientation ${cmd.orientation + 1}`);
      if (cmd.school !== undefined) parts.push(schoolName(data, cmd.school));
      if (cmd.card !== undefined) parts.push(cardName(data, cmd.card));
      return parts.join(", ") || "Choose";
    }
    default: return capital(String(cmd.type).replace(/_/g, " "));
  }
}

function add(map, key, entry, cmd) {
  if (!map.has(key)) map.set(key, { ...entry, commands: [] });
  if (cmd) map.get(key).commands.push(cmd);
}

// sel: {card, from}. Returns {squares, cards, buttons, tasks, resign}.
export function plan(commands, sel, view, data) {
  const squares = new Map();
  const cards = new Map();
  const tasks = new Map();
  const buttons = [];
  let resign = null;
  const moveFroms = new Set(commands.filter((c) => c.type === "move").map((c) => c.from));
  const from = sel.from || (moveFroms.size === 1 ? [...moveFroms][0] : null);
  for (const cmd of commands) {
    if (CARD_ACTIONS.includes(cmd.type) && cmd.card) {
      if (!cards.has(cmd.card)) cards.set(cmd.card, Object.fromEntries(CARD_ACTIONS.map((t) => [t, []])));
      cards.get(cmd.card)[cmd.type].push(cmd);
    } else if (cmd.type === "claim_task") {
      tasks.set(cmd.task, cmd);
    } else if (cmd.type === "resign") {
      resign = cmd;
    } else if (ON_BOARD.includes(cmd.type) || (cmd.type === "choose" && cmd.square !== undefined)) {
      // drawn on the board below
    } else if (cmd.type !== "choose" || BUTTON_FIELDS.some((f) => cmd[f] !== undefined)) {
      buttons.push({ cmd, label: label(cmd, view, data) });          // skip, end turn, choices by name, others
    }
  }
  if (sel.card) {
    for (const cmd of commands) {
      if (cmd.type === "summon" && cmd.card === sel.card) {
        add(squares, cmd.square, { kind: "summon", label: `Summon ${cardName(data, cmd.card)} here` }, cmd);
      }
    }
  } else if (from && commands.some((c) => c.type === "move" && c.from === from)) {
    for (const cmd of commands) {
      if (cmd.type === "move" && cmd.from === from) add(squares, cmd.to, { kind: "move-to", label: `Move the piece from ${from} here` }, cmd);
    }
    if (moveFroms.size > 1) add(squares, from, { kind: "selected", label: "Selected piece: choose it again to cancel", unselect: true });
  } else {
    for (const cmd of commands) {
      if (cmd.type === "place") add(squares, cmd.square, { kind: "place", label: "Place a common piece here" }, cmd);
      if (cmd.type === "choose" && cmd.square !== undefined) add(squares, cmd.square, { kind: "choose", label: "Choose this square" }, cmd);
      if (cmd.type === "move") add(squares, cmd.from, { kind: "move-from", label: "Move this piece", selectFrom: cmd.from });
    }
  }
  return { squares, cards, buttons, tasks, resign, from };
}

// The discard command whose returned cards are exactly `returns` (in any order), if it is legal.
export function findDiscard(options, returns) {
  const want = [...returns].sort().join("\n");
  return options.find((c) => [...(c.returns || [])].sort().join("\n") === want) || null;
}
