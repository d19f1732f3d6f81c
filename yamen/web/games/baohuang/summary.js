// @ts-check
// A finished deal told in words: the places with their names (頭科 … 大落), the sides, the
// scoring worked through (place points, the split, the doubling) and the tribute to come; the
// end-of-game headline for this seat; and the running table of every deal's scores.
//
// Between deals the table shows the last deal's summary open while the new deal has not
// started playing (nothing played, nobody out yet), then folds it away: it stays one click
// away ("Last deal") for the rest of the deal.

import { cardWords, roleWords } from "./words.js";

/** @type {Map<number, boolean>} */
const folded = new Map(); // deal -> open or not, once the player has toggled its summary

/** @type {{ [variant: string]: number[] }} */
const PLACES = { shandong: [6, 3, 0, -3, -6], japanese: [2, 1, 0, -1, -2] };
/** @type {{ [variant: string]: number[] }} */
const SOLO = { shandong: [16, 4, 0, -4, -16], japanese: [12, 0, -12, -12, -12] };
const GRAB = 40;
const SHARE = { emperor: 2, solo: 4, other: 1 }; // tribute.py: cards given or taken

/** @type {(a: number, b: number) => number} */
const gcd = (a, b) => (b ? gcd(b, a % b) : Math.abs(a));
// An exact score as text: "2", "-1/3"; a Unicode minus, a plus for gains.
/**
 * @param {number} n
 * @param {number} [d]
 */
function frac(n, d = 1) {
  const g = gcd(n, d) || 1;
  const [a, b] = [n / g, d / g];
  const s = b === 1 ? String(Math.abs(a)) : `${Math.abs(a)}/${b}`;
  return a < 0 ? `−${s}` : a > 0 ? `+${s}` : "0";
}
const scoreText = (/** @type {number | string} */ s) => (typeof s === "number" ? frac(s) : String(s).startsWith("-") ? `−${String(s).slice(1)}` : `+${s}`);

// The scoring of deal ``d`` worked through, one line each.
/**
 * @param {Ctx} ctx
 * @param {string} variant
 * @param {BhDeal} d
 */
function worked(ctx, variant, d) {
  const { t, names } = ctx;
  const place = (/** @type {number} */ seat) => d.places.indexOf(seat);
  const placeName = (/** @type {number} */ seat) => t(`baohuang.place.${place(seat) + 1}`);
  const e = d.emperor;
  /** @type {string[]} */
  const lines = [];
  if (d.grabbed) {
    const won = place(e) === 0;
    lines.push(t("baohuang.sum.grab", { who: names[e], place: placeName(e), e: frac(won ? GRAB : -GRAB), each: frac(won ? -GRAB / 4 : GRAB / 4) }));
    return lines;
  }
  const japanese = variant === "japanese";
  const rebellion = japanese && d.rebels.length > 0;
  if (d.partner === null) {
    const base = SOLO[variant][place(e)];
    const factor = (japanese ? (rebellion ? 2 : 1) * (d.declared ? 2 : 1) : d.declared ? 2 : 1);
    lines.push(t("baohuang.sum.solo", { who: names[e], place: placeName(e), e: frac(base), each: frac(-base, 4) }));
    if (d.declared) lines.push(t(japanese ? "baohuang.sum.double_solo" : "baohuang.sum.double_solo_sd"));
    if (rebellion) lines.push(t("baohuang.sum.double_rebellion"));
    if (factor > 1) lines.push(t("baohuang.sum.final_solo", { factor, e: frac(base * factor), each: frac(-base * factor, 4) }));
    return lines;
  }
  const p = d.partner;
  const pe = PLACES[variant][place(e)];
  const pp = PLACES[variant][place(p)];
  const side = pe + pp;
  lines.push(t("baohuang.sum.side", { e: names[e], pe: `${placeName(e)} ${frac(pe)}`, p: names[p], pp: `${placeName(p)} ${frac(pp)}`, side: frac(side) }));
  const factor = japanese ? (rebellion ? 2 : 1) : d.declared ? 2 : 1;
  if (japanese) lines.push(t("baohuang.sum.split_ja", { e: frac(2 * side), p: frac(side), r: frac(-side) }));
  else lines.push(t("baohuang.sum.split", { e: frac(2 * side, 3), p: frac(side, 3), r: frac(-side, 3) }));
  if (factor > 1) {
    lines.push(t(japanese ? "baohuang.sum.double_rebellion" : "baohuang.sum.double_declared"));
    const [e2, p2, r2] = japanese ? [frac(4 * side), frac(2 * side), frac(-2 * side)] : [frac(4 * side, 3), frac(2 * side, 3), frac(-2 * side, 3)];
    lines.push(t("baohuang.sum.final", { e: e2, p: p2, r: r2 }));
  }
  return lines;
}

