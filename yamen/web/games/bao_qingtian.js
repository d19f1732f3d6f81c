// The Bao Qing-tian trial's table, for 3 to 50 seats on a phone: a compact seat list with every
// office, the hand (discard to draw), the emperor's choices, appointments, the captor's guesses
// with the count left, the sentence built step by step, execute or pardon, and the ledger.

const P = "bao_qingtian";
const CODES = ["EMP", "JUD", "WANG", "MA", "THF", "ROB", "MUR", "PKP", "COM", "ADD", "SUB", "MUL", "DIV", "SEV", "EXE"];
// The punishments of the catalogue as the notation writes them (docs/rules/bao_qingtian.md).
// A counted phrase: the catalog's "_one" form for 1 ("1 trial", not "1 trials").
const counted = (t, key, params) => t(params.n === 1 ? `${key}_one` : key, params);
const PUNISHMENTS = ["sing a song", "do push-ups", "do squats", "tell a joke", "dance", "imitate an animal", "praise every player", "hop on one foot"];
const OFFICES = ["judge", "captor", "plus", "minus", "times", "divide", "severity", "executor"];
const STEPS = ["judge", "plus", "minus", "times", "divide"];
const SIGN = { judge: "", plus: "+", minus: "−", times: "×", divide: "÷" };

let punishmentChoice = 0; // the judge's pick in the catalogue, kept across redraws
let ownDraft = { words: "", count: "1" }; // the judge's own words while typed, kept across redraws

function cardName(ctx, code) {
  return ctx.tOr(`${P}.card.${code}`, code);
}

function punishmentName(ctx, words) {
  const i = PUNISHMENTS.indexOf((words || "").toLowerCase());
  return i >= 0 ? ctx.t(`${P}.punishment.${i + 1}`) : words;
}

function officeName(ctx, office) {
  return ctx.tOr(`${P}.office.${office}`, office);
}

function seatLabel(ctx, seat) {
  return `${seat} ${ctx.names[seat]}`;
}

// seat -> the offices it holds (the emperor first)
function officesBySeat(view) {
  const held = {};
  if (view.emperor !== null && view.emperor !== undefined) (held[view.emperor] ||= []).push("emperor");
  for (const office of OFFICES) {
    const seat = view.offices && view.offices[office];
    if (seat !== undefined && seat !== null) (held[seat] ||= []).push(office);
  }
  return held;
}

// ----- the parts -----------------------------------------------------------------------------

function heading(ctx, view) {
  const { h, t, tOr, names } = ctx;
  const facts = [
    t(`${P}.pile`, { n: view.pile }),
    t(`${P}.discards`, { n: view.discards }),
    counted(t, `${P}.cards_each`, { n: view.cards_each }),
    t(`${P}.first`, { name: names[view.first] }),
  ];
  return h(
    "div",
    { class: "bq-head" },
    h("p", { class: "phase", id: "bq-phase" }, h("b", {}, tOr(`${P}.phase.${view.phase}`, view.phase)), " · ", tOr(`${P}.phase_help.${view.phase}`, "")),
    view.seeking ? h("p", { class: "bq-seeking" }, t(`${P}.seeking`, { office: officeName(ctx, view.seeking) })) : null,
    view.criminal ? h("p", { class: "bq-crime", id: "bq-crime" }, t(`${P}.crime`, { card: cardName(ctx, view.criminal) })) : null,
    h("p", { class: "bq-facts" }, facts.join(" · ")),
  );
}

