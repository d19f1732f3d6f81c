// @ts-check
// Invites from friends, on every screen. A page at a table is told of new ones by its room's
// connection (the `invites` frame: room.js calls askInvites) and asks then, and each time the
// connection opens; any other page asks every few seconds (as often as the server's answer
// says; a hidden tab once a minute), which also tells friends that I am on the site (at a
// table, my connection tells them: docs/server.md, Friends). Each invite is a card at the top
// of the page until it expires: one tap joins (the room opens, and the server has seated me if
// a seat was free), or dismisses it. The cards are drawn again in a newly chosen language.

import { api } from "./net.js";
import { t, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { games, gameTitle } from "./gamelist.js";
import { route } from "./routes.js";
import { shell, attempt } from "./shell.js";

/** @typedef {{ id: string, from: { player: string, name: string }, room: string, game: string, expires_in: number }} Invite */

const HIDDEN_EVERY = 60; // seconds between asks while the tab is hidden (a friend stays online: 90 s)
/** @type {(Invite & { until: number })[]} */
let shown = []; // each with when it expires (Date.now() ms): a table's page may not ask again
const answered = new Set(); // answered here: not shown again by an answer already under way
let every = 20; // seconds, until the server says
/** @type {number | undefined} */
let timer;
/** @type {number | undefined} */
let expiry;

// Asking starts once I have a name (app.js), and goes on wherever I go on the site.
export function startInvites() {
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && poll());
  window.addEventListener("hashchange", () => later(1)); // a new screen: where I am now
  new MutationObserver(draw).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  poll();
}

/** @param {number} seconds */
function later(seconds) {
  clearTimeout(timer);
  timer = window.setTimeout(poll, seconds * 1000);
}

// The timer runs on every screen, but only a page with no room connection asks: a table's
// page is told by its connection (askInvites, from room.js).
function poll() {
  later(document.visibilityState === "visible" ? every : HIDDEN_EVERY); // (a failed ask too)
  if (!shell.page) askInvites();
}

// The invites waiting for me, asked now.
export async function askInvites() {
  if (!shell.player) return; // the name step: nobody to ask for
  try {
    /** @type {{ invites: Invite[], every: number }} */
    const answer = await api("GET", "/api/invites");
    every = Math.max(2, answer.every);
    await games(); // each card names its game
    const now = Date.now();
    shown = answer.invites.filter((i) => !answered.has(i.id)).map((i) => ({ ...i, until: now + i.expires_in * 1000 }));
  } catch {
    return; // (no identity, the server away: the next ask will tell; the page says the rest)
  }
  draw();
}

function draw() {
  let box = document.getElementById("invites");
  if (!box) {
    box = h("div", { id: "invites", "aria-live": "polite" });
    document.body.append(box);
  }
  const now = Date.now();
  shown = shown.filter((i) => i.until > now); // expired: gone, asked again or not
  box.replaceChildren(...shown.map(card));
  clearTimeout(expiry);
  if (shown.length) expiry = window.setTimeout(draw, Math.min(...shown.map((i) => i.until)) - now);
}

/** @param {Invite} invite */
function card(invite) {
  return h(
    "div",
    { class: "invite-card card", role: "alert", "data-invite": invite.id },
    h("p", {}, t("invite.from", { name: shownName(invite.from.name), game: gameTitle(invite.game) })),
    h("button", { type: "button", class: "accept-invite", onclick: () => accept(invite) }, t("invite.accept")),
    h("button", { type: "button", class: "dismiss-invite quiet", onclick: () => dismiss(invite) }, t("invite.dismiss")),
  );
}

/** @param {Invite} invite */
function forget(invite) {
  answered.add(invite.id);
  shown = shown.filter((i) => i.id !== invite.id);
  draw();
}

// Join: the room opens (seated there by the server if a seat was free).
/** @param {Invite} invite */
async function accept(invite) {
  forget(invite);
  /** @type {{ room: string, invite: string | null, seat: number | null } | undefined} */
  const joined = await attempt(() => api("POST", `/api/invites/${encodeURIComponent(invite.id)}/accept`));
  if (!joined) return;
  const hash = `#/room/${joined.room}${joined.invite ? `?invite=${joined.invite}` : ""}`;
  if (location.hash === hash) await route(); // (on that room already: shown again, seated)
  else location.hash = hash;
}

/** @param {Invite} invite */
async function dismiss(invite) {
  forget(invite);
  await attempt(() => api("DELETE", `/api/invites/${encodeURIComponent(invite.id)}`));
}
