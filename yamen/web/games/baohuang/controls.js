// @ts-check
// The action bar: Play (the picked set, in words), the hint (提示: raises the next set I may
// play, smallest first), my whole hand in one tap when it is one legal set on my lead, Pass /
// Yield / Claim and every other decision, why a pick is no legal set, why everyone is asked to
// declare, and the legal sets to play with one tap. It is an element with class "actions",
// which the shell pins to the bottom of a phone's screen.

import { actions } from "../generic.js";
import { nextHint, wholeHand } from "./hint.js";
import { clearPick, matchingSet, pickSet, picked, why } from "./pick.js";
import { actionWords, cardWords, inWords, isPlay } from "./words.js";

/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function controls(ctx, view) {
  const { h, t, table } = ctx;
  if (!view.legal || !view.legal.length) return actions(ctx);
  const { codes, tokens } = view.hand ? picked(view) : { codes: [], tokens: [] };
  const offered = view.legal.map((text, i) => /** @type {[string, string]} */ ([text, table.legal[i]]));
  const plays = offered.filter(([text]) => isPlay(text));
  const others = offered.filter(([text]) => !isPlay(text));
  const found = codes.length ? matchingSet(view, tokens) : -1;
  const playButton = h(
    "button",
    { id: "play", class: "primary", disabled: found < 0, "data-set": found >= 0 ? view.legal[found] : null, onclick: () => {
      ctx.act(table.legal[found]);
      clearPick();
    } },
    found >= 0 ? t("baohuang.play_set", { set: inWords(t, view.legal[found]) }) : t("baohuang.play"),
  );
  const clear = codes.length ? h("button", { class: "quiet small", id: "bh-clear", onclick: () => {
    clearPick();
    ctx.redraw?.();
  } }, t("baohuang.clear")) : null;
  // the hint raises the cards; one more tap (Play) plays them
  const hint = plays.length && view.hand ? h("button", { class: "quiet", id: "bh-hint", onclick: () => {
    const text = nextHint(view);
    if (text) pickSet(view, text);
    ctx.redraw?.();
  } }, t("baohuang.hint")) : null;
  const whole = !view.table && view.phase === "play" ? wholeHand(view) : null; // my lead
  const wholeId = whole ? table.legal[view.legal.indexOf(whole)] : "";
  const last = whole ? h("button", { class: "primary", id: "bh-last", "data-set": whole, onclick: () => {
    ctx.act(wholeId);
    clearPick();
  } }, t("baohuang.play_all", { set: inWords(t, whole) })) : null;
  const note = codes.length && found < 0 ? h("p", { class: "why", id: "why" }, why(ctx, view, codes)) : null;
  const hints = new Set(plays.map(([text]) => text.split(" ")[0]));
  // why a seat with nothing to declare is asked all the same (a rebel's only answer is 不要):
  // every seat is asked at once, so that being asked tells nobody who could declare
  const everyone = view.phase === "declare" ? h("p", { class: "act-help bh-why-asked", id: "bh-why-asked" }, t("baohuang.declare_everyone")) : null;
  return h(
    "div",
    { class: "actions bh-actions", role: "group", "aria-label": t("your_move") },
    h("p", { class: "your-move" }, t("your_move")),
    everyone,
    last,
    plays.length ? playButton : null,
    hint,
    clear,
    others.map(([text, id]) =>
      h("button", { class: "action", "data-action": id, onclick: () => ctx.act(id) }, actionWords(ctx, view, text), text.startsWith("call ") ? ` ${cardWords(t, text.slice(5))}` : ""),
    ),
    note,
    plays.length
      ? h(
          "details",
          { class: "legal-sets" },
          h(
            "summary",
            {},
            t(plays.length === 1 ? "baohuang.legal_sets_one" : "baohuang.legal_sets", { n: plays.length }),
            hints.size <= 4 ? ` · ${[...hints].map((c) => cardWords(t, c)).join(" ")}` : "", // a hint, while short
          ),
          plays.map(([text, id]) => h("button", { class: "action small", "data-action": id, "data-set": text, onclick: () => ctx.act(id) }, inWords(t, text))),
        )
      : null,
  );
}
