// @ts-check
// The room's log and what the server did for a seat: a state frame's history told in words
// (its latest entries; the earlier ones a page at a time, asked for with the button at the top
// of the log, so a reload loses nothing), the notice when the
// stand-in played my seat, and the bar of the break between two deals. It names no game:
// events are told by the game's describe(), through the shell.

import { t } from "./i18n.js";

// Log lines for history entries ({seq, events, stand_in}, as updates carry them): one line an
// event, marked when a stand-in played the seat. An event told as "" has no line: another
// event of its step says it (context.js).
/** @typedef {(event: GameEvent) => string} Describe an event in words (context.js) */

/**
 * @param {HistoryEntry[]} entries
 * @param {Describe} describe
 * @param {string[]} names
 */
export function logLines(entries, describe, names) {
  /** @type {string[]} */
  const lines = [];
  for (const entry of entries) {
    const stand = entry.stand_in;
    const marked = stand ? mine(entry.events, stand.seat) : [];
    let first = true; // (the step's first line is marked when no event names the seat)
    for (const event of entry.events) {
      const line = describe(event);
      if (!line) continue;
      const mark = stand && (marked.includes(event) || (!marked.length && first));
      first = false;
      lines.push((mark ? `${t("stand_in.mark", { name: names[stand.seat] })} ` : "") + line);
    }
  }
  return lines;
}

// The log from a state frame: its lines, and where to page back from (null: it is whole).
/**
 * @param {RoomPage} page
 * @param {Table | null} table
 * @param {Describe} describe
 * @param {string[]} names
 */
export function startLog(page, table, describe, names) {
  page.log = table && table.history ? logLines(table.history, describe, names) : [];
  page.logBefore = table ? table.history_before : null;
  page.logAsked = null; // the id of the page asked for, until it comes
}

// Ask for the page of the log before the lines shown (once at a time).
let asked = 0;
/**
 * @param {RoomPage} page
 * @param {() => void} redraw
 */
export function askEarlier(page, redraw) {
  if (page.logBefore == null || page.logAsked) return;
  page.logAsked = `log-${++asked}`;
  page.live.send({ type: "history", before: page.logBefore, id: page.logAsked });
  redraw();
}

// A page of the log came (a `history` frame): its lines go before the others', if it answers
// the last ask and is this game's; an ask refused may be made again.
/**
 * @param {RoomPage} page
 * @param {HistoryFrame | ErrorFrame} frame
 * @param {Describe} describe
 * @param {string[]} names
 */
export function addEarlier(page, frame, describe, names) {
  if (frame.type === "error") {
    if (frame.id === page.logAsked || (frame.id == null && frame.code === "rate_limited")) page.logAsked = null;
    return;
  }
  if (frame.id !== page.logAsked || !page.table || frame.game_id !== page.table.game_id) return;
  page.log.unshift(...logLines(frame.entries, describe, names));
  page.logBefore = frame.before;
  page.logAsked = null;
}

// The log in the side column: kept open and scrolled where it was across redraws (lines
// added above keep the ones in view where they were); at its top, while there is more, the
// button that asks for the earlier lines.
/**
 * @param {Hyperscript} h
 * @param {RoomPage} page
 * @param {HTMLDetailsElement | null} old the panel drawn last time
 * @param {() => void} redraw
 */
export function logPanel(h, page, old, redraw) {
  const list = h("ol", {}, page.log.map((line) => h("li", {}, line)));
  const more = page.logBefore != null
    ? h("button", { type: "button", id: "log-earlier", class: "small quiet", disabled: Boolean(page.logAsked), onclick: () => askEarlier(page, redraw) }, t(page.logAsked ? "log.loading" : "log.earlier"))
    : null;
  const panel = h("details", { class: "log", open: Boolean(old && old.open) }, h("summary", {}, t("log")), more, list);
  const was = old && old.querySelector("ol");
  if (was) {
    const fromBottom = was.scrollHeight - was.scrollTop;
    requestAnimationFrame(() => (list.scrollTop = list.scrollHeight - fromBottom));
  }
  return panel;
}

