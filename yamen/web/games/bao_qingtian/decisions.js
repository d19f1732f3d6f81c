// @ts-check
// The seat's decisions, every one a button in words with a line saying what it does: naming
// the crime, appointing, the captor's guesses, the sentence, the verdict.

import { P, PUNISHMENTS, SIGN, cardName, officeName } from "./common.js";

let punishmentChoice = 0; // the judge's pick in the catalogue, kept across redraws
let ownDraft = { words: "", count: "1" }; // the judge's own words while typed, kept across redraws

// Outside the judge's step the judge's drafts are forgotten.
/** @param {BqView} view */
export function forgetDrafts(view) {
  if (view.phase !== "punish") {
    punishmentChoice = 0;
    ownDraft = { words: "", count: "1" };
  }
}

/** @typedef {[string, string]} Pair an action's text and the id to send */

/**
 * @param {Ctx} ctx
 * @param {string} id
 * @param {Child} label
 * @param {{ [attribute: string]: string }} [extra]
 */
function button(ctx, id, label, extra = {}) {
  return ctx.h("button", { class: "action", "data-action": id, onclick: () => ctx.act(id), ...extra }, label);
}

// A seat in a picker: its number and name (a phone shows only the number of a long list's
// seats; the button's title and aria-label say the whole choice).
/**
 * @param {Ctx} ctx
 * @param {number} seat
 */
function pickLabel(ctx, seat) {
  return [ctx.h("span", { class: "bq-pick-no" }, String(seat + 1)), " ", ctx.h("span", { class: "bq-pick-name" }, ctx.names[seat])];
}

// What a choice does, said before it is made.
/**
 * @param {Ctx} ctx
 * @param {string} key
 * @param {{ [name: string]: unknown }} [params]
 */
