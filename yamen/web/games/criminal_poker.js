// Criminal Poker's table: each seat's public evidence, your hidden evidence and identity, the
// investigator's controls (legal actions named by their cards), votes, and the final reveal.

import { actions, facts, result } from "./generic.js";

function cardName(ctx, view, id) {
  const card = view.cards && view.cards[id];
  if (!card) return id;
  return card.innocence === null ? ctx.pick(card.name) : `${ctx.pick(card.name)} (${card.innocence})`;
}

// "reveal S4" -> "reveal: Self-statement: ..." : the card ids in an action, named.
function label(ctx, view, text) {
  return text.replace(/\b([A-Z]\d+)\b/g, (id) => cardName(ctx, view, id));
}

export default {
  render(el, ctx) {
    const { h, t, tOr, table, names } = ctx;
    const view = table.view;
    const seats = h(
      "ol",
      { class: "cp-seats" },
      view.shown.map((shown, seat) =>
        h(
          "li",
          { class: `${table.pending.includes(seat) ? "pending" : ""} ${seat === view.seat ? "mine" : ""}` },
          h("b", {}, names[seat]),
          view.identities[String(seat)] ? ` · ${ctx.pick(view.role_names[view.identities[String(seat)]])}` : "",
          ` · ${tOr("criminal_poker.hidden_n", "hidden", { n: view.hidden_counts[seat] })} ${view.hidden_counts[seat]}`,
          h("div", {}, shown.map((id) => h("span", { class: "chip" }, cardName(ctx, view, id)))),
        ),
      ),
    );
    const mine = view.hidden
      ? h(
          "div",
          { class: "mine-box" },
          view.identity ? h("p", {}, h("b", {}, ctx.pick(view.role_names[view.identity]))) : null,
          h("div", {}, view.hidden.map((id) => h("span", { class: "chip hidden-card" }, cardName(ctx, view, id)))),
        )
      : null;
    el.replaceChildren(
      h(
        "div",
        { class: "criminal-poker" },
        h("p", { class: "phase" }, tOr(`criminal_poker.phase.${view.phase}`, view.phase), ` · ${t("criminal_poker.deck", { n: view.deck_count })}`),
        seats,
        mine,
        actions(ctx, (text) => label(ctx, view, text)),
        result(ctx),
        h("details", { class: "more" }, h("summary", {}, t("details")), facts(ctx, view, ["cards", "role_names", "shown", "hidden", "hidden_counts"])),
      ),
    );
  },
};
