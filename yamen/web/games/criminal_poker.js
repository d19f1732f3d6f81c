// Criminal Poker's table: your identity and evidence (shown and face down, with your innocence
// so far), every suspect's public evidence, the investigator's controls (who acts next, the
// deck it looked at, the arrest), questioning, the vote, and the final reveal with the culprit
// rules worked through for every suspect. Every action is a button labelled in words.

import { result } from "./generic.js";

// The game's own catalog, read once: the English names tell whether the room plays Yamen's
// card list (then every language has its names) or its own list (then the list's names).
let catalog = {};
try {
  const answer = await fetch("/i18n/games/criminal_poker.json");
  if (answer.ok) catalog = await answer.json();
} catch {
  catalog = {};
}
const english = catalog.en || {};

const P = "criminal_poker";
// A counted phrase: the catalog's "_one" form for 1 ("1 card", not "1 cards").
const counted = (t, key, params) => t(params.n === 1 ? `${key}_one` : key, params);
let drawn = null; // {seq, card}: the card this seat just drew (a private event), while it decides

function card(view, id) {
  return (view.cards && view.cards[id]) || { id, type: null, innocence: null, name: id };
}

// A card's name in the chosen language: the catalog's for Yamen's list, else the list's own.
function cardName(ctx, view, id) {
  const c = card(view, id);
  const key = `${P}.card.${id}`;
  if (c.name && typeof c.name === "object" && english[key] === c.name.en) return ctx.t(key);
  return ctx.pick(c.name);
}

// On a card that shows its type, the name without the type written before it.
function shortName(name) {
  const cut = name.search(/[:：]/);
  return cut > 0 && cut < name.length - 1 ? name.slice(cut + 1).trim() : name;
}

function roleName(ctx, view, role) {
  const key = `${P}.role.${role}`;
  const own = view.role_names && view.role_names[role];
  if (!own || english[key] === own.en) return ctx.tOr(key, role);
  return ctx.pick(own);
}

function typeName(ctx, type) {
  return ctx.tOr(`${P}.type.${type}`, type || "");
}

// The seed's culprit rules for one suspect's cards: physical adds up, the highest
// self-statement counts, a witness statement only when it is the only one.
export function assess(view, ids) {
  const cards = ids.map((id) => card(view, id));
  const witnesses = cards.filter((c) => c.type === "witness");
  const statements = cards.filter((c) => c.type === "self-statement");
  const best = statements.reduce((a, c) => (a === null || c.innocence > a.innocence ? c : a), null);
  const counted = new Set();
  let total = 0;
  for (const c of cards) {
    const counts = c.type === "physical" || c === best || (c.type === "witness" && witnesses.length === 1);
    if (counts) {
      counted.add(c.id);
      total += c.innocence || 0;
    }
  }
  return { total, valid: counted.size, counted, weapon: cards.some((c) => c.type === "weapon") };
}

// One evidence card: its type, name and innocence; face down (yours) or struck out (not counted).
function evidence(ctx, view, id, { hidden = false, counted = null, fresh = false } = {}) {
  const { h, t } = ctx;
  const c = card(view, id);
  const classes = ["ev", `ev-${c.type || "other"}`, hidden ? "ev-hidden" : "", counted === false ? "ev-void" : "", fresh ? "ev-fresh" : ""];
  return h(
    "span",
    { class: classes.join(" "), "data-card": id, title: hidden ? t(`${P}.face_down`) : counted === false ? t(`${P}.not_counted`) : "" },
    h("span", { class: "ev-type" }, typeName(ctx, c.type)),
    h("span", { class: "ev-name" }, shortName(cardName(ctx, view, id))),
    c.innocence !== null && c.innocence !== undefined ? h("span", { class: "ev-value", title: t(`${P}.innocence`) }, String(c.innocence)) : null,
  );
}

function backs(ctx, n) {
  const { h, t } = ctx;
  if (!n) return null;
  const cards = Array.from({ length: Math.min(n, 6) }, () => h("span", { class: "ev-back" }));
  return h("span", { class: "ev-backs", title: t(`${P}.face_down_n`, { n }) }, ...cards, ` ${t(`${P}.face_down_n`, { n })}`);
}

function investigatorWord(ctx, view) {
  return roleName(ctx, view, view.identities[String(view.investigator)] || (view.mode === "detective" ? "detective" : "sheriff"));
}

