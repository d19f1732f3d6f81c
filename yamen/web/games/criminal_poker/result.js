// @ts-check
// The end for this seat: "You won" / "You lost", its side and why, and every seat's identity and
// outcome in words. The cards themselves are turned over below (reveal.js).

import { P, roleName } from "./cards.js";

// Which side a seat played for, as the win conditions say it (RULINGS, Criminal Poker).
/**
 * @param {CpFinalSeat} seat
 * @param {number[]} culprits
 */
function side(seat, culprits) {
  if (seat.identity === "antisocial") return "antisocial";
  if (seat.identity === "mastermind") return "mastermind";
  return culprits.includes(seat.seat) ? "culprit" : "sheriff";
}

/** @param {Ctx} ctx */
export function result(ctx) {
  const { h, t, names, table } = ctx;
  const view = /** @type {CpView} */ (table.view);
  const final = view.final;
  if (!table.result || !final) return null;
  const culprits = final.culprits || [];
  const arrested = final.arrested || [];
  const list = (/** @type {number[]} */ seats) => seats.map((s) => names[s]).join(", ");
  const mine = view.seat === null || view.seat === undefined ? null : final.seats[view.seat];
  const outcome = arrested.length ? t(final.caught ? `${P}.caught` : `${P}.not_caught`, { names: list(arrested) }) : t(`${P}.nobody_arrested`);
  const rows = final.seats.map((s) =>
    h(
      "li",
      { class: s.won ? "won" : "lost", "data-seat": s.seat },
      h("b", {}, names[s.seat]),
      ` · ${roleName(ctx, view, s.identity)}`,
      s.culprit ? ` · ${t(`${P}.culprit`)}` : "",
      s.arrested ? ` · ${t(`${P}.arrested`)}` : "",
      " · ",
      h("span", { class: "cp-outcome-word" }, s.won ? t(`${P}.won`) : t(`${P}.lost`)),
    ),
  );
  return h(
    "section",
    { class: "result cp-result", id: "result" },
    h("h2", {}, t("game_over")),
    mine ? h("p", { class: `headline headline-${mine.won ? "won" : "lost"}`, id: "headline", "data-outcome": mine.won ? "won" : "lost" }, mine.won ? t(`${P}.you_won`) : t(`${P}.you_lost`)) : null,
    mine ? h("p", { class: "cp-side", id: "cp-side" }, t(`${P}.your_side`, { side: t(`${P}.wins.${side(mine, culprits)}`) })) : null,
    h("p", {}, t(`${P}.culprit_was`, { names: list(culprits) }), " ", outcome),
    h("ol", { class: "cp-results" }, rows),
  );
}
