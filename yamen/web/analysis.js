// @ts-check
// The post-game analysis in the replay (docs/server.md, Post-game analysis): for the seat on
// screen, ask for it (a player, for their own seat), follow the job's progress, then mark the
// decisions where the search bot would have played differently, with the points at stake: a
// summary, a list of marks that jump to their step, ticks under the slider and, at a marked
// step, what the bot would have played instead. It names no game: actions are worded by the
// table module's `actionWords(ctx, text)` when it has one, else shown in the game's notation.

import { api, ApiError } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { errorText } from "./lobby.js";

/**
 * @typedef {{ step: number, evaluated: boolean, played: string, played_text: string, best: string, best_text: string, loss: number }} Decision
 * @typedef {{ summary: { agreements: number, evaluated: number, decisions: number, loss: number }, decisions: Decision[], playouts: number }} Analysis
 * @typedef {{ state: string, progress?: { done: number, total: number }, eta_seconds?: number | null, result?: Analysis }} AnalysisStatus
 * @typedef {ReturnType<typeof analyses>} Jobs
 */

const POLL_MS = 1000;
const RUNNING = new Set(["queued", "running"]);

// One replay's analyses, per seat. `changed()` is called when what is shown may differ (the
// page redraws the panel); `jump(step)` moves the replay.
/**
 * @param {string} gameId
 * @param {string} invite
 * @param {() => void} changed
 */
export function analyses(gameId, invite, changed) {
  const base = `/api/games/${encodeURIComponent(gameId)}/analysis`;
  const invited = invite ? `invite=${encodeURIComponent(invite)}` : "";
  /** @type {Map<number, AnalysisStatus | undefined>} */
  const known = new Map(); // seat -> the last status read, or {state: "unavailable"}
  /** @type {Map<number, string>} */
  const errors = new Map(); // seat -> the refusal of the last ask, in words
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;

  /** @param {number} seat */
  async function read(seat) {
    try {
      known.set(seat, await api("GET", `${base}?seat=${seat}${invited && `&${invited}`}`));
    } catch (err) {
      // no analyst for this game (422), or not readable: no panel at all
      known.set(seat, { state: "unavailable" });
    }
    follow(seat);
    changed();
  }

  // While a job runs, its status is read again every second (only for the seat on screen).
  /** @param {number} seat */
  function follow(seat) {
    clearTimeout(timer);
    const status = known.get(seat);
    if (status && RUNNING.has(status.state)) timer = setTimeout(() => read(seat), POLL_MS);
  }

  /**
   * @param {number} seat
   * @param {string} game
   */
  async function ask(seat, game) {
    errors.delete(seat);
    try {
      known.set(seat, await api("POST", `${base}${invited && `?${invited}`}`, { seat }));
    } catch (err) {
      errors.set(seat, err instanceof ApiError ? errorText(err.code, err.params, game) : t("error.unknown"));
    }
    follow(seat);
    changed();
  }

  return {
    // The status of `seat` (read once, then followed while running); undefined until read.
    /** @param {number} seat */
    status(seat) {
      if (!known.has(seat)) {
        known.set(seat, undefined);
        read(seat);
      } else follow(seat);
      return known.get(seat);
    },
    ask,
    error: (/** @type {number} */ seat) => errors.get(seat),
    stop: () => clearTimeout(timer),
  };
}

const points = (/** @type {number} */ n) => (Math.round(n * 10) / 10).toString();

// How long the server says a job will take, in words: "about 40 s", "about 3 min"; nothing
// while it cannot say (null: no decision timed yet).
/** @param {number | null | undefined} seconds */
export function etaWords(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 90) return t("analysis.eta_seconds", { seconds: Math.max(1, Math.ceil(seconds)) });
  return t("analysis.eta_minutes", { minutes: Math.ceil(seconds / 60) });
}

// A decision where the bot would have played differently, worth marking.
const differs = (/** @type {Decision} */ row) => row.evaluated && row.best !== row.played && row.loss > 0;