// The events that name the seat: what the stand-in did there (an answer sealed in a window
// shows none until the window closes).
/**
 * @param {GameEvent[]} events
 * @param {number} seat
 */
function mine(events, seat) {
  return events.filter((e) => e.data && e.data.seat === seat);
}

// The banner's notice when an update was the stand-in's move for my seat, else null: what it
// did in the game's words (the events that name my seat; an answer not shown yet, else).
/**
 * @param {UpdateFrame} frame
 * @param {number | null} seat
 * @param {Describe} describe
 */
export function standInNotice(frame, seat, describe) {
  const stand = frame.stand_in;
  // (auto-play was my own choice, and its bar says so: no banner for each of its moves)
  if (!stand || seat === null || stand.seat !== seat || stand.why === "auto") return null;
  const done = mine(frame.events, seat);
  const what = done.map(describe).filter(Boolean).join("; ") || t("stand_in.unseen");
  return t(`stand_in.${stand.why}`, { what });
}

// On coming back (a state frame): what the stand-in played for my seat while I was away, told
// once, else null. The stand-in's moves for my seat at the end of the log, back to the last
// step where my seat acted by itself; an answer sealed in a window counts, unseen.
/**
 * @param {HistoryEntry[] | undefined} history
 * @param {number | null} seat
 * @param {Describe} describe
 */
export function awayNotice(history, seat, describe) {
  if (!history || seat === null) return null;
  /** @type {GameEvent[]} */
  const done = [];
  for (const entry of [...history].reverse()) {
    const stand = entry.stand_in;
    if (stand && stand.seat === seat && stand.why !== "left" && stand.why !== "auto") done.unshift(...mine(entry.events, seat));
    else if (mine(entry.events, seat).length) break; // my seat acted itself here
  }
  if (!done.length) return null;
  return t("stand_in.away", { what: done.map(describe).filter(Boolean).join("; ") || t("stand_in.unseen") });
}

// The bar over the table during the break between two deals: the time left, who is ready, and
// my Ready button; null when there is no break.
/**
 * @param {Ctx} ctx
 * @param {() => void} ready
 */
export function breakBar(ctx, ready) {
  const { h, table, seat, names } = ctx;
  const pause = table && table.pause;
  if (!pause) return null;
  const done = seat !== null && pause.ready.includes(seat);
  const who = pause.ready.map((s) => names[s]).join(", ");
  return h(
    "div",
    { class: "break-bar", role: "status" },
    h("span", { class: "break-left", "data-break-until": pause.until }, nextDeal(pause.until)),
    who ? h("span", { class: "break-ready" }, t("break.ready_seats", { names: who })) : null,
    seat !== null ? h("button", { id: "ready", type: "button", disabled: done, onclick: ready }, t("break.ready")) : null,
  );
}

/** @param {number} until epoch seconds */
function nextDeal(until) {
  return t("break.next", { n: Math.max(0, Math.round(until - Date.now() / 1000)) });
}

// The countdown, each second, in the page's language (the bar keeps its epoch).
setInterval(() => {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-break-until]"))) el.textContent = nextDeal(Number(el.dataset.breakUntil));
}, 1000);

// A spectator's note while the room holds spectators back (its `spectator_delay`): the table
// shown is that many moves behind the game; null for a seat, or once the game is over.
/**
 * @param {Hyperscript} h
 * @param {Room} room
 * @param {Table | null} table
 * @param {number | null} seat
 */
export function behindNote(h, room, table, seat) {
  const n = (room.settings || {}).spectator_delay || 0;
  if (seat !== null || !n || !table || table.result || room.status !== "playing") return null;
  return h("p", { class: "spectator-behind", id: "spectator-behind", role: "status" }, t("spectator_behind", { n }));
}
