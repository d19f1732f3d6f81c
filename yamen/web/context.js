// @ts-check
// What a room's table module is given (`ctx`: the room, the table, my seat, the seats' names,
// words, ways to act), my seat in the room, and an event in words for the log: the game's own
// describe(), else the shell's plain fallback. It names no game.

import { t, tOr, pick, lang, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { botName } from "./lobby.js";
import { shell, say } from "./shell.js";
import { clearNotice } from "./notice.js";
import { answered } from "./autopass.js";

/** @param {Room} room */
export function mySeat(room) {
  const player = shell.player && shell.player.player;
  const seat = room.seats.findIndex((s) => player && s.player === player);
  return seat < 0 ? null : seat;
}

// (these three are called while a room page is on show: shell.page is set)
// An event in words: the game's own (its "" says nothing of an event that another event of
// the same step tells: the log leaves it out), else the shell's catalog and the raw data.
/** @param {GameEvent} event */
export function describe(event) {
  const page = /** @type {RoomPage} */ (shell.page);
  const own = page.module.describe && page.module.describe(event, context());
  if (own != null) return own;
  const data = Object.entries(event.data).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  return `${tOr(`event.${event.kind}`, event.kind)} ${data}`;
}

export function names() {
  const room = /** @type {RoomPage} */ (shell.page).room;
  // who left mid-game keeps their name: the results still say whose seat it was
  // (seats are numbered from 1 for people, from 0 on the wire)
  const base = room.seats.map((s, i) => (s.player ? shownName(s.name) : s.left != null ? shownName(s.left) : s.bot ? botName(room, i) : t("seat_n", { n: i + 1 })));
  // a name shared by several seats (two Annas) carries its seat number
  return base.map((name, i) => (base.indexOf(name) !== base.lastIndexOf(name) ? `${name} #${i + 1}` : name));
}

/** @returns {Ctx} */
export function context() {
  const page = /** @type {RoomPage} */ (shell.page);
  return {
    room: page.room,
    table: /** @type {Table} */ (page.table), // (drawn only once the table came)
    seat: page.seat,
    names: names(),
    t,
    tOr,
    pick,
    lang: lang(),
    h,
    // read when called: the room page on show then
    // my own move: what the stand-in did for me before is old news (notice.js)
    act: (action) => {
      clearNotice(onShow());
      answered(); // (my time, for the passes made for me; one timed for me is called off)
      onShow().live.send({ type: "act", action, seq: onShow().table?.seq });
    },
    chat: (text) => onShow().live.send({ type: "chat", text }),
    lines: page.chat,
    actText: (text) => {
      clearNotice(onShow());
      answered(); // (my time, for the passes made for me; one timed for me is called off)
      onShow().live.send({ type: "act", text, seq: onShow().table?.seq });
    },
    say,
  };
}

// The room page on show when a table acts (a table is drawn only on a room page).
function onShow() {
  return /** @type {RoomPage} */ (shell.page);
}
