// Baohuang's table: the hand grouped by rank, tap cards to make a set (the legal ones are
// highlighted, an illegal pick is explained), play / pass and every other decision, the trick,
// cards left per seat, places, and the deal's scoring at the end.

import { cardButton, cardRow, parts, rankLabel } from "../cards.js";
import { actions, facts, result } from "./generic.js";

const selected = new Set(); // indexes into the hand
let selectedFor = null; // the hand the selection belongs to

// A selected card as the legal texts write it: jokers as SJ/BJ (SJ* for the marked small joker
// in japanese), the called card with its suit, any other natural by its rank alone.
function token(code, view) {
  const { joker, marked, rank } = parts(code);
  if (joker) return joker === "SJ" && marked && view.variant === "japanese" ? "SJ*" : joker;
  return view.called && code.toUpperCase() === view.called.toUpperCase() ? code.toUpperCase() : rank;
}

// A card or a token of the legal texts in the player's words: "T" as 10, jokers by the
// language's names (大王 / 大画 …), a suit as its sign; "9H", "TS", "BJ*", "9" all read.
const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
export function cardWords(t, code) {
  const marked = code.endsWith("*") ? "★" : "";
  const bare = marked ? code.slice(0, -1) : code;
  if (bare === "BJ" || bare === "SJ") return t(`baohuang.card.${bare}`) + marked;
  const suit = bare.length > 1 ? SUIT_SIGNS[bare.slice(-1).toUpperCase()] : undefined;
  const rank = suit ? bare.slice(0, -1) : bare;
  return rankLabel(rank.toUpperCase()) + (suit || "") + marked;
}

const inWords = (t, text) => text.split(" ").map((c) => cardWords(t, c)).join(" ");

// A non-play answer in words: the same notation means different things by phase (yield in the
// calling phase is 讓莊, in play 讓牌; declare by the emperor is a solo declaration, 明獨).
function actionWords(ctx, view, text) {
  const word = text.split(" ")[0];
  const mine = view.roles && view.roles[String(view.seat)];
  if (word === "yield" && view.phase !== "play") return ctx.t("baohuang.action.yield_emperor");
  if (word === "declare" && mine && mine.includes("emperor")) return ctx.t("baohuang.action.declare_solo");
  if (word === "pass" && view.phase !== "play") return ctx.t("baohuang.action.pass_other");
  return ctx.tOr(`baohuang.action.${word}`, text);
}

const sorted = (tokens) => [...tokens].map((x) => x.toUpperCase()).sort().join(" ");

function matchingSet(view, codes) {
  const wanted = sorted(codes.map((c) => token(c, view)));
  return (view.legal || []).findIndex((text) => sorted(text.split(" ")) === wanted);
}

function why(ctx, view, codes) {
  const { t } = ctx;
  const ranks = new Set(codes.map((c) => parts(c)).filter((p) => !p.joker).map((p) => p.rank));
  if (ranks.size > 1) return t("baohuang.why.one_rank");
  const beat = view.table && view.table.cards; // the set to beat, if any
  if (beat && beat.length !== codes.length) return t("baohuang.why.count", { n: beat.length });
  if (beat) return t("baohuang.why.beat");
  return t("baohuang.why.not_now");
}

function isPlay(text) {
  return !/^(pass|grab|yield|claim|keep|hand on|declare|rebel|call\b)/.test(text);
}

function seatsRow(ctx, view) {
  const { h, t, names, table } = ctx;
  return h(
    "ol",
    { class: "bh-seats" },
    view.hand_sizes.map((n, seat) => {
      const role = view.roles && view.roles[String(seat)];
      const place = view.out.indexOf(seat);
      const last = (view.trick || []).filter((p) => p.seat === seat).slice(-1)[0]; // in this trick
      return h(
        "li",
        { class: `${table.pending.includes(seat) ? "pending" : ""} ${seat === view.seat ? "mine" : ""}` },
        h("b", {}, names[seat]),
        h("span", { class: "count", title: t("baohuang.cards_left") }, `🂠 ${n}`),
        role ? h("span", { class: "role" }, ctx.tOr(`baohuang.role.${role}`, role)) : null,
        place >= 0 ? h("span", { class: "place" }, t(`baohuang.place.${place + 1}`)) : null,
        last ? (last.cards ? cardRow(last.cards) : h("span", { class: "said" }, actionWords(ctx, view, last.action))) : null,
      );
    }),
  );
}

