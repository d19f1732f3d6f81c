// Playing cards drawn as SVG, made here (no downloaded assets). Codes as in Yamen's notation:
// "9H", "TS", "SJ", "BJ", "BJ*" (a marked joker).

const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const NS = "http://www.w3.org/2000/svg";

export function parts(code) {
  const marked = code.endsWith("*");
  const bare = marked ? code.slice(0, -1) : code;
  if (bare === "SJ" || bare === "BJ") return { joker: bare, marked, rank: bare, suit: null };
  return { joker: null, marked, rank: bare.slice(0, -1), suit: bare.slice(-1) };
}

export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

function svg(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  if (text !== undefined) el.textContent = text;
  return el;
}

// The face of a card: an <svg> 60x84 (scaled by CSS).
export function face(code) {
  const { joker, marked, rank, suit } = parts(code);
  const red = joker ? joker === "BJ" : RED.has(suit);
  const root = svg("svg", { viewBox: "0 0 60 84", class: `face ${red ? "red" : "black"}`, role: "img", "aria-label": code });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "paper" }));
  if (joker) {
    root.append(svg("text", { x: 8, y: 20, class: "corner" }, joker === "BJ" ? "大" : "小"));
    root.append(svg("text", { x: 30, y: 52, class: "pip joker", "text-anchor": "middle" }, "🃏"));
    root.append(svg("text", { x: 30, y: 76, class: "small", "text-anchor": "middle" }, "JOKER"));
  } else {
    root.append(svg("text", { x: 6, y: 20, class: "corner" }, rankLabel(rank)));
    root.append(svg("text", { x: 6, y: 36, class: "corner-suit" }, SUITS[suit]));
    root.append(svg("text", { x: 34, y: 62, class: "pip", "text-anchor": "middle" }, SUITS[suit]));
  }
  if (marked) root.append(svg("text", { x: 52, y: 16, class: "mark", "text-anchor": "middle" }, "★"));
  return root;
}

// A card the player can pick: a real button, so it is reachable and togglable by keyboard.
export function cardButton(code, selected, onToggle) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `card-button${selected ? " selected" : ""}`;
  button.setAttribute("aria-pressed", selected ? "true" : "false");
  button.dataset.card = code;
  button.append(face(code));
  button.addEventListener("click", onToggle);
  return button;
}

export function cardRow(codes) {
  const row = document.createElement("span");
  row.className = "card-row";
  for (const code of codes) row.append(face(code));
  return row;
}
