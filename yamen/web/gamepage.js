// @ts-check
// A finished game's page (#/game/<game_id>[?invite=], from a list of games): the game, when it
// ended and its options in words; every seat in its place, with who played it, their part in
// the game's words, points where the game counts them, and the winners marked; my result;
// then the links to the replay, to the analysis of my play where the game has one, and the
// record's file (GET /api/games/<id>, docs/server.md). Drawn again on a language change.

import { api } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { botKind, optionSummary } from "./lobby.js";
import { gameInfo } from "./gamelist.js";
import { attempt } from "./shell.js";
import { means, occupant, partWords, placeWords, pointsWords, when } from "./standing.js";

// The record's file, fetched with my token (a private room's game needs it), then saved.
/**
 * @param {string} gameId
 * @param {string} suffix the invite, as a query
 */
async function download(gameId, suffix) {
  const record = await attempt(() => api("GET", `/api/games/${encodeURIComponent(gameId)}/record${suffix}`));
  if (!record) return;
  const href = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
  h("a", { href, download: `${gameId}.json` }).click();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/**
 * @param {string} gameId
 * @param {(game: string) => string} title
 * @param {string} [query]
 */
export async function gamePage(gameId, title, query) {
  const invite = new URLSearchParams(query || "").get("invite") || "";
  const suffix = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  /** @type {GameSummary} */
  const game = await api("GET", `/api/games/${encodeURIComponent(gameId)}${suffix}`);
  const info = gameInfo(game.game);
  const placed = [...game.seats].sort((a, b) => a.place - b.place);
  // bots numbered among the game's bots, as the room named them ("Bot 2")
  const botNumber = (/** @type {number} */ seat) => game.seats.filter((s) => s.seat <= seat && s.bot).length;
  const replay = `#/replay/${game.game_id}${suffix}`;
  const seatLink = (/** @type {number} */ seat) => `#/replay/${game.game_id}?${new URLSearchParams({ seat: String(seat), ...(invite ? { invite } : {}) })}`;
  const places = means(game.game, "places");
  const points = means(game.game, "points");
  return () => {
    const mine = game.seat === null ? null : game.seats[game.seat];
    const options = info ? optionSummary(info, { ...game.options, ...Object.fromEntries(game.custom.map((name) => [name, true])) }) : "";
    const rows = placed.map((s) =>
      h(
        "tr",
        { "data-seat": s.seat, class: [s.won ? "won" : "", s.seat === game.seat ? "mine" : ""].join(" ").trim() },
        places ? h("td", { class: "place" }, placeWords(game.game, s.place)) : null,
        h(
          "td",
          { class: "who" },
          s.bot ? `${t("bot")} ${botNumber(s.seat)}` : occupant(s),
          s.bot ? [" ", h("small", { class: "bot-kind" }, botKind(s.bot))] : null,
          s.seat === game.seat ? ` (${t("replay.you")})` : "",
          s.won ? h("span", { class: "badge" }, t("winner")) : null,
          s.stand_in ? [" ", h("small", {}, t("player.stood_in"))] : null,
        ),
        h("td", { class: "part" }, partWords(game.game, s.part)),
        points ? h("td", { class: "points" }, pointsWords(s.score)) : null,
      ),
    );
    return h(
      "section",
      { class: "card game-page", id: "game-page", "data-game-id": game.game_id },
      h("h1", {}, title(game.game), " · ", when(game.finished)),
      options ? h("p", { class: "game-options quiet" }, options) : null,
      mine ? h("p", { class: "headline", id: "game-result" }, t(mine.won ? "you_won" : "you_lost")) : null,
      h(
        "table",
        { class: "game-seats" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            places ? h("th", {}, t("game.place")) : null,
            h("th", {}, t("player.name")),
            h("th", {}, t("game.part")),
            points ? h("th", {}, t("game.points")) : null,
          ),
        ),
        h("tbody", {}, rows),
      ),
      h(
        "p",
        { class: "game-links" },
        h("a", { class: "button", id: "game-replay", href: replay }, t("replay.open")),
        game.analysis && game.seat !== null ? h("a", { class: "button quiet", id: "game-analysis", href: seatLink(game.seat) }, t("game.analysis")) : null,
        h("button", { type: "button", class: "quiet", id: "game-record", onclick: () => download(game.game_id, suffix) }, t("replay.download")),
      ),
    );
  };
}
