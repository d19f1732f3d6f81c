// @ts-check
// A room's page: opening it (the game's table module, or the generic one, and its styles),
// what each live frame changes in the page's state, and drawing it all again: the head, the
// table (or, before a game, the hint and the host's setup), my turn, the side column.

import { api, Live, joined, missed, stale } from "./net.js";
import { t } from "./i18n.js";
import { myDeadline } from "./clock.js";
import { attend } from "./turn.js";
import { errorText, optionSummary } from "./lobby.js";
import { logLines, startLog, addEarlier, standInNotice, awayNotice, breakBar, behindNote } from "./log.js";
import { h } from "./dom.js";
import { games, gameInfo } from "./gamelist.js";
import { lobby } from "./home.js";
import { mySeat, describe, names, context } from "./context.js";
import { drawHead } from "./roomhead.js";
import { setupEditor } from "./setup.js";
import { drawSide } from "./side.js";
import { shell, main, say, attempt, identityLost } from "./shell.js";
import { autoToggle, autoOn } from "./standin.js";
import { tell, drawNotice } from "./notice.js";
import { autoPass } from "./autopass.js";
import { fillNote } from "./playnow.js";
import { invitedNote } from "./invitation.js";
import { hear } from "./sounds.js";
import { heard } from "./chatbox.js";
import { askInvites } from "./invites.js";

/**
 * @param {string} roomId
 * @param {string} [invite]
 */
export async function roomPage(roomId, invite) {
  /** @type {Room | undefined} */
  const info = await attempt(() => api("GET", `/api/rooms/${roomId}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`));
  if (!info) return lobby();
  await games();
  useStyle(`/games/${info.game}.css`);
  /** @type {TableModule} */
  let module;
  try {
    module = (await import(`./games/${info.game}.js`)).default;
  } catch {
    module = (await import("./games/generic.js")).default;
  }
  const table = h("div", { id: "table", class: "table" });
  const side = h("aside", { class: "side" });
  main.replaceChildren(h("section", { class: "room" }, h("div", { id: "room-head", class: "room-head" }), h("div", { class: "layout" }, table, side)));
  shell.redraw = drawRoom;
  const chosen = invite || info.invite; // (none: no invite key is sent)
  // the page is the shell's before the connection opens: its first frame finds it
  const live = new Live(roomId, chosen, onFrame, (status) => {
    if (status === "lost") say(t("connection_lost"), "warn");
    else if (status === "quiet") say(t("connection_quiet"), "warn"); // net.js: asking again
    else if (status === "behind") say(t("connection_behind"), "warn");
    else if (status === "open" || status === "caught_up") say("");
    else if (status === "signed_out") identityLost(); // its error frame said why: who is here now?
  });
  shell.page = { id: roomId, invite: chosen, room: info, table: null, seat: null, chat: [], log: [], logBefore: null, logAsked: null, module, live };
  drawRoom();
}

