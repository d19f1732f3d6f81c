// @ts-check
// The games the server offers (GET /api/games), fetched once with their catalogs, and what the
// screens look up in them: a game's declaration, its title in the page's language.

import { api } from "./net.js";
import { tOr, loadGame } from "./i18n.js";

/** @type {GameInfo[] | null} */
let cache = null;

/** @returns {Promise<GameInfo[]>} */
export async function games() {
  if (!cache) {
    /** @type {GameInfo[]} */
    const list = await api("GET", "/api/games");
    await Promise.all(list.map((g) => loadGame(g.game)));
    cache = list;
  }
  return cache;
}

// The list as fetched so far: null before the first fetch.
export function knownGames() {
  return cache;
}

/** @param {string} name */
export function gameInfo(name) {
  return (cache || []).find((g) => g.game === name);
}

/** @param {string} name */
export function gameTitle(name) {
  const game = gameInfo(name);
  return tOr(`${name}.title`, game ? game.title : name);
}
