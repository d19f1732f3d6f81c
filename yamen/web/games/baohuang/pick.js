// @ts-check
// Picking a set from the hand by rank and count. The engine plays plain cards of a rank in a
// fixed order (suits ♠ ♥ ♦ ♣, plain jokers before marked ones, hands.py's take) and reads a set
// as ranks and counts, so the hand offers no suit choice: tapping a rank group adds one more
// of that rank, tapping a raised card takes one back. The one card that tells a role (the
// called card in Shandong, the marked small joker in the japanese rules) is a group of its own,
// an explicit choice. The cards raised are the engine's own pick: exactly the cards played.

import { cardButton, parts } from "../../cards.js";
import { cardWords, labeller, lowestRank, lowestRule, markedGuard } from "./words.js";

const TAKE_SUITS = "SHDC";
/** @typedef {{ key: string, cards: string[] }} Group a rank's cards in the hand (or the telling card's) */
/** @type {{ key: string | null, counts: Map<string, number>, focus: [string, number] | null }} */
const pick = { key: null, counts: new Map(), focus: null }; // group -> how many are picked

// The telling card of the deal, if any: the called natural (Shandong), SJ* (japanese).
/** @param {BhView} view */
export function tellCode(view) {
  if (markedGuard(view)) return "SJ*";
  const called = view.called && parts(view.called);
  return called && !called.joker ? String(view.called).toUpperCase() : null;
}

// The group a card is picked in, and its token in the legal texts.
/**
 * @param {string} code
 * @param {string | null} tell
 */
function groupOf(code, tell) {
  if (tell && code.toUpperCase() === tell) return "tell";
  const { joker, rank } = parts(code);
  return joker || rank;
}

/** @param {string} code */
function takeRank(code) {
  const { joker, marked, suit } = parts(code);
  return joker ? Number(marked) : TAKE_SUITS.indexOf(String(suit));
}

// The hand as groups, strongest first (the hand's order), each group's cards in take order.
/** @param {BhView} view */
export function groups(view) {
  const tell = tellCode(view);
  /** @type {Group[]} */
  const out = [];
  /** @type {Map<string, Group>} */
  const byKey = new Map();
  for (const code of view.hand || []) {
    const key = groupOf(code, tell);
    let g = byKey.get(key);
    if (!g) {
      g = { key, cards: [] };
      byKey.set(key, g);
      out.push(g);
    }
    g.cards.push(code);
  }
  for (const g of out) g.cards.sort((a, b) => takeRank(a) - takeRank(b));
  const tellGroup = byKey.get("tell");
  return tellGroup ? [tellGroup, ...out.filter((g) => g !== tellGroup)] : out;
}

/** @param {BhView} view */
function fresh(view) {
  const key = `${view.deal}|${(view.hand || []).join(" ")}`;
  if (pick.key !== key) {
    pick.key = key;
    pick.counts.clear();
  }
}

// The picked cards, as codes (the engine's choice of suits) and as legal-text tokens.
/** @param {BhView} view */
export function picked(view) {
  fresh(view);
  /** @type {string[]} */
  const codes = [];
  /** @type {string[]} */
  const tokens = [];
  for (const g of groups(view)) {
    const n = pick.counts.get(g.key) || 0;
    for (const code of g.cards.slice(0, n)) {
      codes.push(code);
      tokens.push(g.key === "tell" ? code.toUpperCase() : g.key);
    }
  }
  return { codes, tokens };
}

// Raise the cards of a legal set (the hint's), as the taps on its groups would.
/**
 * @param {BhView} view
 * @param {string} text
 */
export function pickSet(view, text) {
  fresh(view);
  pick.counts.clear();
  const tell = tellCode(view);
  for (const token of text.split(" ")) {
    const upper = token.toUpperCase();
    const key = tell && upper === tell ? "tell" : upper;
    pick.counts.set(key, (pick.counts.get(key) || 0) + 1);
  }
}

export function clearPick() {
  pick.counts.clear();
}

const sorted = (/** @type {string[]} */ tokens) => [...tokens].map((x) => x.toUpperCase()).sort().join(" ");

