// Baohuang's view of the table, as the server sends it to a seat (yamen/games/baohuang): what
// games/baohuang*.js read. A global script: the modules name these without imports.

/** A move of the trick: a play (its cards) or a word (pass, yield…). */
interface BhMove {
  seat: number;
  cards?: string[] | null;
  action: string;
}

/** A finished deal: its places, sides and scores (exact: a number or "n/d"). */
interface BhDeal {
  deal: number;
  places: number[];
  emperor: number;
  partner: number | null;
  grabbed?: boolean;
  declared?: boolean;
  rebels: number[];
  called?: string | null;
  scores: (number | string)[];
  totals: (number | string)[];
}

interface BhView extends View {
  game?: string;
  legal?: string[];
  seat: number | null;
  variant: "shandong" | "japanese";
  phase: string;
  deal: number;
  deals: number;
  hand?: string[];
  hand_sizes: number[];
  role?: string | null;
  roles?: { [seat: string]: string };
  declared: number[];
  out: number[];
  played?: unknown[];
  emperor?: number | null;
  dealer?: number | null;
  called?: string | null;
  grabbed?: boolean;
  marked_holder?: number | null;
  options?: { [name: string]: Json };
  trick?: BhMove[];
  table?: { owner: number; cards: string[] } | null;
  history?: BhDeal[];
  tribute?: { gave: string[]; received: string[] } | null;
}

/** The end of a game (a table's result): every deal's scores in a match. */
interface BhResult extends GameResult {
  winners: number[];
  places: number[];
  scores: (number | string)[];
  deals?: BhDeal[];
}
