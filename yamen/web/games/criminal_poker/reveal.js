// @ts-check
// The reveal: every seat's cards turned over, the culprit rule that applied, and the rules.

import { P, assess, counted, evidence, roleName } from "./cards.js";

// ----- the reveal ----------------------------------------------------------------------------

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function reveal(ctx, view) {
  const { h, t, names } = ctx;
  /** @type {CpFinal | null} */
  const final = view.final || (ctx.table.result && "seats" in ctx.table.result && ctx.table.result.seats ? /** @type {CpFinal} */ (/** @type {unknown} */ (ctx.table.result)) : null);
  if (!final) return null;
  const culprits = final.culprits || [];
  const arrested = final.arrested || [];
  const rows = final.seats.map((s) => {
    const isSuspect = s.innocence !== null && s.innocence !== undefined;
    const worth = assess(view, [...s.shown, ...s.hidden]);
    const counted = (/** @type {string} */ id) => (final.by_weapon ? null : worth.counted.has(id));
    /** @type {[string, string][]} */
    const marks = [];
    if (s.culprit) marks.push(["culprit", t(`${P}.culprit`)]);
    if (s.arrested) marks.push(["arrested", t(`${P}.arrested`)]);
    if (s.won) marks.push(["won", t("winner")]);
    return h(
      "li",
      { class: `${s.culprit ? "cp-culprit" : ""} ${s.arrested ? "cp-was-arrested" : ""}`, "data-seat": s.seat },
      h(
        "div",
        { class: "cp-seat-head" },
        h("b", {}, names[s.seat]),
        h("span", { class: `cp-role cp-role-${s.identity}` }, roleName(ctx, view, s.identity)),
        ...marks.map(([kind, text]) => h("span", { class: `cp-mark cp-${kind}` }, text)),
      ),
      isSuspect
        ? h(
            "div",
            { class: "cp-row" },
            s.shown.map((id) => evidence(ctx, view, id, { counted: counted(id) })),
            s.hidden.map((id) => evidence(ctx, view, id, { hidden: true, counted: counted(id) })),
          )
        : h("div", { class: "hint" }, t(`${P}.holds_no_evidence`)),
      isSuspect
        ? h("p", { class: "cp-sum" }, worth.weapon ? t(`${P}.held_weapon`) : t(`${P}.sum`, { total: s.innocence, valid: s.valid }))
        : null,
    );
  });
  const list = (/** @type {number[]} */ seats) => seats.map((s) => names[s]).join(", ");
  let why;
  if (final.by_weapon) why = t(`${P}.why_weapon`, { names: list(culprits) });
  else if (culprits.length > 1) why = t(`${P}.why_joint`, { names: list(culprits), total: final.seats[culprits[0]].innocence, valid: final.seats[culprits[0]].valid });
  else {
    const c = final.seats[culprits[0]];
    const tied = final.seats.filter((s) => s.innocence === c.innocence && s.seat !== c.seat);
    why = tied.length
      ? t(`${P}.why_fewer_valid`, { name: names[c.seat], total: c.innocence, valid: c.valid })
      : t(`${P}.why_lowest`, { name: names[c.seat], total: c.innocence });
  }
  const outcome = arrested.length
    ? t(final.caught ? `${P}.caught` : `${P}.not_caught`, { names: list(arrested) })
    : t(`${P}.nobody_arrested`);
  return h(
    "section",
    { class: "cp-reveal", id: "cp-reveal" },
    h("h2", {}, t(`${P}.reveal_title`)),
    h("p", { class: "cp-why", id: "cp-why" }, why),
    h("p", { class: "cp-outcome", id: "cp-outcome" }, outcome),
    h("p", { class: "hint" }, t(`${P}.legend`)),
    h("ol", { class: "cp-final" }, rows),
    rules(ctx),
  );
}

/** @param {Ctx} ctx */
export function rules(ctx) {
  const { h, t } = ctx;
  return h(
    "details",
    { class: "cp-rules", id: "cp-rules" },
    h("summary", {}, t(`${P}.rules_title`)),
    h("ol", {}, [1, 2, 3, 4, 5].map((n) => h("li", {}, t(`${P}.rule.${n}`)))),
    h("h4", {}, t(`${P}.wins_title`)),
    h("ul", {}, ["sheriff", "culprit", "mastermind", "antisocial"].map((k) => h("li", {}, t(`${P}.wins.${k}`)))),
  );
}
