// The types the web client's JSDoc names (`tsc --noEmit`, tests/web/test_js_types.py). Nothing
// here is loaded by the browser: it only describes what the server sends (docs/protocol.md,
// docs/server.md) and what the shell's modules hand each other. A global script (no import or
// export), so every module names these types without importing them.

/** A value as JSON carries it. */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * An event's data: its shape is the game's and the event kind's, read field by field by the
 * game's describe(); the shell never looks into it.
 */
type GameData = { [field: string]: any };

/** Words in several languages, as game data may carry them ({"en": ..., "zh": ...}). */
type Names = string | { [lang: string]: string };

/** Me, as GET /api/me says (null before the name step). */
interface Me {
  player: string;
  name: string;
  account?: string | null;
  token?: string;
}

interface Seat {
  player?: string | null;
  name?: string | null;
  bot?: string | null;
  left?: string | null;
  left_by?: string | null;
  auto?: boolean;
  online?: boolean;
  away?: boolean;
}

/** A room as the lobby and the live connection describe it. */
interface Room {
  id: string;
  game: string;
  host?: string | null;
  status: string;
  number?: number;
  seats: Seat[];
  scores: number[];
  options: OptionValues;
  settings?: RoomSettings;
  public?: boolean;
  invite?: string | null;
  game_id?: string | null;
  /** a play-now table's time (epoch seconds) to fill its empty seats with bots and begin */
  fill_at?: number | null;
}

interface RoomSettings {
  turn_seconds?: number | null;
  bot_delay?: number;
  talk_seconds?: number;
  deal_pause?: number;
  spectator_delay?: number;
  /** the aids a game's table offers (a card counter): shown unless false */
  table_aids?: boolean;
  /** a table the lobby's play now finds, which bots fill after `fill_seconds` */
  play_now?: boolean;
  fill_seconds?: number;
}

/** One event of a game: its kind, its data, and who heard it (null: everyone). */
interface GameEvent {
  kind: string;
  data: GameData;
  to?: number[] | null;
}

/** What the stand-in did for a seat (a bot played it while its player was away). */
interface StandIn {
  seat: number;
  why: string;
}

/** One step of a table's history: the events an action caused. */
interface HistoryEntry {
  seq?: number;
  events: GameEvent[];
  stand_in?: StandIn | null;
}

/** A seat's view: the fields the shell reads; a game's table casts it to its own (view.d.ts). */
type View = { game?: string; seat?: number | null; legal?: string[]; hand?: string[]; [field: string]: unknown };

/** The end of a game (a table's result): what the shell reads; a game's table reads its own fields. */
interface GameResult {
  winners?: number[];
  places?: number[];
  scores: (number | string)[];
}

/** A room's table as one seat sees it (a live frame's `table`). */
interface Table {
  view: View;
  legal: string[];
  pending: number[];
  seq: number;
  number: number;
  game_id?: string;
  deadlines: { [seat: string]: number };
  result: GameResult | null;
  totals: number[];
  history?: HistoryEntry[];
  history_before?: number | null;
  /** an update's view lists sent by their new items: key → items of the held list before them */
  appended?: { [key: string]: number } | null;
  /** the break between two deals: when the next starts (epoch seconds), who is ready */
  pause?: { until: number; ready: number[] } | null;
}

interface ChatLine {
  seat?: number | null;
  name?: string | null;
  text?: string;
}

/** A frame of the live connection from the server (docs/protocol.md), by its `type`. */
type Frame =
  | { type: "welcome"; seat: number | null }
  | { type: "state"; room: Room; table: Table | null; chat: ChatLine[] }
  | BeatFrame
  | UpdateFrame
  | { type: "room"; room: Room }
  | { type: "presence"; seat: number; online: boolean; away: boolean }
  | HistoryFrame
  | ({ type: "chat" } & ChatLine)
  | { type: "invites" }
  | ErrorFrame;

/** The heartbeat: the game number and action count the table should show now. */
interface BeatFrame {
  type: "beat";
  number: number;
  seq: number;
  every: number;
}

/** An action's events and the table after it; the stand-in's, if one acted for a seat. */
interface UpdateFrame {
  type: "update";
  table: Table;
  events: GameEvent[];
  stand_in?: StandIn | null;
}

/** A page of the log, asked for with its id. */
interface HistoryFrame {
  type: "history";
  id: string | null;
  game_id: string;
  entries: HistoryEntry[];
  before: number | null;
}

/** A refusal: its code and params (worded by the page), and the id of what it answers. */
interface ErrorFrame {
  type: "error";
  id?: string | null;
  code: string;
  message?: string;
  params?: { [name: string]: Json };
}

/** A frame to the server: hello, act, chat, ready, sync, history. */
type Outgoing = { type: string; [field: string]: Json | undefined };

/** A room's option values, by name. */
type OptionValues = { [name: string]: Json };

/** An option a game declares (yamen/options.py), as GET /api/games publishes it. */
interface OptionDeclaration {
  name: string;
  kind: "bool" | "choice" | "seat" | "whole" | "data";
  label: string;
  default: Json;
  choices?: string[];
  choice_labels?: { [value: string]: string };
  low?: number;
  high?: number;
  nullable?: boolean;
  shown?: boolean;
  applies?: { option: string; value: Json };
}