function seatList(ctx, view) {
  const { h, t, table } = ctx;
  const held = officesBySeat(view);
  const holders = new Set((view.appointing && view.appointing.holders) || []);
  const deadlines = (table.result === null && table.deadlines) || {};
  const escaped = new Set((table.result && table.result.escaped) || []);
  const winners = new Set((table.result && table.result.winners) || []);
  const missed = {};
  for (const g of (view.capture && view.capture.guesses) || []) if (!g.hit) missed[g.seat] = (missed[g.seat] || 0) + 1;
  return h(
    "ol",
    { class: `bq-seats ${view.players > 12 ? "many" : ""}`, id: "bq-seats", "aria-label": t("seats") },
    Array.from({ length: view.players }, (_, seat) => {
      const marks = [];
      if (seat === view.turn) marks.push(h("span", { class: "bq-m bq-turn", title: t(`${P}.its_turn`) }, "▶"));
      if (seat === view.last_turn && view.phase === "guess") marks.push(h("span", { class: "bq-m", title: t(`${P}.last_turn`) }, "↺"));
      if (holders.has(seat)) marks.push(h("span", { class: "bq-m bq-holder", title: t(`${P}.holds_card`) }, "◆"));
      if (missed[seat]) marks.push(h("span", { class: "bq-m bq-missed", title: t(`${P}.missed_n`, { n: missed[seat] }) }, `✗${missed[seat]}`));
      if (escaped.has(seat)) marks.push(h("span", { class: "bq-m bq-escaped" }, t(`${P}.escaped`)));
      if (winners.has(seat)) marks.push(h("span", { class: "bq-m bq-won" }, t("winner")));
      const classes = [
        table.pending.includes(seat) ? "pending" : "",
        seat === view.seat ? "mine" : "",
        seat === view.accused ? "accused" : "",
        seat === view.turn ? "turn" : "",
      ];
      const left = deadlines[String(seat)];
      return h(
        "li",
        { class: classes.join(" "), "data-seat": seat, title: ctx.names[seat] },
        h("span", { class: "bq-no" }, seat),
        h("span", { class: "bq-name" }, ctx.names[seat]),
        (held[seat] || []).map((office) => h("span", { class: `bq-office bq-${office}`, title: officeName(ctx, office) }, t(`${P}.badge.${office}`))),
        ...marks,
        left ? h("span", { class: "timer", "data-deadline": left }, "") : null,
      );
    }),
  );
}

function offices(ctx, view) {
  const { h, t, names } = ctx;
  const rows = [];
  if (view.emperor !== null && view.emperor !== undefined) rows.push(["emperor", view.emperor, null]);
  for (const office of OFFICES) {
    const seat = view.offices && view.offices[office];
    if (seat !== undefined && seat !== null) rows.push([office, seat, view.how && view.how[office]]);
  }
  if (!rows.length) return null;
  return h(
    "dl",
    { class: "bq-offices", id: "bq-offices" },
    rows.map(([office, seat, how]) =>
      h("div", { class: "bq-office-row" }, h("dt", {}, officeName(ctx, office)), h("dd", {}, names[seat], how ? h("span", { class: "bq-how" }, ` · ${t(`${P}.how.${how}`)}`) : null)),
    ),
  );
}

function appointing(ctx, view) {
  const { h, t, names } = ctx;
  const a = view.appointing;
  if (!a) return null;
  const holders = a.holders && a.holders.length ? a.holders.map((s) => names[s]).join(", ") : t(`${P}.nobody`);
  return h(
    "p",
    { class: "bq-appointing", id: "bq-appointing" },
    t(`${P}.appointing`, { by: names[a.by], office: officeName(ctx, a.office) }),
    " ",
    t(`${P}.holders`, { names: holders }),
  );
}

function capture(ctx, view) {
  const { h, t, names } = ctx;
  const c = view.capture;
  if (!c) return null;
  return h(
    "section",
    { class: "bq-capture", id: "bq-capture" },
    h(
      "div",
      { class: "bq-capture-head" },
      h("span", { class: "bq-left", id: "bq-guesses-left", "data-left": c.guesses_left }, String(c.guesses_left)),
      h(
        "div",
        {},
        h("b", {}, counted(t, `${P}.guesses_left`, { n: c.guesses_left })),
        h("br"),
        t(`${P}.capture_by`, { name: names[c.captor], round: c.round }),
        c.guessed_this_round || view.phase === "over" ? "" : h("span", { class: "bq-must" }, ` · ${t(`${P}.must_guess`)}`),
      ),
    ),
    c.guesses.length
      ? h(
          "ol",
          { class: "bq-guesses", id: "bq-guesses" },
          c.guesses.map((g) =>
            h(
              "li",
              { class: g.hit ? "hit" : "miss" },
              t(`${P}.guess.${g.form}`, { name: names[g.seat] }),
              " · ",
              h("b", {}, g.hit ? t(`${P}.caught`) : t(`${P}.missed`)),
              h("span", { class: "bq-round" }, ` (${t(`${P}.round_n`, { n: g.round })})`),
            ),
          ),
        )
      : null,
  );
}

