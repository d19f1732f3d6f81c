// @ts-check
// What Criminal Poker's moves sound like at the table (the shell's sounds.js makes them): a card
// of evidence shown or drawn is a play, a turn skipped or a card kept hidden a pass, the arrest
// the big moment (a bomb), and the evidence deck's last card drawn the last card.

/**
 * @param {GameEvent} event
 * @returns {"play" | "pass" | "bomb" | "last" | null}
 */
export function sound(event) {
  switch (event.kind) {
    case "reveal":
      return "play";
    case "draw":
      return event.data.deck === 0 ? "last" : "play";
    case "skip":
    case "keep hidden":
      return "pass";
    case "arrest":
      return event.data.seats.length ? "bomb" : null;
    default:
      return null;
  }
}
