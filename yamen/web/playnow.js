// @ts-check
// Finding a game and coming back (issue 26), on the lobby: "Back to your table" for each game
// in progress where I sit (GET /api/me/tables), and "Play now", one button per game and per
// preset, which seats me at a public table waiting for people or opens one (POST /api/play).
// In the room, a play-now table before its game says when bots fill its empty seats
// (`fill_at`), and its host may change that wait (the setting `fill_seconds`).

import { api } from "./net.js";
import { t, tOr } from "./i18n.js";
import { h } from "./dom.js";
import { gameTitle } from "./gamelist.js";
import { main, attempt } from "./shell.js";

/** @typedef {{ room: string, game: string, preset: string | null, seat: number, number: number }} MyTable */

// Fetched once a visit of the lobby; the cards are drawn again (a language change) from it.
/**
 * @param {GameInfo[]} list
 * @returns {Promise<() => void>} draws the cards at the top of the lobby (its `.lobby`)
 */
export async function findAGame(list) {
  /** @type {MyTable[]} */
  const mine = (await attempt(() => api("GET", "/api/me/tables"))) || [];
  return () => {
    const lobby = main.querySelector(".lobby");
    if (lobby) lobby.prepend(...(mine.length ? [backCard(mine)] : []), playNowCard(list));
  };
}

// A game of mine in progress: one tap takes me back to its table.
/** @param {MyTable[]} mine */
function backCard(mine) {
  return h(
    "section",
    { class: "card back-to-table", id: "back-to-table" },
    h("h2", {}, t("back.title")),
    h(
      "ul",
      { class: "my-tables" },
      mine.map((table) =>
        h(
          "li",
          {},
          h("span", {}, t("back.where", { game: kindTitle(table.game, table.preset), seat: table.seat + 1, n: table.number })),
          h("a", { class: "button back-link", href: `#/room/${table.room}`, "data-room": table.room }, t("back.go")),
        ),
      ),
    ),
  );
}

// One button a game, or one a preset where the game declares presets.
/** @param {GameInfo[]} list */
function playNowCard(list) {
  /** @type {(game: GameInfo) => { game: string, preset: string | null }[]} */
  const each = (game) => (game.presets && game.presets.length ? game.presets.map((p) => ({ game: game.game, preset: p.name })) : [{ game: game.game, preset: null }]);
  const kinds = list.flatMap(each);
  return h(
    "section",
    { class: "card play-now", id: "play-now" },
    h("h2", {}, t("play_now.title")),
    h("p", { class: "hint" }, t("play_now.hint")),
    h(
      "div",
      { class: "play-now-buttons" },
      kinds.map(({ game, preset }) =>
        h(
          "button",
          { type: "button", class: "play-now-button", "data-game": game, "data-preset": preset || "", "aria-label": kindTitle(game, preset), onclick: () => playNow(game, preset) },
          // a preset's button: the game on a small first line, the preset under it
          h("span", { class: preset ? "play-now-game" : "" }, gameTitle(game)),
          preset ? h("span", { class: "play-now-preset" }, presetTitle(game, preset)) : null,
        ),
      ),
    ),
  );
}

/**
 * @param {string} game
 * @param {string | null} preset
 */
async function playNow(game, preset) {
  /** @type {Room | undefined} */
  const room = await attempt(() => api("POST", "/api/play", { game, preset }), game);
  if (room) location.hash = `#/room/${room.id}`;
}

// "保皇 · 168張標準玩法": the game, and the preset a table plays, if any.
/**
 * @param {string} game
 * @param {string | null} preset
 */
function kindTitle(game, preset) {
  return preset ? `${gameTitle(game)} · ${presetTitle(game, preset)}` : gameTitle(game);
}

/**
 * @param {string} game
 * @param {string} preset
 */
function presetTitle(game, preset) {
  return tOr(`${game}.preset.${preset}`, preset);
}

// Before a play-now table's game: when bots take the empty seats (a countdown, clock.js).
/** @param {Room} room */
export function fillNote(room) {
  if (!room.fill_at || room.status !== "open") return null;
  return h("p", { class: "fill-note", id: "fill-note" }, t("play_now.filling"), " ", h("span", { class: "timer", "data-deadline": room.fill_at }));
}

// The host's setup of a play-now table: its wait, in seconds (id `<prefix>fill`).
/**
 * @param {Room} room
 * @param {string} prefix
 */
export function fillField(room, prefix) {
  if (!room.settings || !room.settings.play_now) return null;
  const wait = room.settings.fill_seconds ?? 20;
  return h("label", { class: "option" }, h("span", {}, t("setting.fill_seconds")), h("input", { id: `${prefix}fill`, type: "number", min: 1, max: 600, value: wait }));
}

// The wait the host typed, to lay over the room's settings (none where the field is not drawn).
/** @param {string} prefix */
export function readFill(prefix) {
  const field = /** @type {HTMLInputElement | null} */ (document.getElementById(`${prefix}fill`));
  return field ? { fill_seconds: Number(field.value) } : {};
}