// The sentence as it is built: every step, the ones still to come greyed out.
function trial(ctx, view) {
  const { h, t, names } = ctx;
  if (view.accused === null || view.accused === undefined) return null;
  const done = {};
  for (const step of view.sentence || []) done[step.step] = step;
  const steps = STEPS.map((step) => {
    const made = done[step];
    const office = step;
    const who = view.offices && view.offices[office] !== undefined ? names[view.offices[office]] : "…";
    const current = view.phase === (step === "judge" ? "punish" : step);
    return h(
      "li",
      { class: `bq-step ${made ? "done" : current ? "current" : "todo"}`, "data-step": step },
      h("span", { class: "bq-step-who" }, `${officeName(ctx, office)} · ${who}`),
      h(
        "span",
        { class: "bq-step-what" },
        made
          ? step === "judge"
            ? t(`${P}.step_judge`, { n: made.number })
            : t(`${P}.step_${step}`, { n: made.number, count: made.count })
          : current
            ? t(`${P}.deciding`)
            : "…",
      ),
    );
  });
  const severity = view.severity ? t(`${P}.severity.${view.severity}`) : view.phase === "severity" ? t(`${P}.deciding`) : "…";
  return h(
    "section",
    { class: "bq-trial", id: "bq-trial" },
    h("h3", {}, t(`${P}.on_trial`, { name: names[view.accused] }), " · ", t(`${P}.why.${view.why}`)),
    view.punishment ? h("p", { class: "bq-punishment", id: "bq-punishment" }, t(`${P}.punishment_is`, { what: punishmentName(ctx, view.punishment) })) : null,
    h("ol", { class: "bq-sentence", id: "bq-sentence" }, steps, h("li", { class: `bq-step ${view.severity ? "done" : "todo"}`, "data-step": "severity" }, h("span", { class: "bq-step-who" }, officeName(ctx, "severity")), h("span", { class: "bq-step-what" }, severity))),
    view.count !== null && view.count !== undefined
      ? h("p", { class: "bq-count", id: "bq-count" }, t(`${P}.count_now`, { n: view.count, what: view.punishment ? punishmentName(ctx, view.punishment) : "" }))
      : null,
    view.verdict ? h("p", { class: "bq-verdict", id: "bq-verdict" }, h("b", {}, t(`${P}.verdict.${view.verdict}`))) : null,
  );
}

function hand(ctx, view, discarding) {
  const { h, t, table } = ctx;
  if (!view.hand) return null;
  const counts = {};
  for (const code of view.hand) counts[code] = (counts[code] || 0) + 1;
  const order = Object.keys(counts).sort((a, b) => CODES.indexOf(a) - CODES.indexOf(b));
  const legal = {};
  (view.legal || []).forEach((text, i) => {
    if (text.startsWith("discard ")) legal[text.slice(8)] = table.legal[i];
  });
  const cards = order.map((code) => {
    const label = [h("span", { class: "bq-card-name" }, cardName(ctx, code)), counts[code] > 1 ? h("span", { class: "bq-card-n" }, `×${counts[code]}`) : null];
    if (discarding && legal[code] !== undefined) {
      return h("button", { class: `action bq-card bq-k-${code}`, "data-action": legal[code], "data-card": code, title: t(`${P}.discard`, { card: cardName(ctx, code) }), onclick: () => ctx.act(legal[code]) }, ...label);
    }
    return h("span", { class: `bq-card bq-k-${code}`, "data-card": code }, ...label);
  });
  const turns = view.my_turns || [];
  const last = turns.slice(-3).reverse();
  return h(
    "section",
    { class: "bq-hand-box", id: "bq-hand" },
    h("h3", {}, t(`${P}.your_hand`, { n: view.hand.length })),
    discarding ? h("div", { class: "actions bq-hand", role: "group", "aria-label": t("your_move") }, h("p", { class: "your-move" }, t("your_move"), " · ", t(`${P}.ask.discard`)), cards) : h("div", { class: "bq-hand" }, cards),
    last.length
      ? h("p", { class: "hint bq-my-turns" }, t(`${P}.my_turns`, { n: turns.length }), " ", last.map((x) => t(`${P}.my_turn`, { out: cardName(ctx, x.discarded), in: cardName(ctx, x.drew) })).join(" · "))
      : null,
  );
}

