// The Bao Qing-tian trial: up to 50 seats, so a compact seat list; the hand, the offices, the
// capture and the sentence come from the generic table's facts until this table grows its own.

import generic from "./generic.js";

export default generic;
