// @ts-check
// What the stand-in did for my seat (my timer ran out, or I was away), told where I am looking:
// in the action bar (or, off my turn, by the line that says whom the table waits for), not in
// the page's banner above the fold. It goes at my next own move, at the next round of the game
// (a deal: the table module's round()), at a break between deals, and at the game's end.

/** @type {{ page: RoomPage | null, el: HTMLElement | null }} */
const shown = { page: null, el: null }; // the notice drawn last, and in which table

/**
 * @param {RoomPage} page
 * @param {string} text
 */
export function tell(page, text) {
  const table = page.table;
  if (!table) return;
  // (told at the end or in a break, as on coming back, it stays: the end is not news to it)
  page.notice = { text, number: table.number, round: roundOf(page, table), ended: Boolean(table.result), paused: Boolean(table.pause) };
}

/** @param {RoomPage} page */
export function clearNotice(page) {
  page.notice = null;
  document.getElementById("stand-in-notice")?.remove();
}

/**
 * @param {RoomPage} page
 * @param {Table} table
 */
function roundOf(page, table) {
  return page.module.round ? page.module.round(table.view) : null;
}

// After each drawing of the room: the notice, if it still holds, in the table `el`.
/**
 * @param {HTMLElement} el
 * @param {RoomPage} page
 */
export function drawNotice(el, page) {
  const { notice, table } = page;
  const moved = (/** @type {NonNullable<RoomPage["notice"]>} */ n, /** @type {Table} */ now) =>
    now.number !== n.number || roundOf(page, now) !== n.round || (Boolean(now.result) && !n.ended) || (Boolean(now.pause) && !n.paused);
  if (notice && (!table || moved(notice, table))) page.notice = null;
  if (shown.el !== el) {
    shown.el = el;
    // a table that draws itself again (picking a card) gets the notice back at once
    new MutationObserver(() => {
      if (shown.page && shown.page.notice && !document.getElementById("stand-in-notice")) place(el, shown.page);
    }).observe(el, { childList: true, subtree: true });
  }
  shown.page = page;
  place(el, page);
}

/**
 * @param {HTMLElement} el
 * @param {RoomPage} page
 */
function place(el, page) {
  const old = document.getElementById("stand-in-notice");
  if (!page.notice) return old && old.remove();
  if (old && el.contains(old) && old.textContent === page.notice.text) return;
  if (old) old.remove();
  const note = document.createElement("p");
  note.id = "stand-in-notice";
  note.className = "stand-in-notice";
  note.setAttribute("role", "status");
  note.textContent = page.notice.text;
  const bar = el.querySelector(".actions");
  const waiting = el.querySelector("#turn-hint");
  if (bar) bar.prepend(note);
  else if (waiting) waiting.before(note);
  else el.append(note);
}
