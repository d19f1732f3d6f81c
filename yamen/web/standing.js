// @ts-check
// Finished games in the page's words, for the pages that list or show them (player.js,
// mygames.js, gamepage.js): when a game ended, a seat's part in it in the game's own words
// (the keys of its catalog the server names: Game.part), its place and points only where the
// game declares they mean something (GET /api/games `figures`; a game whose places only put
// the winners first says what became of the seat instead), and who else sat there. It names
// no game: what a game means is the game's declaration and catalog.

import { t, tOr, lang, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { botKind } from "./lobby.js";
import { gameInfo } from "./gamelist.js";

/**
 * @param {string} game
 * @param {"places" | "points"} figure
 */
export function means(game, figure) {
  const info = gameInfo(game);
  return !info || !info.figures || info.figures.includes(figure);
}

// When a game ended, in the page's language ("2025年5月1日 14:03"), as a <time>.
/** @param {number | null | undefined} seconds epoch seconds */
export function when(seconds) {
  if (!seconds) return h("time", {});
  const date = new Date(seconds * 1000);
  const said = new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" }).format(date);
  return h("time", { datetime: date.toISOString() }, said);
}

// A seat's part in the game's words: each word its catalog's (a count picks the `_one` form
// of a phrase, a word that came more than once gets "×n"), joined.
/**
 * @param {string} game
 * @param {PartWord[]} part
 */
export function partWords(game, part) {
  return part
    .map((word) => {
      const key = `${game}.${word.key}`;
      const params = word.params || {};
      const said = (params.n === 1 && tOr(`${key}_one`, "", params)) || tOr(key, word.key, params);
      return word.times ? t("part_times", { what: said, n: word.times }) : said;
    })
    .join(" · ");
}

// A place in the game's words where it has them (頭科 … 大落), else "#2".
/**
 * @param {string} game
 * @param {number} place
 */
export function placeWords(game, place) {
  return tOr(`${game}.place.${place}`, t("player.place_n", { n: place }));
}

// Points with their sign, exact scores ("-1/2") as numbers, two decimals at most.
/** @param {number | string} score */
export function pointsWords(score) {
  const [top, bottom] = String(score).split("/").map(Number);
  const value = Math.round((bottom ? top / bottom : top) * 100) / 100;
  return value > 0 ? `+${value}` : String(value);
}

// Who sat in a seat: a person by name (a link to their page; a deleted account's player is
// worded, unlinked), a bot by its kind.
/** @param {string} kind */
function botWords(kind) {
  return `${t("bot")} · ${botKind(kind)}`;
}

/** @param {Occupant} who */
export function occupant(who) {
  if (who.bot) return botWords(who.bot);
  if (who.name === "") return shownName(who.name);
  return h("a", { class: "player-link", href: `#/player/${encodeURIComponent(who.player)}` }, shownName(who.name));
}

// The others at the table: people by name, bots of one kind together ("Bot · rules ×3"),
// and how many more a big table had.
/**
 * @param {Occupant[]} others
 * @param {number | null} seats
 */
function opponents(others, seats) {
  /** @type {Child[]} */
  const parts = [];
  /** @type {Map<string, number>} */
  const bots = new Map();
  for (const who of others) {
    if (who.bot) bots.set(who.bot, (bots.get(who.bot) || 0) + 1);
    else parts.push(occupant(who));
  }
  for (const [kind, n] of bots) parts.push(n > 1 ? t("part_times", { what: botWords(kind), n }) : botWords(kind));
  const more = seats ? seats - 1 - others.length : 0;
  if (more > 0) parts.push(t("game.more_seats", { n: more }));
  return parts.flatMap((part, i) => (i ? [", ", part] : [part]));
}

// One finished game in a list (a player's last games, my games): when, which game, the
// seat's part, place and points where they mean something, won or lost, the others, and the
// links to the game's page and its replay.
/**
 * @param {ListedGame} g
 * @param {(game: string) => string} title
 */
export function gameItem(g, title) {
  const said = [partWords(g.game, g.part)];
  if (means(g.game, "places")) said.push(placeWords(g.game, g.place));
  if (means(g.game, "points")) said.push(pointsWords(g.score));
  return h(
    "li",
    { class: "listed-game", "data-game-id": g.game_id },
    h("div", { class: "game-head" }, h("b", {}, title(g.game)), " · ", when(g.finished)),
    h(
      "div",
      { class: "game-part" },
      said.filter(Boolean).join(" · "),
      " · ",
      h("span", { class: g.won ? "outcome won" : "outcome lost" }, t(g.won ? "player.won" : "player.lost")),
      g.stand_in ? ` ${t("player.stood_in")}` : "",
    ),
    g.others.length ? h("div", { class: "game-with" }, t("game.with"), " ", ...opponents(g.others, g.seats)) : null,
    h(
      "div",
      { class: "game-links" },
      h("a", { class: "game-open", href: `#/game/${g.game_id}` }, t("player.record")),
      h("a", { class: "replay-open", href: `#/replay/${g.game_id}` }, t("replay.open")),
    ),
  );
}
