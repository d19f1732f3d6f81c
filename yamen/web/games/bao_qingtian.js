// @ts-check
// The Bao Qing-tian trial's table, for 3 to 50 seats on a phone: the seat's own part on top
// (role.js), the hand, the decisions (decisions.js; the captor may keep waiting, keep_waiting.js),
// the public board (board.js: offices, the hunt, the sentence), the end (ledger.js).

import { appointing, capture, heading, offices, seatList, trial } from "./bao_qingtian/board.js";
import { decisions, forgetDrafts } from "./bao_qingtian/decisions.js";
import { describe } from "./bao_qingtian/describe.js";
import { hand } from "./bao_qingtian/hand.js";
import { autoWait, keepPanel } from "./bao_qingtian/keep_waiting.js";
import { ledger } from "./bao_qingtian/ledger.js";
import { role } from "./bao_qingtian/role.js";
import { sound } from "./bao_qingtian/sounds.js";

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {boolean} kept
 */
function waiting(ctx, view, kept) {
  const { h, t, names, table } = ctx;
  if (table.result || (view.legal && view.legal.length && !kept)) return null;
  const who = table.pending.map((s) => names[s]).join(", ");
  return h("p", { class: "hint", id: "turn-hint" }, t("waiting_for", { who }));
}

/** @type {TableModule} */
export default {
  render(el, ctx) {
    const { h, table } = ctx;
    const view = /** @type {BqView} */ (table.view);
    ctx.redraw = () => this.render(el, ctx);
    const mine = view.legal && view.legal.length;
    const discarding = Boolean(mine && (view.phase === "draw" || view.phase === "capture"));
    forgetDrafts(view);
    // the captor who keeps waiting is not asked: its client answers Wait (keep_waiting.js)
    const kept = autoWait(ctx, view);
    const asked = kept.waiting ? null : decisions(ctx, view, kept.note);
    const active = document.activeElement;
    const focused = active && active.closest && active.closest(".bao-qingtian") ? active.id : null;
    el.replaceChildren(
      h(
        "div",
        { class: `bao-qingtian phase-${view.phase.replace(/ /g, "-")}` },
        role(ctx, view),
        heading(ctx, view),
        ledger(ctx),
        hand(ctx, view, discarding), // above the decisions: a phone pins them, never over the hand
        asked,
        keepPanel(ctx, view, Boolean(asked || discarding)),
        waiting(ctx, view, kept.waiting),
        appointing(ctx, view),
        capture(ctx, view),
        trial(ctx, view),
        offices(ctx, view),
        seatList(ctx, view),
      ),
    );
    if (focused) document.getElementById(focused)?.focus();
  },

  describe,
  sound, // a turn, a wait, a criminal caught, a sentence executed (bao_qingtian/sounds.js)
};
