// @ts-check
// What Baohuang's moves sound like at the table (the shell's sounds.js makes the sounds): a set
// laid down, a pass or a yield (讓牌), a bomb-sized set, and the set that empties a hand (the
// last card: its player is out). Baohuang has no bomb as such (seed 003: ボムのような特殊役も
// ない); what sounds like one is a set nobody can beat, one with a big joker (seed 002: 掛大花
// 的牌是最大的), or a set of five cards or more.

export const BOMB_CARDS = 5;

/** @param {string[]} cards */
export function bombSized(cards) {
  return cards.length >= BOMB_CARDS || cards.some((c) => c.startsWith("BJ"));
}

/**
 * @param {GameEvent} event
 * @returns {"play" | "pass" | "bomb" | "last" | null}
 */
export function sound(event) {
  if (event.kind === "pass" || event.kind === "yield") return "pass";
  if (event.kind !== "play") return null;
  if (event.data.out) return "last";
  return bombSized(event.data.cards) ? "bomb" : "play";
}
