// @ts-check
// The end of a trial: a headline for this seat, the verdict, the sentence worked through step by
// step in words, the winners, and the room's running ledger of punishments. Never raw data.

import { P, cardName, counted, isSeat, officeName, punishmentName } from "./common.js";

/**
 * @param {Ctx} ctx
 * @param {BqResult} r
 * @param {number | null | undefined} seat
 * @returns {[string, string] | null}
 */
function headlineFor(ctx, r, seat) {
  const { t } = ctx;
  if (!isSeat(seat)) return null;
  if (r.winners.includes(seat)) return ["won", t(`${P}.you.won`)];
  if (r.tried === seat) {
    if (r.verdict === "pardoned") return ["pardoned", t(`${P}.you.pardoned`)];
    return ["lost", t(`${P}.you.punished`, { n: r.count, what: punishmentName(ctx, r.punishment) })];
  }
  return ["spared", t(`${P}.you.spared`)];
}

// Each step of the sentence: who gave which number, and the count after it.
/**
 * @param {Ctx} ctx
 * @param {BqResult} r
 */
function breakdown(ctx, r) {
  const { h, t, names } = ctx;
  const rows = (r.sentence || []).map((s) =>
    h("li", {}, t(`${P}.step_by`, { office: officeName(ctx, s.step), name: names[s.seat] }), " ", h("b", {}, s.step === "judge" ? t(`${P}.step_judge`, { n: s.number }) : t(`${P}.step_${s.step}`, { n: s.number, count: s.count }))),
  );
  if (r.severity) {
    const seat = r.offices && r.offices.severity;
    rows.push(h("li", {}, isSeat(seat) ? t(`${P}.step_by`, { office: officeName(ctx, "severity"), name: names[seat] }) : officeName(ctx, "severity"), " ", h("b", {}, t(`${P}.severity.${r.severity}`))));
  }
  if (r.verdict) rows.push(h("li", {}, isSeat(r.emperor) ? t(`${P}.step_by`, { office: officeName(ctx, "emperor"), name: names[r.emperor] }) : officeName(ctx, "emperor"), " ", h("b", {}, t(`${P}.verdict.${r.verdict}`))));
  return rows.length ? h("ol", { class: "bq-breakdown", id: "bq-breakdown" }, rows) : null;
}

/** @param {Ctx} ctx */
export function ledger(ctx) {
  const { h, t, names, table } = ctx;
  const room = /** @type {Partial<Room>} */ (ctx.room);
  const r = /** @type {BqResult | null} */ (table.result);
  if (!r) return null;
  const verdict =
    r.verdict === "pardoned"
      ? t(`${P}.end.pardoned`, { name: names[r.tried] })
      : t(`${P}.end.executed`, { name: names[r.tried], n: r.count, what: punishmentName(ctx, r.punishment) });
  const why =
    r.why === "caught"
      ? t(`${P}.end.caught`, { name: names[r.offices.captor], card: cardName(ctx, r.criminal) })
      : r.escaped && r.escaped.length
        ? t(`${P}.end.escaped`, { names: r.escaped.map((s) => names[s]).join(", ") })
        : t(`${P}.end.escaped_none`);
  const scores = (room && room.scores) || r.scores;
  const punished = scores.map((s, seat) => /** @type {[number, number]} */ ([seat, Number(s)])).filter(([, s]) => s !== 0);
  const mine = headlineFor(ctx, r, table.view.seat);
  return h(
    "section",
    { class: "result bq-ledger", id: "result" },
    h("h2", {}, t("game_over")),
    mine ? h("p", { class: `headline headline-${mine[0]}`, id: "headline", "data-outcome": mine[0] }, mine[1]) : null,
    h("p", { class: "bq-headline", id: "bq-headline" }, h("b", {}, verdict)),
    h("p", {}, why),
    h("p", { id: "bq-winners" }, r.winners.length ? t(`${P}.winners`, { names: r.winners.map((s) => names[s]).join(", ") }) : t(`${P}.no_winners`)),
    h("h3", {}, t(`${P}.sentence_title`)),
    breakdown(ctx, r),
    h("p", { class: "hint" }, t(`${P}.scoring`)),
    h("h3", {}, counted(t, `${P}.room_ledger`, { n: (room && room.number) || 1 })),
    punished.length
      ? h("ol", { class: "bq-room-ledger", id: "bq-room-ledger" }, punished.sort((a, b) => a[1] - b[1]).map(([seat, s]) => h("li", {}, counted(t, `${P}.ledger_line`, { name: names[seat], n: -s }))))
      : h("p", { class: "hint", id: "bq-room-ledger" }, t(`${P}.ledger_empty`)),
  );
}