// The trick: the set to beat and whose it is, then every move of this trick in order.
function trickArea(ctx, view) {
  const { h, t, names } = ctx;
  if (view.phase !== "play") return null;
  const moves = (view.trick || []).map((m) =>
    h("li", {}, h("b", {}, names[m.seat]), " ", m.cards ? cardRow(m.cards) : actionWords(ctx, view, m.action)),
  );
  return h(
    "section",
    { class: "trick", id: "trick", "aria-label": t("baohuang.trick") },
    view.table ? h("p", {}, t("baohuang.to_beat", { who: names[view.table.owner] }), " ", cardRow(view.table.cards)) : h("p", { class: "hint" }, t("baohuang.new_trick")),
    moves.length ? h("ol", { class: "moves" }, moves) : null,
  );
}

function handView(ctx, view) {
  const { h, t } = ctx;
  const key = view.hand.join(" ");
  if (selectedFor !== key) {
    selected.clear();
    selectedFor = key;
  }
  const groups = [];
  view.hand.forEach((code, i) => {
    const { joker, rank } = parts(code);
    const label = joker || rank;
    if (!groups.length || groups[groups.length - 1].label !== label) groups.push({ label, cards: [] });
    groups[groups.length - 1].cards.push([code, i]);
  });
  const redraw = () => ctx.redraw();
  const enter = (e) => {
    if (e.key === "Enter" && document.getElementById("play") && !document.getElementById("play").disabled) {
      e.preventDefault();
      document.getElementById("play").click();
    }
  };
  return h(
    "div",
    { class: "hand", role: "group", "aria-label": t("baohuang.your_hand"), title: t("baohuang.keys"), onkeydown: enter },
    groups.map((g) =>
      h(
        "div",
        { class: "rank-group" },
        h("span", { class: "rank-label" }, `${cardWords(t, g.label)} ×${g.cards.length}`),
        h(
          "div",
          { class: "rank-cards" },
          g.cards.map(([code, i]) =>
            cardButton(code, selected.has(i), () => {
              if (selected.has(i)) selected.delete(i);
              else selected.add(i);
              redraw();
            }),
          ),
        ),
      ),
    ),
  );
}

function controls(ctx, view) {
  const { h, t, table } = ctx;
  if (!view.legal || !view.legal.length) return actions(ctx);
  const codes = [...selected].map((i) => view.hand[i]);
  const plays = view.legal.map((text, i) => [text, table.legal[i]]).filter(([text]) => isPlay(text));
  const others = view.legal.map((text, i) => [text, table.legal[i]]).filter(([text]) => !isPlay(text));
  const found = codes.length ? matchingSet(view, codes) : -1;
  const playButton = h(
    "button",
    { id: "play", class: "primary", disabled: found < 0, onclick: () => {
      ctx.act(table.legal[found]);
      selected.clear();
    } },
    found >= 0 ? t("baohuang.play_set", { set: inWords(t, view.legal[found]) }) : t("baohuang.play"),
  );
  const note = codes.length && found < 0 ? h("p", { class: "why", id: "why" }, why(ctx, view, codes)) : null;
  const hints = new Set(plays.map(([text]) => text.split(" ")[0]));
  return h(
    "div",
    { class: "actions" },
    h("p", { class: "your-move" }, t("your_move")),
    plays.length ? playButton : null,
    others.map(([text, id]) =>
      h("button", { class: "action", "data-action": id, onclick: () => ctx.act(id) }, actionWords(ctx, view, text), text.startsWith("call ") ? ` ${cardWords(t, text.slice(5))}` : ""),
    ),
    note,
    plays.length
      ? h(
          "details",
          { class: "legal-sets" },
          h("summary", {}, t(plays.length === 1 ? "baohuang.legal_sets_one" : "baohuang.legal_sets", { n: plays.length }), " · ", [...hints].map((c) => cardWords(t, c)).join(" ")),
          plays.map(([text, id]) => h("button", { class: "action small", "data-action": id, onclick: () => ctx.act(id) }, inWords(t, text))),
        )
      : null,
  );
}

