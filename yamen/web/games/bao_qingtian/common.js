// @ts-check
// The Bao Qing-tian table's shared words: card, office and punishment names from the catalog,
// and the order things are shown in.

export const P = "bao_qingtian";
export const CODES = ["EMP", "JUD", "WANG", "MA", "THF", "ROB", "MUR", "PKP", "COM", "ADD", "SUB", "MUL", "DIV", "SEV", "EXE"];
// The punishments of the catalogue as the notation writes them (docs/rules/bao_qingtian.md).
export const PUNISHMENTS = ["sing a song", "do push-ups", "do squats", "tell a joke", "dance", "imitate an animal", "praise every player", "hop on one foot"];
export const OFFICES = ["judge", "captor", "plus", "minus", "times", "divide", "severity", "executor"];
export const STEPS = ["judge", "plus", "minus", "times", "divide"];
/** @type {{ [step: string]: string }} */
export const SIGN = { judge: "", plus: "+", minus: "−", times: "×", divide: "÷" };

// A counted phrase: the catalog's "_one" form for 1 ("1 trial", not "1 trials").
/** @type {(t: Translate, key: string, params: { n: number } & { [name: string]: unknown }) => string} */
export const counted = (t, key, params) => t(params.n === 1 ? `${key}_one` : key, params);

/**
 * @param {Ctx} ctx
 * @param {string | null | undefined} code
 */
export function cardName(ctx, code) {
  return ctx.tOr(`${P}.card.${code}`, ctx.t(`${P}.unknown_card`));
}

/**
 * @param {Ctx} ctx
 * @param {string | null | undefined} words
 */
export function punishmentName(ctx, words) {
  const i = PUNISHMENTS.indexOf((words || "").toLowerCase());
  return i >= 0 ? ctx.t(`${P}.punishment.${i + 1}`) : words || "";
}

/**
 * @param {Ctx} ctx
 * @param {string} office
 */
export function officeName(ctx, office) {
  return ctx.tOr(`${P}.office.${office}`, office);
}


/** @type {(x: number | null | undefined) => x is number} */
export const isSeat = (x) => x !== null && x !== undefined;

// seat -> the offices it holds (the emperor first)
/** @param {BqView | BqResult} view */
export function officesBySeat(view) {
  /** @type {{ [seat: number]: string[] }} */
  const held = {};
  if (isSeat(view.emperor)) (held[view.emperor] ||= []).push("emperor");
  for (const office of OFFICES) {
    const seat = view.offices && view.offices[office];
    if (isSeat(seat)) (held[seat] ||= []).push(office);
  }
  return held;
}
