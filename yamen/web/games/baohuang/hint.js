// @ts-check
// The apps' chores on the seat's own legal list (no bot's advice): the hint (提示), which
// cycles through the sets I may play, smallest first, and the last cards, the one legal set
// that is my whole hand. Smallest: fewest jokers (they beat anything, so they are spent
// last), then not the telling card (it shows my side), then the weakest rank, then fewest
// big jokers (a set of jokers alone), then fewest cards.

import { isPlay } from "./words.js";

export const STRENGTH = "3456789TJQKA2"; // weakest to strongest (kinds.py's STRENGTH_RANKS)

// What a legal set costs to play, compared item by item.
/** @param {string} text */
function cost(text) {
  const tokens = text.split(" ").map((x) => x.toUpperCase());
  const jokers = tokens.filter((x) => ["SJ", "SJ*", "BJ"].includes(x));
  const naturals = tokens.filter((x) => !jokers.includes(x));
  const tells = naturals.filter((x) => x.length === 2).length + tokens.filter((x) => x === "SJ*").length; // "9H": the called card
  const rank = naturals.length ? STRENGTH.indexOf(naturals[0][0]) : STRENGTH.length;
  return [jokers.length, tells, rank, jokers.filter((x) => x === "BJ").length, tokens.length];
}

// The sets among the legal answers, smallest first (ties keep the legal list's order).
/** @param {string[]} legal */
export function hintOrder(legal) {
  const plays = legal.filter(isPlay).map((text) => ({ text, cost: cost(text) }));
  plays.sort((a, b) => {
    for (let i = 0; i < a.cost.length; i++) if (a.cost[i] !== b.cost[i]) return a.cost[i] - b.cost[i];
    return 0;
  });
  return plays.map((p) => p.text);
}

// The legal set that plays my whole hand at once, or null.
/** @param {BhView} view */
export function wholeHand(view) {
  const size = (view.hand || []).length;
  return (view.legal || []).find((text) => isPlay(text) && text.split(" ").length === size) || null;
}

/** @type {{ key: string, at: number }} */
const cycle = { key: "", at: -1 }; // the hint shown last, for which point of the deal

// The next hint for this point of the deal (the first after the last), or null: none.
/** @param {BhView} view */
export function nextHint(view) {
  const order = hintOrder(view.legal || []);
  if (!order.length) return null;
  const key = `${view.deal}|${(view.hand || []).join(" ")}|${(view.trick || []).length}|${(view.legal || []).join(",")}`;
  cycle.at = cycle.key === key ? (cycle.at + 1) % order.length : 0;
  cycle.key = key;
  return order[cycle.at];
}