function help(ctx, key, params = {}) {
  return ctx.h("p", { class: "act-help", "data-help": key }, ctx.t(`${P}.help.${key}`, params));
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {Pair[]} pairs
 * @param {string | null} note
 */
function guessing(ctx, view, pairs, note) {
  const { h, t, names } = ctx;
  const card = cardName(ctx, view.criminal);
  const simple = pairs.filter(([text]) => !text.endsWith(" holds"));
  const holds = pairs.filter(([text]) => text.endsWith(" holds"));
  const left = view.capture ? view.capture.guesses_left : 0;
  const waits = simple.some(([text]) => text === "wait");
  return [
    h("p", { class: "bq-ask" }, t(`${P}.guess_ask`, { card, n: left })),
    waits ? help(ctx, "wait") : note ? null : help(ctx, "must_guess"),
    simple.length > (waits ? 1 : 0) ? help(ctx, "guess_turn", { card }) : null,
    simple.map(([text, id]) => {
      if (text === "wait") return button(ctx, id, t(`${P}.act.wait`), { class: "action bq-wait" });
      const [, seat, form] = text.split(" ");
      return button(ctx, id, t(`${P}.act.guess_${form}`, { name: names[Number(seat)] }));
    }),
    holds.length ? h("p", { class: "bq-ask" }, t(`${P}.guess_holds`)) : null,
    holds.length ? help(ctx, "guess_holds", { card }) : null,
    h(
      "div",
      { class: `bq-picker${holds.length > 12 ? " many" : ""}` },
      holds.map(([text, id]) => {
        const seat = Number(text.split(" ")[1]);
        const says = t(`${P}.act.guess_holds`, { name: names[seat] });
        return button(ctx, id, pickLabel(ctx, seat), { class: "action bq-seat-button", title: says, "aria-label": says });
      }),
    ),
  ];
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {Pair[]} pairs
 */
function numbers(ctx, view, pairs) {
  const { t } = ctx;
  return [
    help(ctx, view.phase),
    pairs.map(([text, id]) => {
      const n = Number(text.split(" ")[1]);
      const count = view.count ?? 0;
      const after = view.phase === "plus" ? count + n : view.phase === "minus" ? Math.max(0, count - n) : view.phase === "times" ? count * n : Math.floor(count / n);
      return button(ctx, id, `${SIGN[view.phase]}${n} → ${after}`, { class: "action bq-number", title: t(`${P}.step_${view.phase}`, { n, count: after }) });
    }),
  ];
}

// ``note``: why the seat is asked although it keeps waiting (keep_waiting.js), or null.
/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {string | null} [note]
 */
export function decisions(ctx, view, note = null) {
  const { h, t, names, table } = ctx;
  const texts = view.legal || [];
  if (!texts.length || view.phase === "draw" || view.phase === "capture") return null;
  const pairs = texts.map((text, i) => /** @type {Pair} */ ([text, table.legal[i]]));
  const ask = ctx.tOr(`${P}.ask.${view.phase}`, "");
  const head = h("p", { class: "your-move" }, t("your_move"), ask ? ` · ${ask}` : "");
  /** @type {Child} */
  let body;
  switch (view.phase) {
    case "name":
      body = [help(ctx, "name"), pairs.map(([text, id]) => button(ctx, id, t(`${P}.act.name`, { card: cardName(ctx, text.split(" ")[1]) })))];
      break;
    case "appoint": {
      const a = view.appointing || { by: -1, office: "" };
      const holders = new Set(a.holders || []);
      body = [
        h("p", { class: "bq-ask" }, t(`${P}.appoint_who`, { office: officeName(ctx, a.office) })),
        h("p", { class: "act-help", "data-help": "duty" }, t(`${P}.duty.${a.office}`)),
        h(
          "div",
          { class: `bq-picker${pairs.length > 12 ? " many" : ""}` },
          pairs.map(([text, id]) => {
            const seat = Number(text.split(" ")[1]);
            const says = t(`${P}.act.appoint`, { name: names[seat], office: officeName(ctx, a.office) });
            return button(ctx, id, pickLabel(ctx, seat), { class: `action bq-seat-button ${holders.has(seat) ? "holder" : ""}`, title: says, "aria-label": says });
          }),
        ),
      ];
      break;
    }
    case "guess":
      body = guessing(ctx, view, pairs, note);
      break;
    case "punish":
      body = [help(ctx, "punish"), punishControls(ctx, view, pairs)];
      break;
    case "plus":
    case "minus":
    case "times":
    case "divide":
      body = numbers(ctx, view, pairs);
      break;
    default:
      body = pairs.map(([text, id]) => [
        ctx.tOr(`${P}.help.${text.replace(/ /g, "_")}`, "") ? help(ctx, text.replace(/ /g, "_")) : null,
        button(ctx, id, ctx.tOr(`${P}.act.${text.replace(/ /g, "_")}`, text)),
      ]);
  }
  return h(
    "div",
    { class: `actions bq-actions bq-actions-${view.phase.replace(/ /g, "-")}`, role: "group", "aria-label": t("your_move") },
    head,
    note ? h("p", { class: "bq-keep-note", id: "bq-keep-note" }, note) : null,
    [body].flat(4),
  );
}

// The judge: a punishment from the catalogue (or its own words) and a count from 1 to 10.
/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {Pair[]} pairs
 */
function punishControls(ctx, view, pairs) {
  const { h, t } = ctx;
  const byText = Object.fromEntries(pairs);
  const select = h(
    "select",
    { id: "bq-punishment-choice", "aria-label": t(`${P}.punishment`), onchange: (/** @type {Event} */ e) => {
      punishmentChoice = Number(/** @type {HTMLSelectElement} */ (e.target).value);
      ctx.redraw?.();
      document.getElementById("bq-punishment-choice")?.focus();
    } },
    PUNISHMENTS.map((_, i) => h("option", { value: i, selected: i === punishmentChoice }, t(`${P}.punishment.${i + 1}`))),
  );
  const words = PUNISHMENTS[punishmentChoice];
  /** @type {HTMLElement[]} */
  const counts = [];
  for (let n = 1; n <= 10; n++) {
    const id = byText[`punish "${words}" ${n}`];
    if (id !== undefined) counts.push(button(ctx, id, n === 1 ? t(`${P}.once`) : t(`${P}.n_times`, { n }), { class: "action bq-number" }));
  }
  const own = h("input", { id: "bq-own-words", maxlength: 80, placeholder: t(`${P}.own_words`), "aria-label": t(`${P}.own_words`), oninput: (/** @type {Event} */ e) => (ownDraft.words = /** @type {HTMLInputElement} */ (e.target).value) });
  own.value = ownDraft.words;
  const ownCount = h(
    "select",
    { id: "bq-own-count", "aria-label": t(`${P}.count`), onchange: (/** @type {Event} */ e) => (ownDraft.count = /** @type {HTMLSelectElement} */ (e.target).value) },
    Array.from({ length: 10 }, (_, i) => h("option", { value: i + 1, selected: String(i + 1) === ownDraft.count }, String(i + 1))),
  );
  const sendOwn = (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const text = own.value.replace(/\s+/g, " ").trim();
    if (text) ctx.actText(`punish "${text}" ${ownCount.value}`);
  };
  return [
    h("label", { class: "bq-ask" }, t(`${P}.punishment`), " ", select),
    h("div", { class: "bq-picker" }, counts),
    h("form", { class: "bq-own", onsubmit: sendOwn }, own, ownCount, h("button", { type: "submit", class: "quiet" }, t(`${P}.act.own_words`))),
  ];
}