// ----- the parts of the table --------------------------------------------------------------

function heading(ctx, view) {
  const { h, t, tOr, names } = ctx;
  const phase = tOr(`${P}.phase.${view.phase}`, view.phase);
  return h(
    "div",
    { class: "cp-head" },
    h("p", { class: "phase", id: "cp-phase" }, h("b", {}, phase), " · ", tOr(`${P}.phase_help.${view.phase}`, "")),
    h(
      "p",
      { class: "cp-facts" },
      t(`${P}.mode.${view.mode}`),
      " · ",
      t(`${P}.investigator_is`, { role: investigatorWord(ctx, view), name: names[view.investigator] }),
      " · ",
      counted(t, `${P}.deck`, { n: view.deck_count }),
      " · ",
      t(`${P}.roles_in_play`),
      " ",
      Object.entries(view.roles_in_play || {}).map(([role, n]) => `${roleName(ctx, view, role)}×${n}`).join(", "),
    ),
  );
}

function mine(ctx, view) {
  const { h, t } = ctx;
  if (view.seat === null || view.seat === undefined || !view.identity) return null;
  const role = view.identity;
  const suspect = (view.suspects || []).includes(view.seat);
  const shown = view.shown[view.seat] || [];
  const hidden = view.hidden || [];
  const worth = assess(view, [...shown, ...hidden]);
  const fresh = drawn && drawn.card && view.phase === "reveal" && view.turn === view.seat ? drawn.card : null;
  return h(
    "section",
    { class: "cp-mine", id: "cp-mine" },
    h("h3", {}, t(`${P}.you_are`, { role: roleName(ctx, view, role) })),
    h("p", { class: "cp-goal" }, t(`${P}.goal.${role}`)),
    suspect
      ? h(
          "div",
          {},
          h("div", { class: "cp-row" }, h("span", { class: "cp-label" }, t(`${P}.your_shown`)), shown.length ? shown.map((id) => evidence(ctx, view, id)) : h("span", { class: "hint" }, t(`${P}.none`))),
          h(
            "div",
            { class: "cp-row", id: "cp-hidden" },
            h("span", { class: "cp-label" }, t(`${P}.your_hidden`)),
            hidden.length ? hidden.map((id) => evidence(ctx, view, id, { hidden: true, fresh: id === fresh })) : h("span", { class: "hint" }, t(`${P}.none`)),
          ),
          h(
            "p",
            { class: "cp-worth", id: "cp-worth" },
            worth.weapon ? t(`${P}.you_hold_weapon`) : t(`${P}.your_innocence`, { total: worth.total, valid: worth.valid }),
          ),
        )
      : null,
  );
}

function seatState(ctx, view, seat) {
  const { t, table } = ctx;
  const marks = [];
  if (view.arrested && view.arrested.includes(seat)) marks.push(["arrested", t(`${P}.arrested`)]);
  if (view.turn === seat) marks.push(["turn", t(`${P}.its_turn`)]);
  if ((view.answered || []).includes(seat)) marks.push(["answered", t(`${P}.answered`)]);
  else if (table.pending.includes(seat)) marks.push(["pending", t(`${P}.to_act`)]);
  if ((view.acted || []).includes(seat) && view.phase !== "over") marks.push(["acted", t(`${P}.has_acted`)]);
  return marks;
}

function seats(ctx, view) {
  const { h, t, names, table } = ctx;
  const deadlines = (table.result === null && table.deadlines) || {};
  return h(
    "ol",
    { class: "cp-seats", id: "cp-seats" },
    view.shown.map((shown, seat) => {
      const role = view.identities[String(seat)] || (view.final ? view.final.seats[seat].identity : null);
      const suspect = (view.suspects || []).includes(seat);
      const left = deadlines[String(seat)];
      return h(
        "li",
        { class: `${table.pending.includes(seat) ? "pending" : ""} ${seat === view.seat ? "mine" : ""}`, "data-seat": seat },
        h(
          "div",
          { class: "cp-seat-head" },
          h("b", {}, names[seat]),
          role ? h("span", { class: `cp-role cp-role-${role}` }, roleName(ctx, view, role)) : suspect ? h("span", { class: "cp-role" }, t(`${P}.suspect`)) : null,
          ...seatState(ctx, view, seat).map(([kind, text]) => h("span", { class: `cp-mark cp-${kind}` }, text)),
          left ? h("span", { class: "timer", "data-deadline": left }, "") : null,
        ),
        suspect
          ? h("div", { class: "cp-row" }, shown.map((id) => evidence(ctx, view, id)), backs(ctx, view.hidden_counts[seat]), !shown.length && !view.hidden_counts[seat] ? h("span", { class: "hint" }, t(`${P}.none`)) : null)
          : h("div", { class: "hint" }, t(`${P}.holds_no_evidence`)),
      );
    }),
  );
}

