// @ts-check
// The table itself: the other four seats around it in play order (the next seat on the
// right, then across, then the left: the seeds' counter-clockwise), the trick in the middle.
// What changed since the last drawing gets a short animation (a play slides in, a pass fades,
// a won trick sweeps to its winner); the CSS runs them only without prefers-reduced-motion.

import { cardRow } from "../../cards.js";
import { actionWords, labeller, roleWords } from "./words.js";

const POSITIONS = ["right", "across-right", "across-left", "left"]; // seat + 1 … seat + 4
/** @type {{ deal: number | null, moves: number, table: { owner: number, cards: string[] } | null }} */
const seen = { deal: null, moves: 0, table: null }; // what the last drawing showed

// Which moves of the trick are new since the last drawing, and a trick that just closed.
/** @param {BhView} view */
function changes(view) {
  const moves = view.trick || [];
  const sameDeal = seen.deal === view.deal;
  const fresh = sameDeal ? Math.max(0, moves.length - seen.moves) : 0;
  const closed = sameDeal && seen.table && !view.table && !moves.length ? seen.table : null;
  seen.deal = view.deal;
  seen.moves = moves.length;
  seen.table = view.table ? { owner: view.table.owner, cards: view.table.cards } : closed ? seen.table : null;
  return { fresh, closed };
}

/**
 * @param {Ctx} ctx
 * @param {BhView} view
 * @param {number} seat
 * @param {string} position
 * @param {number} freshFrom the first move of the trick not drawn before
 */
function seatBox(ctx, view, seat, position, freshFrom) {
  const { h, t, names, table } = ctx;
  const label = labeller(t);
  const role = view.roles && view.roles[String(seat)];
  const place = view.out.indexOf(seat);
  const moves = view.trick || [];
  const at = moves.map((m, i) => /** @type {[BhMove, number]} */ ([m, i])).filter(([m]) => m.seat === seat).slice(-1)[0];
  let last = null;
  if (at) {
    const [m, i] = at;
    const fresh = i >= freshFrom ? ` fresh ${m.cards ? "played" : "passed"}` : "";
    last = m.cards ? h("span", { class: `bh-last${fresh}` }, cardRow(m.cards, label)) : h("span", { class: `said bh-last${fresh}` }, actionWords(ctx, view, m.action));
  }
  const classes = ["bh-seat", `at-${position}`, table.pending.includes(seat) ? "pending" : "", view.emperor === seat ? "emperor" : ""];
  return h(
    "li",
    { class: classes.join(" "), "data-seat": seat },
    h("b", { class: "bh-name" }, names[seat]),
    h("span", { class: "count", title: t("baohuang.cards_left"), "aria-label": `${t("baohuang.cards_left")} ${view.hand_sizes[seat]}` }, h("span", { class: "back", "aria-hidden": "true" }), String(view.hand_sizes[seat])),
    role ? h("span", { class: "role" }, roleWords(ctx, role)) : null,
    view.declared.includes(seat) ? h("span", { class: "role declared" }, t("baohuang.declared_badge")) : null,
    place >= 0 ? h("span", { class: "place" }, t(`baohuang.place.${place + 1}`)) : null,
    view.dealer === seat ? h("span", { class: "role dealer" }, t("baohuang.dealer")) : null, // japanese only
    last,
  );
}

// The middle: the set to beat and whose it is, the trick's moves (latest first), or the trick just won.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 * @param {number} fresh how many moves are new
 * @param {{ owner: number, cards: string[] } | null} closed the trick just won
 */
function middle(ctx, view, fresh, closed) {
  const { h, t, names } = ctx;
  const label = labeller(t);
  const moves = view.trick || [];
  const freshFrom = moves.length - fresh;
  let top;
  if (view.phase !== "play") top = h("p", { class: "hint" }, ctx.tOr(`baohuang.phase.${view.phase}`, view.phase));
  else if (view.table) {
    const newest = moves.length && moves[moves.length - 1].cards && fresh ? " fresh played" : "";
    top = h("div", { class: `bh-to-beat${newest}` }, h("p", {}, t("baohuang.to_beat", { who: names[view.table.owner] })), cardRow(view.table.cards, label));
  } else if (closed) {
    top = h("div", { class: "bh-won fresh", "data-to": closed.owner }, h("p", {}, t("baohuang.trick_won", { who: names[closed.owner] })), cardRow(closed.cards, label));
  } else top = h("p", { class: "hint" }, t("baohuang.new_trick"));
  const list = moves.map((m, i) =>
    h("li", { class: i >= freshFrom ? "fresh" : "" }, h("b", {}, names[m.seat]), " ", m.cards ? cardRow(m.cards, label) : actionWords(ctx, view, m.action)),
  );
  // the trick's moves, latest first, in a box of their own that scrolls (style: .moves)
  const moveList = list.length ? h("ol", { class: "moves", reversed: true }, list.reverse()) : null;
  return h("section", { class: "trick bh-middle", id: "trick", "aria-label": t("baohuang.trick") }, top, moveList);
}

/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function ring(ctx, view) {
  const { h } = ctx;
  const me = view.seat === null || view.seat === undefined ? 0 : view.seat;
  const { fresh, closed } = changes(view);
  const freshFrom = (view.trick || []).length - fresh;
  const others = POSITIONS.map((position, k) => seatBox(ctx, view, (me + k + 1) % 5, position, freshFrom));
  const mine = view.seat === null || view.seat === undefined ? seatBox(ctx, view, 0, "bottom", freshFrom) : seatBox(ctx, view, me, "bottom", freshFrom);
  return h("div", { class: "bh-table", id: "bh-table" }, h("ol", { class: "bh-seats" }, others, mine), middle(ctx, view, fresh, closed));
}
