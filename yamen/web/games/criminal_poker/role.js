// @ts-check
// The seat's own part, always on top: its identity, what it is trying to do in one line, and who
// is known to be who (the investigator's identity is public; the others stay secret to the end).
// Once read it folds to its first line, the identity and the goal (fold.js).

import { foldingPanel } from "../../fold.js";
import { P, investigatorWord, roleName } from "./cards.js";

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function role(ctx, view) {
  const { h, t, names } = ctx;
  if (view.seat === null || view.seat === undefined || !view.identity) return null;
  const me = view.identity;
  const inPlay = Object.entries(view.roles_in_play || {}).map(([r, n]) => `${roleName(ctx, view, r)}×${n}`).join(", ");
  const known = Object.entries(view.identities || {})
    .filter(([seat]) => Number(seat) !== view.seat)
    .map(([seat, r]) => t(`${P}.who_is`, { role: roleName(ctx, view, r), name: names[Number(seat)] }));
  const suspect = (view.suspects || []).includes(view.seat);
  return foldingPanel(
    ctx,
    { class: `role-panel cp-role-panel cp-role-${me}`, id: "role", "aria-live": "polite" },
    [
      h("b", { class: "role-title", id: "role-title" }, t(`${P}.you_are`, { role: roleName(ctx, view, me) }), suspect && !["sheriff"].includes(me) ? ` · ${t(`${P}.suspect`)}` : ""),
      h("span", { class: "role-goal", id: "role-goal" }, t(`${P}.goal.${me}`)),
    ],
    h(
      "p",
      { class: "role-who", id: "role-who" },
      view.seat === view.investigator ? t(`${P}.known_you`, { role: investigatorWord(ctx, view) }) : known.length ? t(`${P}.known`, { who: known.join(" · ") }) : "",
      " ",
      t(`${P}.secret`, { roles: inPlay }),
    ),
  );
}
