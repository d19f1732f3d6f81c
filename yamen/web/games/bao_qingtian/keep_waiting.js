// @ts-check
// The captor's "keep waiting until I choose to guess": one click, and the captor's own client
// answers the legal Wait after each turn by itself. The captor is asked only when it matters:
// when Wait is no longer legal (the round's last turn and no guess yet this round: rule 2 of the
// capture), or right after the turn of a seat the captor chose to watch (a "just discarded" or
// "just drew" guess about that seat can be made only then). The rules are unchanged: nothing but
// the legal Wait is ever sent, and one click stops it. The choice survives a redraw and a reload
// (this tab's session storage, per room and game).

import { P, isSeat } from "./common.js";

const store = (() => {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage refused: the choice lasts as long as the page
  }
})();
/** @type {{ [key: string]: string }} */
const memory = {};
/** @type {{ seq: number, at: number } | null} */
let answered = null; // {seq, at}: the Wait last sent, so a redraw never sends it twice (a lost one is resent)
let waited = 0; // how many times it waited for the captor since the choice was made
let watchOpen = false; // the watch picker stays open across redraws while the captor picks

const key = (/** @type {Ctx} */ ctx, /** @type {string} */ what) => `yamen.${P}.${what}.${/** @type {Room} */ (ctx.room).id}.${/** @type {Room} */ (ctx.room).number}`;

/**
 * @param {Ctx} ctx
 * @param {string} what
 * @param {Json} fallback
 * @returns {Json}
 */
function read(ctx, what, fallback) {
  const raw = store ? store.getItem(key(ctx, what)) : memory[key(ctx, what)];
  if (raw === null || raw === undefined) return fallback;
  try {
    return JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/**
 * @param {Ctx} ctx
 * @param {string} what
 * @param {Json} value
 */
function write(ctx, what, value) {
  const raw = JSON.stringify(value);
  if (store) store.setItem(key(ctx, what), raw);
  else memory[key(ctx, what)] = raw;
}

export const keepsWaiting = (/** @type {Ctx} */ ctx) => read(ctx, "keep", false) === true;
const watched = (/** @type {Ctx} */ ctx) => new Set(/** @type {number[]} */ (read(ctx, "watch", [])));

/** @param {BqView} view */
function isCaptor(view) {
  return Boolean(view.capture && isSeat(view.seat) && view.capture.captor === view.seat);
}

// Decides, at every redraw, whether to wait for the captor. Returns {waiting: true} when it
// answered (or already answered) Wait, so nothing is asked; otherwise {note}: why the captor is
// asked although it keeps waiting (null when it does not keep waiting).
/**
 * @param {Ctx} ctx
 * @param {BqView} view
 */
export function autoWait(ctx, view) {
  if (!isCaptor(view) || view.phase !== "guess" || !keepsWaiting(ctx)) return { waiting: false, note: null };
  const { t, names, table } = ctx;
  const i = (view.legal || []).indexOf("wait");
  if (i < 0) return { waiting: false, note: t(`${P}.keep.must_guess`) };
  if (isSeat(view.last_turn) && watched(ctx).has(view.last_turn)) {
    return { waiting: false, note: t(`${P}.keep.watched_turn`, { name: names[view.last_turn] }) };
  }
  if (!answered || answered.seq !== table.seq || Date.now() - answered.at > 3000) {
    answered = { seq: table.seq, at: Date.now() };
    waited += 1;
    ctx.act(table.legal[i]);
  }
  return { waiting: true, note: null };
}

// The switch, for the captor while the hunt is on; pinned with the actions while it is on and
// the captor is not being asked (``asked``: the decisions are on screen, pinned themselves).
/**
 * @param {Ctx} ctx
 * @param {BqView} view
 * @param {boolean} asked
 */
export function keepPanel(ctx, view, asked) {
  const { h, t, names } = ctx;
  if (!isCaptor(view) || !["capture", "guess"].includes(view.phase)) return null;
  const on = keepsWaiting(ctx);
  const toggle = () => {
    write(ctx, "keep", !on);
    waited = 0;
    answered = null;
    ctx.redraw?.();
  };
  const watch = watched(ctx);
  const flip = (/** @type {number} */ seat) => {
    if (watch.has(seat)) watch.delete(seat);
    else watch.add(seat);
    write(ctx, "watch", [...watch]);
    ctx.redraw?.();
  };
  const seats = Array.from({ length: view.players }, (_, seat) => seat).filter((seat) => seat !== view.seat);
  return h(
    "div",
    { class: `bq-keep ${on ? "on" : "off"} ${on && !asked ? "actions" : ""}`, id: "bq-keep", "data-on": on ? "1" : "0", role: "group", "aria-label": t(`${P}.keep.title`) },
    h(
      "p",
      { class: "bq-keep-state", id: "bq-keep-state", role: "status" },
      on ? h("b", {}, t(`${P}.keep.on`)) : t(`${P}.keep.off`),
      on && waited ? ` · ${t(`${P}.keep.waited`, { n: waited })}` : "",
    ),
    h(
      "button",
      { type: "button", class: on ? "quiet bq-keep-toggle" : "bq-keep-toggle", id: "bq-keep-waiting", "aria-pressed": on ? "true" : "false", onclick: toggle },
      on ? t(`${P}.keep.stop`) : t(`${P}.keep.start`),
    ),
    h(
      "details",
      { class: "bq-watch", id: "bq-watch", open: watchOpen, ontoggle: (/** @type {Event} */ e) => (watchOpen = /** @type {HTMLDetailsElement} */ (e.target).open) },
      h("summary", {}, watch.size ? t(`${P}.keep.watching`, { names: [...watch].sort((a, b) => a - b).map((s) => names[s]).join(", ") }) : t(`${P}.keep.watch`)),
      h(
        "div",
        { class: "bq-picker" },
        seats.map((seat) =>
          h("button", { type: "button", class: `quiet bq-seat-button ${watch.has(seat) ? "watched" : ""}`, "data-watch": seat, "aria-pressed": watch.has(seat) ? "true" : "false", onclick: () => flip(seat) }, `${seat} ${names[seat]}`),
        ),
      ),
    ),
  );
}
