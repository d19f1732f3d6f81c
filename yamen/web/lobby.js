// @ts-check
// The lobby's forms, drawn from what the server publishes (GET /api/games): a game's options
// from its declaration (yamen/options.py: kind, default, range or choices, the option it
// applies to) and its presets (named bundles of options, offered first), the room's settings,
// a seat's bot by kind, and refusals in the page's words. It knows no game by name: labels
// come from the game's catalog (<game>.option.<name>, <game>.choice.<name>.<value>,
// <game>.preset.<name>), with the declaration's own English as the fallback.

import { t, tOr } from "./i18n.js";

// A data option read from a file, by the field's id: a redraw (a language change) keeps it.
/** @type {{ [id: string]: { name: string, data: Json } }} */
const files = {};

/**
 * @param {string} game
 * @param {OptionDeclaration} option
 */
function optionLabel(game, option) {
  return tOr(`${game}.option.${option.name}`, tOr(`option.${option.name}`, option.label));
}

/**
 * @param {string} game
 * @param {OptionDeclaration} option
 * @param {Json} value
 */
function choiceLabel(game, option, value) {
  return tOr(`${game}.choice.${option.name}.${value}`, (option.choice_labels || {})[String(value)] || String(value));
}

// The declarations that apply, one per name, given the values chosen (in order: as the server
// reads them, an option's `applies` is read before the option itself); an option not chosen
// yet takes the default of the declaration that applies.
/**
 * @param {OptionDeclaration[]} declaration
 * @param {OptionValues} values
 */
export function applying(declaration, values) {
  const names = [...new Set(declaration.map((o) => o.name))];
  /** @type {OptionValues} */
  const read = {};
  /** @type {OptionDeclaration[]} */
  const shown = [];
  for (const name of names) {
    const option = declaration.find((o) => o.name === name && (!o.applies || read[o.applies.option] === o.applies.value));
    const fallback = option || declaration.find((o) => o.name === name);
    read[name] = values[name] === undefined ? /** @type {OptionDeclaration} */ (fallback).default : values[name];
    if (option && option.shown !== false) shown.push(option); // a rules edition is the game's, not a choice
  }
  return { shown, read };
}

// A box of option fields for `game` (an entry of /api/games), ids `<prefix><name>`, filled
// from `values` (the room's options, or the defaults); a choice redraws the box, so options
// that do not apply to it come and go.
// A game that plays several deals (it declares how many): a pause between them applies.
export const dealt = (/** @type {GameInfo | undefined} */ game) => Boolean(game && game.declaration.some((option) => option.name === "deals"));

/**
 * @param {Hyperscript} h
 * @param {GameInfo} game
 * @param {OptionValues} [values]
 * @param {string} [prefix]
 */
export function optionFields(h, game, values = {}, prefix = "opt-") {
  const box = h("div", { class: "options" });
  const fields = h("div", { class: "option-fields" });
  const presets = presetPicker(h, game, prefix, (read) => {
    base = read;
    draw(read);
  });
  let base = values;
  const draw = (/** @type {OptionValues} */ chosen) => {
    const { shown, read } = applying(game.declaration, chosen);
    fields.replaceChildren(...shown.map((option) => optionField(h, game.game, option, read, prefix, redraw)));
    if (presets) presets.show(read);
  };
  const redraw = () => draw({ ...base, ...readValues(box) });
  // a field changed by hand (as it is typed): the preset shown follows (a choice redraws)
  const follow = (/** @type {Event} */ e) => {
    const field = /** @type {HTMLElement} */ (e.target);
    if (presets && field.dataset.option && field.dataset.kind !== "choice") presets.show(applying(game.declaration, { ...base, ...readValues(box) }).read);
  };
  box.addEventListener("input", follow);
  box.addEventListener("change", follow);
  if (presets) box.append(presets.el);
  box.append(fields);
  draw(values);
  return box;
}

// The game's presets as a select (id `<prefix>preset`) with a line saying what the chosen one
// changes; choosing one sets every field (its options over the declared defaults). The select
// shows the preset the fields now match, or "custom" once a field differs. None: no presets.
/**
 * @param {Hyperscript} h
 * @param {GameInfo} game
 * @param {string} prefix
 * @param {(read: OptionValues) => void} choose
 */
