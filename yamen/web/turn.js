// @ts-check
// Telling a person their turn has come when they are not looking at the table: the tab's title,
// a short chime made with WebAudio (no sound files), and a vibration on phones that allow it.

import { icon } from "./icons.js";

const KEY = "yamen.sound";
/** @type {string | null} */
let baseTitle = null; // the page's own title, restored when the turn passes
let waiting = false; // whether legal actions were offered to me at the last look
/** @type {AudioContext | null} */
let audio = null;

// On unless the person turned it off (browsers keep it silent until the page is touched).
export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

/** @param {boolean} on */
export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
  if (on) unlock();
}

// Browsers only let a page play sound after a gesture on it: the first click or key opens it.
function unlock() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return;
  if (!audio) audio = new Context();
  if (audio.state === "suspended") audio.resume().catch(() => {});
}
for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, () => soundOn() && unlock(), { capture: true });

function chime() {
  if (!soundOn() || !audio || audio.state !== "running") return;
  const now = audio.currentTime;
  // two soft notes, a fifth apart, each fading out: heard, not startling
  for (const [freq, at] of [[660, 0], [990, 0.12]]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.15, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + at);
    tone.stop(now + at + 0.3);
  }
}

// Called after every redraw of a room: `mine` is true while legal actions are offered to me.
// The title says so while it lasts; the chime and vibration mark only the moment it starts.
/**
 * @param {boolean} mine
 * @param {string} title
 */
export function attend(mine, title) {
  if (baseTitle === null) baseTitle = document.title;
  document.title = mine ? title : baseTitle;
  if (mine && !waiting) {
    chime();
    if (soundOn() && navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate(120);
  }
  waiting = mine;
}

// Leaving a room: the page's own title again, and the next turn anywhere is a new one.
export function forget() {
  if (baseTitle !== null) document.title = baseTitle;
  waiting = false;
}

// The chime (and vibration) on or off, remembered in this browser; `changed` redraws.
/**
 * @param {Hyperscript} h
 * @param {Translate} t
 * @param {() => void} changed
 */
export function soundButton(h, t, changed) {
  const on = soundOn();
  const words = t(on ? "sound_on" : "sound_off");
  const flip = () => {
    setSound(!soundOn());
    changed();
  };
  return h("button", { class: "quiet icon-button", id: "sound", "aria-pressed": String(on), title: words, onclick: flip }, icon(on ? "sound" : "mute", words));
}
