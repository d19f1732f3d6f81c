// @ts-check
// A table for any game: the seat's view as labelled facts, the hand, and the legal actions
// as buttons (in the game's notation). Game modules build on its pieces.

/**
 * @param {Ctx} ctx
 * @param {View} view
 * @param {string[]} [skip]
 */
export function facts(ctx, view, skip = []) {
  const { h, tOr } = ctx;
  const rows = Object.entries(view)
    .filter(([key]) => !["game", "legal", "hand", "seat", "pending", ...skip].includes(key))
    .map(([key, value]) =>
      h("div", { class: "fact" }, h("dt", {}, tOr(`${view.game}.${key}`, tOr(`field.${key}`, key))), h("dd", {}, show(ctx, key, value))),
    );
  return h("dl", { class: "facts" }, rows);
}

// A value in words: a list as a list, a record as labelled facts (never JSON).
/**
 * @param {Ctx} ctx
 * @param {string} key
 * @param {unknown} value
 * @returns {Child}
 */
export function show(ctx, key, value) {
  const { h } = ctx;
  if (value === null || value === undefined) return "–";
  if (typeof value === "object" && !Array.isArray(value) && ("en" in value || "zh" in value)) return ctx.pick(/** @type {Names} */ (value));
  if (typeof value === "string") return ctx.tOr(`${ctx.table.view.game}.value.${value}`, value);
  if (typeof value === "boolean") return ctx.t(value ? "yes" : "no");
  if (typeof value !== "object") return String(value);
  if (Array.isArray(value)) {
    if (!value.length) return "–";
    if (value.every((v) => v === null || typeof v !== "object")) return value.map((v) => show(ctx, key, v)).join(", ");
    return h("ul", { class: "fact-list" }, value.map((v) => h("li", {}, show(ctx, key, v))));
  }
  const game = ctx.table.view.game;
  return h("dl", { class: "facts nested" }, Object.entries(value).map(([k, v]) => h("div", { class: "fact" }, h("dt", {}, ctx.tOr(`${game}.${k}`, ctx.tOr(`field.${k}`, k))), h("dd", {}, show(ctx, k, v)))));
}

/**
 * @param {Ctx} ctx
 * @param {(text: string) => Child} [label]
 */
export function actions(ctx, label = (text) => text) {
  const { h, table, t } = ctx;
  const texts = table.view.legal || [];
  if (!texts.length) {
    const waiting = table.result ? t("game_over") : t("waiting_for", { who: table.pending.map((s) => ctx.names[s]).join(", ") });
    return h("p", { class: "hint", id: "turn-hint" }, waiting);
  }
  return h(
    "div",
    { class: "actions", role: "group", "aria-label": t("your_move") },
    h("p", { class: "your-move" }, t("your_move")),
    texts.map((text, i) => h("button", { class: "action", "data-action": table.legal[i], onclick: () => ctx.act(table.legal[i]) }, label(text))),
  );
}

// This seat's headline: won or lost, or only "Game over" for a spectator (or nobody won).
/** @param {Ctx} ctx */
export function headline(ctx) {
  const { t, table, seat } = ctx;
  const winners = (table.result && table.result.winners) || [];
  if (seat === null || seat === undefined || !winners.length) return t("game_over");
  return t(winners.includes(seat) ? "you_won" : "you_lost");
}

// The end of a game in words: the headline, then every seat in its place with its score.
// A game's table may draw a richer one; this is the fallback any game gets.
/** @param {Ctx} ctx */
export function result(ctx) {
  const { h, table, t, names, seat } = ctx;
  if (!table.result) return null;
  const r = table.result;
  const winners = r.winners || [];
  const won = seat !== null && winners.includes(seat);
  const points = (/** @type {number | string} */ n) => t(Math.abs(Number(n)) === 1 ? "points_one" : "points", { n });
  return h(
    "section",
    { class: `result ${seat === null || seat === undefined ? "" : won ? "won" : "lost"}`, id: "result" },
    h("h2", { id: "headline" }, headline(ctx)),
    h(
      "ol",
      { class: "places" },
      (r.places || []).map((s) =>
        h(
          "li",
          { class: `${s === seat ? "mine" : ""} ${winners.includes(s) ? "winner" : ""}`, "data-seat": s },
          h("span", { class: "place-name" }, names[s]),
          " ",
          h("span", { class: "place-score" }, points(r.scores[s])),
          winners.includes(s) ? [" ", h("span", { class: "badge" }, t("winner"))] : null,
        ),
      ),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {string[]} cards
 */
export function hand(ctx, cards) {
  const { h } = ctx;
  return h("div", { class: "hand plain" }, cards.map((c) => h("span", { class: "chip" }, c)));
}

/** @type {TableModule} */
export default {
  render(el, ctx) {
    const { h, table } = ctx;
    const view = table.view;
    el.replaceChildren(
      h("div", { class: "generic" }, view.hand ? hand(ctx, view.hand) : null, actions(ctx), facts(ctx, view), result(ctx)),
    );
  },
};