// Each finished deal's scores and the running totals: the breakdown, during and after a match.
function scoring(ctx, view) {
  const { h, t, table, names } = ctx;
  const deals = (table.result && table.result.deals) || view.history || [];
  if (!deals.length) return null;
  const who = (seat) => (seat === null || seat === undefined ? "–" : names[seat]);
  return h(
    "table",
    { class: "scoring", id: "scoring" },
    h("tr", {}, h("th", {}, t("baohuang.deal")), h("th", {}, t("baohuang.role.emperor")), names.map((n) => h("th", {}, n))),
    deals.map((d) =>
      h(
        "tr",
        {},
        h("td", {}, d.deal),
        h("td", {}, who(d.emperor), d.partner === null ? ` (${t("baohuang.alone")})` : ` + ${who(d.partner)}`),
        d.scores.map((s, seat) => h("td", { title: `${t("baohuang.total")} ${d.totals[seat]}` }, String(s))),
      ),
    ),
  );
}

// Japanese rules: what this seat gave and received in tribute before the deal.
function tribute(ctx, view) {
  const { h, t } = ctx;
  const paid = view.tribute;
  if (!paid || (!paid.gave.length && !paid.received.length)) return null;
  return h(
    "p",
    { class: "tribute", id: "tribute" },
    paid.gave.length ? [t("baohuang.tribute_gave"), " ", cardRow(paid.gave), " "] : null,
    paid.received.length ? [t("baohuang.tribute_received"), " ", cardRow(paid.received)] : null,
  );
}

export default {
  render(el, ctx) {
    const { h, t, table } = ctx;
    const view = table.view;
    ctx.redraw = () => this.render(el, ctx);
    el.replaceChildren(
      h(
        "div",
        { class: "baohuang" },
        h("p", { class: "phase" }, t("baohuang.phase_line", { phase: ctx.tOr(`baohuang.phase.${view.phase}`, view.phase), deal: view.deal, deals: view.deals })),
        seatsRow(ctx, view),
        trickArea(ctx, view),
        view.hand ? handView(ctx, view) : null,
        tribute(ctx, view),
        controls(ctx, view),
        result(ctx),
        scoring(ctx, view),
        h("details", { class: "more" }, h("summary", {}, t("details")), facts(ctx, view, ["hand_sizes", "played", "out", "roles", "history", "tribute"])),
      ),
    );
  },

  // Every event of the game in words, for the log.
  describe(event, ctx) {
    const { t, names } = ctx;
    const d = event.data;
    const who = names[d.seat];
    const word = (w) => ctx.tOr(`baohuang.action.${w.split(" ")[0]}`, w); // these come in play only
    const cards = (codes) => codes.map((c) => cardWords(t, c)).join(" ");
    switch (event.kind) {
      case "play":
        return t(d.out ? "baohuang.log.play_out" : "baohuang.log.play", { who, cards: cards(d.cards) });
      case "pass":
      case "yield":
      case "claim":
        return `${who}: ${word(event.kind)}`;
      case "deal":
        return t(d.redeal ? "baohuang.log.redeal" : "baohuang.log.deal", { n: d.deal });
      case "hand":
        return t("baohuang.log.hand", { n: d.cards.length });
      case "tribute":
        return t("baohuang.log.tribute", { gave: cards(d.gave) || "–", got: cards(d.received) || "–" });
      case "tribute paid":
        return t("baohuang.log.tribute_paid");
      case "grab window closed":
        return d.grabbed_by === null ? t("baohuang.log.nobody_grabbed") : t("baohuang.log.grabbed", { who: names[d.grabbed_by] });
      case "grab":
        return t("baohuang.log.grabbed", { who });
      case "yield emperor":
        return t("baohuang.log.handed_on", { who, to: names[d.to_seat] });
      case "hand on emperor card":
        return t("baohuang.log.handed_on_card", { who, to: names[d.to_seat] });
      case "forced":
        return t("baohuang.log.forced", { who });
      case "void deal":
        return t("baohuang.log.void");
      case "call":
        return t("baohuang.log.call", { who, card: cardWords(t, d.card) });
      case "emperor":
        return t("baohuang.log.emperor", { who });
      case "declarations":
        return t("baohuang.log.declarations", { declared: d.declared.map((s) => names[s]).join(", ") || "–" });
      case "lead":
        return t("baohuang.log.lead", { who });
      case "deal over":
        return t("baohuang.log.deal_over", { n: d.deal });
      case "game over":
        return t("baohuang.log.game_over");
      default:
        return null;
    }
  },
};
