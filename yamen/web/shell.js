// @ts-check
// What every screen of the shell shares: the main area, the banner, a request whose refusal is
// said in the page's words, and the state the screens hand on (who I am, the room page on
// show, how to draw the screen again).

import { t } from "./i18n.js";
import { errorText } from "./lobby.js";
/** @typedef {import("./net.js").ApiError} ApiError */
/** @typedef {typeof attempt} Attempt */

// (index.html has both)
export const main = /** @type {HTMLElement} */ (document.getElementById("main"));
const banner = /** @type {HTMLElement} */ (document.getElementById("banner"));

// player: me, or null before the name step; page: the room page's state, or null elsewhere;
// redraw: draws the screen on show again, in the page's language: a language change redraws
// what is on screen (the welcome step stays the welcome step) and never routes anywhere;
// routed: routes taken so far (routes.js): a screen that loads before it draws draws only if
// no other was asked for meanwhile (the lobby still loading once drew over the account page).
/** @type {{ player: Me | null, page: RoomPage | null, redraw: (() => void) | null, routed: number }} */
export const shell = { player: null, page: null, redraw: null, routed: 0 };

// What a request refused for want of an identity leads to (app.js: the name step, then on).
let lost = () => {};
/** @param {() => void} then */
export function onIdentityLost(then) {
  lost = then;
}
// (also when a room's connection is closed because its session was signed out: room.js)
export function identityLost() {
  lost();
}

/**
 * @param {string} message
 * @param {string} [kind]
 */
export function say(message, kind = "error") {
  banner.textContent = message;
  banner.className = kind;
  banner.hidden = !message;
}

// Runs a request; a refusal is said in the page's words (`game`: whose option names to use).
/**
 * @template T
 * @param {() => T | Promise<T>} work
 * @param {string | null} [game]
 * @returns {Promise<T | undefined>}
 */
export async function attempt(work, game = shell.page && shell.page.room && shell.page.room.game) {
  try {
    say("");
    return await work();
  } catch (caught) {
    const err = /** @type {Partial<ApiError>} */ (caught);
    say(err.code ? errorText(err.code, err.params, game) : t("error.unknown"));
    // no identity (the token was lost or is unknown here): back to the name step, then on
    // (a wrong account name or password is not a lost identity: the form stays)
    if (err.status === 401 && err.code !== "bad_credentials") lost();
    return undefined;
  }
}
