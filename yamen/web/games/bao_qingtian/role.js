// @ts-check
// The seat's own part, always on top: its offices (or none), what it is trying to do now in one
// line, and what it knows — the crime, whether it holds that card, who holds which office. Once
// read it folds to its first line, the offices and the goal of the moment (fold.js).

import { foldingPanel } from "../../fold.js";
import { P, OFFICES, cardName, isSeat, officeName, officesBySeat } from "./common.js";

// The one line saying what this seat is after, for the situation the trial is in.
/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {string[]} mine
 */
function goal(ctx, view, mine) {
  const { t } = ctx;
  const card = view.criminal ? cardName(ctx, view.criminal) : "";
  const holding = (view.hand || []).filter((c) => c === view.criminal).length;
  const captor = view.capture ? view.capture.captor : view.offices && view.offices.captor;
  if (view.phase === "over") return t(`${P}.goal.over`);
  if (view.accused === view.seat) return t(`${P}.goal.accused`);
  if (isSeat(view.accused)) {
    const office = mine.find((o) => o !== "captor");
    return office ? t(`${P}.duty.${office}`) : t(`${P}.goal.trial`);
  }
  if (captor === view.seat && view.criminal) return t(`${P}.goal.captor`, { card });
  if (view.criminal && holding) return t(`${P}.goal.holder`, { card });
  if (view.criminal) return t(`${P}.goal.clear`, { card });
  if (mine.includes("emperor")) return t(`${P}.goal.emperor`);
  return t(`${P}.goal.draw`);
}

/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function role(ctx, view) {
  const { h, t, names } = ctx;
  if (!isSeat(view.seat)) return null;
  const held = officesBySeat(view);
  const mine = held[view.seat] || [];
  const title = mine.length ? t(`${P}.you_are`, { offices: mine.map((o) => officeName(ctx, o)).join(t(`${P}.and`)) }) : t(`${P}.you_no_office`);
  /** @type {string[]} */
  const known = [];
  if (view.criminal) {
    const n = (view.hand || []).filter((c) => c === view.criminal).length;
    known.push(t(`${P}.crime`, { card: cardName(ctx, view.criminal) }));
    known.push(n ? t(`${P}.you_hold_it`, { n }) : t(`${P}.you_hold_none`));
  }
  if (view.capture) known.push(t(`${P}.guesses_left${view.capture.guesses_left === 1 ? "_one" : ""}`, { n: view.capture.guesses_left }));
  /** @type {string[]} */
  const who = [];
  if (isSeat(view.emperor)) who.push(t(`${P}.who_is`, { office: officeName(ctx, "emperor"), name: names[view.emperor] }));
  for (const office of OFFICES) {
    const seat = view.offices && view.offices[office];
    if (isSeat(seat)) who.push(t(`${P}.who_is`, { office: officeName(ctx, office), name: names[seat] }));
  }
  if (isSeat(view.accused)) who.push(t(`${P}.on_trial`, { name: names[view.accused] }));
  return foldingPanel(
    ctx,
    { class: `role-panel bq-role ${mine.length ? "has-office" : ""}`, id: "role", "aria-live": "polite" },
    [h("b", { class: "role-title", id: "role-title" }, title), h("span", { class: "role-goal", id: "role-goal" }, goal(ctx, view, mine))],
    known.length ? h("p", { class: "role-known", id: "role-known" }, known.join(" · ")) : null,
    h("p", { class: "role-who", id: "role-who" }, who.length ? `${t(`${P}.known`)} ${who.join(" · ")}` : t(`${P}.known_none`)),
  );
}
