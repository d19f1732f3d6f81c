// @ts-check
// A player's page (#/player/<id>) and a game's leaderboard (#/leaderboard/<game>): the figures
// the server keeps per game (docs/server.md, Ratings), drawn in the page's words. Each loader
// fetches once and returns a draw function, so a language change redraws without fetching.
// A rating is one number with a line saying what it is; places and points are shown only for
// a game that declares they mean something in it (standing.js). A player's last games come 20
// at a time: "more games" fetches the next page (the answer's `next`) and adds it to those shown.

import { api, ApiError } from "./net.js";
import { t, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { botKind } from "./lobby.js";
import { shell, attempt } from "./shell.js";
import { followButton } from "./follow.js";
import { gameItem, means, placeWords, pointsWords } from "./standing.js";

// A rated name: a person's own (a deleted account's: words for it), or a bot by its kind
// ("bot:rules" is rated like a person).
/**
 * @typedef {{ player: string, name: string, bot?: string | null, display: number, games: number }} BoardRow
 * @typedef {{ display: number, mu: number, sigma: number }} Rating
 * @typedef {{ game: string, played: number, win_rate: number, mean_points: number, rating: Rating | null, places: { [place: string]: number } }} GameFigures
 * @typedef {{ name: string, bot?: string | null, games: GameFigures[], last: ListedGame[], next: string | null }} PlayerData
 * @typedef {(game: string) => string} Title the game's name in the page's language
 */

/** @param {{ name: string, bot?: string | null }} row */
function named(row) {
  return row.bot ? `${t("bot")} · ${botKind(row.bot)}` : shownName(row.name);
}

/** @param {number} x */
function percent(x) {
  return `${Math.round(x * 100)}%`;
}

// A rating as one whole number (mu - 3 sigma: 0 for a new player), not its parts.
/** @param {number} display */
export function ratingWords(display) {
  return String(Math.round(display) || 0); // (never "-0")
}

/**
 * @param {string} path
 * @returns {Promise<any>} the answer, or {missing: code} (what the server says is its own)
 */
async function fetched(path) {
  try {
    return await api("GET", path);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return { missing: err.code }; // not_found, or player_deleted
    throw err;
  }
}

// `title(game)`: the game's name in the page's language (the shell's, which knows the games).
/**
 * @param {string} id
 * @param {Title} title
 */
export async function playerPage(id, title) {
  const path = `/api/players/${encodeURIComponent(id)}`;
  const found = await fetched(path);
  if (found.missing) return () => h("p", { class: "card missing" }, t(found.missing === "player_deleted" ? "error.player_deleted" : "player.not_found"));
  /** @type {PlayerData} */
  const data = found;
  const games = `${path}/games`;
  const more = moreGames(data, games);
  return () => {
    const figures = data.games.map((g) =>
      h(
        "section",
        { class: "card player-game", "data-game": g.game },
        h("h2", {}, title(g.game), " ", h("a", { class: "board-link", href: `#/leaderboard/${g.game}` }, t("leaderboard"))),
        h(
          "dl",
          { class: "figures" },
          h("dt", {}, t("player.played")), h("dd", { class: "played" }, g.played),
          h("dt", {}, t("player.win_rate")), h("dd", { class: "win-rate" }, percent(g.win_rate)),
          means(g.game, "points") ? [h("dt", {}, t("player.mean_points")), h("dd", { class: "mean-points" }, pointsWords(g.mean_points))] : null,
          h("dt", {}, t("player.rating")),
          h("dd", { class: "rating" }, g.rating ? ratingWords(g.rating.display) : "–"),
          means(g.game, "places")
            ? [h("dt", {}, t("player.places")),
              h("dd", { class: "place-counts" }, Object.entries(g.places).map(([n, count]) => `${placeWords(g.game, Number(n))} ×${count}`).join(" · "))]
            : null,
        ),
      ),
    );
    const last = data.last.map((g) => gameItem(g, title));
    return h(
      "div",
      { class: "player-page" },
      h("h1", {}, named(data), " ", followButton(data.bot ? null : id)), // follow.js
      figures.length ? [h("p", { class: "rating-hint" }, t("player.rating_hint")), ...figures] : h("p", { class: "card" }, t("player.no_games")),
      last.length
        ? h(
            "section",
            { class: "card" },
            h("h2", {}, t("player.last_games")),
            h("ul", { class: "last-games" }, last),
            data.next ? h("button", { type: "button", class: "more-games quiet", onclick: more }, t("player.more_games")) : null,
          )
        : null,
    );
  };
}

// The next page of a list of games (`path`, ?before= the list's `next`), added to `list.last`;
// the screen is drawn again if it is still on show. One page is fetched at a time.
/**
 * @param {{ last: ListedGame[], next: string | null }} list
 * @param {string} path
 */
export function moreGames(list, path) {
  let loading = false;
  return async (/** @type {Event} */ event) => {
    if (loading || !list.next) return;
    loading = true;
    const button = /** @type {HTMLButtonElement} */ (event.currentTarget);
    button.disabled = true;
    const next = list.next;
    /** @type {GamesPage | undefined} */
    const page = await attempt(() => api("GET", `${path}?before=${encodeURIComponent(next)}`));
    loading = false;
    if (page) {
      list.last.push(...page.games);
      list.next = page.next;
    }
    if (button.isConnected && shell.redraw) shell.redraw();
  };
}

/**
 * @param {string} game
 * @param {Title} title
 */
export async function leaderboardPage(game, title) {
  const found = await fetched(`/api/leaderboard/${encodeURIComponent(game)}`);
  /** @type {BoardRow[]} */
  const rows = Array.isArray(found) ? found : []; // an unknown game: an empty board
  return () =>
    h(
      "section",
      { class: "card leaderboard" },
      h("h1", {}, `${t("leaderboard")} · ${title(game)}`),
      h("p", { class: "rating-hint quiet" }, t("player.rating_hint")),
      rows.length
        ? h(
            "table",
            {},
            h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("player.name")), h("th", {}, t("player.rating")), h("th", {}, t("player.played")))),
            h(
              "tbody",
              {},
              rows.map((r, i) =>
                h(
                  "tr",
                  { class: r.bot ? "bot" : "", "data-player": r.player },
                  h("td", {}, i + 1),
                  // a deleted account's player has no page: their name is not a link
                  h("td", {}, r.name === "" && !r.bot ? named(r) : h("a", { href: `#/player/${encodeURIComponent(r.player)}` }, named(r))),
                  h("td", { class: "rating" }, ratingWords(r.display)),
                  h("td", {}, r.games),
                ),
              ),
            ),
          )
        : h("p", {}, t("leaderboard.empty")),
    );
}
