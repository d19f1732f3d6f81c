// @ts-check
// My games (#/games, from the account page): my finished games, newest first, 20 at a time
// (GET /api/players/<me>/games: every game I was rated in, private rooms' too), each with
// when, my part in the game's words, the others and the links to its page and replay
// (standing.js). Fetched once; a language change draws them again without fetching.

import { api } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { gameItem } from "./standing.js";
import { moreGames } from "./player.js";

/**
 * @param {Me} me
 * @param {(game: string) => string} title
 */
export async function myGamesPage(me, title) {
  const path = `/api/players/${encodeURIComponent(me.player)}/games`;
  /** @type {GamesPage} */
  const first = await api("GET", path);
  const list = { last: first.games, next: first.next };
  const more = moreGames(list, path);
  return () =>
    h(
      "section",
      { class: "card my-games", id: "my-games" },
      h("h1", {}, t("my_games")),
      list.last.length
        ? h("ul", { class: "last-games" }, list.last.map((g) => gameItem(g, title)))
        : h("p", { class: "no-games" }, t("my_games.none"), " ", h("a", { href: "#/" }, t("my_games.play"))),
      list.next ? h("button", { type: "button", class: "more-games quiet", onclick: more }, t("player.more_games")) : null,
    );
}
