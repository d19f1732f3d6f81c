// @ts-check
// Following a player: the button a player's page and a seat's name at a table show
// (`followButton`), and how I stand with each player shown, asked for in one request for every
// button drawn at once (GET /api/friends/relations) and kept for the visit. Following is one way;
// two players who follow each other are friends (docs/server.md, Friends): the button says
// Follow, Follow back, Following or Friends, and a tap on a followed player unfollows.

import { api } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { shell, attempt } from "./shell.js";

/** @typedef {{ following: boolean, follows_me: boolean }} Relation */

/** @type {Map<string, Relation>} */
const known = new Map();
/** @type {Set<string>} */
const asked = new Set(); // drawn but not known yet: asked for together, once drawing is done
/** @type {Set<string>} */
const underWay = new Set(); // asked for, the answer not back yet (a table redraws meanwhile)
const MOST_ASKED = 60; // the server's bound on one request (every seat of the largest table)
const AFTER_FAILURE = 10000; // ms without asking after a request failed (tables redraw often)
let quietUntil = 0;

// What I was told of someone elsewhere (the friends list): kept, and every button redrawn.
/**
 * @param {string} player
 * @param {Relation} relation
 */
export function knowRelation(player, relation) {
  known.set(player, relation);
  for (const button of buttonsOf(player)) paint(button, relation);
}

/** @param {string} player */
function buttonsOf(player) {
  return /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll(`button.follow[data-player="${CSS.escape(player)}"]`));
}

// The follow button for a person's id (null for a bot, nobody, or me).
/** @param {string | null | undefined} player */
export function followButton(player) {
  if (!player || player.startsWith("bot:") || !shell.player || player === shell.player.player) return null;
  const button = /** @type {HTMLButtonElement} */ (h("button", { type: "button", class: "follow small quiet", "data-player": player, onclick: () => toggle(player) }));
  const relation = known.get(player);
  if (relation) paint(button, relation);
  else {
    button.textContent = t("friends.follow");
    button.disabled = true; // until I know whether I follow them
    if (Date.now() >= quietUntil && !underWay.has(player)) {
      if (!asked.size) queueMicrotask(askAll);
      asked.add(player);
    }
  }
  return button;
}

/**
 * @param {HTMLButtonElement} button
 * @param {Relation} relation
 */
function paint(button, relation) {
  const word = relation.following ? (relation.follows_me ? "friends.mutual" : "friends.following") : relation.follows_me ? "friends.follow_back" : "friends.follow";
  button.textContent = t(word);
  button.disabled = false;
  button.setAttribute("aria-pressed", String(relation.following));
  button.title = relation.following ? t(relation.follows_me ? "friends.mutual_hint" : "friends.unfollow_hint") : "";
  button.classList.toggle("on", relation.following);
}

async function askAll() {
  const players = [...asked].slice(0, MOST_ASKED);
  for (const player of players) {
    asked.delete(player);
    underWay.add(player);
  }
  if (asked.size) queueMicrotask(askAll); // (more than one request holds: the rest next)
  // asked while drawing, not by a tap: a failure says nothing (the banner keeps the room's
  // news), and the buttons stay waiting
  try {
    /** @type {{ [player: string]: Relation }} */
    const found = await api("GET", `/api/friends/relations?players=${players.map(encodeURIComponent).join(",")}`);
    for (const [player, relation] of Object.entries(found)) knowRelation(player, relation);
  } catch {
    quietUntil = Date.now() + AFTER_FAILURE;
  }
  for (const player of players) underWay.delete(player);
}

// Follow, or unfollow someone I follow; a guest is told that following needs an account.
/** @param {string} player */
async function toggle(player) {
  const was = known.get(player) || { following: false, follows_me: false };
  const path = `/api/friends/${encodeURIComponent(player)}`;
  const done = await attempt(() => api(was.following ? "DELETE" : "PUT", path).then(() => true));
  if (done) {
    knowRelation(player, { ...was, following: !was.following });
    for (const listener of listeners) listener();
  }
}

/** @type {(() => void)[]} */
const listeners = [];
// Someone followed or unfollowed from a button (the friends list draws itself again).
/** @param {() => void} listener */
export function onFollowChange(listener) {
  listeners.push(listener);
}
