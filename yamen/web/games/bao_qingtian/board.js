// @ts-check
// The public board of a trial: the phase, the seats with their offices, who holds which office,
// an appointment being made, the captor's hunt and the sentence as it is built.

import { P, OFFICES, STEPS, cardName, counted, officeName, officesBySeat, punishmentName } from "./common.js";

// ----- the parts -----------------------------------------------------------------------------

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function heading(ctx, view) {
  const { h, t, tOr, names } = ctx;
  const facts = [
    t(`${P}.pile`, { n: view.pile }),
    t(`${P}.discards`, { n: view.discards }),
    counted(t, `${P}.cards_each`, { n: view.cards_each }),
    t(`${P}.first`, { name: names[view.first] }),
  ];
  return h(
    "div",
    { class: "bq-head" },
    h("p", { class: "phase", id: "bq-phase" }, h("b", {}, tOr(`${P}.phase.${view.phase}`, view.phase)), " · ", tOr(`${P}.phase_help.${view.phase}`, "")),
    view.seeking ? h("p", { class: "bq-seeking" }, t(`${P}.seeking`, { office: officeName(ctx, view.seeking) })) : null,
    view.criminal ? h("p", { class: "bq-crime", id: "bq-crime" }, t(`${P}.crime`, { card: cardName(ctx, view.criminal) })) : null,
    h("p", { class: "bq-facts" }, facts.join(" · ")),
  );
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function seatList(ctx, view) {
  const { h, t, table } = ctx;
  const held = officesBySeat(view);
  const holders = new Set((view.appointing && view.appointing.holders) || []);
  const deadlines = (table.result === null && table.deadlines) || {};
  const result = /** @type {BqResult | null} */ (table.result);
  const escaped = new Set((result && result.escaped) || []);
  const winners = new Set((table.result && table.result.winners) || []);
  /** @type {{ [seat: number]: number }} */
  const missed = {};
  for (const g of (view.capture && view.capture.guesses) || []) if (!g.hit) missed[g.seat] = (missed[g.seat] || 0) + 1;
  return h(
    "ol",
    { class: `bq-seats ${view.players > 12 ? "many" : ""}`, id: "bq-seats", "aria-label": t("seats") },
    Array.from({ length: view.players }, (_, seat) => {
      /** @type {HTMLElement[]} */
      const marks = [];
      if (seat === view.turn) marks.push(h("span", { class: "bq-m bq-turn", title: t(`${P}.its_turn`) }, "▶"));
      if (seat === view.last_turn && view.phase === "guess") marks.push(h("span", { class: "bq-m", title: t(`${P}.last_turn`) }, "↺"));
      if (holders.has(seat)) marks.push(h("span", { class: "bq-m bq-holder", title: t(`${P}.holds_card`) }, "◆"));
      if (missed[seat]) marks.push(h("span", { class: "bq-m bq-missed", title: t(`${P}.missed_n`, { n: missed[seat] }) }, `✗${missed[seat]}`));
      if (escaped.has(seat)) marks.push(h("span", { class: "bq-m bq-escaped" }, t(`${P}.escaped`)));
      if (winners.has(seat)) marks.push(h("span", { class: "bq-m bq-won" }, t("winner")));
      const classes = [
        table.pending.includes(seat) ? "pending" : "",
        seat === view.seat ? "mine" : "",
        seat === view.accused ? "accused" : "",
        seat === view.turn ? "turn" : "",
      ];
      const left = deadlines[String(seat)];
      return h(
        "li",
        { class: classes.join(" "), "data-seat": seat, title: ctx.names[seat] },
        h("span", { class: "bq-no" }, seat + 1), // (people count seats from 1; the wire from 0)
        h("span", { class: "bq-name" }, ctx.names[seat]),
        (held[seat] || []).map((office) => h("span", { class: `bq-office bq-${office}`, title: officeName(ctx, office) }, t(`${P}.badge.${office}`))),
        ...marks,
        left ? h("span", { class: "timer", "data-deadline": left }, "") : null,
      );
    }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function offices(ctx, view) {
  const { h, t, names } = ctx;
  /** @type {[string, number, string | null | undefined][]} */
  const rows = [];
  if (view.emperor !== null && view.emperor !== undefined) rows.push(["emperor", view.emperor, null]);
  for (const office of OFFICES) {
    const seat = view.offices && view.offices[office];
    if (seat !== undefined && seat !== null) rows.push([office, seat, view.how && view.how[office]]);
  }
  if (!rows.length) return null;
  return h(
    "dl",
    { class: "bq-offices", id: "bq-offices" },
    rows.map(([office, seat, how]) =>
      h("div", { class: "bq-office-row" }, h("dt", {}, officeName(ctx, office)), h("dd", {}, names[seat], how ? h("span", { class: "bq-how" }, ` · ${t(`${P}.how.${how}`)}`) : null)),
    ),
  );
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function appointing(ctx, view) {
  const { h, t, names } = ctx;
  const a = view.appointing;
  if (!a) return null;
  const holders = a.holders && a.holders.length ? a.holders.map((s) => names[s]).join(", ") : t(`${P}.nobody`);
  return h(
    "p",
    { class: "bq-appointing", id: "bq-appointing" },
    t(`${P}.appointing`, { by: names[a.by], office: officeName(ctx, a.office) }),
    " ",
    t(`${P}.holders`, { names: holders }),
  );
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function capture(ctx, view) {
  const { h, t, names } = ctx;
  const c = view.capture;
  if (!c) return null;
  return h(
    "section",
    { class: "bq-capture", id: "bq-capture" },
    h(
      "div",
      { class: "bq-capture-head" },
      h("span", { class: "bq-left", id: "bq-guesses-left", "data-left": c.guesses_left }, String(c.guesses_left)),
      h(
        "div",
        {},
        h("b", {}, counted(t, `${P}.guesses_left`, { n: c.guesses_left })),
        h("br"),
        t(`${P}.capture_by`, { name: names[c.captor], round: c.round }),
        c.guessed_this_round || view.phase === "over" ? "" : h("span", { class: "bq-must" }, ` · ${t(`${P}.must_guess`)}`),
      ),
    ),
    c.guesses.length
      ? h(
          "ol",
          { class: "bq-guesses", id: "bq-guesses" },
          c.guesses.map((g) =>
            h(
              "li",
              { class: g.hit ? "hit" : "miss" },
              t(`${P}.guess.${g.form}`, { name: names[g.seat] }),
              " · ",
              h("b", {}, g.hit ? t(`${P}.caught`) : t(`${P}.missed`)),
              h("span", { class: "bq-round" }, ` (${t(`${P}.round_n`, { n: g.round })})`),
            ),
          ),
        )
      : null,
  );
}

// The sentence as it is built: every step, the ones still to come greyed out.
/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function trial(ctx, view) {
  const { h, t, names } = ctx;
  if (view.accused === null || view.accused === undefined) return null;
  /** @type {{ [step: string]: BqStep }} */
  const done = {};
  for (const step of view.sentence || []) done[step.step] = step;
  const steps = STEPS.map((step) => {
    const made = done[step];
    const office = step;
    const who = view.offices && view.offices[office] !== undefined ? names[view.offices[office]] : "…";
    const current = view.phase === (step === "judge" ? "punish" : step);
    return h(
      "li",
      { class: `bq-step ${made ? "done" : current ? "current" : "todo"}`, "data-step": step },
      h("span", { class: "bq-step-who" }, `${officeName(ctx, office)} · ${who}`),
      h(
        "span",
        { class: "bq-step-what" },
        made
          ? step === "judge"
            ? t(`${P}.step_judge`, { n: made.number })
            : t(`${P}.step_${step}`, { n: made.number, count: made.count })
          : current
            ? t(`${P}.deciding`)
            : "…",
      ),
    );
  });
  const severity = view.severity ? t(`${P}.severity.${view.severity}`) : view.phase === "severity" ? t(`${P}.deciding`) : "…";
  return h(
    "section",
    { class: "bq-trial", id: "bq-trial" },
    h("h3", {}, t(`${P}.on_trial`, { name: names[view.accused] }), " · ", t(`${P}.why.${view.why}`)),
    view.punishment ? h("p", { class: "bq-punishment", id: "bq-punishment" }, t(`${P}.punishment_is`, { what: punishmentName(ctx, view.punishment) })) : null,
    h("ol", { class: "bq-sentence", id: "bq-sentence" }, steps, h("li", { class: `bq-step ${view.severity ? "done" : "todo"}`, "data-step": "severity" }, h("span", { class: "bq-step-who" }, officeName(ctx, "severity")), h("span", { class: "bq-step-what" }, severity))),
    view.count !== null && view.count !== undefined
      ? h("p", { class: "bq-count", id: "bq-count" }, t(`${P}.count_now`, { n: view.count, what: view.punishment ? punishmentName(ctx, view.punishment) : "" }))
      : null,
    view.verdict ? h("p", { class: "bq-verdict", id: "bq-verdict" }, h("b", {}, t(`${P}.verdict.${view.verdict}`))) : null,
  );
}
