// @ts-check
// Small icons drawn as inline SVG: emoji render as empty boxes where no emoji font is installed.
// Each icon is hidden from screen readers and carries its words in a visually hidden span.

const NS = "http://www.w3.org/2000/svg";

// name -> the shapes of a 16x16 icon (stroked with the text colour unless filled)
/** @type {{ [name: string]: [string, { [attribute: string]: string | number }][] }} */
const SHAPES = {
  // a robot's head: the stand-in or a bot seat
  bot: [
    ["rect", { x: 3, y: 5, width: 10, height: 8, rx: 2 }],
    ["line", { x1: 8, y1: 2, x2: 8, y2: 5 }],
    ["circle", { cx: 6, cy: 9, r: 1, fill: "currentColor" }],
    ["circle", { cx: 10, cy: 9, r: 1, fill: "currentColor" }],
  ],
  // a stopwatch: a turn timer
  timer: [
    ["circle", { cx: 8, cy: 9, r: 5.5 }],
    ["line", { x1: 8, y1: 9, x2: 8, y2: 6 }],
    ["line", { x1: 6.5, y1: 1.5, x2: 9.5, y2: 1.5 }],
    ["line", { x1: 8, y1: 1.5, x2: 8, y2: 3.5 }],
  ],
  // the back of a card: cards in a hand
  cards: [
    ["rect", { x: 3.5, y: 1.5, width: 9, height: 13, rx: 1.5 }],
    ["path", { d: "M6 5l4 6M10 5l-4 6" }],
  ],
  // a speaker, with waves (sound on) or a cross (sound off)
  sound: [
    ["path", { d: "M2 6h3l4-3v10l-4-3H2z", fill: "currentColor" }],
    ["path", { d: "M11 5.5a3.5 3.5 0 0 1 0 5M12.5 3.5a6 6 0 0 1 0 9" }],
  ],
  mute: [
    ["path", { d: "M2 6h3l4-3v10l-4-3H2z", fill: "currentColor" }],
    ["path", { d: "M11 6l4 4M15 6l-4 4" }],
  ],
  // an open book: the rules
  rules: [
    ["path", { d: "M8 4c-2-1.5-4-1.5-6-1v10c2-.5 4-.5 6 1 2-1.5 4-1.5 6-1V3c-2-.5-4-.5-6 1z" }],
    ["line", { x1: 8, y1: 4, x2: 8, y2: 14 }],
  ],
  // a speech bubble: the chat
  chat: [["path", { d: "M2.5 3h11a1 1 0 0 1 1 1v6a1 1 0 0 1-1 1H8l-3.5 3v-3h-2a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1z" }]],
  // a triangle: whose turn it is
  turn: [["path", { d: "M4 3l9 5-9 5z", fill: "currentColor" }]],
};

export const ICONS = Object.keys(SHAPES);

// The bare SVG element of an icon, hidden from assistive technology.
/** @param {string} name */
export function svg(name) {
  const root = document.createElementNS(NS, "svg");
  for (const [key, value] of Object.entries({ viewBox: "0 0 16 16", width: 16, height: 16, fill: "none", stroke: "currentColor", "stroke-width": 1.5, "stroke-linecap": "round", "stroke-linejoin": "round", "aria-hidden": "true", focusable: "false" })) {
    root.setAttribute(key, String(value));
  }
  root.classList.add("icon-svg");
  for (const [tag, attrs] of SHAPES[name] || []) {
    const shape = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, String(value));
    root.append(shape);
  }
  return root;
}

// An icon with its words for screen readers (and a tooltip): <span class="icon icon-bot">.
/**
 * @param {string} name
 * @param {string} [words]
 */
export function icon(name, words = "") {
  const span = document.createElement("span");
  span.className = `icon icon-${name}`;
  span.append(svg(name));
  if (words) {
    span.title = words;
    const alt = document.createElement("span");
    alt.className = "sr-only";
    alt.textContent = words;
    span.append(alt);
  }
  return span;
}
