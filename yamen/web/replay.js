// @ts-check
// The replay of a finished game (#/replay/<game_id>?seat=N&step=K): step by step, through the
// game's own table module, read-only. A seat's perspective shows what that seat knew then (its
// view, and the events it was told); "everything revealed" shows the spectators' table and
// every hand. The server sends each position with its step's events and an index of every
// step's event kinds (docs/server.md, Replays), from which deal and trick starts are found.
// It names no game: the table module is loaded by the game's name, as the room loads it.
// Seats are named by who played them (the game's page, GET /api/games/<id>). From a seat's
// perspective, that seat's post-game analysis follows the table (analysis.js), in a game
// that has one. The previous / next deal are offered in a game of several deals only.

import { api, ApiError } from "./net.js";
import { t, tOr, pick, lang, loadGame, shownName } from "./i18n.js";
import { h } from "./dom.js";
import { cardRow } from "./cards.js";
import { analyses, panel, here, ticks } from "./analysis.js";
import { botName } from "./lobby.js";
import { gameInfo } from "./gamelist.js";

const DEAL_OVER = "deal over"; // engine.DEAL_OVER: the next step starts a deal
const TRICK_KINDS = new Set(["lead", "trick", "new trick"]); // an event that opens a trick
const ALL = "all"; // the perspective that shows every hand

/**
 * @typedef {{ game: string, steps: number, seat: number | null, kinds: string[][] }} ReplayIndex
 * @typedef {{ options: OptionValues, actions: [number, string][], result?: GameResult | null }} GameRecord
 * @typedef {{ events: GameEvent[], action: [number, string] | null, seats: View[], table: View }} Position
 * @typedef {{ step: number, root: HTMLElement | null, go: (step: number) => Promise<void> }} Shown
 */

/** @type {Shown | null} */
let current = null; // the replay on screen, for the arrow keys

// Arrow keys step the replay on screen (not while a field that reads them has the focus).
document.addEventListener("keydown", (e) => {
  if (!current || !current.root || !current.root.isConnected) return;
  if (e.target instanceof HTMLElement && /^(INPUT|SELECT|TEXTAREA)$/.test(e.target.tagName)) return;
  if (e.key === "ArrowLeft") current.go(current.step - 1);
  else if (e.key === "ArrowRight") current.go(current.step + 1);
  else return;
  e.preventDefault();
});

/** @param {string | undefined} string */
function query(string) {
  return Object.fromEntries(new URLSearchParams(string || ""));
}

/**
 * @param {string} game
 * @returns {Promise<TableModule>}
 */
async function tableModule(game) {
  const href = `/games/${game}.css`;
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
  try {
    return (await import(`./games/${game}.js`)).default;
  } catch {
    return (await import("./games/generic.js")).default;
  }
}

// Steps where a deal starts (0, and each step after a deal ended) and where a trick starts.
/** @param {string[][]} kinds the events' kinds, step by step */
function marks(kinds) {
  const deals = [0];
  /** @type {number[]} */
  const tricks = [];
  kinds.forEach((list, step) => {
    if (list.includes(DEAL_OVER) && step + 1 < kinds.length) deals.push(step + 1);
    if (list.some((k) => TRICK_KINDS.has(k))) tricks.push(step);
  });
  return { deals, tricks };
}

// A position, asked again while every replay worker is busy (429: a second later).
/**
 * @param {string} gameId
 * @param {number} step
 * @param {string} invite
 * @returns {Promise<Position>}
 */
async function position(gameId, step, invite) {
  const path = `/api/games/${encodeURIComponent(gameId)}/replay?step=${step}${invite ? `&invite=${encodeURIComponent(invite)}` : ""}`;
  for (;;) {
    try {
      return await api("GET", path);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429) throw err;
      await new Promise((done) => setTimeout(done, 1000));
    }
  }
}

// A finished room's link to its game's replay (none while the game is played or before it).
/**
 * @param {Room} room
 * @param {string | null | undefined} invite
 */
export function replayButton(room, invite) {
  if (room.status !== "over" || !room.game_id) return [];
  const href = `#/replay/${room.game_id}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`;
  return [h("a", { class: "button quiet", id: "replay-link", href }, t("replay.open"))];
}

// Loads the replay of ``gameId``; returns a draw function (drawn again on a language change).
// `title(game)`: the game's name in the page's language. A failed load throws (the shell says it).
/**
 * @param {string} gameId
 * @param {(game: string) => string} title
 * @param {string} [queryString]
 */
