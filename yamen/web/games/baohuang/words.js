// @ts-check
// Baohuang's notation in the player's words: "T" as 10, jokers by the language's names
// (大王 / 大画 …), a suit as its sign, and the words of the legal texts by phase.

import { parts, rankLabel, suitSign } from "../../cards.js";

// A card or a token of the legal texts: "9H", "TS", "BJ*", "9" all read.
/**
 * @param {Translate} t
 * @param {string} code
 */
export function cardWords(t, code) {
  const { joker, marked, rank, suit } = parts(code);
  if (joker) return t(`baohuang.card.${joker}`) + (marked ? "★" : "");
  if (code.length === 1 || !suitSign(suit)) return rankLabel(code.toUpperCase()); // a bare rank
  return rankLabel(rank.toUpperCase()) + suitSign(String(suit).toUpperCase()) + (marked ? "★" : "");
}

// The labeller cards.js asks for: a card's accessible name in the page's language.
/** @type {(t: Translate) => CardLabel} */
export const labeller = (t) => (code) => cardWords(t, code);

/** @type {(t: Translate, text: string) => string} */
export const inWords = (t, text) => text.split(" ").map((c) => cardWords(t, c)).join(" ");

// A non-play answer in words: the same notation means different things by phase (yield in the
// calling phase is 讓莊, in play 讓牌; declare by the emperor is a solo declaration, 明獨).
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 * @param {string} text
 */
export function actionWords(ctx, view, text) {
  const word = text.split(" ")[0];
  const mine = view.role || "";
  if (word === "yield" && view.phase !== "play") return ctx.t("baohuang.action.yield_emperor");
  if (word === "declare" && mine.includes("emperor")) return ctx.t("baohuang.action.declare_solo");
  if (word === "pass" && view.phase !== "play") return ctx.t("baohuang.action.pass_other");
  if (word === "hand") return ctx.t("baohuang.action.hand");
  return ctx.tOr(`baohuang.action.${word}`, text);
}

/** @param {string} text */
export function isPlay(text) {
  return !/^(pass|grab|yield|claim|keep|hand on|declare|rebel|call\b)/.test(text);
}

/** @type {(ctx: Ctx, role: string) => string} */
export const roleWords = (ctx, role) => ctx.tOr(`baohuang.role.${role}`, role);

// Whether the marked small joker makes the guard: the japanese rules, unless the room's
// guard_by_fourth house rule has the emperor call a card instead (then as in Shandong).
/** @type {(view: BhView) => boolean} */
export const markedGuard = (view) => view.variant === "japanese" && !(view.options || {}).guard_by_fourth;

// The house rule on the deck's lowest rank (6 in the 168-card game, 3 in the 216-card one):
// "held" (lowest_held, 憋六/憋三: it leaves only with the set that empties the hand), "sink"
// (lowest_last, the first reading, kept for old games: going out on it ranks last), or null.
/** @param {BhView} view */
export function lowestRule(view) {
  const options = view.options || {};
  return options.lowest_held ? "held" : options.lowest_last ? "sink" : null;
}

/** @type {(view: BhView) => string} */
export const lowestRank = (view) => (view.variant === "japanese" ? "6" : "3");

// The seat the marked joker goes to from ``seat``: yielding the call (讓莊) gives it to the
// seed's "clockwise" neighbour, the seat before in playing order (i-1); the japanese emperor
// card is handed on to the next seat (i+1), as yamen/games/baohuang/opening.py moves them.
/**
 * @param {BhView} view
 * @param {number} seat
 */
export function passedTo(view, seat) {
  const n = view.hand_sizes.length;
  return view.variant === "japanese" ? (seat + 1) % n : (seat + n - 1) % n;
}
