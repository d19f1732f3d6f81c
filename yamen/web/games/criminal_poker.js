// @ts-check
// Criminal Poker's table: your identity and what you are after on top (role.js), how many cards
// each other suspect shows and holds face down, your evidence,
// the decisions in words with what each does (controls.js), every suspect's evidence (board.js), and
// at the end your headline (result.js) and every card turned over (reveal.js).

import { counts, deckLook, heading, mine, seats, turns, votes } from "./criminal_poker/board.js";
import { controls } from "./criminal_poker/controls.js";
import { describe } from "./criminal_poker/describe.js";
import { drawn } from "./criminal_poker/drawn.js";
import { result } from "./criminal_poker/result.js";
import { reveal, rules } from "./criminal_poker/reveal.js";
import { role } from "./criminal_poker/role.js";
import { sound } from "./criminal_poker/sounds.js";

/** @type {TableModule} */
export default {
  render(el, ctx) {
    const { h, table } = ctx;
    const view = /** @type {CpView} */ (table.view);
    if (view.phase !== "reveal" || view.turn !== view.seat) drawn.card = null;
    el.replaceChildren(
      h(
        "div",
        { class: "criminal-poker" },
        role(ctx, view),
        heading(ctx, view),
        result(ctx),
        counts(ctx, view), // every other suspect's cards, in reach with the decision
        mine(ctx, view), // the evidence above the action bar: a phone pins the bar, never over it
        controls(ctx, view),
        deckLook(ctx, view),
        seats(ctx, view),
        turns(ctx, view),
        votes(ctx, view),
        reveal(ctx, view),
        view.final ? null : rules(ctx),
      ),
    );
  },

  describe,
  sound, // evidence shown or drawn, a skip, the arrest (criminal_poker/sounds.js)
};