export async function replayPage(gameId, title, queryString) {
  const asked = query(queryString);
  const invite = asked.invite || "";
  const suffix = invite ? `?invite=${encodeURIComponent(invite)}` : "";
  const base = `/api/games/${encodeURIComponent(gameId)}`;
  /** @type {[ReplayIndex, GameRecord, GameSummary]} */
  const [index, record, summary] = await Promise.all([api("GET", `${base}/replay/index${suffix}`), api("GET", `${base}/record${suffix}`), api("GET", `${base}${suffix}`)]);
  await loadGame(index.game);
  const module = await tableModule(index.game);
  const { deals, tricks } = marks(index.kinds);
  const download = URL.createObjectURL(new Blob([JSON.stringify(record, null, 1)], { type: "application/json" }));
  const clamp = (/** @type {number} */ n) => Math.max(0, Math.min(index.steps, Number.isFinite(n) ? n : 0));
  const seatAsked = asked.seat === ALL ? ALL : asked.seat !== undefined ? Number(asked.seat) : index.seat;
  /** @type {number | typeof ALL} */
  const seatChosen = seatAsked === null || seatAsked === undefined || Number.isNaN(seatAsked) ? ALL : seatAsked;
  const state = {
    step: clamp(Number(asked.step || 0)),
    seat: seatChosen,
    /** @type {Position | null | undefined} */
    shown: null, // the position on screen
    /** @type {HTMLElement | null} */
    root: null, // the page's section, once drawn
    /** @type {Map<number, Position>} */
    cache: new Map(),
    /** @param {number} step */
    async go(step) {
      step = clamp(step);
      state.step = step;
      if (!state.cache.has(step)) state.cache.set(step, await position(gameId, step, invite));
      if (state.step !== step) return; // a later step was asked meanwhile
      state.shown = state.cache.get(step);
      history.replaceState(null, "", link());
      draw();
    },
  };
  current = state;
  // asked only of a game that has an analysis (GET /api/games says so): no request refused
  const analysed = Boolean(gameInfo(index.game)?.analysis);
  const jobs = analysed ? analyses(gameId, invite, () => redrawAnalysis()) : null;

  function link() {
    const params = new URLSearchParams({ seat: String(state.seat), step: String(state.step) });
    if (invite) params.set("invite", invite);
    return `#/replay/${gameId}?${params}`;
  }

  // Each seat by who played it (a person's name, a bot numbered among the game's bots as the
  // room named it), mine marked.
  /** @param {number} count */
  function names(count) {
    return Array.from({ length: count }, (_, i) => {
      const who = summary.seats[i];
      const name = !who ? t("seat_n", { n: i + 1 }) : who.bot ? botName({ seats: summary.seats }, i) : shownName(who.name);
      return name + (i === index.seat ? ` (${t("replay.you")})` : "");
    });
  }

  // `revealed`: every seat's view, when everything is revealed (a table module may show more)
  /**
   * @param {View} view
   * @param {number | null} seat
   * @param {string[]} seatNames
   * @param {View[] | null} revealed
   * @returns {Ctx}
   */
  function context(view, seat, seatNames, revealed) {
    const last = state.step === index.steps;
    const none = () => {}; // read-only: nothing acts
    return {
      room: { game: index.game, options: record.options, status: "over", seats: seatNames.map((name) => ({ name })) },
      // nobody is asked anything (no legal texts: no buttons); the seat that acted next waits
      table: { view: { ...view, legal: [] }, legal: [], pending: last ? [] : [record.actions[state.step][0]], seq: state.step, number: 0, deadlines: {}, result: last ? record.result || null : null, totals: [] },
      seat,
      revealed,
      names: seatNames,
      t,
      tOr,
      pick,
      lang: lang(),
      h,
      act: none,
      chat: none,
      lines: [],
      actText: none,
      say: none,
    };
  }

  // What this step's action produced, in the game's words (a seat hears only what it was told).
  /**
   * @param {Position} p
   * @param {Ctx} ctx
   */
  function happened(p, ctx) {
    const events = p.events.filter((e) => state.seat === ALL || e.to == null || e.to.includes(state.seat));
    const said = events.map((e) => (module.describe && module.describe(e, ctx)) ?? tOr(`event.${e.kind}`, e.kind)).filter(Boolean); // ("": told by another)
    // the action in the game's notation only when its events say nothing (they say it in words)
    const action = p.action ? `${ctx.names[p.action[0]]}: ${p.action[1]}` : t("replay.start");
    return h("p", { class: "replay-events", id: "replay-events" }, (said.length ? said : [action]).join(" · "));
  }

  /**
   * @param {Position} p
   * @param {Ctx} ctx
   */
  function hands(p, ctx) {
    const words = module.cardWords;
    const label = words ? (/** @type {string} */ code) => words(t, code) : undefined;
    return h(
      "section",
      { class: "replay-hands", id: "replay-hands" },
      p.seats.map((view, i) =>
        Array.isArray(view.hand)
          ? h("div", { class: "replay-hand", "data-seat": i }, h("h3", {}, ctx.names[i]), cardRow(view.hand, label))
          : null,
      ),
    );
  }

  /**
   * @param {string} id
   * @param {string} word
   * @param {number[]} list
   * @param {boolean} forward
   */
  function jump(id, word, list, forward) {
    const target = forward ? list.find((s) => s > state.step) : [...list].reverse().find((s) => s < state.step);
    return h("button", { type: "button", class: "quiet", id, disabled: target === undefined, onclick: () => target !== undefined && state.go(target) }, word);
  }

  function draw() {
    const p = state.shown;
    const root = state.root;
    if (!p || !root) return;
    const seatNames = names(p.seats.length);
    const seat = state.seat === ALL ? null : state.seat;
    const view = seat === null ? p.table : p.seats[seat];
    const ctx = context(view, seat, seatNames, seat === null ? p.seats : null);
    const status = seat === null || !jobs ? null : jobs.status(seat);
    const analysis = status && status.state === "done" ? status.result : null;
    const perspective = h(
      "select",
      { id: "perspective", "aria-label": t("replay.perspective"), onchange: (/** @type {Event} */ e) => {
        const chosen = /** @type {HTMLSelectElement} */ (e.target).value;
        state.seat = chosen === ALL ? ALL : Number(chosen);
        state.go(state.step);
      } },
      seatNames.map((name, i) => h("option", { value: i, selected: state.seat === i }, name)),
      h("option", { value: ALL, selected: state.seat === ALL }, t("replay.everything")),
    );
    // the slider asks for its step when let go (dragging draws nothing until then)
    const slider = h("input", { type: "range", id: "replay-step", min: 0, max: index.steps, value: state.step, "aria-label": t("replay.step_label"),
      onchange: (/** @type {Event} */ e) => state.go(Number(/** @type {HTMLInputElement} */ (e.target).value)) });
    const focused = document.activeElement && document.activeElement.id;
    const table = h("div", { id: "table", class: "table replay-table", inert: "" });
    const share = `${location.origin}${location.pathname}${link()}`;
    const parts = [
      h(
        "div",
        { class: "room-head replay-head" },
        h("h1", {}, `${title(index.game)} · ${t("replay.title")}`),
        h("label", { class: "replay-perspective" }, t("replay.perspective"), " ", perspective),
        h("a", { id: "game-link", href: `#/game/${gameId}${suffix}`, class: "replay-link" }, t("player.record")),
        h("a", { id: "share-link", href: share, class: "replay-link" }, t("replay.share")),
        h("a", { id: "download-record", href: download, download: `${gameId}.json`, class: "replay-link" }, t("replay.download")),
      ),
      h(
        "div",
        { class: "replay-controls" },
        deals.length > 1 ? jump("prev-deal", t("replay.prev_deal"), deals, false) : null,
        tricks.length ? jump("prev-trick", t("replay.prev_trick"), tricks, false) : null,
        h("button", { type: "button", id: "step-back", disabled: state.step === 0, onclick: () => state.go(state.step - 1), "aria-label": t("replay.back") }, "◀"),
        h("span", { class: "replay-at", id: "replay-at" }, t("replay.step_n", { n: state.step, of: index.steps })),
        h("button", { type: "button", id: "step-forward", disabled: state.step === index.steps, onclick: () => state.go(state.step + 1), "aria-label": t("replay.forward") }, "▶"),
        tricks.length ? jump("next-trick", t("replay.next_trick"), tricks, true) : null,
        deals.length > 1 ? jump("next-deal", t("replay.next_deal"), deals, true) : null,
        h("div", { class: "replay-slider" }, slider, analysis ? ticks(analysis, index.steps) : null),
      ),
      happened(p, ctx),
      analysis ? here(analysis, state.step, module, ctx) : null,
      table,
      ...(state.seat === ALL ? [hands(p, ctx)] : []),
      seat === null || !jobs ? null : panel({ jobs, seat, mine: seat === index.seat, game: index.game, module, ctx, jump: (/** @type {number} */ step) => state.go(step) }),
    ];
    root.replaceChildren(...parts.filter((part) => part !== null)); // (a null would be drawn as "null")
    module.render(table, ctx);
    if (focused) document.getElementById(focused)?.focus(); // drawn anew: keep the focus
  }

  // The analysis changed (read, asked, progressed): the page is drawn again unless it is gone.
  function redrawAnalysis() {
    if (!state.root || !state.root.isConnected) return jobs?.stop();
    draw();
  }

  await state.go(state.step);
  return () => {
    const root = h("section", { class: "replay", id: "replay" });
    state.root = root;
    draw();
    return root;
  };
}
