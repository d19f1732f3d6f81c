// @ts-check
// The room's side column: the seats (names, scores, who is to act, timers, and before a game
// the controls to sit, seat a bot, change or remove one, remove a person, with a line on each
// kind of bot), the chat (chatbox.js), the log.

import { api } from "./net.js";
import { t, shownName } from "./i18n.js";
import { icon } from "./icons.js";
import { tick } from "./clock.js";
import { h, confirmStep } from "./dom.js";
import { botName, botKind, defaultBot } from "./lobby.js";
import { knownGames, gameInfo } from "./gamelist.js";
import { logPanel } from "./log.js";
import { shell, attempt } from "./shell.js";
import { leftSeat } from "./standin.js";
import { followButton } from "./follow.js";
import { chatPanel } from "./chatbox.js";

// (drawn on the room page: shell.page is set, and the page has its side column)
export function drawSide() {
  const page = onShow();
  const { room, table } = page;
  const host = Boolean(shell.player && room.host === shell.player.player);
  const side = /** @type {HTMLElement} */ (document.querySelector(".side"));
  const deadlines = (table && table.result === null && table.deadlines) || {};
  const seats = room.seats.map((s, i) => {
    const label = s.player ? h("a", { class: "player-link", href: `#/player/${s.player}` }, shownName(s.name)) : (s.left != null ? t("left_seat", { name: shownName(s.left) }) : s.bot ? [icon("bot"), " ", botName(room, i), " ", h("small", { class: "bot-kind" }, botKind(s.bot))] : t("empty_seat"));
    const controls = seatControls(room, s, i, host);
    const pending = table && table.pending.includes(i);
    const left = deadlines[String(i)];
    return h(
      "li",
      { class: `${pending ? "pending" : ""} ${i === page.seat ? "mine" : ""}`, "data-seat": i },
      h("span", { class: "seat-no" }, i + 1), // people count seats from 1 (the wire from 0)
      pending ? icon("turn", t("to_act")) : null,
      // away or offline: said of a person only (an empty seat or a bot is neither)
      h("span", { class: "seat-name" }, label, !s.player ? "" : s.away ? ` (${t("away")})` : !s.online ? ` (${t("offline")})` : ""),
      followButton(s.player), // a person at the table: follow them (follow.js)
      s.auto ? h("small", { class: "auto-seat" }, t("auto_play_on_seat")) : null, // told to everyone
      h("span", { class: "score" }, (table && table.totals ? table.totals : room.scores)[i]), // the deals so far included
      left ? h("span", { class: "timer", "data-deadline": left }, "") : null,
      ...controls,
    );
  });
  // (one who left their seat mid-game still talks with the table; a spectator reads)
  const chat = chatPanel(page, page.seat !== null || leftSeat(room) !== null);
  side.replaceChildren(
    h("h2", {}, t("seats"), " · ", t("scores")),
    h("ol", { class: room.seats.length > 12 ? "seats many" : "seats" }, seats),
    ...(host && room.status !== "playing" ? [botKinds(room)] : []), // (a null would read "null")
    ...chat.parts,
    logPanel(h, page, side.querySelector("details.log"), drawAgain),
  );
  chat.settle();
  tick();
}

// What each kind of bot the game offers is, one line each, where the host chooses them.
/** @param {Room} room */
function botKinds(room) {
  const kinds = (gameInfo(room.game) || { bots: [] }).bots;
  return h("ul", { class: "bot-kinds", id: "bot-kinds", "aria-label": t("bot_kind") },
    kinds.map((k) => h("li", { "data-kind": k }, h("b", {}, botKind(k)), " ", t(`bot.help.${k}`))));
}

// Before a game (or between games): sit, and for the host a bot in an empty seat, a bot's
// kind, a bot out, a person out (asked first; they keep watching).
/**
 * @param {Room} room
 * @param {Seat} s
 * @param {number} i
 * @param {boolean} host
 */
function seatControls(room, s, i, host) {
  const page = onShow();
  /** @type {HTMLElement[]} */
  const controls = [];
  if (room.status === "playing") return controls;
  const seatPath = `/api/rooms/${room.id}/seats/${i}`;
  if (!s.player && !s.bot) {
    if (page.seat === null) controls.push(h("button", { class: "small sit", onclick: () => attempt(() => api("POST", seatPath, { invite: page.invite })) }, t("sit")));
    if (host) controls.push(h("button", { class: "small", onclick: () => attempt(() => api("PUT", `${seatPath}/bot`, { bot: defaultBot(knownGames(), room.game) })) }, t("add_bot")));
  }
  if (s.bot && host) {
    const kinds = (gameInfo(room.game) || { bots: [s.bot] }).bots;
    const change = (/** @type {Event} */ e) => attempt(() => api("PUT", `${seatPath}/bot`, { bot: /** @type {HTMLSelectElement} */ (e.target).value }));
    controls.push(h("select", { class: "small bot-choice", "aria-label": t("bot_kind"), onchange: change }, kinds.map((k) => h("option", { value: k, selected: k === s.bot }, botKind(k)))));
    controls.push(h("button", { class: "small quiet", onclick: () => attempt(() => api("DELETE", `${seatPath}/bot`)) }, t("remove_bot")));
  }
  if (s.player && host && i !== page.seat) {
    const remove = async () => {
      if (await confirmStep(t("remove_confirm", { name: shownName(s.name) }), t("remove_person"), t("cancel"))) await attempt(() => api("DELETE", seatPath));
    };
    controls.push(h("button", { class: "small quiet remove-person", onclick: remove }, t("remove_person")));
  }
  return controls;
}

function onShow() {
  return /** @type {RoomPage} */ (shell.page);
}

// the log's button asks for earlier lines, then the screen is drawn again
function drawAgain() {
  if (shell.redraw) shell.redraw();
}
