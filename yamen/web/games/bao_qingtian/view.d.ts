// The Bao Qing-tian trial's view of the table, as the server sends it to a seat
// (yamen/games/bao_qingtian): what games/bao_qingtian/*.js read. A global script: the modules
// name these without imports.

interface BqGuess {
  seat: number;
  form: string;
  hit: boolean;
  round: number;
}

interface BqCapture {
  captor: number;
  round: number;
  guesses_left: number;
  guessed_this_round?: boolean;
  guesses: BqGuess[];
}

/** A step of the sentence: the office's number and the count after it. */
interface BqStep {
  step: string;
  seat: number;
  number: number;
  count: number;
}

interface BqView extends View {
  game?: string;
  legal?: string[];
  phase: string;
  seat: number | null;
  players: number;
  pile: number;
  discards: number;
  cards_each: number;
  first: number;
  turn: number | null;
  last_turn?: number | null;
  hand?: string[];
  my_turns?: { discarded: string; drew: string }[];
  seeking?: string | null;
  criminal?: string | null;
  emperor?: number | null;
  offices?: { [office: string]: number };
  how?: { [office: string]: string };
  appointing?: { by: number; office: string; holders?: number[] } | null;
  capture?: BqCapture | null;
  accused?: number | null;
  why?: string;
  sentence?: BqStep[];
  punishment?: string | null;
  count?: number | null;
  severity?: string | null;
  verdict?: string | null;
}

/** The end of a trial (a table's result). */
interface BqResult extends GameResult {
  winners: number[];
  scores: number[];
  tried: number;
  verdict: string | null;
  count: number;
  punishment: string;
  why: string;
  criminal: string;
  escaped?: number[];
  emperor?: number | null;
  offices: { [office: string]: number };
  sentence?: BqStep[];
  severity?: string | null;
}
