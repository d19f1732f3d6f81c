// A table for any game: the seat's view as labelled facts, the hand, and the legal actions
// as buttons (in the game's notation). Game modules build on its pieces.

export function facts(ctx, view, skip = []) {
  const { h, tOr } = ctx;
  const rows = Object.entries(view)
    .filter(([key]) => !["game", "legal", "hand", "seat", "pending", ...skip].includes(key))
    .map(([key, value]) =>
      h("div", { class: "fact" }, h("dt", {}, tOr(`${view.game}.${key}`, tOr(`field.${key}`, key))), h("dd", {}, show(ctx, key, value))),
    );
  return h("dl", { class: "facts" }, rows);
}

export function show(ctx, key, value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object" && !Array.isArray(value) && ("en" in value || "zh" in value)) return ctx.pick(value);
  if (typeof value === "string") return ctx.tOr(`${ctx.table.view.game}.value.${value}`, value);
  if (typeof value !== "object") return String(value);
  return JSON.stringify(value);
}

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

export function result(ctx) {
  const { h, table, t, names } = ctx;
  if (!table.result) return null;
  const r = table.result;
  return h(
    "section",
    { class: "result", id: "result" },
    h("h2", {}, t("game_over")),
    h("ol", {}, r.places.map((seat) => h("li", {}, names[seat], " · ", String(r.scores[seat]), r.winners.includes(seat) ? ` · ${t("winner")}` : ""))),
    h("details", {}, h("summary", {}, t("details")), h("pre", {}, JSON.stringify(Object.fromEntries(Object.entries(r).filter(([k]) => !["scores", "places", "winners"].includes(k))), null, 1))),
  );
}

export function hand(ctx, cards) {
  const { h } = ctx;
  return h("div", { class: "hand plain" }, cards.map((c) => h("span", { class: "chip" }, c)));
}

export default {
  render(el, ctx) {
    const { h, table } = ctx;
    const view = table.view;
    el.replaceChildren(
      h("div", { class: "generic" }, view.hand ? hand(ctx, view.hand) : null, actions(ctx), facts(ctx, view), result(ctx)),
    );
  },
};