interface Preset {
  name: string;
  label: string;
  options: OptionValues;
}

/** An entry of GET /api/games. */
interface GameInfo {
  game: string;
  title: string;
  bots: string[];
  declaration: OptionDeclaration[];
  presets?: Preset[];
  /** whether the game has a post-game analysis */
  analysis?: boolean;
  /** the player page's figures that mean something in this game: "places", "points" */
  figures?: string[];
  /** what runs the game on the server: "python", or what a compiled core adds */
  engine?: string;
}

/** A word of a game's catalog telling a seat's part in a finished game (Game.part). */
interface PartWord {
  key: string;
  params?: { [name: string]: unknown };
  times?: number;
}

/** Who sat in a seat of a finished game: a person (`bot` null) or a bot by its kind. */
interface Occupant {
  player: string;
  name: string;
  bot?: string | null;
}

/** One of a player's finished games, as a page of their games lists it. */
interface ListedGame {
  game_id: string;
  game: string;
  seat: number;
  place: number;
  score: number;
  won: boolean;
  stand_in: boolean;
  finished: number;
  part: PartWord[];
  seats: number | null;
  others: (Occupant & { seat: number })[];
}

/** A page of a player's finished games, newest first; `next` where the next one starts. */
interface GamesPage {
  games: ListedGame[];
  next: string | null;
}

/** A finished game at a glance (GET /api/games/{id}). */
interface GameSummary {
  game_id: string;
  game: string;
  number: number;
  finished: number | null;
  options: OptionValues;
  custom: string[];
  seats: (Occupant & { seat: number, place: number, score: number | string, won: boolean, stand_in: boolean, part: PartWord[] })[];
  seat: number | null;
  analysis: boolean;
}

/** `t(key, params)`: a catalog's words (i18n.js). */
type Translate = (key: string, params?: { [name: string]: unknown }) => string;

/** `h(tag, attrs, ...children)`: an element (dom.js). */
type Hyperscript = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: { [name: string]: unknown },
  ...children: Child[]
) => HTMLElementTagNameMap[K];

/** What h() takes as a child: a node, text, nothing, or a list of them. */
type Child = Node | string | number | boolean | null | undefined | Child[];

/** What a room's table module is given (context.js; replay.js for a replay's). */
interface Ctx {
  room: Room | ReplayRoom;
  table: Table;
  seat: number | null;
  names: string[];
  t: Translate;
  tOr: (key: string, fallback: string, params?: { [name: string]: unknown }) => string;
  pick: (names: Names) => string;
  lang: string;
  h: Hyperscript;
  act: (action: string) => void;
  chat: (text: string) => void;
  lines: ChatLine[];
  actText: (text: string) => void;
  say: (message: string, kind?: string) => void;
  /** every seat's view, in a replay that reveals everything */
  revealed?: View[] | null;
  /** set by a table that draws itself again (picking cards) */
  redraw?: () => void;
}

/** A game's label for a card code, in the page's words (cards.js). */
type CardLabel = (code: string) => string;

/** The room a replay's table is drawn in: what the game was played with. */
interface ReplayRoom {
  game: string;
  options: OptionValues;
  status: string;
  seats: { name: string }[];
}

/**
 * The answers of a game that only let the turn go by (pass, yield…), in the order the page
 * prefers them, and the phase (the view's `phase`) where they mean "cannot beat" (autopass.js).
 */
interface Passing {
  words: string[];
  phase?: string;
}

/** A game's table module (games/<game>.js, default export). */
interface TableModule {
  render(el: HTMLElement, ctx: Ctx): void;
  /** the answers that pass for me when they are all my seat has (autopass.js) */
  passing?: Passing;
  /** which round of the game a view is in (a deal): a notice of the last one is cleared */
  round?(view: View): unknown;
  /** an event in words; null: not the game's (the shell's fallback), "": told by another event of its step */
  describe?(event: GameEvent, ctx: Ctx): string | null;
  /** the sound an event makes at the table (sounds.js): a play, a pass, a bomb-sized set, the last card */
  sound?(event: GameEvent, ctx: Ctx): "play" | "pass" | "bomb" | "last" | null;
  actionWords?(ctx: Ctx, text: string): string;
  cardWords?(t: Translate, code: string): string;
}

/** The room page on show (room.js): its room, table, log and connection. */
interface RoomPage {
  id: string;
  invite: string | null | undefined;
  room: Room;
  table: Table | null;
  seat: number | null;
  chat: ChatLine[];
  log: string[];
  logBefore: number | null | undefined;
  logAsked: string | null;
  module: TableModule;
  live: import("./net.js").Live;
  toldAway?: number;
  /** what the stand-in did for me, shown by the action bar until I act (notice.js) */
  notice?: { text: string; number: number; round: unknown; ended: boolean; paused: boolean } | null;
  setup?: { key: string; el: HTMLDetailsElement };
  showLink?: boolean;
  /** chat lines from others heard while the chat was out of sight (chatbox.js) */
  unread?: number;
  copiedUntil?: number;
}

interface Window {
  /** Safari before 14.1 */
  webkitAudioContext?: typeof AudioContext;
}
