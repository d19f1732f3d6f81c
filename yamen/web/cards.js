// @ts-check
// Playing cards drawn as SVG, made here (no downloaded assets). Codes as in Yamen's notation:
// "9H", "TS", "SJ", "BJ", "BJ*" (a marked joker). A card's accessible name is words in the
// page's language: the caller passes a labeller (code -> words); without one, the rank and
// suit sign stand in (never the raw code: "TS" reads "10♠").

/** @type {{ [suit: string]: string }} */
const SUITS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const NS = "http://www.w3.org/2000/svg";

/** @param {string} code */
export function parts(code) {
  const marked = code.endsWith("*");
  const bare = marked ? code.slice(0, -1) : code;
  if (bare === "SJ" || bare === "BJ") return { joker: bare, marked, rank: bare, suit: null };
  return { joker: null, marked, rank: bare.slice(0, -1), suit: bare.slice(-1) };
}

/** @param {string} rank */
export function rankLabel(rank) {
  return rank === "T" ? "10" : rank;
}

/** @param {string | null} suit */
export function suitSign(suit) {
  return (suit && SUITS[suit]) || "";
}

// A card as signs alone, for a caller with no words: "10♠", a joker as ★ (big) or ☆ (small).
/** @type {CardLabel} */
export function plainLabel(code) {
  const { joker, marked, rank, suit } = parts(code);
  const base = joker ? (joker === "BJ" ? "★" : "☆") : rankLabel(rank) + suitSign(suit);
  return base + (marked && !joker ? "★" : marked ? "*" : "");
}

/**
 * @param {string} tag
 * @param {{ [attribute: string]: string | number }} attrs
 * @param {string} [text]
 */
function svg(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

// A jester's crown drawn as a path: an icon, not an emoji (no emoji font is needed).
const CROWN = "M12 58 L18 34 L26 48 L30 28 L34 48 L42 34 L48 58 Z";

// The face of a card: an <svg> 60x84 (scaled by CSS), named by ``label``.
/**
 * @param {string} code
 * @param {CardLabel} [label]
 */
export function face(code, label = plainLabel) {
  const { joker, marked, rank, suit } = parts(code);
  const red = joker ? joker === "BJ" : RED.has(String(suit));
  const root = svg("svg", { viewBox: "0 0 60 84", class: `face ${red ? "red" : "black"}`, role: "img", "aria-label": label(code) });
  root.dataset.card = code;
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "paper" }));
  if (joker) {
    root.append(svg("text", { x: 6, y: 20, class: "corner" }, joker === "BJ" ? "★" : "☆"));
    root.append(svg("path", { d: CROWN, class: `crown ${joker === "BJ" ? "big" : "small"}` }));
    root.append(svg("text", { x: 30, y: 76, class: "small", "text-anchor": "middle" }, "JOKER"));
  } else {
    root.append(svg("text", { x: 6, y: 20, class: "corner" }, rankLabel(rank)));
    root.append(svg("text", { x: 6, y: 36, class: "corner-suit" }, suitSign(suit)));
    root.append(svg("text", { x: 34, y: 62, class: "pip", "text-anchor": "middle" }, suitSign(suit)));
  }
  if (marked) root.append(svg("text", { x: 52, y: 16, class: "mark", "text-anchor": "middle" }, "★"));
  return root;
}

// A card the player can pick: a real button, so it is reachable and togglable by keyboard.
/**
 * @param {string} code
 * @param {boolean} selected
 * @param {(event: MouseEvent) => void} onToggle
 * @param {CardLabel} [label]
 */
export function cardButton(code, selected, onToggle, label = plainLabel) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = `card-button${selected ? " selected" : ""}`;
  button.setAttribute("aria-pressed", selected ? "true" : "false");
  button.dataset.card = code;
  button.append(face(code, label));
  button.addEventListener("click", onToggle);
  return button;
}

/**
 * @param {string[]} codes
 * @param {CardLabel} [label]
 */
export function cardRow(codes, label = plainLabel) {
  const row = document.createElement("span");
  row.className = "card-row";
  for (const code of codes) row.append(face(code, label));
  return row;
}
