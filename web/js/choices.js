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
    case "undo": return "Undo";
    case "redo": return "Redo";
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
      if (cmd.orientation !== undefined) parts.push(orientationLabel(cmd));
      if (cmd.school !== undefined) parts.push(schoolName(data, cmd.school));
      if (cmd.card !== undefined) parts.push(cardName(data, cmd.card));
      return parts.join(", ") || "Choose";
    }
    default: return capital(String(cmd.type).replace(/_/g, " "));
  }
}

// An orientation named by what it does: the squares it marks (from the command's squares).
function orientationLabel(cmd) {
  const hit = cmd.squares && cmd.squares.affects && cmd.squares.affects.length ? cmd.squares.affects : null;
  return hit ? `Orientation ${cmd.orientation + 1}: marks ${hit.join(", ")}` : `Orientation ${cmd.orientation + 1}`;
}

function add(map, key, entry, cmd) {
  if (!map.has(key)) map.set(key, { ...entry, commands: [] });
  if (cmd) map.get(key).commands.push(cmd);
}

// sel: {card, from}. Returns {squares, cards, buttons, tasks, resign, from, steps}; steps holds the
// undo and redo commands, nearest first.
export function plan(commands, sel, view, data) {
  const squares = new Map();
  const cards = new Map();
  const tasks = new Map();
  const buttons = [];
  const steps = { undo: [], redo: [] };
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
    } else if (cmd.type === "undo" || cmd.type === "redo") {
      steps[cmd.type].push(cmd);
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
    chooseByArea(commands, squares, view, data);
  }
  return { squares, cards, buttons, tasks, resign, from, steps };
}

// Choices named by orientation, direction or branch can be made by clicking a square that only
// one of them affects (or, failing that, uses): the squares come with the command from /legal.
function chooseByArea(commands, squares, view, data) {
  const options = commands.filter((c) => c.type === "choose" && c.square === undefined && c.squares);
  if (options.length < 2) return;
  for (const key of ["affects", "path", "pattern"]) {
    const owners = new Map();
    for (const cmd of options) {
      for (const sq of cmd.squares[key] || []) owners.set(sq, [...(owners.get(sq) || []), cmd]);
    }
    for (const [sq, cmds] of owners) {
      if (cmds.length === 1 && !squares.has(sq)) {
        add(squares, sq, { kind: "choose-area", label: `Choose ${label(cmds[0], view, data)}` }, cmds[0]);
      }
    }
  }
}

// The squares a command would use and affect, for the board to preview (null when none).
export function previewOf(cmd) {
  return cmd && cmd.squares ? cmd.squares : null;
}

// The discard command whose returned cards are exactly `returns` (in any order), if it is legal.
export function findDiscard(options, returns) {
  const want = [...returns].sort().join("\n");
  return options.find((c) => [...(c.returns || [])].sort().join("\n") === want) || null;
}
