// @ts-check
// Passing for me when I cannot beat (要不起): a switch of this browser (on unless turned off).
// When every legal answer of my seat is one of the words the game's table module declares
// as only letting the turn go by (its `passing`: pass, yield…; in the phase it names), the
// page passes for me after a delay drawn like a person's time to decide, never at once: the
// table sees when I answer, and a quick pass would tell it that I held nothing to play (the
// idea of tests/server/test_bot_timing.py, for bots). Once I have answered a few times myself,
// the delay is drawn from my own answer times (one of them, blurred), so that a pass made for
// me takes as long as my real choices do. The pass itself is the ordinary one.

const KEY = "yamen.autopass";
const MEDIAN_MS = 1800; // a person's typical time for a plain answer
const SIGMA = 0.45; // lognormal spread: most draws fall between 0.9 s and 3.6 s
const LOW_MS = 700; // never a reflex
const HIGH_MS = 5000; // never so long that the table waits on a chore
const MARGIN_MS = 1000; // before my turn's timer runs out, the page passes first
const OWN_LEAST = 5; // my own answer times needed before the delay is drawn from them
const OWN_KEPT = 40; // the latest ones kept
const OWN_HIGH_MS = 15000; // my own slow answers are followed, up to this
const BLUR = 0.15; // a drawn time of mine, blurred (lognormal factor)
/** @type {number[]} */
const own = []; // my own answer times (ms) this visit, latest last
/** @type {{ key: string, at: number, told: boolean } | null} */
let asked = null; // the latest point of the game where I was asked, and when

// On unless the person turned it off in this browser.
export function autoPassOn() {
  return localStorage.getItem(KEY) !== "off";
}

/** @param {boolean} on */
export function setAutoPass(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (!on) cancel();
}

// The index into the legal texts of the answer to give for me when every one of them only
// lets the turn go by (the game's first such word on offer: pass before yield), else -1.
/**
 * @param {Passing | undefined} passing what the game's table module declares
 * @param {View} view
 */
export function onlyPass(passing, view) {
  const legal = view.legal || [];
  if (!passing || !legal.length) return -1;
  if (passing.phase !== undefined && view.phase !== passing.phase) return -1;
  const words = passing.words;
  if (!legal.every((text) => words.includes(text))) return -1;
  for (const word of words) {
    const i = legal.indexOf(word);
    if (i >= 0) return i;
  }
  return -1;
}

/** @param {() => number} random */
function normal(random) {
  const u = 1 - random(); // (0, 1]: the logarithm is finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

// A person's time to answer, in ms: with at least OWN_LEAST of my own answer times (`times`),
// one of them drawn and blurred, clipped to LOW_MS..OWN_HIGH_MS; else lognormal (median
// MEDIAN_MS), clipped to LOW_MS..HIGH_MS; always at most `cap` (my timer's time left, less a
// margin).
/**
 * @param {() => number} [random] uniform in [0, 1)
 * @param {number} [cap]
 * @param {number[]} [times] my own answer times, in ms
 */
export function passDelay(random = Math.random, cap = Infinity, times = own) {
  const mine = times.length >= OWN_LEAST;
  const drawn = mine ? times[Math.floor(random() * times.length)] * Math.exp(BLUR * normal(random)) : MEDIAN_MS * Math.exp(SIGMA * normal(random));
  return Math.max(0, Math.min(Math.max(drawn, LOW_MS), mine ? OWN_HIGH_MS : HIGH_MS, cap));
}

// I answered myself (context.js, at my own move): how long it took me, kept; a pass timed for
// me is called off.
export function answered() {
  if (asked && !asked.told) {
    asked.told = true;
    own.push(Date.now() - asked.at);
    if (own.length > OWN_KEPT) own.shift();
  }
  cancel();
}

/** @type {{ key: string, timer: number } | null} */
let waiting = null; // the pass on its way: for which table (game and action count)
let spent = ""; // the table a pass was sent for, or called off on: never timed twice

function cancel() {
  if (waiting) {
    clearTimeout(waiting.timer);
    spent = waiting.key;
  }
  waiting = null;
}

// After each drawing of a room: my seat's table, the game's `passing`, my turn's deadline
// (epoch seconds, or null) and how to send an action id. A pass is timed once a point of the
// game; any new table (someone acted, or I did) calls off a pass not yet sent.
/**
 * @param {Table | null} table
 * @param {number | null} seat
 * @param {Passing | undefined} passing
 * @param {number | null | undefined} deadline
 * @param {(action: string, seq: number) => void} send
 */
export function autoPass(table, seat, passing, deadline, send) {
  const key = table ? `${table.number}|${table.seq}` : "";
  if (table && seat !== null && table.legal.length && (!asked || asked.key !== key)) asked = { key, at: Date.now(), told: false };
  const i = table && !table.result && seat !== null && autoPassOn() ? onlyPass(passing, table.view) : -1;
  if (!table || i < 0) return cancel();
  if ((waiting && waiting.key === key) || spent === key) return;
  cancel();
  const cap = deadline ? deadline * 1000 - Date.now() - MARGIN_MS : Infinity;
  const action = table.legal[i];
  const seq = table.seq;
  waiting = { key, timer: window.setTimeout(() => {
    waiting = null;
    spent = key;
    send(action, seq);
  }, passDelay(Math.random, cap)) };
}

// The switch, for a game that declares its passing words; `changed` redraws.
/**
 * @param {Hyperscript} h
 * @param {Translate} t
 * @param {() => void} changed
 */
export function autoPassSwitch(h, t, changed) {
  const flip = (/** @type {Event} */ e) => {
    setAutoPass(/** @type {HTMLInputElement} */ (e.target).checked);
    changed();
  };
  return h("label", { class: "head-switch", title: t("auto_pass_note") }, h("input", { type: "checkbox", id: "auto-pass", checked: autoPassOn(), onchange: flip }), h("span", {}, t("auto_pass")));
}