// ----- the decisions ---------------------------------------------------------------------------

function button(ctx, id, label, extra = {}) {
  return ctx.h("button", { class: "action", "data-action": id, onclick: () => ctx.act(id), ...extra }, label);
}

function decisions(ctx, view) {
  const { h, t, names, table } = ctx;
  const texts = view.legal || [];
  if (!texts.length || view.phase === "draw" || view.phase === "capture") return null;
  const pairs = texts.map((text, i) => [text, table.legal[i]]);
  const ask = ctx.tOr(`${P}.ask.${view.phase}`, "");
  const head = h("p", { class: "your-move" }, t("your_move"), ask ? ` · ${ask}` : "");
  let body;
  switch (view.phase) {
    case "name":
      body = pairs.map(([text, id]) => button(ctx, id, t(`${P}.act.name`, { card: cardName(ctx, text.split(" ")[1]) })));
      break;
    case "appoint": {
      const a = view.appointing || {};
      const holders = new Set(a.holders || []);
      body = [
        h("p", { class: "bq-ask" }, t(`${P}.appoint_who`, { office: officeName(ctx, a.office) })),
        h(
          "div",
          { class: "bq-picker" },
          pairs.map(([text, id]) => {
            const seat = Number(text.split(" ")[1]);
            return button(ctx, id, seatLabel(ctx, seat), { class: `action bq-seat-button ${holders.has(seat) ? "holder" : ""}`, title: t(`${P}.act.appoint`, { name: names[seat], office: officeName(ctx, a.office) }) });
          }),
        ),
      ];
      break;
    }
    case "guess": {
      const simple = pairs.filter(([text]) => !text.endsWith(" holds"));
      const holds = pairs.filter(([text]) => text.endsWith(" holds"));
      const left = view.capture ? view.capture.guesses_left : "?";
      body = [
        h("p", { class: "bq-ask" }, t(`${P}.guess_ask`, { card: cardName(ctx, view.criminal), n: left })),
        simple.map(([text, id]) => {
          if (text === "wait") return button(ctx, id, t(`${P}.act.wait`));
          const [, seat, form] = text.split(" ");
          return button(ctx, id, t(`${P}.act.guess_${form}`, { name: names[Number(seat)] }));
        }),
        holds.length ? h("p", { class: "bq-ask" }, t(`${P}.guess_holds`)) : null,
        h(
          "div",
          { class: "bq-picker" },
          holds.map(([text, id]) => {
            const seat = Number(text.split(" ")[1]);
            return button(ctx, id, seatLabel(ctx, seat), { class: "action bq-seat-button", title: t(`${P}.act.guess_holds`, { name: names[seat] }) });
          }),
        ),
      ];
      break;
    }
    case "punish":
      body = punishControls(ctx, view, pairs);
      break;
    case "plus":
    case "minus":
    case "times":
    case "divide":
      body = pairs.map(([text, id]) => {
        const n = Number(text.split(" ")[1]);
        const after = view.phase === "plus" ? view.count + n : view.phase === "minus" ? Math.max(0, view.count - n) : view.phase === "times" ? view.count * n : Math.floor(view.count / n);
        return button(ctx, id, `${SIGN[view.phase]}${n} → ${after}`, { class: "action bq-number", title: t(`${P}.step_${view.phase}`, { n, count: after }) });
      });
      break;
    default:
      body = pairs.map(([text, id]) => button(ctx, id, ctx.tOr(`${P}.act.${text.replace(/ /g, "_")}`, text)));
  }
  return h("div", { class: `actions bq-actions bq-actions-${view.phase.replace(/ /g, "-")}`, role: "group", "aria-label": t("your_move") }, head, [body].flat(3));
}

