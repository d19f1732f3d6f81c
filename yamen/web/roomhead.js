// @ts-check
// The room's head: the game's title and the room's status, the invite link to copy, the
// host's Start (or Rematch) and Fill with bots, Leave (or taking back the seat I left), a
// finished game's Replay, the switch that passes for me when I cannot beat (a game that
// declares its passing words), the rules and sound buttons, and the way to the chat with its
// unread count. `again` draws the room again (the room page, room.js).

import { api } from "./net.js";
import { t, lang } from "./i18n.js";
import { h, confirmStep } from "./dom.js";
import { rulesButton } from "./rules.js";
import { soundButton } from "./turn.js";
import { autoPassSwitch } from "./autopass.js";
import { defaultBot } from "./lobby.js";
import { replayButton } from "./replay.js";
import { knownGames, gameTitle } from "./gamelist.js";
import { shell, attempt } from "./shell.js";
import { backButton } from "./standin.js";
import { inviteLink } from "./invitation.js";
import { chatButton } from "./chatbox.js";

// (drawn on the room page: shell.page is set, and the page has its head)
/**
 * @param {Room} room
 * @param {boolean} host
 * @param {() => void} again
 */
export function drawHead(room, host, again) {
  const page = onShow();
  const head = /** @type {HTMLElement} */ (document.getElementById("room-head"));
  const buttons = [];
  if (host && room.status !== "playing") {
    buttons.push(h("button", { id: "start", onclick: () => attempt(() => api("POST", `/api/rooms/${room.id}/start`)) }, room.number ? t("rematch") : t("start")));
    if (room.seats.some((s) => !s.player && !s.bot)) {
      buttons.push(h("button", { class: "quiet", id: "fill-bots", onclick: () => attempt(() => api("POST", `/api/rooms/${room.id}/bots`, { bot: defaultBot(knownGames(), room.game) })) }, t("fill_bots")));
    }
  }
  if (page.seat !== null) buttons.push(h("button", { class: "quiet", id: "leave", onclick: leaveSeat }, t("leave")));
  buttons.push(...backButton(page)); // the seat I left, while its game lasts
  buttons.push(...replayButton(room, page.invite)); // a finished game, step by step
  const link = inviteLink(room.id, page.invite); // from me: the friend reads who invited them
  head.replaceChildren(
    h("h1", {}, gameTitle(room.game)),
    h("span", { class: "status" }, t(`status.${room.status}`), room.number ? ` · ${t("game_n", { n: room.number })}` : ""),
    h("button", { class: "quiet", id: "copy-invite", onclick: () => copyInvite(link, again), title: link }, (page.copiedUntil || 0) > Date.now() ? t("copied") : t("copy_invite")),
    ...(page.showLink ? [h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("invite_link") })] : []),
    ...buttons,
    h(
      "span",
      { class: "head-tools" },
      page.module.passing && page.seat !== null ? autoPassSwitch(h, t, again) : null, // a seat's chore: passing when it cannot beat
      rulesButton({ h, t, lang: lang() }, room.game, room.options),
      soundButton(h, t, again),
    ),
    chatButton(page), // (first on a phone, where the chat is below the table)
  );
}

// The invite link to the clipboard; where there is no clipboard (plain http on a LAN) the
// link is shown selected in a field, to copy by hand. The button says "Copied" for 2 s.
/**
 * @param {string} link
 * @param {() => void} again
 */
async function copyInvite(link, again) {
  const page = onShow();
  const field = () => /** @type {HTMLInputElement | null} */ (document.getElementById("invite-link"));
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    page.showLink = true;
    again();
    field()?.select();
    copied = document.execCommand("copy");
  }
  if (copied) {
    page.copiedUntil = Date.now() + 2000;
    again();
    setTimeout(again, 2100);
  }
  if (page.showLink) field()?.select(); // drawn again: select it
}

// Leaving during a game hands the seat to a bot for the rest of it: asked first.
async function leaveSeat() {
  const { id, status } = onShow().room;
  if (status === "playing" && !(await confirmStep(t("leave_confirm"), t("leave"), t("stay")))) return;
  await attempt(() => api("POST", `/api/rooms/${id}/leave`));
}

function onShow() {
  return /** @type {RoomPage} */ (shell.page);
}
