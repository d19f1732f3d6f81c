// @ts-check
// The host's room setup until the first game starts: the same fields as the lobby's form,
// filled from the room, saved in one PATCH. Built again only when the room's setup changed,
// so a frame arriving meanwhile does not undo what the host is typing.

import { api } from "./net.js";
import { t, lang } from "./i18n.js";
import { h } from "./dom.js";
import { dealt, optionFields, readOptions, settingFields, readSettings } from "./lobby.js";
import { gameInfo } from "./gamelist.js";
import { shell, say, attempt } from "./shell.js";
import { fillField, readFill } from "./playnow.js";

/** @param {Room} room */
export function setupEditor(room) {
  const page = /** @type {RoomPage} */ (shell.page); // (drawn on the room page)
  const key = JSON.stringify([room.options, room.settings, room.public, lang()]);
  if (page.setup && page.setup.key === key) return page.setup.el;
  const game = /** @type {GameInfo} */ (gameInfo(room.game)); // (drawRoom asks for it after games())
  const optionsBox = optionFields(h, game, room.options, "set-opt-");
  const el = h(
    "details",
    { class: "setup", id: "room-setup", open: page.setup ? page.setup.el.open : false },
    h("summary", {}, t("room_settings")),
    h("form", { novalidate: true, onsubmit: async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      const saved = await attempt(() => {
        const { settings, public: isPublic } = readSettings("set-");
        return api("PATCH", `/api/rooms/${room.id}`, { options: readOptions(optionsBox), settings: { ...settings, ...readFill("set-") }, public: isPublic });
      });
      if (saved) say(t("settings_saved"), "info");
    } },
    optionsBox,
    settingFields(h, room.settings, room.public, "set-", dealt(game)),
    fillField(room, "set-"), // a play-now table's wait for people
    h("button", { type: "submit", id: "save-settings" }, t("save_settings"))),
  );
  page.setup = { key, el };
  return el;
}
