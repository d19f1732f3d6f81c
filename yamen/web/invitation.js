// @ts-check
// An invite link (issue 26): `#/room/<id>?invite=<code>&from=<player>`, as the room head's
// Copy invite link makes it (`from`: whoever copied it). Before the name step the friend reads
// who invited them to which game, and the step's button seats them: their guest is made, then
// the room's first empty seat is taken (POST /api/rooms/{id}/sit). With no seat free, or a
// game in progress, they watch and are told so. Someone with a name already is seated the same
// way on opening the link. The inviter's name comes from the room's own seats (a link cannot
// put words in anyone's mouth); one who no longer sits there is not named. The seat is asked
// for once: the address then drops `from`, so a reload is an ordinary visit.

import { api } from "./net.js";
import { t, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { games, gameTitle } from "./gamelist.js";
import { shell } from "./shell.js";

/** @typedef {{ room: string, invite: string | null, from: string }} Asked */

// What happened when I opened the link, for the room page to say (one room's, this visit).
/** @type {{ room: Room, from: string, seat: number | null, why: string } | null} */
let told = null;

/** The invite link on show (its room, code and inviter), or null. @returns {Asked | null} */
function asked() {
  const match = location.hash.match(/^#\/room\/([\w-]+)\?(.*)$/);
  const query = new URLSearchParams(match ? match[2] : "");
  const from = query.get("from");
  return match && from ? { room: match[1], invite: query.get("invite"), from } : null;
}

// The invite link of a room, from me.
/**
 * @param {string} roomId
 * @param {string | null | undefined} invite
 */
export function inviteLink(roomId, invite) {
  const from = shell.player ? `from=${shell.player.player}` : "";
  const query = [invite ? `invite=${invite}` : "", from].filter(Boolean).join("&");
  return `${location.origin}/#/room/${roomId}${query ? `?${query}` : ""}`;
}

/** @param {Asked} link @returns {Promise<Room | null>} */
async function roomOf(link) {
  const query = link.invite ? `?invite=${encodeURIComponent(link.invite)}` : "";
  const room = await api("GET", `/api/rooms/${link.room}${query}`).catch(() => null);
  if (room) await games();
  return room;
}

// "Ann invited you to play 保皇": who, from the room's seats, and which game.
/**
 * @param {Room} room
 * @param {string} from
 */
function invitedBy(room, from) {
  const by = room.seats.find((s) => s.player === from);
  const game = gameTitle(room.game);
  return by ? t("invite.by", { name: shownName(by.name), game }) : t("invite.to", { game });
}

// For the name step: the invitation's lines, drawn again in the page's language; null when
// the address is no invite link (or names no room I may see).
/** @returns {Promise<(() => HTMLElement) | null>} */
export async function invitationLines() {
  const link = asked();
  const room = link && (await roomOf(link));
  if (!link || !room) return null;
  return () => h("div", { class: "invited", id: "invited" }, h("p", { id: "invited-by" }, invitedBy(room, link.from)), h("p", { class: "hint" }, t("invite.name_step")));
}

// Opening an invite link with a name: I sit in its room's first empty seat, or watch (once).
export async function acceptInvitation() {
  const link = asked();
  if (!link || !shell.player) return;
  const me = shell.player.player;
  history.replaceState(null, "", location.hash.replace(/([?&])from=[\w-]+&?/, "$1").replace(/[?&]$/, ""));
  if (link.from === me) return; // my own link
  const room = await roomOf(link);
  if (!room) return; // (the room page says what is wrong)
  let seat = null;
  let why = "";
  try {
    /** @type {Room} */
    const after = await api("POST", `/api/rooms/${link.room}/sit`, { invite: link.invite });
    const mine = after.seats.findIndex((s) => s.player === me);
    seat = mine >= 0 ? mine : null;
  } catch (err) {
    why = /** @type {{ code?: string }} */ (err).code || "";
    if (why !== "full" && why !== "playing") return; // (said by the room page, if need be)
  }
  told = { room, from: link.from, seat, why };
}

// On the room page: who invited me, and whether I sit or watch; gone once I play.
/**
 * @param {Room} room
 * @param {number | null} seat
 */
export function invitedNote(room, seat) {
  if (!told || told.room.id !== room.id || (seat !== null && room.status === "playing")) return null;
  const outcome = told.seat !== null ? t("invite.seated", { seat: told.seat + 1 }) : t(told.why === "playing" ? "invite.playing" : "invite.full");
  return h("p", { class: "invited", id: "invited-note" }, invitedBy(told.room, told.from), " ", h("span", { class: told.seat !== null ? "" : "watching" }, outcome));
}
