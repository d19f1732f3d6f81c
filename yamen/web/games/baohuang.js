// @ts-check
// Baohuang's table: the role panel (your role, the called card, who is known, what each
// decision means), the other seats around the table with the trick in the middle, the hand
// picked by rank and count (baohuang/pick.js), the card counter (記牌器), the action bar with
// its hint, the last deal's summary between deals, and the end-of-game headline. The pieces
// live in games/baohuang/. The shell passes for me when pass and yield are all I may answer in
// play (can't beat, 要不起), and drops its stand-in notice at a new deal.

import { cardRow } from "../cards.js";
import { controls } from "./baohuang/controls.js";
import { counter } from "./baohuang/counter.js";
import { handView, restoreFocus } from "./baohuang/pick.js";
import { ring } from "./baohuang/ring.js";
import { rolePanel } from "./baohuang/role.js";
import { headline, lastDeal, scoring } from "./baohuang/summary.js";
import { sound } from "./baohuang/sounds.js";
import { actionWords, cardWords, inWords, isPlay, labeller } from "./baohuang/words.js";

export { cardWords };

// Japanese rules: what this seat gave and received in tribute before the deal.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
function tribute(ctx, view) {
  const { h, t } = ctx;
  const paid = view.tribute;
  if (!paid || (!paid.gave.length && !paid.received.length)) return null;
  const label = labeller(t);
  return h(
    "p",
    { class: "tribute", id: "tribute" },
    paid.gave.length ? [t("baohuang.tribute_gave"), " ", cardRow(paid.gave, label), " "] : null,
    paid.received.length ? [t("baohuang.tribute_received"), " ", cardRow(paid.received, label)] : null,
  );
}

/** @type {TableModule} */
export default {
  // can't beat (要不起): all I may answer in play is pass, or yield (讓牌, no use then: the
  // second circle asks me to beat the same set with the same hand); pass is the one given
  passing: { words: ["pass", "yield"], phase: "play" },

  round: (view) => /** @type {BhView} */ (view).deal,

  sound, // a play, a pass, a bomb-sized set, the last set of a hand (baohuang/sounds.js)

  render(el, ctx) {
    const { h, t, table } = ctx;
    const view = /** @type {BhView} */ (table.view);
    ctx.redraw = () => this.render(el, ctx);
    el.replaceChildren(
      h(
        "div",
        { class: `baohuang bh-${view.variant}` },
        headline(ctx, view),
        rolePanel(ctx, view, h("span", { class: "phase" }, t("baohuang.phase_line", { phase: ctx.tOr(`baohuang.phase.${view.phase}`, view.phase), deal: view.deal, deals: view.deals }))),
        lastDeal(ctx, view),
        ring(ctx, view),
        counter(ctx, view),
        view.hand ? handView(ctx, view) : null,
        tribute(ctx, view),
        controls(ctx, view),
        scoring(ctx, view),
      ),
    );
    restoreFocus(el);
  },

  // An action's text in words (the replay's analysis names the plays it compares).
  actionWords(ctx, text) {
    return isPlay(text) ? inWords(ctx.t, text) : actionWords(ctx, /** @type {BhView} */ (ctx.table.view), text);
  },

  // Every event of the game in words, for the log.
  describe(event, ctx) {
    const { t, names } = ctx;
    const d = event.data;
    const who = names[d.seat];
    const word = (/** @type {string} */ w) => ctx.tOr(`baohuang.action.${w.split(" ")[0]}`, w); // these come in play only
    const cards = (/** @type {string[]} */ codes) => codes.map((c) => cardWords(t, c)).join(" ");
    switch (event.kind) {
      case "play":
        return t(d.out ? "baohuang.log.play_out" : "baohuang.log.play", { who, cards: cards(d.cards) });
      case "pass":
      case "yield":
      case "claim":
        return `${who}: ${word(event.kind)}`;
      case "deal":
        return t(d.redeal ? "baohuang.log.redeal" : "baohuang.log.deal", { n: d.deal });
      case "hand":
        return t("baohuang.log.hand", { n: d.cards.length });
      case "tribute":
        return t("baohuang.log.tribute", { gave: cards(d.gave) || "–", got: cards(d.received) || "–" });
      case "tribute paid":
        return t("baohuang.log.tribute_paid");
      case "grab window closed": // a grab is told once, by the grab that follows
        return d.grabbed_by === null ? t("baohuang.log.nobody_grabbed") : "";
      case "grab":
        return t("baohuang.log.grabbed", { who });
      case "yield emperor":
        return t("baohuang.log.handed_on", { who, to: names[d.to_seat] });
      case "hand on emperor card":
        return t("baohuang.log.handed_on_card", { who, to: names[d.to_seat] });
      case "forced":
        return t("baohuang.log.forced", { who });
      case "void deal":
        return t("baohuang.log.void");
      case "call":
        return t("baohuang.log.call", { who, card: cardWords(t, d.card) });
      case "emperor":
        return t("baohuang.log.emperor", { who });
      case "declarations":
        return t("baohuang.log.declarations", { declared: d.declared.map((/** @type {number} */ s) => names[s]).join(t("baohuang.sep")) || "–" });
      case "lead":
        return t("baohuang.log.lead", { who });
      case "deal over":
        return t("baohuang.log.deal_over", { n: d.deal });
      case "game over":
        return t("baohuang.log.game_over");
      default:
        return null;
    }
  },
};
