// @ts-check
// Criminal Poker's events as log lines, cards by name.

import { P, card, cardName, counted, evidence, roleName } from "./cards.js";
import { drawn } from "./drawn.js";

/**
 * @param {GameEvent} event
 * @param {Ctx} ctx
 */
export function describe(event, ctx) {
  const { t, names } = ctx;
  const d = event.data;
  const view = /** @type {CpView} */ (ctx.table ? ctx.table.view : { cards: {} });
  const name = (/** @type {string} */ id) => cardName(ctx, view, id);
  switch (event.kind) {
    case "setup":
      return t(`${P}.log.setup`, { n: d.players, mode: t(`${P}.mode.${d.mode}`), name: names[d.investigator] });
    case "identity":
      return t(`${P}.log.identity`, { role: roleName(ctx, view, d.role) });
    case "dealt": // (every suspect holds as many: the seed's two)
      return counted(t, `${P}.log.dealt`, { k: Math.max(0, ...Object.values(d.hands).map(Number)), n: d.deck });
    case "evidence":
      return t(`${P}.log.evidence`, { cards: d.cards.map(name).join(", ") });
    case "answered":
      return t(`${P}.log.answered`, { name: names[d.seat] });
    case "opening revealed":
      return t(`${P}.log.opening`, { cards: d.cards.map((/** @type {string | null} */ id, /** @type {number} */ seat) => (id ? `${names[seat]}: ${name(id)}` : null)).filter(Boolean).join("; ") });
    case "next":
      return t(`${P}.log.next`, { name: names[d.seat] });
    case "skip":
      return t(`${P}.turn_skip`, { name: names[d.seat] });
    case "draw":
      return t(`${P}.log.draw`, { name: names[d.seat], n: d.deck });
    case "drew":
      drawn.card = d.card;
      return t(`${P}.log.drew`, { card: name(d.card) });
    case "reveal":
      return t(`${P}.log.reveal`, { name: names[d.seat], card: name(d.card) });
    case "keep hidden":
      return t(`${P}.turn_keep`, { name: names[d.seat] });
    case "deck look":
      return t(`${P}.log.deck_look`, { name: names[d.seat], n: d.count });
    case "deck":
      return t(`${P}.log.deck`, { cards: d.cards.map(name).join(", ") || "–" });
    case "questioning":
      return t(`${P}.log.questioning`, { n: d.round });
    case "questioning over":
      return t(`${P}.log.questioning_over`);
    case "votes":
      return t(`${P}.log.votes`, { n: d.round, votes: d.votes.map((/** @type {number} */ target, /** @type {number} */ voter) => `${names[voter]}→${names[target]}`).join(", ") });
    case "revote":
      return t(`${P}.log.revote`, { names: d.tied.map((/** @type {number} */ s) => names[s]).join(", ") });
    case "arrest":
      return d.seats.length ? t(`${P}.log.arrest`, { names: d.seats.map((/** @type {number} */ s) => names[s]).join(", ") }) : t(`${P}.nobody_arrested`);
    case "game over":
      return t(`${P}.log.over`, { names: d.culprits.map((/** @type {number} */ s) => names[s]).join(", ") });
    default:
      return null;
  }
}
