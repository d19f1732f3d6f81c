// @ts-check
// The lobby screen: the new-room form (lobby.js draws its fields from the game's declaration),
// with the chosen game's one line from its catalog (<game>.description), the public rooms, and
// a link to each game's leaderboard. Games come in the server's order (the registry's): the
// first is the form's default.

import { api } from "./net.js";
import { t, tOr } from "./i18n.js";
import { h } from "./dom.js";
import { dealt, optionFields, readOptions, settingFields, readSettings } from "./lobby.js";
import { games, gameTitle } from "./gamelist.js";
import { shell, main, attempt } from "./shell.js";
import { findAGame } from "./playnow.js";

export async function lobby() {
  const routed = shell.routed;
  const list = await games();
  /** @type {Room[]} */
  const rooms = (await attempt(() => api("GET", "/api/rooms"))) || [];
  const quick = await findAGame(list); // back to my table, play now (playnow.js)
  if (shell.routed !== routed) return; // another screen was asked for meanwhile (routes.js)
  shell.redraw = () => (drawLobby(list, rooms), quick());
  shell.redraw();
}

/**
 * @param {GameInfo[]} list
 * @param {Room[]} rooms
 */
function drawLobby(list, rooms) {
  const select = h("select", { id: "game" }, list.map((g) => h("option", { value: g.game }, gameTitle(g.game))));
  const about = h("p", { class: "hint game-about", id: "game-about" });
  const optionsBox = h("div", { class: "options-holder" });
  const showOptions = () => {
    const game = /** @type {GameInfo} */ (list.find((g) => g.game === select.value)); // (one of the select's)
    about.textContent = tOr(`${game.game}.description`, "");
    optionsBox.replaceChildren(optionFields(h, game));
    for (const row of /** @type {NodeListOf<HTMLElement>} */ (main.querySelectorAll(".deal-pause"))) row.hidden = !dealt(game);
  };
  select.addEventListener("change", showOptions);
  showOptions();
  const form = h(
    "form",
    // the server checks every value and says what is wrong in the page's words
    { class: "card", novalidate: true, onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      const game = select.value;
      const room = await attempt(() => {
        const { settings, public: isPublic } = readSettings();
        const options = readOptions(optionsBox);
        return api("POST", "/api/rooms", { game, options, public: isPublic, settings, seat: 0 });
      }, game);
      if (room) location.hash = `#/room/${room.id}?invite=${room.invite}`;
    } },
    h("h2", {}, t("new_room")),
    h("label", { for: "game" }, t("game")),
    select,
    about,
    optionsBox,
    settingFields(h, {}, true, "", dealt(list[0])),
    h("button", { type: "submit", id: "create" }, t("create_room")),
  );
  const rows = rooms.map((r) =>
    h(
      "li",
      {},
      h("a", { href: `#/room/${r.id}` }, `${gameTitle(r.game)} · ${r.seats.filter((s) => s.player || s.bot).length}/${r.seats.length} · ${t(`status.${r.status}`)}`),
    ),
  );
  main.replaceChildren(
    h("div", { class: "lobby" }, form, h("section", { class: "card" }, h("h2", {}, t("public_rooms")), rows.length ? h("ul", { class: "rooms" }, rows) : h("p", {}, t("no_rooms")),
      h("h2", {}, t("leaderboard")), h("ul", { class: "leaderboards" }, list.map((g) => h("li", {}, h("a", { href: `#/leaderboard/${g.game}` }, gameTitle(g.game))))))),
  );
}