/**
 * @param {TableModule} module
 * @param {Ctx} ctx
 * @param {string} text
 */
function words(module, ctx, text) {
  return module.actionWords ? module.actionWords(ctx, text) : text;
}

// The steps under the slider where the bot differed, as ticks (a share of the slider's width).
/**
 * @param {Analysis | null} result
 * @param {number} steps
 */
export function ticks(result, steps) {
  if (!result || !steps) return null;
  return h(
    "div",
    { class: "analysis-ticks", id: "analysis-ticks", "aria-hidden": "true" },
    result.decisions.filter(differs).map((row) => h("span", { class: "analysis-tick", style: `left: ${(100 * row.step) / steps}%` })),
  );
}

// What the analysis says of the decision at `step`, if the seat decided there.
/**
 * @param {Analysis | null} result
 * @param {number} step
 * @param {TableModule} module
 * @param {Ctx} ctx
 */
export function here(result, step, module, ctx) {
  const row = result && result.decisions.find((r) => r.step === step);
  if (!row) return null;
  const played = words(module, ctx, row.played_text);
  let said;
  if (!row.evaluated) said = t("analysis.not_valued", { played });
  else if (differs(row)) said = t("analysis.differs", { played, best: words(module, ctx, row.best_text), points: points(row.loss) });
  else said = t("analysis.agrees", { played });
  return h("p", { class: `analysis-here${differs(row) ? " differs" : ""}`, id: "analysis-here" }, said);
}

// The panel: ask, progress, or the summary and the marks. `seat` is the perspective on screen;
// `mine` whether it is the viewer's own seat (only then is asking offered).
/**
 * @param {{ jobs: Jobs, seat: number, mine: boolean, game: string, module: TableModule, ctx: Ctx, jump: (step: number) => void }} shown
 */
export function panel({ jobs, seat, mine, game, module, ctx, jump }) {
  const status = jobs.status(seat);
  if (!status || status.state === "unavailable") return null;
  const error = jobs.error(seat);
  const body = [];
  if (status.state === "none" || status.state === "failed") {
    if (status.state === "failed") body.push(h("p", { class: "why" }, t("analysis.failed")));
    if (mine) body.push(h("button", { type: "button", id: "ask-analysis", onclick: () => jobs.ask(seat, game) }, t("analysis.ask")));
    else body.push(h("p", { class: "quiet" }, t("analysis.none")));
  } else if (RUNNING.has(status.state)) {
    const { done, total } = status.progress || { done: 0, total: 0 }; // (a job queued or running has it)
    body.push(
      h("progress", { id: "analysis-progress", max: total || 1, value: done }),
      h("span", { class: "analysis-count" }, status.state === "running" ? t("analysis.progress", { done, total }) : t("analysis.queued")),
    );
    const eta = etaWords(status.eta_seconds);
    if (eta) body.push(h("span", { class: "analysis-eta quiet", id: "analysis-eta" }, eta));
  } else if (status.state === "done") {
    const { summary, decisions, playouts } = /** @type {Analysis} */ (status.result); // (a job done has it)
    body.push(
      h("p", { id: "analysis-summary" }, t("analysis.summary", { agreed: summary.agreements, valued: summary.evaluated, decisions: summary.decisions, points: points(summary.loss), playouts })),
      h(
        "ol",
        { class: "analysis-marks", id: "analysis-marks" },
        decisions.filter(differs).map((row) =>
          h("li", {}, h("button", { type: "button", class: "quiet small", "data-step": row.step, onclick: () => jump(row.step) },
            t("analysis.mark", { step: row.step, played: words(module, ctx, row.played_text), best: words(module, ctx, row.best_text), points: points(row.loss) }))),
        ),
      ),
    );
  }
  if (error) body.push(h("p", { class: "why", id: "analysis-error" }, error));
  return h("section", { class: "analysis", id: "analysis", "aria-live": "polite" }, h("h2", {}, t("analysis.title")), body);
}