function turns(ctx, view) {
  const { h, t, names } = ctx;
  if (!view.turns || !view.turns.length) return null;
  return h(
    "details",
    { class: "cp-turns", open: view.phase !== "over" },
    h("summary", {}, t(`${P}.turns`, { n: view.turns.length, of: view.suspects.length })),
    h(
      "ol",
      {},
      view.turns.map((turn) => {
        const who = names[turn.seat];
        if (turn.action === "skip") return h("li", {}, t(`${P}.turn_skip`, { name: who }));
        if (turn.revealed) return h("li", {}, t(`${P}.turn_reveal`, { name: who }), " ", evidence(ctx, view, turn.revealed));
        if (turn.seat === view.turn && view.phase === "reveal") return h("li", {}, t(`${P}.turn_drawing`, { name: who }));
        return h("li", {}, t(`${P}.turn_keep`, { name: who }));
      }),
    ),
  );
}

function deckLook(ctx, view) {
  const { h, t } = ctx;
  if (!view.deck) return null;
  return h(
    "section",
    { class: "cp-deck", id: "cp-deck" },
    h("h3", {}, counted(t, `${P}.deck_look`, { n: view.deck.length })),
    h("p", { class: "hint" }, t(`${P}.deck_look_help`)),
    view.deck.length ? h("div", { class: "cp-row" }, view.deck.map((id) => evidence(ctx, view, id))) : h("p", {}, t(`${P}.deck_empty`)),
  );
}

function votes(ctx, view) {
  const { h, t, names } = ctx;
  if (!view.votes || !view.votes.length) return null;
  return h(
    "section",
    { class: "cp-votes", id: "cp-votes" },
    view.votes.map((round, i) => {
      const tally = {};
      round.forEach((target) => (tally[target] = (tally[target] || 0) + 1));
      return h(
        "div",
        {},
        h("h3", {}, t(`${P}.vote_round`, { n: i + 1 })),
        h("ul", {}, round.map((target, voter) => h("li", {}, t(`${P}.voted_for`, { voter: names[voter], target: names[target] })))),
        h(
          "p",
          { class: "cp-tally" },
          Object.entries(tally)
            .sort((a, b) => b[1] - a[1])
            .map(([seat, n]) => t(`${P}.tally`, { name: names[seat], n }))
            .join(" · "),
        ),
      );
    }),
  );
}

// A legal action in words: "reveal S4" -> "Reveal: Self-statement: ...", "next 2" -> "Call Ann".
function actionLabel(ctx, view, text) {
  const { t, names } = ctx;
  const [verb, arg] = text.split(" ");
  if (verb === "reveal") return t(`${P}.act.reveal`, { card: cardName(ctx, view, arg) });
  if (verb === "next") return t(`${P}.act.next`, { name: names[Number(arg)] });
  if (verb === "arrest") return t(`${P}.act.arrest`, { name: names[Number(arg)] });
  if (verb === "vote") return t(`${P}.act.vote`, { name: names[Number(arg)] });
  if (text === "keep hidden") return t(`${P}.act.keep_hidden`);
  if (text === "end questioning") return t(`${P}.act.end_questioning`);
  if (text === "skip" || text === "draw") return t(`${P}.act.${text}`);
  return text;
}