// A game's own stylesheet, if it has one (a missing file styles nothing).
/** @param {string} href */
function useStyle(href) {
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

/** @param {Frame} frame */
function onFrame(frame) {
  const page = shell.page;
  if (!page) return;
  switch (frame.type) {
    case "welcome":
      page.seat = frame.seat;
      askInvites(); // (any that came while the connection was down: the frame below tells the rest)
      break;
    case "state": {
      page.room = frame.room;
      page.table = frame.table;
      page.chat = frame.chat;
      page.seat = mySeat(page.room);
      // the room's log of this game, its latest lines (earlier ones a page at a time)
      startLog(page, frame.table, describe, names());
      // back after an absence: what the stand-in did meanwhile, once per point of the game
      const table = frame.table;
      const notice = table && awayNotice(table.history, page.seat, describe);
      if (table && notice && page.toldAway !== table.seq) tell(page, notice); // by the action bar
      if (table) page.toldAway = table.seq;
      break;
    }
    case "beat": // the server's heartbeat: ahead of my table, an update never came (net.js)
      if (missed(page.table, frame)) page.live.resync("behind");
      return;
    case "update": {
      if (stale(page.table, frame)) return; // had already (or older than my table)
      const table = joined(page.table, frame.table); // (null: its view is in parts, mine is older)
      if (missed(page.table, frame) || !table) page.live.resync("behind"); // the state will mend the log
      if (!table) return;
      if (page.table && page.table.number !== frame.table.number) startLog(page, null, describe, names()); // a new game
      page.table = table;
      page.log.push(...logLines([frame], describe, names()));
      hear(page.module, frame.events, context(), table.seq); // a play's sound, as the game names it
      const notice = standInNotice(frame, page.seat, describe);
      if (notice) tell(page, notice); // by the action bar, until my next move
      break;
    }
    case "room":
      page.room = frame.room;
      page.seat = mySeat(page.room);
      break;
    case "presence":
      Object.assign(page.room.seats[frame.seat], { online: frame.online, away: frame.away });
      break;
    case "invites": // new invites for me: the page asks for them (invites.js draws the cards)
      askInvites();
      return;
    case "history": // a page of the log, asked for (yamen/web/log.js)
      addEarlier(page, frame, describe, names());
      break;
    case "chat":
      heard(page, frame); // unread while the chat is out of sight (chatbox.js)
      page.chat.push(frame);
      break;
    case "error":
      addEarlier(page, frame, describe, names());
      say(errorText(frame.code, frame.params || {}, page.room && page.room.game), frame.code === "removed" ? "warn" : "error");
      break;
  }
  drawRoom();
}

function drawRoom() {
  const page = shell.page;
  if (!page || !document.getElementById("table")) return;
  const { room, table } = page;
  const host = Boolean(shell.player && room.host === shell.player.player);
  drawHead(room, host, drawRoom);
  const el = /** @type {HTMLElement} */ (document.getElementById("table")); // (checked above)
  if (table) page.module.render(el, context());
  else {
    const game = gameInfo(room.game);
    const summary = game ? h("p", { class: "room-options", id: "room-options" }, optionSummary(game, room.options)) : "";
    // the host is asked to fill the seats only while one is empty; a play-now table says
    // instead when bots fill it (playnow.js)
    const full = room.seats.every((s) => s.player || s.bot);
    const ask = host ? (full ? null : t("hint_host")) : t("hint_wait");
    const hint = h("div", {}, invitedNote(room, page.seat), fillNote(room) || (ask ? h("p", { class: "hint", id: "seat-hint" }, ask) : null), summary);
    const editor = host && room.status === "open" && !room.number ? setupEditor(room) : null;
    if (editor && el.contains(editor)) el.firstChild?.replaceWith(hint);
    else el.replaceChildren(hint, ...(editor ? [editor] : []));
  }
  autoToggle(el, page); // 托管: the stand-in plays my seat until I take it back (standin.js)
  // my turn: legal actions offered to my seat (a countdown when the room has a turn timer);
  // on auto-play the stand-in answers them, so nobody is called to the table
  const playing = table && !table.result && page.seat !== null;
  const deadline = playing ? (table.deadlines || {})[String(page.seat)] : null;
  myDeadline(el, deadline);
  if (table) drawNotice(el, page);
  // can't beat: the page passes for me, in a person's time (autopass.js); not on auto-play,
  // where the stand-in answers every question of my seat
  const mine = playing && !autoOn(page) ? table : null;
  autoPass(mine, page.seat, page.module.passing, deadline, (action, seq) => {
    if (shell.page === page) page.live.send({ type: "act", action, seq });
  });
  attend(Boolean(mine && mine.legal && mine.legal.length), t("your_turn_title"));
  // while my seat plays, the room's head keeps to one line on a phone (style.css, the reach)
  main.querySelector(".room")?.classList.toggle("at-play", Boolean(playing));
  if (table) drawBreak(el);
  const invited = table && invitedNote(room, page.seat); // watching a friend's game (invitation.js)
  if (invited) el.prepend(invited);
  const behind = behindNote(h, room, table, page.seat); // a delayed spectator's table
  if (behind) el.prepend(behind);
  drawSide();
}

// The break between two deals: a bar over the table (yamen/web/log.js).
/** @param {HTMLElement} el */
function drawBreak(el) {
  const bar = breakBar(context(), () => shell.page?.live.send({ type: "ready" }));
  if (bar) el.prepend(bar);
}