// The judge: a punishment from the catalogue (or its own words) and a count from 1 to 10.
function punishControls(ctx, view, pairs) {
  const { h, t } = ctx;
  const byText = Object.fromEntries(pairs);
  const select = h(
    "select",
    { id: "bq-punishment-choice", "aria-label": t(`${P}.punishment`), onchange: (e) => {
      punishmentChoice = Number(e.target.value);
      ctx.redraw();
      document.getElementById("bq-punishment-choice")?.focus();
    } },
    PUNISHMENTS.map((_, i) => h("option", { value: i, selected: i === punishmentChoice }, t(`${P}.punishment.${i + 1}`))),
  );
  const words = PUNISHMENTS[punishmentChoice];
  const counts = [];
  for (let n = 1; n <= 10; n++) {
    const id = byText[`punish "${words}" ${n}`];
    if (id !== undefined) counts.push(button(ctx, id, n === 1 ? t(`${P}.once`) : t(`${P}.n_times`, { n }), { class: "action bq-number" }));
  }
  const own = h("input", { id: "bq-own-words", maxlength: 80, placeholder: t(`${P}.own_words`), "aria-label": t(`${P}.own_words`), oninput: (e) => (ownDraft.words = e.target.value) });
  own.value = ownDraft.words;
  const ownCount = h(
    "select",
    { id: "bq-own-count", "aria-label": t(`${P}.count`), onchange: (e) => (ownDraft.count = e.target.value) },
    Array.from({ length: 10 }, (_, i) => h("option", { value: i + 1, selected: String(i + 1) === ownDraft.count }, String(i + 1))),
  );
  const sendOwn = (e) => {
    e.preventDefault();
    const text = own.value.replace(/\s+/g, " ").trim();
    if (text) ctx.actText(`punish "${text}" ${ownCount.value}`);
  };
  return [
    h("label", { class: "bq-ask" }, t(`${P}.punishment`), " ", select),
    h("div", { class: "bq-picker" }, counts),
    h("form", { class: "bq-own", onsubmit: sendOwn }, own, ownCount, h("button", { type: "submit", class: "quiet" }, t(`${P}.act.own_words`))),
  ];
}

function waiting(ctx, view) {
  const { h, t, names, table } = ctx;
  if (table.result || (view.legal && view.legal.length)) return null;
  const who = table.pending.map((s) => names[s]).join(", ");
  return h("p", { class: "hint", id: "turn-hint" }, t("waiting_for", { who }));
}

// ----- the end: this trial's ledger entry and the room's running ledger ---------------------------

function ledger(ctx) {
  const { h, t, names, table, room } = ctx;
  const r = table.result;
  if (!r) return null;
  let headline;
  if (r.verdict === "pardoned") headline = t(`${P}.end.pardoned`, { name: names[r.tried] });
  else headline = t(`${P}.end.executed`, { name: names[r.tried], n: r.count, what: punishmentName(ctx, r.punishment) });
  const why = r.why === "caught" ? t(`${P}.end.caught`, { name: names[r.offices.captor], card: cardName(ctx, r.criminal) }) : r.escaped && r.escaped.length ? t(`${P}.end.escaped`, { names: r.escaped.map((s) => names[s]).join(", ") }) : t(`${P}.end.escaped_none`);
  const scores = (room && room.scores) || r.scores;
  const punished = scores.map((s, seat) => [seat, Number(s)]).filter(([, s]) => s !== 0);
  return h(
    "section",
    { class: "result bq-ledger", id: "result" },
    h("h2", {}, t("game_over")),
    h("p", { class: "bq-headline", id: "bq-headline" }, h("b", {}, headline)),
    h("p", {}, why),
    r.winners.length ? h("p", {}, t(`${P}.winners`, { names: r.winners.map((s) => names[s]).join(", ") })) : null,
    h("h3", {}, counted(t, `${P}.room_ledger`, { n: (room && room.number) || 1 })),
    punished.length
      ? h("ol", { class: "bq-room-ledger", id: "bq-room-ledger" }, punished.sort((a, b) => a[1] - b[1]).map(([seat, s]) => h("li", {}, counted(t, `${P}.ledger_line`, { name: names[seat], n: -s }))))
      : h("p", { class: "hint", id: "bq-room-ledger" }, t(`${P}.ledger_empty`)),
  );
}