// The legal text that plays exactly the picked cards, as an index into view.legal (-1: none).
/**
 * @param {BhView} view
 * @param {string[]} tokens
 */
export function matchingSet(view, tokens) {
  const wanted = sorted(tokens);
  return (view.legal || []).findIndex((text) => sorted(text.split(" ")) === wanted);
}

// Why the picked cards are no legal set now, in words.
/**
 * @param {Ctx} ctx
 * @param {BhView} view
 * @param {string[]} codes
 */
export function why(ctx, view, codes) {
  const { t } = ctx;
  const ranks = new Set(codes.map((c) => parts(c)).filter((p) => !p.joker).map((p) => p.rank));
  if (ranks.size > 1) return t("baohuang.why.one_rank");
  const beat = view.table && view.table.cards; // the set to beat, if any
  if (beat && beat.length !== codes.length) return t(beat.length === 1 ? "baohuang.why.count_one" : "baohuang.why.count", { n: beat.length });
  if (beat) return t("baohuang.why.beat");
  // 憋六/憋三: the lowest rank leaves only with the set that empties the hand
  if (lowestRule(view) === "held" && ranks.has(lowestRank(view)) && codes.length < (view.hand || []).length) return t(`baohuang.why.held.${view.variant}`);
  return t("baohuang.why.not_now");
}

// Group labels: "9 ×4", the telling group named as what it is.
/**
 * @param {Translate} t
 * @param {BhView} view
 * @param {Group} g
 * @param {number} n how many are picked
 */
function groupLabel(t, view, g, n) {
  const name = g.key === "tell" ? t(markedGuard(view) ? "baohuang.guard_card" : "baohuang.called_card") : cardWords(t, g.key);
  const count = `${name} ×${g.cards.length}`;
  return n ? `${count} · ${t("baohuang.picked_n", { n })}` : count;
}

/**
 * @param {Ctx} ctx
 * @param {BhView} view
 */
export function handView(ctx, view) {
  const { h, t } = ctx;
  fresh(view);
  const label = labeller(t);
  const canPlay = (view.legal || []).length > 0 && view.phase === "play";
  const enter = (/** @type {KeyboardEvent} */ e) => {
    const play = /** @type {HTMLButtonElement | null} */ (document.getElementById("play"));
    if (e.key === "Enter" && play && !play.disabled) {
      e.preventDefault();
      play.click();
    }
  };
  return h(
    "div",
    { class: `hand bh-hand${canPlay ? " can-play" : ""}`, id: "bh-hand", role: "group", "aria-label": t("baohuang.your_hand"), title: t("baohuang.keys"), onkeydown: enter },
    groups(view).map((g) => {
      const n = pick.counts.get(g.key) || 0;
      return h(
        "div",
        { class: `rank-group${g.key === "tell" ? " tell" : ""}${n ? " has-pick" : ""}`, "data-group": g.key },
        h("span", { class: "rank-label" }, groupLabel(t, view, g, n)),
        h(
          "div",
          { class: "rank-cards", "data-count": g.cards.length > 1 ? `×${g.cards.length}` : null }, // a phone shows it on the cards
          g.cards.map((code, i) =>
            cardButton(
              code,
              i < n,
              () => {
                pick.counts.set(g.key, i < n ? n - 1 : Math.min(n + 1, g.cards.length));
                pick.focus = [g.key, i];
                ctx.redraw?.();
              },
              label,
            ),
          ),
        ),
      );
    }),
  );
}

// The table is drawn anew on every change: the card just tapped keeps the keyboard focus.
/** @param {HTMLElement} el */
export function restoreFocus(el) {
  if (!pick.focus) return;
  const [key, i] = pick.focus;
  pick.focus = null;
  const group = [.../** @type {NodeListOf<HTMLElement>} */ (el.querySelectorAll(".rank-group"))].find((g) => g.dataset.group === key);
  const button = group && /** @type {NodeListOf<HTMLElement>} */ (group.querySelectorAll(".card-button"))[i];
  if (button) button.focus();
}
