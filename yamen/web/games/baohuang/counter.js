// @ts-check
// The card counter (記牌器): the cards I have not seen, by rank, strongest first: the deck less
// my hand and every card played this deal. All public to my seat (what was played is face up,
// my hand is mine), so the page works it out as the apps do. Four decks: 16 of each natural
// rank (from 3 in the 216-card game, from 6 in the 168-card one), 4 small and 4 big jokers,
// marked ones counted with their colour. A room setting (table_aids) may turn it off.

import { parts } from "../../cards.js";
import { STRENGTH } from "./hint.js";
import { cardWords } from "./words.js";

const NATURALS = 16;
const JOKERS = 4;

// Rank -> how many of it I have not seen, strongest first ("BJ", "SJ", "2", "A" … "3").
/** @param {BhView} view */
export function unseen(view) {
  const lowest = view.variant === "japanese" ? "6" : "3";
  /** @type {Map<string, number>} */
  const left = new Map([["BJ", JOKERS], ["SJ", JOKERS]]);
  for (const rank of [...STRENGTH.slice(STRENGTH.indexOf(lowest))].reverse()) left.set(rank, NATURALS);
  const seen = [...(view.hand || []), ...((view.played || []).flatMap((p) => /** @type {{ cards: string[] }} */ (p).cards))];
  for (const code of seen) {
    const { joker, rank } = parts(code);
    const key = joker || rank.toUpperCase();
    left.set(key, (left.get(key) || 0) - 1);
  }
  return left;
}

// Shown unless the room turned the table aids off (a replay's room has no settings: shown).
/** @param {Ctx} ctx */
function wanted(ctx) {
  const settings = "settings" in ctx.room ? ctx.room.settings : undefined;
  return !settings || settings.table_aids !== false;
}

/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function counter(ctx, view) {
  const { h, t } = ctx;
  if (!view.hand || view.seat === null || !wanted(ctx)) return null;
  const left = unseen(view);
  return h(
    "p",
    { class: "bh-counter", id: "bh-counter", "aria-label": t("baohuang.counter_note") },
    h("span", { class: "bh-counter-name", title: t("baohuang.counter_note") }, t("baohuang.counter")),
    [...left].map(([rank, n]) =>
      h("span", { class: `bh-count${n ? "" : " none"}`, "data-rank": rank, "data-n": n }, h("b", {}, cardWords(t, rank)), ` ×${n}`),
    ),
  );
}
