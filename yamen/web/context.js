// What a room's table module is given (`ctx`: the room, the table, my seat, the seats' names,
// words, ways to act), my seat in the room, and an event in words for the log: the game's own
// describe(), else the shell's plain fallback. It names no game.

import { t, tOr, pick, lang, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { botName } from "./lobby.js";
import { shell, say } from "./shell.js";

export function mySeat(room) {
  const seat = room.seats.findIndex((s) => shell.player && s.player === shell.player.player);
  return seat < 0 ? null : seat;
}

export function describe(event) {
  const own = shell.page.module.describe && shell.page.module.describe(event, context());
  if (own) return own;
  const data = Object.entries(event.data).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  return `${tOr(`event.${event.kind}`, event.kind)} ${data}`;
}

export function names() {
  const room = shell.page.room;
  // who left mid-game keeps their name: the results still say whose seat it was
  const base = room.seats.map((s, i) => (s.player ? shownName(s.name) : s.left != null ? shownName(s.left) : s.bot ? botName(room, i) : t("seat_n", { n: i })));
  // a name shared by several seats (two Annas) carries its seat number
  return base.map((name, i) => (base.indexOf(name) !== base.lastIndexOf(name) ? `${name} #${i}` : name));
}

export function context() {
  const page = shell.page;
  return {
    room: page.room,
    table: page.table,
    seat: page.seat,
    names: names(),
    t,
    tOr,
    pick,
    lang: lang(),
    h,
    // read when called: the room page on show then
    act: (action) => shell.page.live.send({ type: "act", action, seq: shell.page.table.seq }),
    chat: (text) => shell.page.live.send({ type: "chat", text }),
    lines: page.chat,
    actText: (text) => shell.page.live.send({ type: "act", text, seq: shell.page.table.seq }),
    say,
  };
}
