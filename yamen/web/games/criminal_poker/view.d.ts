// Criminal Poker's view of the table, as the server sends it to a seat (yamen/games/criminal_poker):
// what games/criminal_poker/*.js read. A global script: the modules name these without imports.

interface CpCard {
  id: string;
  type: string | null;
  innocence: number | null;
  name: Names;
}

interface CpTurn {
  seat: number;
  action?: string;
  revealed?: string | null;
}

/** A seat at the end: who it was and what it held. */
interface CpFinalSeat {
  seat: number;
  identity: string;
  won: boolean;
  culprit: boolean;
  arrested: boolean;
  innocence: number | null;
  valid: number;
  shown: string[];
  hidden: string[];
}

interface CpFinal {
  culprits?: number[];
  arrested?: number[];
  caught?: boolean;
  by_weapon?: boolean;
  seats: CpFinalSeat[];
}

interface CpView extends View {
  game?: string;
  legal?: string[];
  phase: string;
  mode: string;
  seat: number | null;
  turn: number | null;
  investigator: number;
  deck_count: number;
  identity?: string | null;
  identities: { [seat: string]: string };
  roles_in_play?: { [role: string]: number };
  role_names?: { [role: string]: Names };
  suspects: number[];
  shown: string[][];
  hidden?: string[];
  hidden_counts: number[];
  arrested?: number[];
  answered?: number[];
  acted?: number[];
  answer?: string | null;
  turns?: CpTurn[];
  deck?: string[] | null;
  votes?: number[][];
  cards?: { [id: string]: CpCard };
  final?: CpFinal | null;
}
