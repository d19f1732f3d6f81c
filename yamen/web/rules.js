// @ts-check
// The rules panel: a game's rules in the page's language, from rules/<game>.json, opened from
// the room. The file holds every language with the same sections; a section may apply only to
// some option values ("when": {"variant": "japanese"}), checked against the room's options
// (or the file's "defaults" where the room does not say).

import { icon } from "./icons.js";

/**
 * @typedef {{ title: string, paragraphs: string[], when?: { [option: string]: Json } }} RulesSection
 * @typedef {{ title: string, sections: RulesSection[] }} RulesText
 * @typedef {{ [lang: string]: RulesText } & { defaults?: OptionValues }} RulesFile
 */

/** @type {{ [game: string]: RulesFile | null }} */
const loaded = {};

/** @param {string} game */
async function rulesOf(game) {
  if (!(game in loaded)) {
    const answer = await fetch(`/rules/${game}.json`);
    loaded[game] = answer.ok ? await answer.json() : null;
  }
  return loaded[game];
}

/**
 * @param {RulesSection} section
 * @param {OptionValues} options
 * @param {OptionValues} defaults
 */
function applies(section, options, defaults) {
  return Object.entries(section.when || {}).every(([key, value]) => [value].flat().includes(options[key] ?? defaults[key]));
}

// Opens the panel as a modal dialog; Escape or the close button shuts it.
/**
 * @param {{ h: Hyperscript, t: Translate, lang: string }} words
 * @param {string} game
 * @param {OptionValues} [options]
 */
export async function showRules({ h, t, lang }, game, options = {}) {
  const rules = await rulesOf(game);
  const dialog = h("dialog", { class: "rules-panel", id: "rules-panel", "aria-labelledby": "rules-title" });
  const close = h("button", { type: "button", class: "quiet", id: "rules-close", onclick: () => dialog.close() }, t("close"));
  const words = rules && /** @type {RulesText | undefined} */ (rules[lang] || rules.en);
  const body = words
    ? words.sections
        .filter((section) => applies(section, options, (rules && rules.defaults) || {}))
        .map((section) => h("section", {}, h("h3", {}, section.title), section.paragraphs.map((p) => h("p", {}, p))))
    : [h("p", { class: "hint" }, t("no_rules"))];
  dialog.append(
    h("div", { class: "rules-head" }, h("h2", { id: "rules-title" }, words ? words.title : t("rules")), close),
    h("div", { class: "rules-body" }, body),
  );
  dialog.addEventListener("close", () => dialog.remove());
  document.body.append(dialog);
  dialog.showModal();
  close.focus();
  return dialog;
}

// The room head's button that opens the panel.
/**
 * @param {{ h: Hyperscript, t: Translate, lang: string }} ctx
 * @param {string} game
 * @param {OptionValues} options
 */
export function rulesButton(ctx, game, options) {
  return ctx.h("button", { class: "quiet icon-button", id: "rules", onclick: () => showRules(ctx, game, options) }, icon("rules"), ctx.t("rules"));
}