// Japanese rules: who gives and who takes tribute (上納) at the start of the next deal.
/**
 * @param {Ctx} ctx
 * @param {BhDeal} d
 */
function tributeToCome(ctx, d) {
  const { t, names } = ctx;
  const share = (/** @type {number} */ seat) => (seat === d.emperor ? (d.partner === null ? SHARE.solo : SHARE.emperor) : SHARE.other);
  const givers = [0, 1, 2, 3, 4].filter((s) => num(d.scores[s]) < 0);
  const takers = [0, 1, 2, 3, 4].filter((s) => num(d.scores[s]) > 0);
  if (!givers.length) return t("baohuang.sum.no_tribute");
  const list = (/** @type {number[]} */ seats) => seats.map((s) => `${names[s]} ×${share(s)}`).join(t("baohuang.sep"));
  return t("baohuang.sum.tribute", { give: list(givers), take: list(takers) });
}

// One deal's summary: places, sides, the scoring worked through, the tribute to come.
/**
 * @param {Ctx} ctx
 * @param {string} variant
 * @param {BhDeal} d
 * @param {{ more: boolean }} how more: deals follow (the tribute to come is said)
 */
export function dealSummary(ctx, variant, d, { more }) {
  const { h, t, names } = ctx;
  const roleOf = (/** @type {number} */ seat) => {
    if (seat === d.emperor) return d.partner === null ? "solo emperor" : "emperor";
    if (seat === d.partner) return variant === "japanese" ? "guard" : "royalist";
    return variant === "japanese" ? "commoner" : "rebel";
  };
  const places = d.places.map((seat, i) =>
    h(
      "li",
      { "data-seat": seat },
      h("span", { class: "place" }, t(`baohuang.place.${i + 1}`)),
      " ",
      h("b", {}, names[seat]),
      ` · ${roleWords(ctx, roleOf(seat))} · `,
      h("span", { class: "pts" }, scoreText(d.scores[seat])),
    ),
  );
  const called = d.called ? [" ", t("baohuang.sum.called", { card: cardWords(t, d.called) })] : null;
  return h(
    "div",
    { class: "bh-deal-summary", "data-deal": d.deal },
    h("ol", { class: "bh-places" }, places),
    called ? h("p", {}, called) : null,
    h("ul", { class: "bh-worked" }, worked(ctx, variant, d).map((line) => h("li", {}, line))),
    variant === "japanese" && more ? h("p", { class: "bh-tribute-next" }, tributeToCome(ctx, d)) : null,
  );
}

// Between deals: the last deal's summary, open until the new deal's first play.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function lastDeal(ctx, view) {
  const { h, t } = ctx;
  const d = (view.history || []).slice(-1)[0];
  if (!d || ctx.table.result) return null;
  const starting = !(view.played || []).length && !(view.out || []).length;
  const open = folded.has(d.deal) ? folded.get(d.deal) : starting;
  return h(
    "details",
    { class: "bh-last-deal", id: "bh-last-deal", open },
    h("summary", { onclick: (/** @type {Event} */ e) => folded.set(d.deal, !(/** @type {HTMLDetailsElement} */ (/** @type {HTMLElement} */ (e.currentTarget).parentElement)).open) }, t("baohuang.sum.title", { n: d.deal })),
    dealSummary(ctx, view.variant, d, { more: true }),
  );
}

