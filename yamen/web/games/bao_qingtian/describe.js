// @ts-check
// The trial's events as log lines, in the page's language, cards and offices by name.

import { P, cardName, counted, officeName, punishmentName } from "./common.js";

/**
 * @param {GameEvent} event
 * @param {Ctx} ctx
 */
export function describe(event, ctx) {
  const { t, names } = ctx;
  const d = event.data;
  const n = (/** @type {number} */ seat) => names[seat];
  switch (event.kind) {
    case "deal":
      return t(`${P}.log.deal`, { n: d.players, k: d.cards_each, name: n(d.first) });
    case "hand":
      return t(`${P}.log.hand`, { cards: d.cards.map((/** @type {string} */ c) => cardName(ctx, c)).join(", ") });
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
}
