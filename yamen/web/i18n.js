// @ts-check
// Every visible string comes from a catalog (i18n/<lang>.json); English fills any gap.

/** @type {{ [code: string]: string }} */
export const LANGS = { en: "English", "zh-Hant": "繁體中文", "zh-Hans": "简体中文", ja: "日本語" };
const KEY = "yamen.lang";
/** @type {{ [lang: string]: { [key: string]: string } }} */
const catalogs = {};
let current = "en";

export function detect() {
  const saved = localStorage.getItem(KEY);
  if (saved && LANGS[saved]) return saved;
  for (const tag of navigator.languages || [navigator.language || "en"]) {
    const lower = tag.toLowerCase();
    if (lower.startsWith("ja")) return "ja";
    if (/^zh-(tw|hk|mo)|^zh-hant/.test(lower)) return "zh-Hant";
    if (lower.startsWith("zh")) return "zh-Hans";
    if (lower.startsWith("en")) return "en";
  }
  return "en";
}

/** @type {{ [game: string]: { [lang: string]: { [key: string]: string } } }} */
const gameCatalogs = {}; // game -> {lang -> {key -> text}}: a game's own words, in its own file

/** @param {string} lang */
async function load(lang) {
  if (!catalogs[lang]) catalogs[lang] = await (await fetch(`/i18n/${lang}.json`)).json();
  return catalogs[lang];
}

// A game's catalog (i18n/games/<game>.json, every language in one file); none is fine.
/** @param {string} game */
export async function loadGame(game) {
  if (gameCatalogs[game]) return;
  const answer = await fetch(`/i18n/games/${game}.json`);
  gameCatalogs[game] = answer.ok ? await answer.json() : {};
}

/**
 * @param {string} lang
 * @param {string} key
 * @returns {string | undefined}
 */
function lookup(lang, key) {
  const own = (catalogs[lang] || {})[key];
  if (own !== undefined) return own;
  const game = key.split(".", 1)[0];
  return ((gameCatalogs[game] || {})[lang] || {})[key];
}

/**
 * @param {string} lang
 * @param {boolean} [remember]
 */
export async function setLang(lang, remember = true) {
  await Promise.all([load("en"), load(lang)]);
  current = lang;
  if (remember) localStorage.setItem(KEY, lang);
  document.documentElement.lang = lang;
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("[data-t]"))) el.textContent = t(el.dataset.t || "");
}

export function lang() {
  return current;
}

// t("seat_n", {n: 3}) -> "Seat 3"; an unknown key shows itself, so a gap is visible, not blank.
/** @type {Translate} */
export function t(key, params = {}) {
  const text = lookup(current, key) ?? lookup("en", key);
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? String(params[name]) : `{${name}}`));
}

// A key that may have no entry (a game's own term): the fallback instead of the key.
/**
 * @param {string} key
 * @param {string} fallback
 * @param {{ [name: string]: unknown }} [params]
 */
export function tOr(key, fallback, params = {}) {
  const found = t(key, params);
  return found === key ? fallback : found;
}

// A list a game declares as data in its catalog: the keys under `prefix` (`<game>.quick.`, its
// quick phrases), in the catalog's order.
/** @param {string} prefix */
export function keysUnder(prefix) {
  const game = prefix.split(".", 1)[0];
  return Object.keys((gameCatalogs[game] || {}).en || {}).filter((key) => key.startsWith(prefix));
}

// Which of a game's `keys` says `text` in one of its languages (a phrase sent in another's words).
/**
 * @param {string[]} keys
 * @param {string} text
 */
export function keyOfText(keys, text) {
  const game = (keys[0] || "").split(".", 1)[0];
  const langs = Object.values(gameCatalogs[game] || {});
  return keys.find((key) => langs.some((words) => words[key] === text)) ?? null;
}

// A text that carries its own translations ({"en": ..., "zh": ...}), as game data may.
/** @param {Names} names */
export function pick(names) {
  if (typeof names === "string") return names;
  const order = current === "zh-Hans" ? ["zh-Hans", "zh"] : current === "ja" ? ["ja", "zh"] : [current, "zh"];
  for (const key of [...order, "en"]) if (names[key]) return names[key];
  return Object.values(names)[0] ?? "";
}

// A player's name as shown: a deleted account's player is named "" by the server
// (docs/server.md, Accounts), worded here in the page's language.
/** @param {string | null | undefined} name */
export function shownName(name) {
  return name === "" ? t("deleted_player") : (name ?? "");
}