// A score as a number ("4/3" as 4): only its sign is read.
/** @param {number | string} s */
const num = (s) => (typeof s === "number" ? s : Number(String(s).split("/")[0]));

// Who won: over several deals the best totals (the result's winners); in one deal the winning
// side, every seat of it (the emperor with its partner, or the others), whose scores are all
// above 0, as each seat's verdict reads it.
/**
 * @param {BhResult} r
 * @param {BhDeal[]} deals
 */
export function winningSeats(r, deals) {
  return deals.length > 1 ? r.winners : r.places.filter((seat) => num(r.scores[seat]) > 0);
}

// The end of the game for this seat: won or lost, its side, the breakdown, the final places.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function headline(ctx, view) {
  const { h, t, table, names } = ctx;
  const r = /** @type {BhResult | null} */ (table.result);
  if (!r) return null;
  const deals = (r.deals || view.history || []);
  const d = deals[deals.length - 1];
  const me = view.seat;
  const won = winningSeats(r, deals);
  let verdict = "baohuang.end.over";
  if (me !== null && me !== undefined) {
    verdict = won.includes(me) ? "baohuang.end.won" : won.length ? "baohuang.end.lost" : "baohuang.end.even";
  }
  /** @type {HTMLElement | null} */
  let side = null;
  if (d && me !== null && me !== undefined) {
    const friends = me === d.emperor || me === d.partner ? [d.emperor, d.partner].filter((s) => s !== null) : [0, 1, 2, 3, 4].filter((s) => s !== d.emperor && s !== d.partner);
    const key = me === d.emperor || me === d.partner ? (d.partner === null ? "baohuang.end.side_alone" : `baohuang.end.side_emperor.${view.variant}`) : `baohuang.end.side_other.${view.variant}`;
    side = h("p", { class: "bh-side", id: "bh-side" }, t(key, { who: friends.map((s) => names[s]).join(" + ") }));
  }
  // the final places are the result's only list (#result li: one per seat); the last deal's
  // breakdown follows it in a section of its own
  return [
    h(
      "section",
      { class: "result bh-result", id: "result" },
      h("h2", { class: "bh-verdict", "data-verdict": verdict.split(".").pop() }, t(verdict)),
      side,
      h("h3", {}, t(deals.length > 1 ? "baohuang.end.match_places" : "baohuang.end.places")),
      h("ol", { class: "bh-final" }, r.places.map((seat) => h("li", { "data-seat": seat, class: won.includes(seat) ? "winner" : null }, h("b", {}, names[seat]), " · ", scoreText(r.scores[seat]), won.includes(seat) ? ` · ${t("winner")}` : ""))),
    ),
    d ? h("section", { class: "bh-breakdown", id: "bh-breakdown" }, h("h3", {}, t("baohuang.sum.title", { n: d.deal })), dealSummary(ctx, view.variant, d, { more: false })) : null,
  ];
}

// Each finished deal's scores and the running totals: the breakdown, during and after a match.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function scoring(ctx, view) {
  const { h, t, table, names } = ctx;
  /** @type {BhDeal[]} */
  const deals = (table.result && /** @type {BhResult} */ (table.result).deals) || view.history || [];
  if (!deals.length) return null;
  const who = (/** @type {number | null | undefined} */ seat) => (seat === null || seat === undefined ? "–" : names[seat]);
  return h(
    "table",
    { class: "scoring", id: "scoring" },
    h("tr", {}, h("th", {}, t("baohuang.deal")), h("th", {}, t("baohuang.role.emperor")), names.map((n) => h("th", {}, n))),
    deals.map((d) =>
      h(
        "tr",
        {},
        h("td", {}, d.deal),
        h("td", {}, who(d.emperor), d.partner === null ? ` (${t("baohuang.alone")})` : ` + ${who(d.partner)}`),
        d.scores.map((s, seat) => h("td", { title: `${t("baohuang.total")} ${d.totals[seat]}` }, String(s))),
      ),
    ),
  );
}