function presetPicker(h, game, prefix, choose) {
  const presets = game.presets || [];
  if (!presets.length) return null;
  const id = `${prefix}preset`;
  const filled = (/** @type {Preset} */ preset) => applying(game.declaration, preset.options).read;
  const custom = h("option", { value: "" }, t("preset_custom"));
  const select = h("select", { id, class: "preset" }, presets.map((p) => h("option", { value: p.name }, presetLabel(game.game, p))), custom);
  const summary = h("p", { class: "hint preset-summary", id: `${id}-summary` });
  const show = (/** @type {OptionValues} */ read) => {
    const { shown } = applying(game.declaration, read);
    const same = presets.find((p) => shown.every((o) => filled(p)[o.name] === read[o.name]));
    select.value = same ? same.name : "";
    summary.textContent = same ? presetSummary(game, same) : "";
  };
  select.addEventListener("change", () => {
    const preset = presets.find((p) => p.name === select.value);
    if (preset) choose(filled(preset));
  });
  const el = h("div", { class: "presets" }, h("label", { class: "option" }, h("span", {}, t("preset")), select), summary);
  return { el, show };
}

/**
 * @param {string} game
 * @param {Preset} preset
 */
function presetLabel(game, preset) {
  return tOr(`${game}.preset.${preset.name}`, preset.label);
}

// What a preset changes from the declared defaults, in words ("Rules: 168 cards: …"); a
// catalog may word it itself (<game>.preset.<name>.summary).
/**
 * @param {GameInfo} game
 * @param {Preset} preset
 */
export function presetSummary(game, preset) {
  const written = tOr(`${game.game}.preset.${preset.name}.summary`, "");
  if (written) return written;
  const { shown, read } = applying(game.declaration, preset.options);
  const differs = shown.filter((option) => read[option.name] !== option.default);
  return differs.length ? optionSummary(game, read, differs) : t("preset_defaults");
}

/**
 * @param {Hyperscript} h
 * @param {string} game
 * @param {OptionDeclaration} option
 * @param {OptionValues} values
 * @param {string} prefix
 * @param {() => void} redraw
 */
function optionField(h, game, option, values, prefix, redraw) {
  const id = `${prefix}${option.name}`;
  const value = values[option.name] === undefined ? option.default : values[option.name];
  let input;
  if (option.kind === "bool") {
    input = h("input", { id, type: "checkbox", checked: value === true });
  } else if (option.kind === "choice") {
    input = h("select", { id, onchange: redraw }, (option.choices || []).map((c) => h("option", { value: c, selected: c === value }, choiceLabel(game, option, c))));
  } else if (option.kind === "seat") {
    // the game narrows the range to its table: no more seats than players, where it says
    const [low, declared] = [Number(option.low), Number(option.high)]; // a seat option declares both
    const high = typeof values.players === "number" && Number.isInteger(values.players) ? Math.min(declared, values.players - 1) : declared;
    const seats = Array.from({ length: high - low + 1 }, (_, i) => low + i);
    const none = option.nullable ? [h("option", { value: "" }, tOr(`${game}.choice.${option.name}.null`, t("default")))] : [];
    input = h("select", { id }, none, seats.map((s) => h("option", { value: s, selected: s === value }, t("seat_n", { n: s + 1 }))));
  } else if (option.kind === "whole") {
    const blank = option.nullable ? tOr(`${game}.choice.${option.name}.null`, t("option_none")) : "";
    input = h("input", { id, type: "number", min: option.low, max: option.high, step: 1, value: value ?? "", placeholder: blank, onchange: redraw });
  } else {
    return dataField(h, game, option, id, value);
  }
  input.dataset.option = option.name;
  input.dataset.kind = option.kind;
  return h("label", { class: "option" }, h("span", {}, optionLabel(game, option)), input);
}

// Data (a card list): a preset (the game's own, null) or a JSON file read here, in the page;
// a file that is not JSON is said at once, in the page's words, and nothing is sent.
/**
 * @param {Hyperscript} h
 * @param {string} game
 * @param {OptionDeclaration} option
 * @param {string} id
 * @param {Json} value
 */
