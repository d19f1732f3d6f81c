// @ts-check
// Turn timers: every `.timer[data-deadline]` (epoch seconds, from the table's deadlines) counts
// down each second, with a warning near the end; my own seat's timer (#my-timer) sits in the
// action bar, where the eye is when it is my turn.

import { t } from "./i18n.js";
import { icon } from "./icons.js";

export const WARN_SECONDS = 10;
/** @type {number | null} */
let mine = null; // my seat's deadline while I am to act on a timer, else null
/** @type {HTMLElement | null} */
let watched = null;

/** @param {string | number | undefined} deadline epoch seconds */
function seconds(deadline) {
  return Math.max(0, Math.ceil(Number(deadline) - Date.now() / 1000));
}

export function tick() {
  place();
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".timer[data-deadline]"))) {
    const left = seconds(el.dataset.deadline);
    const warning = left <= WARN_SECONDS;
    const own = el.id === "my-timer";
    const text = own ? t(warning ? "my_timer_warning" : "my_timer", { n: left }) : t("seconds_n", { n: left });
    el.classList.toggle("warning", warning);
    if (el.dataset.shown === text) continue;
    el.dataset.shown = text;
    const words = document.createElement("span");
    words.className = "timer-text";
    words.textContent = text;
    el.replaceChildren(icon("timer", own ? "" : t("time_left")), words);
  }
}

// My countdown goes in the table's your-move notice (or its action bar); a table that redraws
// itself (picking a card) gets it back at once.
function place() {
  if (!watched || !watched.isConnected) return;
  const old = document.getElementById("my-timer");
  if (!mine) return old && old.remove();
  if (old && old.dataset.deadline === String(mine) && watched.contains(old)) return;
  if (old) old.remove();
  const clock = document.createElement("span");
  clock.id = "my-timer";
  clock.className = "timer my-timer";
  clock.dataset.deadline = String(mine);
  clock.setAttribute("role", "timer");
  const bar = watched.querySelector(".your-move") || watched.querySelector(".actions");
  if (bar) bar.append(clock);
  else watched.prepend(clock);
}

// After each drawing of the table: the element it is drawn in, and my deadline (or null).
/**
 * @param {HTMLElement} tableEl
 * @param {number | null | undefined} deadline
 */
export function myDeadline(tableEl, deadline) {
  mine = deadline || null;
  if (watched !== tableEl) {
    watched = tableEl;
    new MutationObserver(() => {
      if (mine && !document.getElementById("my-timer")) tick();
    }).observe(tableEl, { childList: true, subtree: true });
  }
  tick();
}