export default {
  render(el, ctx) {
    const { h, table } = ctx;
    const view = table.view;
    ctx.redraw = () => this.render(el, ctx);
    const mine = view.legal && view.legal.length;
    const discarding = mine && (view.phase === "draw" || view.phase === "capture");
    if (view.phase !== "punish") {
      punishmentChoice = 0;
      ownDraft = { words: "", count: "1" };
    }
    const focused = document.activeElement && document.activeElement.closest && document.activeElement.closest(".bao-qingtian") ? document.activeElement.id : null;
    el.replaceChildren(
      h(
        "div",
        { class: "bao-qingtian" },
        heading(ctx, view),
        decisions(ctx, view),
        waiting(ctx, view),
        hand(ctx, view, discarding),
        appointing(ctx, view),
        capture(ctx, view),
        trial(ctx, view),
        ledger(ctx),
        offices(ctx, view),
        seatList(ctx, view),
      ),
    );
    if (focused) document.getElementById(focused)?.focus();
  },

  describe(event, ctx) {
    const { t, names } = ctx;
    const d = event.data;
    const n = (seat) => names[seat];
    switch (event.kind) {
      case "deal":
        return t(`${P}.log.deal`, { n: d.players, k: d.cards_each, name: n(d.first) });
      case "hand":
        return t(`${P}.log.hand`, { cards: d.cards.map((c) => cardName(ctx, c)).join(", ") });
      case "seeking":
        return t(`${P}.seeking`, { office: officeName(ctx, d.card) });
      case "refill":
        return t(`${P}.log.refill`, { n: d.cards });
      case "turn":
        return t(`${P}.log.turn`, { name: n(d.seat) });
      case "turn cards":
        return t(`${P}.my_turn`, { out: cardName(ctx, d.discarded), in: cardName(ctx, d.drew) });
      case "emperor":
        return t(`${P}.log.emperor`, { name: n(d.seat) });
      case "criminal named":
        return t(`${P}.crime`, { card: cardName(ctx, d.card) });
      case "appointing":
        return t(`${P}.appointing`, { by: n(d.by), office: officeName(ctx, d.office) });
      case "office":
        return t(`${P}.log.office`, { name: n(d.seat), office: officeName(ctx, d.office), how: t(`${P}.how.${d.how}`) });
      case "capture":
        return t(`${P}.log.capture`, { name: n(d.captor) });
      case "wait":
        return t(`${P}.log.wait`, { name: n(d.captor) });
      case "guess":
        return `${t(`${P}.guess.${d.form}`, { name: n(d.seat) })}: ${d.hit ? t(`${P}.caught`) : t(`${P}.missed`)} (${counted(t, `${P}.guesses_left`, { n: d.left })})`;
      case "accused":
        return `${t(`${P}.on_trial`, { name: n(d.seat) })} · ${t(`${P}.why.${d.why}`)}`;
      case "punishment":
        return t(`${P}.log.punishment`, { name: n(d.judge), what: punishmentName(ctx, d.punishment), n: d.count });
      case "plus":
      case "minus":
      case "times":
      case "divide":
        return `${n(d.seat)}: ${t(`${P}.step_${event.kind}`, { n: d.number, count: d.count })}`;
      case "severity":
        return `${n(d.seat)}: ${t(`${P}.severity.${d.severity}`)}`;
      case "pardon":
        return t(`${P}.verdict.pardoned`);
      case "execute":
        return t(`${P}.verdict.executed`);
      case "carried out":
        return t(`${P}.log.carried_out`, { name: n(d.executor) });
      case "game over":
        return t("game_over");
      default:
        return null;
    }
  },
};
