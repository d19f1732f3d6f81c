// @ts-check
// The panel at the top of the table: this seat's own role in the game's words with its win
// condition, a house rule on the lowest rank if the room plays one, the called card (or the
// japanese guard card) as a card, who is known to be who, and what each decision on offer
// means before it is made. Drawn from the view on every change, so a royalist sees its role
// the moment the card is called. It folds to one line in the play (below).

import { cardRow } from "../../cards.js";
import { actionWords, labeller, lowestRule, markedGuard, passedTo, roleWords } from "./words.js";

// The win condition's key for a role: by variant, a grab (搶莊) being its own stake.
/** @param {BhView} view */
function winKey(view) {
  const role = view.role;
  if (view.variant !== "japanese" && role === "solo emperor" && view.grabbed) return "baohuang.win.shandong.grab";
  if (role === "guard" && !markedGuard(view)) return "baohuang.win.japanese.guard_called";
  return `baohuang.win.${view.variant}.${role}`;
}

// What a decision on offer means: its key, or null for a plain play/pass in the play phase.
/**
 * @param {BhView} view
 * @param {string} text
 */
function meaningKey(view, text) {
  const word = text.split(" ")[0];
  const emperor = (view.role || "").includes("emperor");
  if (word === "declare") return emperor ? `baohuang.means.declare_solo.${view.variant}` : "baohuang.means.declare";
  if (word === "pass" && view.phase === "declare") return view.role === "royalist" ? "baohuang.means.conceal" : null;
  if (word === "yield") return view.phase === "play" ? "baohuang.means.yield" : "baohuang.means.yield_emperor";
  if (word === "call" && view.variant === "japanese") return "baohuang.means.call_guard";
  if (["call", "grab", "keep", "hand", "claim", "rebel"].includes(word)) return `baohuang.means.${word}`;
  return null;
}

/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
function meanings(ctx, view) {
  const { h, t } = ctx;
  const seen = new Set();
  /** @type {HTMLElement[]} */
  const rows = [];
  for (const text of view.legal || []) {
    const key = meaningKey(view, text);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    const word = text.startsWith("call ") ? ctx.t("baohuang.action.call") : actionWords(ctx, view, text);
    // the marked joker goes to a seat: named, not a direction (讓莊, the japanese hand-on)
    const handed = key === "baohuang.means.yield_emperor" || key === "baohuang.means.hand";
    const to = handed && view.seat !== null ? ctx.names[passedTo(view, view.seat)] : "";
    rows.push(h("li", { "data-means": key.split(".").slice(2).join(".") }, h("b", {}, word), " ", t(key, { to })));
  }
  return rows.length ? h("ul", { class: "bh-meanings", id: "bh-meanings" }, rows) : null;
}


// The card that makes a partner: the called card (Shandong) or the marked small joker.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
function partnerCard(ctx, view) {
  const { h, t } = ctx;
  if (markedGuard(view)) {
    return h("p", { class: "bh-called", id: "bh-called" }, h("span", {}, t("baohuang.guard_card")), cardRow(["SJ*"], labeller(t)), h("span", { class: "note" }, t("baohuang.guard_note")));
  }
  if (!view.called) return null;
  return h("p", { class: "bh-called", id: "bh-called" }, h("span", {}, t("baohuang.called_card")), cardRow([view.called], labeller(t)), h("span", { class: "note" }, t(view.variant === "japanese" ? "baohuang.guard_called_note" : "baohuang.called_note")));
}

// Who is known to be who: the public roles and the declarations (a replay with everything
// revealed, `ctx.revealed`: every seat's view, so every seat's role).
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
function known(ctx, view) {
  const { h, t, names } = ctx;
  const roles = ctx.revealed ? Object.fromEntries(ctx.revealed.map((v, i) => [i, /** @type {string | null} */ (v.role)]).filter(([, role]) => role)) : view.roles || {};
  const entries = Object.entries(roles);
  if (!entries.length) return null;
  return h(
    "p",
    { class: "bh-known", id: "bh-known" },
    h("span", {}, t("baohuang.known")),
    entries.map(([seat, role]) =>
      h("span", { class: "chip", "data-seat": seat }, `${names[Number(seat)]}: ${roleWords(ctx, role)}`, view.declared.includes(Number(seat)) ? ` · ${t("baohuang.declared_badge")}` : ""),
    ),
  );
}

// A house rule that changes which sets a seat may play or how it places: the lowest rank
// held to the end (憋六/憋三), or the older reading kept for old games (going out on it ranks
// last). Said to everyone at the table, in the words of the room's variant.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
function houseRule(ctx, view) {
  const rule = lowestRule(view);
  if (!rule) return null;
  return ctx.h("p", { class: "bh-house", id: "bh-house", "data-rule": rule }, ctx.t(`baohuang.house.${rule}.${view.variant}`));
}

// The panel folds to its first line (the role and its goal) once read: open in the deal's
// opening, where its meanings explain the decisions, folded in the play, where the hand and the
// trick need the screen; a tap on the line opens or folds it for the rest of the deal.
/** @type {{ deal: string, open: boolean | null }} */
const fold = { deal: "", open: null }; // the person's own tap, this deal (of this game)

// ``phase``: the deal's phase line, at the end of the first line.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 * @param {Child} [phase]
 */
export function rolePanel(ctx, view, phase = null) {
  const { h, t, names } = ctx;
  /** @type {Child} */
  let head;
  /** @type {Child} */
  let secret = null;
  if (ctx.revealed) head = h("span", { class: "bh-role-line" }, t("baohuang.revealed"));
  else if (view.seat === null || view.seat === undefined) head = h("span", { class: "bh-role-line" }, t("baohuang.watching"));
  else if (view.role) {
    head = [
      h("span", { class: "bh-role-line" }, t("baohuang.you_are"), h("b", { class: "bh-role", "data-role": view.role }, roleWords(ctx, view.role))),
      h("span", { class: "bh-win", id: "bh-win" }, t(winKey(view))),
    ];
    if (view.role === "royalist" && !view.declared.includes(view.seat)) secret = h("p", { class: "bh-secret" }, t("baohuang.secret"));
  } else {
    const holder = view.marked_holder;
    head = h("span", { class: "bh-role-line" }, holder === null || holder === undefined ? t("baohuang.no_emperor") : t("baohuang.emperor_card_with", { who: names[holder] }));
  }
  const deal = `${ctx.table ? ctx.table.number : ""}:${view.deal}`; // (a crafted ctx may have no table)
  if (fold.deal !== deal) Object.assign(fold, { deal, open: null });
  const open = ctx.revealed ? true : (fold.open ?? view.phase !== "play");
  const tap = (/** @type {Event} */ e) => {
    fold.open = !(/** @type {HTMLDetailsElement} */ (/** @type {HTMLElement} */ (e.currentTarget).parentElement)).open;
  };
  return h(
    "details",
    { class: "bh-role-panel", id: "bh-role", "aria-live": "polite", open },
    h("summary", { class: "bh-role-head", onclick: tap }, head, phase),
    secret,
    houseRule(ctx, view),
    partnerCard(ctx, view),
    known(ctx, view),
    meanings(ctx, view),
  );
}
