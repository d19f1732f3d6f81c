// @ts-check
// What the trial sounds like at the table (the shell's sounds.js makes the sounds): a seat's
// discard and draw, or a guess that misses, is a play; the captor's wait a pass; a criminal
// caught, and a sentence executed, a bomb; the captor's last guess the last card.

/**
 * @param {GameEvent} event
 * @returns {"play" | "pass" | "bomb" | "last" | null}
 */
export function sound(event) {
  switch (event.kind) {
    case "turn":
      return "play";
    case "wait":
      return "pass";
    case "guess":
      return event.data.hit ? "bomb" : event.data.left === 0 ? "last" : "play";
    case "execute":
      return "bomb";
    default:
      return null;
  }
}
