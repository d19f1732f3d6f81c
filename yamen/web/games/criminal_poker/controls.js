// @ts-check
// The seat's decisions as buttons in words, each kind with a line saying what it does.

import { P, card, cardName, evidence, investigatorWord } from "./cards.js";
import { drawn } from "./drawn.js";

// A legal action in words: "reveal S4" -> "Reveal: Self-statement: ...", "next 2" -> "Call Ann".
/**
 * @param {Ctx} ctx
 * @param {CpView} view
 * @param {string} text
 */
export function actionLabel(ctx, view, text) {
  const { t, names } = ctx;
  const [verb, arg] = text.split(" ");
  if (verb === "reveal") return t(`${P}.act.reveal`, { card: cardName(ctx, view, arg) });
  if (verb === "next") return t(`${P}.act.next`, { name: names[Number(arg)] });
  if (verb === "arrest") return t(`${P}.act.arrest`, { name: names[Number(arg)] });
  if (verb === "vote") return t(`${P}.act.vote`, { name: names[Number(arg)] });
  if (text === "keep hidden") return t(`${P}.act.keep_hidden`);
  if (text === "end questioning") return t(`${P}.act.end_questioning`);
  if (text === "skip" || text === "draw") return t(`${P}.act.${text}`);
  return text;
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function controls(ctx, view) {
  const { h, t, names, table } = ctx;
  const texts = view.legal || [];
  if (!texts.length) {
    if (table.result) return null;
    const notes = [];
    if (view.answer) notes.push(h("p", { class: "cp-answer" }, t(`${P}.your_answer`, { answer: actionLabel(ctx, view, view.answer) })));
    if (view.phase === "questioning") notes.push(questioningHint(ctx, view));
    return h(
      "div",
      { class: "cp-wait" },
      ...notes,
      h("p", { class: "hint", id: "turn-hint" }, t("waiting_for", { who: table.pending.map((s) => names[s]).join(", ") })),
    );
  }
  const help = ctx.tOr(`${P}.ask.${view.phase}`, "");
  const fresh = view.phase === "reveal" && drawn.card ? h("p", { class: "cp-drew" }, t(`${P}.you_drew`), " ", evidence(ctx, view, drawn.card, { hidden: true, fresh: true })) : null;
  return h(
    "div",
    { class: `actions cp-actions cp-actions-${view.phase}`, role: "group", "aria-label": t("your_move") },
    h("p", { class: "your-move" }, t("your_move"), help ? ` · ${help}` : ""),
    fresh,
    view.phase === "questioning" ? questioningHint(ctx, view) : null,
    groups(ctx, view, texts),
  );
}

// The verb of an action's text, for its help line: a reveal at the opening is "show".
/**
 * @param {CpView} view
 * @param {string} text
 */
function verbOf(view, text) {
  const verb = text.startsWith("keep") || text.startsWith("end") ? text.replace(/ /g, "_") : text.split(" ")[0];
  if (verb === "end_questioning" && view.mode === "detective") return "end_questioning_vote";
  return verb === "reveal" && view.phase === "opening" ? "show" : verb;
}

// The buttons grouped by what they do, each group after the line that says it.
/**
 * @param {Ctx} ctx
 * @param {CpView} view
 * @param {string[]} texts
 */
function groups(ctx, view, texts) {
  const { h, t, table } = ctx;
  /** @type {string[]} */
  const order = [];
  /** @type {{ [verb: string]: HTMLElement[] }} */
  const byVerb = {};
  texts.forEach((text, i) => {
    const verb = verbOf(view, text);
    if (!byVerb[verb]) order.push(verb);
    (byVerb[verb] ||= []).push(
      h(
        "button",
        { class: `action ${/^(arrest|vote)/.test(text) ? "cp-accuse" : ""}`, "data-action": table.legal[i], "data-text": text, onclick: () => ctx.act(table.legal[i]) },
        actionLabel(ctx, view, text),
      ),
    );
  });
  return order.flatMap((verb) => [ctx.tOr(`${P}.help.${verb}`, "") ? h("p", { class: "act-help", "data-help": verb }, t(`${P}.help.${verb}`, { role: investigatorWord(ctx, view) })) : null, ...byVerb[verb]]);
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function questioningHint(ctx, view) {
  const { h, t } = ctx;
  const chat = () => {
    const input = document.getElementById("chat-text");
    if (input) {
      input.scrollIntoView({ block: "center" });
      input.focus();
    }
  };
  return h(
    "p",
    { class: "cp-questioning", id: "cp-questioning" },
    t(`${P}.questioning_help`, { role: investigatorWord(ctx, view) }),
    " ",
    document.getElementById("chat-text") ? h("button", { type: "button", class: "quiet small", onclick: chat }, t(`${P}.to_chat`)) : null,
  );
}
