// @ts-check
// Handing my seat to the room's stand-in and taking it back, on the room page: the auto-play
// (托管) toggle by the action bar while I sit in a game, and, once I left my seat mid-game,
// the button that takes it back (the server lets only the one who left: the seat's left_by).

import { api } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { shell, attempt } from "./shell.js";

// Whether my seat is on auto-play now.
/** @param {RoomPage} page */
export function autoOn(page) {
  return page.seat !== null && Boolean(page.room.seats[page.seat]?.auto);
}

// The seat I left in the game in progress (its stand-in plays it), else null.
/** @param {Room} room */
export function leftSeat(room) {
  const me = shell.player && shell.player.player;
  if (!me || room.status !== "playing") return null;
  const seat = room.seats.findIndex((s) => s.left_by === me);
  return seat < 0 ? null : seat;
}

// The toggle, drawn after the table. Off: in the game's action bar (`.actions`, pinned at the
// bottom of a phone's screen) when it has one, else in a bar of its own under the table. On:
// the game's own action bar is hidden (the stand-in plays; the apps do the same) and a bar of
// its own, pinned where the action bar was, says so and takes the seat back in one tap.
// A table that redraws itself (picking a card) gets it back at once, as clock.js's timer does.
/** @type {HTMLElement | null} */
let watched = null;
/** @type {RoomPage | null} */
let shown = null; // the page whose toggle is drawn, null when none is

/**
 * @param {HTMLElement} el the table
 * @param {RoomPage} page
 */
export function autoToggle(el, page) {
  const table = page.table;
  const on = autoOn(page);
  el.classList.toggle("auto-on", on);
  shown = page.seat !== null && page.room.status === "playing" && table && !table.result ? page : null;
  if (watched !== el) {
    watched = el;
    new MutationObserver(() => {
      if (shown && !document.getElementById("auto-play")) place(el, shown);
    }).observe(el, { childList: true, subtree: true });
  }
  place(el, page);
}

/**
 * @param {HTMLElement} el
 * @param {RoomPage} page
 */
function place(el, page) {
  document.getElementById("auto-play")?.remove();
  document.getElementById("auto-bar")?.remove();
  if (!shown) return;
  const on = autoOn(page);
  const toggle = h(
    "button",
    { id: "auto-play", class: `auto-play${on ? " on" : " quiet"}`, "aria-pressed": on ? "true" : "false", title: t("auto_play_hint"), onclick: () => setAuto(page, !on) },
    on ? t("auto_play_off") : t("auto_play"),
  );
  const bar = on ? null : el.querySelector(".actions");
  if (bar) bar.append(toggle);
  else {
    const note = on ? h("span", { class: "auto-note" }, t("auto_play_hint")) : null;
    el.append(h("div", { id: "auto-bar", class: on ? "actions auto-bar" : "auto-bar", role: "group", "aria-label": t("auto_play") }, note, toggle));
  }
}

/**
 * @param {RoomPage} page
 * @param {boolean} on
 */
async function setAuto(page, on) {
  await attempt(() => api("POST", `/api/rooms/${page.id}/auto`, { on }));
}

// The way back to the seat I left, for the room's head (none when I left none).
/** @param {RoomPage} page */
export function backButton(page) {
  if (page.seat !== null || leftSeat(page.room) === null) return [];
  return [h("button", { id: "take-back", onclick: () => attempt(() => api("POST", `/api/rooms/${page.id}/back`)) }, t("left_seat_back"))];
}
