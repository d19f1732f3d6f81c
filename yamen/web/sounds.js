// @ts-check
// The table's sounds, made here with Web Audio (no sound files): the chime when my turn comes
// (turn.js) and a cue for what happens at the table, as the game's table module names it from
// an event (its optional `sound(event, ctx)`: "play", "pass", "bomb" for a bomb-sized set,
// "last" for the last card; the shell names no game's move). All off with the room head's
// switch (remembered in localStorage as yamen.sound); browsers keep a page silent until it is
// first touched. Each cue asked for while the sound is on is told on `window` as a
// `yamen:sound` event ({ cue, seq }): what the tests listen to instead of an audio device.

const KEY = "yamen.sound";
/** @type {AudioContext | null} */
let audio = null;

/** @typedef {"turn" | "play" | "pass" | "bomb" | "last"} Cue */
// A tone: its pitch (Hz), start and length (seconds), wave and volume.
/** @typedef {[number, number, number, OscillatorType, number]} Tone */

// Each cue as plain tones, each a sine (or other wave) that swells in 20 ms and fades out.
/** @type {{ [cue in Cue]: Tone[] }} */
const TONES = {
  // two soft notes a fifth apart: heard, not startling
  turn: [[660, 0, 0.25, "sine", 0.15], [990, 0.12, 0.25, "sine", 0.15]],
  // a card laid down: a short, dry knock
  play: [[330, 0, 0.07, "triangle", 0.18], [220, 0.02, 0.08, "triangle", 0.12]],
  // a pass: one low, soft note falling away
  pass: [[294, 0, 0.16, "sine", 0.08], [247, 0.09, 0.2, "sine", 0.06]],
  // a bomb-sized set: a deep thump under a bright stroke
  bomb: [[65, 0, 0.5, "sawtooth", 0.12], [98, 0, 0.45, "square", 0.06], [523, 0.03, 0.18, "triangle", 0.12], [784, 0.08, 0.22, "triangle", 0.1]],
  // the last card: a rising arpeggio
  last: [[523, 0, 0.14, "sine", 0.14], [659, 0.1, 0.14, "sine", 0.14], [784, 0.2, 0.14, "sine", 0.14], [1047, 0.3, 0.35, "sine", 0.16]],
};
// When one move gives several cues, the one heard: the strongest.
const RANK = ["pass", "play", "bomb", "last"];

// On unless the person turned it off.
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

/**
 * @param {Cue} cue
 * @param {number | null} [seq] the table's action count the cue belongs to (none: the turn's chime)
 */
export function play(cue, seq = null) {
  if (!soundOn()) return;
  window.dispatchEvent(new CustomEvent("yamen:sound", { detail: { cue, seq } }));
  if (!audio || audio.state !== "running") return;
  const now = audio.currentTime;
  for (const [freq, at, length, wave, volume] of TONES[cue]) {
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.type = wave;
    tone.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(volume, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + at);
    tone.stop(now + at + length + 0.05);
  }
}

// A live update's events, heard: the strongest cue the game's table module names for them
// (a state sent again on a reload or a resync is not heard: nothing new happened).
/**
 * @param {TableModule} module
 * @param {GameEvent[]} events
 * @param {Ctx} ctx
 * @param {number} seq
 */
export function hear(module, events, ctx, seq) {
  if (!module.sound) return;
  let best = -1;
  for (const event of events) best = Math.max(best, RANK.indexOf(module.sound(event, ctx) || ""));
  if (best >= 0) play(/** @type {Cue} */ (RANK[best]), seq);
}
