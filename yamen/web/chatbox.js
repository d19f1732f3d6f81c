// @ts-check
// The room's chat: its latest lines, the form with the game's quick phrases (its catalog's
// `<game>.quick.*`, in order: one tap sends one), and the unread count. A phrase is sent in my
// words and read in each reader's own: a line that is one of the game's phrases in any of its
// languages is shown in the page's. Lines from others heard while the chat's newest line is out
// of sight (below the fold, or folded away) are counted on the room head's chat button
// (#chat-jump, which goes to the chat), and read once it is in sight again.

import { t, shownName, keysUnder, keyOfText } from "./i18n.js";
import { h } from "./dom.js";
import { icon } from "./icons.js";
import { names } from "./context.js";
import { shell } from "./shell.js";

/** @param {RoomPage} page */
const phrases = (page) => keysUnder(`${page.room.game}.quick.`);

// The chat's heading, its lines and, for a player who may talk, the quick phrases and the form;
// `settle()` once they are on the page (the newest line in view, the focus and what was typed
// kept across a redraw).
/**
 * @param {RoomPage} page
 * @param {boolean} talks
 */
export function chatPanel(page, talks) {
  const old = /** @type {HTMLInputElement | null} */ (document.getElementById("chat-text"));
  const focused = old !== null && document.activeElement === old;
  const send = (/** @type {string} */ text) => page.live.send({ type: "chat", text });
  const input = h("input", { id: "chat-text", maxlength: 500, placeholder: t("say_something"), "aria-label": t("chat") });
  input.value = old ? old.value : "";
  const form = h(
    "form",
    { class: "chat-form", onsubmit: (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      if (input.value.trim()) send(input.value.trim());
      input.value = "";
    } },
    input,
    h("button", { type: "submit" }, t("send")),
  );
  const quick = phrases(page).map((key) => h("button", { type: "button", class: "small quiet", "data-quick": key, onclick: () => send(t(key)) }, t(key)));
  const list = h("ul", { class: "chat" }, page.chat.slice(-50).map((line) => chatLine(page, line)));
  /** @type {HTMLElement[]} */
  const parts = [h("h2", {}, t("chat")), list];
  if (talks && quick.length) parts.push(h("div", { class: "quick-phrases", id: "quick-phrases", role: "group", "aria-label": t("quick_phrases") }, quick));
  if (talks) parts.push(form);
  const settle = () => {
    list.scrollTop = list.scrollHeight; // the newest line, not the oldest of the fifty
    if (focused) input.focus({ preventScroll: true }); // (a redraw never moves the page)
    readIfSeen(page);
  };
  return { parts, settle };
}

// One chat line: who said it (a seat's name, or the speaker's own name once they left the
// table), then what they said (a quick phrase in my words); never a missing field as "null".
/**
 * @param {RoomPage} page
 * @param {ChatLine} c
 */
function chatLine(page, c) {
  const who = c.seat != null && page.room.seats[c.seat] ? names()[c.seat] : shownName(c.name);
  const key = keyOfText(phrases(page), c.text ?? "");
  return h("li", { class: key ? "chat-line quick-line" : "chat-line" }, who ? h("b", {}, who, " ") : null, key ? t(key) : (c.text ?? ""));
}

// Whether the chat's newest line is on screen: not below or above the fold, not folded away.
function inSight() {
  const list = document.querySelector(".side .chat");
  if (!list || document.hidden || !list.getClientRects().length) return false;
  const newest = (list.lastElementChild || list).getBoundingClientRect();
  return newest.top >= 0 && newest.bottom <= window.innerHeight;
}

// A line heard (room.js, before it is drawn): unread while the chat is out of sight, unless it
// is my own.
/**
 * @param {RoomPage} page
 * @param {ChatLine} line
 */
export function heard(page, line) {
  const me = shell.player;
  const mine = page.seat !== null ? line.seat === page.seat : line.seat == null && Boolean(me) && line.name === me?.name;
  if (!mine && !inSight()) page.unread = (page.unread || 0) + 1;
}

/** @param {RoomPage} page */
function readIfSeen(page) {
  if (!page.unread || !inSight()) return;
  page.unread = 0;
  document.getElementById("chat-jump")?.replaceWith(chatButton(page));
}
// scrolled or shown again: what came into sight is read
for (const kind of ["scroll", "resize"]) window.addEventListener(kind, () => shell.page && readIfSeen(shell.page), { passive: true });
document.addEventListener("visibilitychange", () => shell.page && readIfSeen(shell.page));

// The room head's way to the chat, with the count of lines not read yet.
/** @param {RoomPage} page */
export function chatButton(page) {
  const n = page.unread || 0;
  const words = n ? t("chat_unread", { n }) : t("chat");
  const go = () => {
    (document.querySelector(".side .chat-form") || document.querySelector(".side .chat"))?.scrollIntoView({ block: "end" });
    readIfSeen(page);
  };
  return h(
    "button",
    { type: "button", class: "quiet icon-button chat-jump", id: "chat-jump", title: words, onclick: go },
    icon("chat", words),
    n ? h("span", { class: "unread", id: "chat-unread", "aria-hidden": "true" }, n > 99 ? "99+" : String(n)) : null,
  );
}
