// @ts-check
// Invites from friends, on every screen: the page asks for them every few seconds (as often as
// the server's answer says; a hidden tab once a minute), which also tells friends that I am on
// the site and at which table (docs/server.md, Friends). Each invite is a card at the top of
// the page: one tap joins (the room opens, and the server has seated me if a seat was free), or
// dismisses it. The cards are drawn again in a newly chosen language.

import { api } from "./net.js";
import { t, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { games, gameTitle } from "./gamelist.js";
import { route } from "./routes.js";
import { shell, attempt } from "./shell.js";

/** @typedef {{ id: string, from: { player: string, name: string }, room: string, game: string, expires_in: number }} Invite */

const HIDDEN_EVERY = 60; // seconds between asks while the tab is hidden
/** @type {Invite[]} */
let shown = [];
const answered = new Set(); // answered here: not shown again by an answer already under way
let every = 8; // seconds, until the server says
/** @type {number | undefined} */
let timer;

// Asking starts once I have a name (app.js), and goes on wherever I go on the site.
export function startInvites() {
  document.addEventListener("visibilitychange", () => document.visibilityState === "visible" && ask());
  window.addEventListener("hashchange", () => later(1)); // a new screen: where I am now
  new MutationObserver(draw).observe(document.documentElement, { attributes: true, attributeFilter: ["lang"] });
  ask();
}

/** @param {number} seconds */
function later(seconds) {
  clearTimeout(timer);
  timer = window.setTimeout(ask, seconds * 1000);
}

async function ask() {
  later(document.visibilityState === "visible" ? every : HIDDEN_EVERY); // (a failed ask too)
  if (!shell.player) return; // the name step: nobody to ask for
  const here = shell.page ? `?here=${encodeURIComponent(shell.page.id)}` : "";
  try {
    /** @type {{ invites: Invite[], every: number }} */
    const answer = await api("GET", `/api/invites${here}`);
    every = Math.max(2, answer.every);
    await games(); // each card names its game
    shown = answer.invites.filter((i) => !answered.has(i.id));
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
  box.replaceChildren(...shown.map(card));
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
