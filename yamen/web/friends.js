// @ts-check
// The friends list, from the header's Friends button on every screen: the players I follow,
// friends first (those who follow me back), each with where they are as the server tells me
// (online, at a table and which game, at a private table, offline), and Invite to the table I
// am at (a public one I sit at, or one I host); then who follows me without my following back.
// A page at a time (More), asked again every 15 s while open; drawn again in a newly chosen
// language. docs/web.md, Friends.

import { api } from "./net.js";
import { t, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { errorText } from "./lobby.js";
import { games, gameTitle } from "./gamelist.js";
import { followButton, knowRelation, onFollowChange } from "./follow.js";
import { shell, main } from "./shell.js";
/** @typedef {import("./net.js").ApiError} ApiError */

/**
 * @typedef {{ online: boolean, room?: string | null, game?: string, playing?: boolean, private?: boolean }} Presence
 * @typedef {{ player: string, name: string, mutual: boolean, presence: Presence | null, invited: string | null }} Friend
 * @typedef {{ player: string, name: string, mutual: boolean }} Follower
 */

const REFRESH = 15000; // ms between asks while the list is open
// what the list shows: the players I follow (a page or more: `next` the rest), who follows me
// without my following back, a refusal in the page's words, whether I am a guest
/** @type {{ open: boolean, friends: Friend[], next: string | null, followers: Follower[], error: string, guest: boolean }} */
const list = { open: false, friends: [], next: null, followers: [], error: "", guest: false };
/** @type {number | undefined} */
let timer;

// The header's button (app.js, once I have a name).
export function startFriends() {
  const header = document.querySelector("header.bar");
  if (!header || document.getElementById("friends-open")) return;
  const button = h("button", { type: "button", id: "friends-open", class: "quiet", "aria-expanded": "false", onclick: () => (list.open ? close() : open()) });
  header.insertBefore(button, header.querySelector(".lang"));
  new MutationObserver(draw).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  new MutationObserver(draw).observe(main, { childList: true }); // a new screen: Invite follows the table on show
  onFollowChange(() => list.open && load());
  draw();
}

async function open() {
  list.open = true;
  await load();
}

function close() {
  list.open = false;
  clearTimeout(timer);
  draw();
}

async function load() {
  clearTimeout(timer);
  list.error = "";
  try {
    const [mine, theirs] = await Promise.all([api("GET", "/api/friends"), api("GET", "/api/friends/followers")]);
    await games();
    list.friends = mine.friends;
    list.next = mine.next;
    list.followers = theirs.followers.filter((/** @type {Follower} */ f) => !f.mutual);
    list.guest = shell.player !== null && !shell.player.account;
    told();
  } catch (caught) {
    list.error = refusal(caught);
  }
  if (list.open) timer = window.setTimeout(load, REFRESH);
  draw();
}

// the next page of the players I follow
async function more() {
  if (!list.next) return;
  try {
    const page = await api("GET", `/api/friends?before=${encodeURIComponent(list.next)}`);
    list.friends.push(...page.friends);
    list.next = page.next;
    told();
  } catch (caught) {
    list.error = refusal(caught);
  }
  draw();
}

// what the list says of each player, for every follow button on the page
function told() {
  for (const f of list.friends) knowRelation(f.player, { following: true, follows_me: f.mutual });
  for (const f of list.followers) knowRelation(f.player, { following: false, follows_me: true });
}

/** @param {unknown} caught */
function refusal(caught) {
  const err = /** @type {Partial<ApiError>} */ (caught);
  return err.code ? errorText(err.code, err.params || {}, null) : t("error.unknown");
}

// The table I may invite friends to: the room on show, if I host it, or sit at it and it is
// public (a private room's invite code is its host's to give).
function myTable() {
  const page = shell.page;
  const me = shell.player;
  if (!page || !me || page.room.status === "closed") return null;
  return page.room.host === me.player || (page.seat !== null && page.room.public) ? page.room : null;
}

function draw() {
  const button = document.getElementById("friends-open");
  if (button) {
    button.textContent = t("friends");
    button.setAttribute("aria-expanded", String(list.open));
  }
  document.getElementById("friends-panel")?.remove();
  if (!list.open) return;
  const table = myTable();
  const sorted = [...list.friends].sort((a, b) => rank(a) - rank(b)); // friends online first
  document.body.append(
    h(
      "section",
      { id: "friends-panel", class: "card", "aria-label": t("friends") },
      h("div", { class: "friends-head" }, h("h2", {}, t("friends")), h("button", { type: "button", class: "quiet small", id: "friends-close", onclick: close }, t("close"))),
      list.error ? h("p", { class: "friends-error error" }, list.error) : null,
      list.guest ? h("p", { class: "hint" }, t("friends.guest"), " ", h("a", { href: "#/account" }, t("account.claim"))) : null,
      !table && sorted.some((f) => f.mutual) ? h("p", { class: "hint" }, t("friends.invite_hint")) : null,
      sorted.length ? h("ul", { class: "friends" }, sorted.map((f) => row(f, table))) : list.guest ? null : h("p", { class: "hint" }, t("friends.none")),
      list.next ? h("button", { type: "button", class: "quiet small friends-more", onclick: more }, t("friends.more")) : null,
      list.followers.length ? [h("h3", {}, t("friends.followers")), h("ul", { class: "followers" }, list.followers.map(follower))] : null,
    ),
  );
}

/** @param {Friend} f */
function rank(f) {
  return !f.mutual ? 3 : !f.presence || !f.presence.online ? 2 : f.presence.room ? 0 : 1;
}

/**
 * @param {Friend} f
 * @param {Room | null} table
 */
function row(f, table) {
  const p = f.presence;
  const there = Boolean(table && (p?.room === table.id || table.seats.some((s) => s.player === f.player)));
  return h(
    "li",
    { class: `friend ${p && p.online ? "online" : ""}`, "data-player": f.player },
    h("a", { href: `#/player/${encodeURIComponent(f.player)}` }, shownName(f.name)),
    h("span", { class: "presence" }, where(f, there)),
    p && p.online && table && !there ? inviteButton(f, table) : null,
    followButton(f.player),
  );
}

/**
 * @param {Friend} f
 * @param {boolean} there at the table I am at
 */
function where(f, there) {
  const p = f.presence;
  if (!p) return t("friends.one_way");
  if (!p.online) return t("friends.offline");
  if (there) return t("friends.here");
  if (p.room && p.game) return t(p.playing ? "friends.playing" : "friends.at_table", { game: gameTitle(p.game) });
  return t(p.private ? "friends.private_table" : "friends.online");
}

/**
 * @param {Friend} f
 * @param {Room} table
 */
function inviteButton(f, table) {
  const waiting = f.invited === table.id; // (the server's word, the list's next ask says again)
  const send = async () => {
    try {
      await api("POST", "/api/invites", { to: f.player, room: table.id });
      f.invited = table.id;
      list.error = "";
    } catch (caught) {
      list.error = refusal(caught);
    }
    draw();
  };
  return h("button", { type: "button", class: "small invite-friend", disabled: waiting, onclick: send }, t(waiting ? "friends.invited" : "friends.invite"));
}

/** @param {Follower} f */
function follower(f) {
  return h("li", { class: "follower", "data-player": f.player }, h("a", { href: `#/player/${encodeURIComponent(f.player)}` }, shownName(f.name)), followButton(f.player));
}
