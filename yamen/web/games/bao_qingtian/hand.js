// @ts-check
// The seat's own hand: its cards by name (the discard buttons on its turn) and its last turns.

import { P, CODES, cardName } from "./common.js";

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {boolean} discarding
 */
export function hand(ctx, view, discarding) {
  const { h, t, table } = ctx;
  if (!view.hand) return null;
  /** @type {{ [code: string]: number }} */
  const counts = {};
  for (const code of view.hand) counts[code] = (counts[code] || 0) + 1;
  const order = Object.keys(counts).sort((a, b) => CODES.indexOf(a) - CODES.indexOf(b));
  /** @type {{ [code: string]: string }} */
  const legal = {};
  (view.legal || []).forEach((text, i) => {
    if (text.startsWith("discard ")) legal[text.slice(8)] = table.legal[i];
  });
  const cards = order.map((code) => {
    const name = cardName(ctx, code);
    const label = [h("span", { class: "bq-card-name" }, name), counts[code] > 1 ? h("span", { class: "bq-card-n" }, `×${counts[code]}`) : null];
    if (discarding && legal[code] !== undefined) {
      const says = t(`${P}.discard`, { card: name });
      return h("button", { class: `action bq-card bq-k-${code}`, "data-action": legal[code], "data-card": code, title: says, "aria-label": says, onclick: () => ctx.act(legal[code]) }, ...label);
    }
    return h("span", { class: `bq-card bq-k-${code}`, "data-card": code }, ...label);
  });
  const turns = view.my_turns || [];
  const last = turns.slice(-3).reverse();
  return h(
    "section",
    { class: "bq-hand-box", id: "bq-hand" },
    h("h3", {}, t(`${P}.your_hand`, { n: view.hand.length })),
    discarding
      ? h(
          "div",
          { class: "actions bq-hand", role: "group", "aria-label": t("your_move") },
          h("p", { class: "your-move" }, t("your_move"), " · ", t(`${P}.ask.discard`)),
          h("p", { class: "act-help" }, t(`${P}.help.discard`)),
          cards,
        )
      : h("div", { class: "bq-hand" }, cards),
    last.length
      ? h("p", { class: "hint bq-my-turns" }, t(`${P}.my_turns`, { n: turns.length }), " ", last.map((x) => t(`${P}.my_turn`, { out: cardName(ctx, x.discarded), in: cardName(ctx, x.drew) })).join(" · "))
      : null,
  );
}