function dataField(h, game, option, id, value) {
  const note = h("span", { class: "hint", id: `${id}-note` });
  const file = h("input", { id: `${id}-file`, type: "file", accept: ".json,application/json", hidden: true });
  const choice = h("select", { id }, h("option", { value: "standard" }, tOr(`${game}.choice.${option.name}.standard`, t("preset_standard"))), h("option", { value: "file" }, t("from_file")));
  choice.dataset.option = option.name;
  choice.dataset.kind = "data";
  const show = () => {
    file.hidden = choice.value !== "file";
    const loaded = files[id];
    note.textContent = choice.value === "file" && loaded ? t("file_loaded", { name: loaded.name }) : "";
    note.className = "hint";
  };
  choice.addEventListener("change", show);
  file.addEventListener("change", async () => {
    const chosen = file.files && file.files[0];
    delete files[id];
    show(); // the last file's words go at once
    if (chosen) {
      try {
        files[id] = { name: chosen.name, data: JSON.parse(await chosen.text()) };
      } catch {
        note.textContent = t("error.data_file");
        note.className = "option-error";
        return;
      }
    }
    show();
  });
  if (value != null) {
    files[id] = files[id] || { name: t("from_file"), data: value }; // a room's own list
    choice.value = "file";
  }
  show();
  return h("div", { class: "option data" }, h("label", { class: "option" }, h("span", {}, optionLabel(game, option)), choice), file, note);
}

// The values in a box's fields, by option name (a field left blank: null).
/** @param {HTMLElement} box */
function readValues(box) {
  /** @type {OptionValues} */
  const values = {};
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (box.querySelectorAll("[data-option]"))) {
    const name = /** @type {string} */ (input.dataset.option);
    const kind = input.dataset.kind;
    if (kind === "bool") values[name] = input.checked;
    else if (kind === "choice") values[name] = input.value;
    else if (kind === "data") values[name] = input.value === "file" ? (files[input.id] || {}).data : null;
    else values[name] = input.value === "" ? null : Number(input.value);
  }
  return values;
}

// The options to send; an Error with a code (said in the page's words) when a file is wanted.
/** @param {HTMLElement} box */
export function readOptions(box) {
  const values = readValues(box);
  for (const input of /** @type {NodeListOf<HTMLSelectElement>} */ (box.querySelectorAll("[data-kind=data]"))) {
    if (input.value === "file" && values[String(input.dataset.option)] === undefined) throw Object.assign(new Error("no file"), { code: "no_file" });
  }
  return values;
}

const PACES = [["0", "pace_instant"], ["0.3", "pace_fast"], ["0.8", "pace_normal"], ["2", "pace_slow"]];

// The room's own settings (ids `<prefix>turn`, `<prefix>talk`, `<prefix>pause`, `<prefix>pace`,
// `<prefix>spectator-delay`, `<prefix>aids`, `<prefix>public`); the pause between deals only
// for a game that plays several (`dealt`). The table aids (a card counter…) are each game's
// own: the switch only says whether a table offers them.
/**
 * @param {Hyperscript} h
 * @param {RoomSettings} [settings]
 * @param {boolean} [isPublic]
 * @param {string} [prefix]
 * @param {boolean} [dealt]
 */
export function settingFields(h, settings = {}, isPublic = true, prefix = "", dealt = true) {
  const turn = settings.turn_seconds === undefined ? 60 : settings.turn_seconds || 0;
  const pace = String(settings.bot_delay ?? 0.8);
  const known = PACES.some(([v]) => v === pace);
  const paces = known ? PACES : [...PACES, [pace, null]];
  return h(
    "div",
    { class: "settings" },
    h("label", { class: "option" }, h("span", {}, t("public_room")), h("input", { id: `${prefix}public`, type: "checkbox", checked: isPublic })),
    h("label", { class: "option" }, h("span", {}, t("turn_seconds")), h("input", { id: `${prefix}turn`, type: "number", min: 0, max: 86400, value: turn })),
    h("label", { class: "option" }, h("span", {}, t("talk_seconds")), h("input", { id: `${prefix}talk`, type: "number", min: 0, max: 3600, value: settings.talk_seconds ?? 60 })),
    h("label", { class: "option deal-pause", hidden: !dealt }, h("span", {}, t("deal_pause")), h("input", { id: `${prefix}pause`, type: "number", min: 0, max: 3600, value: settings.deal_pause ?? 30 })),
    h("label", { class: "option" }, h("span", {}, t("spectator_delay")), h("input", { id: `${prefix}spectator-delay`, type: "number", min: 0, max: 1000, step: 1, value: settings.spectator_delay ?? 0 })),
    h("label", { class: "option" }, h("span", {}, t("table_aids")), h("input", { id: `${prefix}aids`, type: "checkbox", checked: settings.table_aids !== false })),
    h("label", { class: "option" }, h("span", {}, t("bot_pace")), h("select", { id: `${prefix}pace` }, paces.map(([v, k]) => h("option", { value: v, selected: v === pace }, k ? t(k) : `${v}`)))),
  );
}