function controls(ctx, view) {
  const { h, t, names, table } = ctx;
  const texts = view.legal || [];
  if (!texts.length) {
    if (table.result) return null;
    const notes = [];
    if (view.answer) notes.push(h("p", { class: "cp-answer" }, t(`${P}.your_answer`, { answer: actionLabel(ctx, view, view.answer) })));
    if (view.phase === "questioning") notes.push(questioningHint(ctx, view));
    return h(
      "div",
      { class: "cp-wait" },
      ...notes,
      h("p", { class: "hint", id: "turn-hint" }, t("waiting_for", { who: table.pending.map((s) => names[s]).join(", ") })),
    );
  }
  const help = ctx.tOr(`${P}.ask.${view.phase}`, "");
  const fresh = view.phase === "reveal" && drawn && drawn.card ? h("p", { class: "cp-drew" }, t(`${P}.you_drew`), " ", evidence(ctx, view, drawn.card, { hidden: true, fresh: true })) : null;
  return h(
    "div",
    { class: `actions cp-actions cp-actions-${view.phase}`, role: "group", "aria-label": t("your_move") },
    h("p", { class: "your-move" }, t("your_move"), help ? ` · ${help}` : ""),
    fresh,
    view.phase === "questioning" ? questioningHint(ctx, view) : null,
    texts.map((text, i) =>
      h(
        "button",
        { class: `action ${/^(arrest|vote)/.test(text) ? "cp-accuse" : ""}`, "data-action": table.legal[i], "data-text": text, onclick: () => ctx.act(table.legal[i]) },
        actionLabel(ctx, view, text),
      ),
    ),
  );
}

function questioningHint(ctx, view) {
  const { h, t } = ctx;
  const chat = () => {
    const input = document.getElementById("chat-text");
    if (input) {
      input.scrollIntoView({ block: "center" });
      input.focus();
    }
  };
  return h(
    "p",
    { class: "cp-questioning", id: "cp-questioning" },
    t(`${P}.questioning_help`, { role: investigatorWord(ctx, view) }),
    " ",
    document.getElementById("chat-text") ? h("button", { type: "button", class: "quiet small", onclick: chat }, t(`${P}.to_chat`)) : null,
  );
}

// ----- the reveal ----------------------------------------------------------------------------

function reveal(ctx, view) {
  const { h, t, names } = ctx;
  const final = view.final || (ctx.table.result && ctx.table.result.seats ? ctx.table.result : null);
  if (!final) return null;
  const culprits = final.culprits || [];
  const arrested = final.arrested || [];
  const rows = final.seats.map((s) => {
    const isSuspect = s.innocence !== null && s.innocence !== undefined;
    const worth = assess(view, [...s.shown, ...s.hidden]);
    const counted = (id) => (final.by_weapon ? null : worth.counted.has(id));
    const marks = [s.culprit ? ["culprit", t(`${P}.culprit`)] : null, s.arrested ? ["arrested", t(`${P}.arrested`)] : null, s.won ? ["won", t("winner")] : null].filter(Boolean);
    return h(
      "li",
      { class: `${s.culprit ? "cp-culprit" : ""} ${s.arrested ? "cp-was-arrested" : ""}`, "data-seat": s.seat },
      h(
        "div",
        { class: "cp-seat-head" },
        h("b", {}, names[s.seat]),
        h("span", { class: `cp-role cp-role-${s.identity}` }, roleName(ctx, view, s.identity)),
        ...marks.map(([kind, text]) => h("span", { class: `cp-mark cp-${kind}` }, text)),
      ),
      isSuspect
        ? h(
            "div",
            { class: "cp-row" },
            s.shown.map((id) => evidence(ctx, view, id, { counted: counted(id) })),
            s.hidden.map((id) => evidence(ctx, view, id, { hidden: true, counted: counted(id) })),
          )
        : h("div", { class: "hint" }, t(`${P}.holds_no_evidence`)),
      isSuspect
        ? h("p", { class: "cp-sum" }, worth.weapon ? t(`${P}.held_weapon`) : t(`${P}.sum`, { total: s.innocence, valid: s.valid }))
        : null,
    );
  });
  const list = (seats) => seats.map((s) => names[s]).join(", ");
  let why;
  if (final.by_weapon) why = t(`${P}.why_weapon`, { names: list(culprits) });
  else if (culprits.length > 1) why = t(`${P}.why_joint`, { names: list(culprits), total: final.seats[culprits[0]].innocence, valid: final.seats[culprits[0]].valid });
  else {
    const c = final.seats[culprits[0]];
    const tied = final.seats.filter((s) => s.innocence === c.innocence && s.seat !== c.seat);
    why = tied.length
      ? t(`${P}.why_fewer_valid`, { name: names[c.seat], total: c.innocence, valid: c.valid })
      : t(`${P}.why_lowest`, { name: names[c.seat], total: c.innocence });
  }
  const outcome = arrested.length
    ? t(final.caught ? `${P}.caught` : `${P}.not_caught`, { names: list(arrested) })
    : t(`${P}.nobody_arrested`);
  return h(
    "section",
    { class: "cp-reveal", id: "cp-reveal" },
    h("h2", {}, t(`${P}.reveal_title`)),
    h("p", { class: "cp-why", id: "cp-why" }, why),
    h("p", { class: "cp-outcome", id: "cp-outcome" }, outcome),
    h("p", { class: "hint" }, t(`${P}.legend`)),
    h("ol", { class: "cp-final" }, rows),
    rules(ctx),
  );
}

