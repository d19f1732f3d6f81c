// @ts-check
// The card this seat just drew (a private event), while it decides whether to reveal it: the
// log hears of it (describe.js), the table shows it (board.js, controls.js).

/** @type {{ card: string | null }} */
export const drawn = { card: null };