export function readSettings(prefix = "") {
  // (settingFields drew every one of them)
  const value = (/** @type {string} */ name) => /** @type {HTMLInputElement} */ (document.getElementById(`${prefix}${name}`));
  const turn = Number(value("turn").value);
  return {
    settings: {
      turn_seconds: turn > 0 ? turn : null,
      bot_delay: Number(value("pace").value),
      talk_seconds: Math.max(0, Number(value("talk").value) || 0),
      deal_pause: Math.max(0, Number(value("pause").value) || 0),
      spectator_delay: Math.max(0, Math.round(Number(value("spectator-delay").value) || 0)),
      table_aids: value("aids").checked,
    },
    public: value("public").checked,
  };
}

// A refusal in the page's words: `error.<code>`, or for an options check its reason (the
// game's own words first), with its params named as the page names them: seats counted from 1,
// as people count them (the wire counts from 0): `seat`, `seats`, and the bounds of a refusal
// about a seat (its code or reason `seat`, `no_seat`, `sheriff_seat`…).
/**
 * @param {string} code
 * @param {{ [name: string]: unknown }} [params]
 * @param {string | null} [game]
 */
export function errorText(code, params = {}, game = null) {
  const words = { ...params };
  if (game && words.option) words.option = tOr(`${game}.option.${words.option}`, tOr(`option.${words.option}`, String(words.option)));
  if (game && words.role) words.role = tOr(`${game}.role.${words.role}`, String(words.role));
  if (words.setting) words.setting = tOr(`setting.${words.setting}`, String(words.setting));
  const seatBounds = /(^|_)seat$/.test(String(params.reason || code)) ? ["low", "high"] : [];
  for (const name of ["seat", "seats", ...seatBounds]) if (words[name] != null) words[name] = seatNumbers(words[name]);
  const keys = [];
  if (params.reason) keys.push(...(game ? [`${game}.error.${params.reason}`] : []), `error.${code}.${params.reason}`);
  keys.push(`error.${code}`);
  for (const key of keys) {
    const text = t(key, words);
    if (text !== key) return text;
  }
  return t("error.unknown");
}

// Seat numbers as people count them, from 1: "0, 3" reads "1, 4" (anything else stays).
/** @param {unknown} seats */
function seatNumbers(seats) {
  return String(seats).split(/,\s*/).map((n) => (/^\d+$/.test(n) ? Number(n) + 1 : n)).join(", ");
}

// A bot is named in the page's language and numbered among the room's bots ("電腦 2"); a
// seat a person left mid-game keeps their name and is not counted, nor one on auto-play.
/**
 * @param {{ seats: Seat[] }} room
 * @param {number} seat
 */
export function botName(room, seat) {
  const bots = room.seats.filter((s, i) => i <= seat && s.bot && !s.left && !s.auto).length;
  return `${t("bot")} ${bots}`;
}

/** @param {string} kind */
export function botKind(kind) {
  return tOr(`bot.kind.${kind}`, kind);
}

// The bot a seat gets by default: the game's rule-following one where it has one.
/**
 * @param {GameInfo[] | null} games
 * @param {string} game
 */
export function defaultBot(games, game) {
  const found = (games || []).find((g) => g.game === game);
  return found && found.bots.includes("rules") ? "rules" : "random";
}

// The room's options in words, for everyone before the start ("Rules: Japanese rules · Deals:
// 3"): what the host set, and what changes when they change it.
/**
 * @param {GameInfo} game
 * @param {OptionValues} options
 * @param {OptionDeclaration[] | null} [only]
 */
export function optionSummary(game, options, only = null) {
  const shown = only || applying(game.declaration, options).shown;
  return shown.map((option) => {
    const value = options[option.name];
    let said;
    if (option.kind === "bool") said = t(value ? "option_on" : "option_off");
    else if (option.kind === "data") said = value == null ? tOr(`${game.game}.choice.${option.name}.standard`, t("preset_standard")) : t("from_file");
    else if (value == null) said = tOr(`${game.game}.choice.${option.name}.null`, t("option_none"));
    else if (option.kind === "choice") said = choiceLabel(game.game, option, value);
    else if (option.kind === "seat") said = t("seat_n", { n: Number(value) + 1 });
    else said = String(value);
    return t("label_value", { label: optionLabel(game.game, option), value: said });
  }).join(" · ");
}
