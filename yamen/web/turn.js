// @ts-check
// Telling a person their turn has come when they are not looking at the table: the tab's title,
// a short chime (sounds.js: made with WebAudio, no sound files), and a vibration on phones that
// allow it; and the room head's switch for every sound of the table.

import { icon } from "./icons.js";
import { play, setSound, soundOn } from "./sounds.js";

/** @type {string | null} */
let baseTitle = null; // the page's own title, restored when the turn passes
let waiting = false; // whether legal actions were offered to me at the last look

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
    play("turn");
    if (soundOn() && navigator.vibrate && navigator.userActivation?.hasBeenActive) navigator.vibrate(120);
  }
  waiting = mine;
}

// Leaving a room: the page's own title again, and the next turn anywhere is a new one.
export function forget() {
  if (baseTitle !== null) document.title = baseTitle;
  waiting = false;
}

// Every sound of the table (the chime, the plays' cues) and the vibration on or off,
// remembered in this browser; `changed` redraws.
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
