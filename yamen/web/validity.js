// @ts-check
// The browser checks a form's fields itself (required, minlength, a number's bounds) and says
// what is wrong in a bubble in the browser's own language, not the page's. Every form of the
// page gets its words from the catalogs instead: when a field is found invalid, its message is
// set from what is wrong with it, in the page's language; typing in it clears the message, so
// the next check is the browser's again.

import { t } from "./i18n.js";

// What is wrong with a field, in the page's words ("" when nothing is).
/** @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} field */
export function problem(field) {
  const v = field.validity;
  const input = field instanceof HTMLInputElement ? field : null;
  if (v.valueMissing) return t("invalid.required");
  if (v.tooShort && input) return t("invalid.too_short", { n: input.minLength, now: input.value.length });
  if (v.tooLong && input) return t("invalid.too_long", { n: input.maxLength });
  if (v.rangeUnderflow && input) return t("invalid.range_under", { n: input.min });
  if (v.rangeOverflow && input) return t("invalid.range_over", { n: input.max });
  if (v.stepMismatch) return t("invalid.step");
  if (v.badInput || v.typeMismatch || v.patternMismatch) return t("invalid.bad");
  return "";
}

/** @param {EventTarget | null} target */
function field(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement ? target : null;
}

// Once, for the whole page (app.js): `invalid` does not bubble, so it is caught on the way down.
export function sayInvalidInPageWords() {
  document.addEventListener("invalid", (e) => {
    const el = field(e.target);
    if (!el) return;
    el.setCustomValidity(""); // the browser's own finding first (read live), then its words
    if (!el.validity.valid) el.setCustomValidity(problem(el));
  }, true);
  const clear = (/** @type {Event} */ e) => field(e.target)?.setCustomValidity("");
  document.addEventListener("input", clear, true);
  document.addEventListener("change", clear, true);
}