function rules(ctx) {
  const { h, t } = ctx;
  return h(
    "details",
    { class: "cp-rules", id: "cp-rules" },
    h("summary", {}, t(`${P}.rules_title`)),
    h("ol", {}, [1, 2, 3, 4, 5].map((n) => h("li", {}, t(`${P}.rule.${n}`)))),
    h("h4", {}, t(`${P}.wins_title`)),
    h("ul", {}, ["sheriff", "culprit", "mastermind", "antisocial"].map((k) => h("li", {}, t(`${P}.wins.${k}`)))),
  );
}

export default {
  render(el, ctx) {
    const { h, t, table } = ctx;
    const view = table.view;
    if (drawn && (view.phase !== "reveal" || view.turn !== view.seat)) drawn = null;
    el.replaceChildren(
      h(
        "div",
        { class: "criminal-poker" },
        heading(ctx, view),
        controls(ctx, view),
        mine(ctx, view),
        deckLook(ctx, view),
        seats(ctx, view),
        turns(ctx, view),
        votes(ctx, view),
        reveal(ctx, view),
        result(ctx),
        view.final ? null : rules(ctx),
      ),
    );
  },

  describe(event, ctx) {
    const { t, names } = ctx;
    const d = event.data;
    const view = ctx.table ? ctx.table.view : { cards: {} };
    const name = (id) => cardName(ctx, view, id);
    switch (event.kind) {
      case "setup":
        return t(`${P}.log.setup`, { n: d.players, mode: t(`${P}.mode.${d.mode}`), name: names[d.investigator] });
      case "identity":
        return t(`${P}.log.identity`, { role: roleName(ctx, view, d.role) });
      case "evidence":
        return t(`${P}.log.evidence`, { cards: d.cards.map(name).join(", ") });
      case "answered":
        return t(`${P}.log.answered`, { name: names[d.seat] });
      case "opening revealed":
        return t(`${P}.log.opening`, { cards: d.cards.map((id, seat) => (id ? `${names[seat]}: ${name(id)}` : null)).filter(Boolean).join("; ") });
      case "next":
        return t(`${P}.log.next`, { name: names[d.seat] });
      case "skip":
        return t(`${P}.turn_skip`, { name: names[d.seat] });
      case "draw":
        return t(`${P}.log.draw`, { name: names[d.seat], n: d.deck });
      case "drew":
        drawn = { card: d.card };
        return t(`${P}.log.drew`, { card: name(d.card) });
      case "reveal":
        return t(`${P}.log.reveal`, { name: names[d.seat], card: name(d.card) });
      case "keep hidden":
        return t(`${P}.turn_keep`, { name: names[d.seat] });
      case "deck look":
        return t(`${P}.log.deck_look`, { name: names[d.seat], n: d.count });
      case "deck":
        return t(`${P}.log.deck`, { cards: d.cards.map(name).join(", ") || "–" });
      case "questioning":
        return t(`${P}.log.questioning`, { n: d.round });
      case "questioning over":
        return t(`${P}.log.questioning_over`);
      case "votes":
        return t(`${P}.log.votes`, { n: d.round, votes: d.votes.map((target, voter) => `${names[voter]}→${names[target]}`).join(", ") });
      case "revote":
        return t(`${P}.log.revote`, { names: d.tied.map((s) => names[s]).join(", ") });
      case "arrest":
        return d.seats.length ? t(`${P}.log.arrest`, { names: d.seats.map((s) => names[s]).join(", ") }) : t(`${P}.nobody_arrested`);
      case "game over":
        return t(`${P}.log.over`, { names: d.culprits.map((s) => names[s]).join(", ") });
      default:
        return null;
    }
  },
};
