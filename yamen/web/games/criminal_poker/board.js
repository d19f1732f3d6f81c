// @ts-check
// The public table: the phase and facts, this seat's evidence, every suspect's shown evidence,
// the turns taken, the deck the investigator looked at, and the votes.

import { P, assess, backs, card, counted, evidence, investigatorWord, roleName } from "./cards.js";
import { drawn } from "./drawn.js";

// ----- the parts of the table --------------------------------------------------------------

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function heading(ctx, view) {
  const { h, t, tOr, names } = ctx;
  const phase = tOr(`${P}.phase.${view.phase}`, view.phase);
  return h(
    "div",
    { class: "cp-head" },
    h("p", { class: "phase", id: "cp-phase" }, h("b", {}, phase), " · ", tOr(`${P}.phase_help.${view.phase}`, "")),
    h(
      "p",
      { class: "cp-facts" },
      t(`${P}.mode.${view.mode}`),
      " · ",
      t(`${P}.investigator_is`, { role: investigatorWord(ctx, view), name: names[view.investigator] }),
      " · ",
      counted(t, `${P}.deck`, { n: view.deck_count }),
      " · ",
      t(`${P}.roles_in_play`),
      " ",
      Object.entries(view.roles_in_play || {}).map(([role, n]) => `${roleName(ctx, view, role)}×${n}`).join(", "),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function mine(ctx, view) {
  const { h, t } = ctx;
  if (view.seat === null || view.seat === undefined || !view.identity) return null;
  const role = view.identity;
  const suspect = (view.suspects || []).includes(view.seat);
  const shown = view.shown[view.seat] || [];
  const hidden = view.hidden || [];
  const worth = assess(view, [...shown, ...hidden]);
  const fresh = drawn.card && view.phase === "reveal" && view.turn === view.seat ? drawn.card : null;
  return h(
    "section",
    { class: "cp-mine", id: "cp-mine" },
    // the goal is in the role panel on top; here the cards
    h("h3", {}, t(suspect ? `${P}.your_evidence` : `${P}.no_evidence_as`, { role: roleName(ctx, view, role) })),
    suspect
      ? h(
          "div",
          {},
          // nothing shown yet: the face-down row below holds every card, and a phone keeps the line
          shown.length ? h("div", { class: "cp-row" }, h("span", { class: "cp-label" }, t(`${P}.your_shown`)), shown.map((id) => evidence(ctx, view, id))) : null,
          h(
            "div",
            { class: "cp-row", id: "cp-hidden" },
            h("span", { class: "cp-label" }, t(`${P}.your_hidden`)),
            hidden.length ? hidden.map((id) => evidence(ctx, view, id, { hidden: true, fresh: id === fresh })) : h("span", { class: "hint" }, t(`${P}.none`)),
          ),
          h(
            "p",
            { class: "cp-worth", id: "cp-worth" },
            worth.weapon ? t(`${P}.you_hold_weapon`) : t(`${P}.your_innocence`, { total: worth.total, valid: worth.valid }),
          ),
        )
      : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 * @param {number} seat
 */
function seatState(ctx, view, seat) {
  const { t, table } = ctx;
  /** @type {[string, string][]} */
  const marks = [];
  if (view.arrested && view.arrested.includes(seat)) marks.push(["arrested", t(`${P}.arrested`)]);
  if (view.turn === seat) marks.push(["turn", t(`${P}.its_turn`)]);
  if ((view.answered || []).includes(seat)) marks.push(["answered", t(`${P}.answered`)]);
  else if (table.pending.includes(seat)) marks.push(["pending", t(`${P}.to_act`)]);
  if ((view.acted || []).includes(seat) && view.phase !== "over") marks.push(["acted", t(`${P}.has_acted`)]);
  return marks;
}

// Every other suspect's cards at a glance, in one strip over my own: how many it shows and how
// many it holds face down (the seat list below names the shown ones). The counts sit where the
// eye is, so that a phone has them in reach with the decision (docs/web.md, the reach).
/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function counts(ctx, view) {
  const { h, t, names } = ctx;
  const others = (view.suspects || []).filter((seat) => seat !== view.seat);
  if (!others.length || view.final) return null;
  return h(
    "ul",
    { class: "cp-counts", id: "cp-counts", "aria-label": t(`${P}.counts`) },
    others.map((seat) => {
      const shown = (view.shown[seat] || []).length;
      const hidden = view.hidden_counts[seat] || 0;
      const says = t(`${P}.count_of`, { name: names[seat], shown, hidden });
      return h(
        "li",
        { class: `cp-count${ctx.table.pending.includes(seat) ? " pending" : ""}`, "data-seat": seat, title: says, "aria-label": says },
        h("b", {}, names[seat]),
        h("span", { class: "cp-count-shown", "aria-hidden": "true" }, h("span", { class: "ev-face" }), `×${shown}`),
        h("span", { class: "cp-count-hidden", "aria-hidden": "true" }, h("span", { class: "ev-back" }), `×${hidden}`),
      );
    }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function seats(ctx, view) {
  const { h, t, names, table } = ctx;
  const deadlines = (table.result === null && table.deadlines) || {};
  return h(
    "ol",
    { class: "cp-seats", id: "cp-seats" },
    view.shown.map((shown, seat) => {
      const role = view.identities[String(seat)] || (view.final ? view.final.seats[seat].identity : null);
      const suspect = (view.suspects || []).includes(seat);
      const left = deadlines[String(seat)];
      return h(
        "li",
        { class: `${table.pending.includes(seat) ? "pending" : ""} ${seat === view.seat ? "mine" : ""}`, "data-seat": seat },
        h(
          "div",
          { class: "cp-seat-head" },
          h("b", {}, names[seat]),
          role ? h("span", { class: `cp-role cp-role-${role}` }, roleName(ctx, view, role)) : suspect ? h("span", { class: "cp-role" }, t(`${P}.suspect`)) : null,
          ...seatState(ctx, view, seat).map(([kind, text]) => h("span", { class: `cp-mark cp-${kind}` }, text)),
          left ? h("span", { class: "timer", "data-deadline": left }, "") : null,
        ),
        suspect
          ? h("div", { class: "cp-row" }, shown.map((id) => evidence(ctx, view, id)), backs(ctx, view.hidden_counts[seat]), !shown.length && !view.hidden_counts[seat] ? h("span", { class: "hint" }, t(`${P}.none`)) : null)
          : h("div", { class: "hint" }, t(`${P}.holds_no_evidence`)),
      );
    }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function turns(ctx, view) {
  const { h, t, names } = ctx;
  if (!view.turns || !view.turns.length) return null;
  return h(
    "details",
    { class: "cp-turns", open: view.phase !== "over" },
    h("summary", {}, t(`${P}.turns`, { n: view.turns.length, of: view.suspects.length })),
    h(
      "ol",
      {},
      view.turns.map((turn) => {
        const who = names[turn.seat];
        if (turn.action === "skip") return h("li", {}, t(`${P}.turn_skip`, { name: who }));
        if (turn.revealed) return h("li", {}, t(`${P}.turn_reveal`, { name: who }), " ", evidence(ctx, view, turn.revealed));
        if (turn.seat === view.turn && view.phase === "reveal") return h("li", {}, t(`${P}.turn_drawing`, { name: who }));
        return h("li", {}, t(`${P}.turn_keep`, { name: who }));
      }),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function deckLook(ctx, view) {
  const { h, t } = ctx;
  if (!view.deck) return null;
  return h(
    "section",
    { class: "cp-deck", id: "cp-deck" },
    h("h3", {}, counted(t, `${P}.deck_look`, { n: view.deck.length })),
    h("p", { class: "hint" }, t(`${P}.deck_look_help`)),
    view.deck.length ? h("div", { class: "cp-row" }, view.deck.map((id) => evidence(ctx, view, id))) : h("p", {}, t(`${P}.deck_empty`)),
  );
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function votes(ctx, view) {
  const { h, t, names } = ctx;
  if (!view.votes || !view.votes.length) return null;
  return h(
    "section",
    { class: "cp-votes", id: "cp-votes" },
    view.votes.map((round, i) => {
      /** @type {{ [seat: string]: number }} */
      const tally = {};
      round.forEach((target) => (tally[target] = (tally[target] || 0) + 1));
      return h(
        "div",
        {},
        h("h3", {}, t(`${P}.vote_round`, { n: i + 1 })),
        h("ul", {}, round.map((target, voter) => h("li", {}, t(`${P}.voted_for`, { voter: names[voter], target: names[target] })))),
        h(
          "p",
          { class: "cp-tally" },
          Object.entries(tally)
            .sort((a, b) => b[1] - a[1])
            .map(([seat, n]) => t(`${P}.tally`, { name: names[Number(seat)], n }))
            .join(" · "),
        ),
      );
    }),
  );
}
