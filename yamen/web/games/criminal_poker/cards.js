// @ts-check
// Criminal Poker's cards and identities in words: evidence named from the catalog (or the
// room's own card list), the seed's culprit rules for one suspect's cards, and how a card looks.

// The game's own catalog, read once: the English names tell whether the room plays Yamen's
// card list (then every language has its names) or its own list (then the list's names).
/** @type {{ [lang: string]: { [key: string]: string } }} */
let catalog = {};
try {
  const answer = await fetch("/i18n/games/criminal_poker.json");
  if (answer.ok) catalog = await answer.json();
} catch {
  catalog = {};
}
const english = catalog.en || {};

export const P = "criminal_poker";
// A counted phrase: the catalog's "_one" form for 1 ("1 card", not "1 cards").
/** @type {(t: Translate, key: string, params: { n: number } & { [name: string]: unknown }) => string} */
export const counted = (t, key, params) => t(params.n === 1 ? `${key}_one` : key, params);

/**
 * @param {CpView} view
 * @param {string} id
 * @returns {CpCard}
 */
export function card(view, id) {
  return (view.cards && view.cards[id]) || { id, type: null, innocence: null, name: id };
}

// A card's name in the chosen language: the catalog's for Yamen's list, else the list's own.
/**
 * @param {Ctx} ctx
 * @param {CpView} view
 * @param {string} id
 */
export function cardName(ctx, view, id) {
  const c = card(view, id);
  const key = `${P}.card.${id}`;
  if (c.name && typeof c.name === "object" && english[key] === c.name.en) return ctx.t(key);
  return ctx.pick(c.name);
}

// On a card that shows its type, the name without the type written before it.
/** @param {string} name */
export function shortName(name) {
  const cut = name.search(/[:：]/);
  return cut > 0 && cut < name.length - 1 ? name.slice(cut + 1).trim() : name;
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 * @param {string} role
 */
export function roleName(ctx, view, role) {
  const key = `${P}.role.${role}`;
  const own = view.role_names && view.role_names[role];
  if (!own || (typeof own === "object" && english[key] === own.en)) return ctx.tOr(key, role);
  return ctx.pick(own);
}

/**
 * @param {Ctx} ctx
 * @param {string | null} type
 */
export function typeName(ctx, type) {
  return ctx.tOr(`${P}.type.${type}`, type || "");
}

// The seed's culprit rules for one suspect's cards: physical adds up, the highest
// self-statement counts, a witness statement only when it is the only one.
/**
 * @param {CpView} view
 * @param {string[]} ids
 */
export function assess(view, ids) {
  const cards = ids.map((id) => card(view, id));
  const witnesses = cards.filter((c) => c.type === "witness");
  const statements = cards.filter((c) => c.type === "self-statement");
  const best = statements.reduce((/** @type {CpCard | null} */ a, c) => (a === null || (c.innocence ?? 0) > (a.innocence ?? 0) ? c : a), null);
  /** @type {Set<string>} */
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
/**
 * @param {Ctx} ctx
 * @param {CpView} view
 * @param {string} id
 * @param {{ hidden?: boolean, counted?: boolean | null, fresh?: boolean }} [how] face down, counted (null: not said), just drawn
 */
export function evidence(ctx, view, id, { hidden = false, counted = null, fresh = false } = {}) {
  const { h, t } = ctx;
  const c = card(view, id);
  const classes = ["ev", `ev-${c.type || "other"}`, hidden ? "ev-hidden" : "", counted === false ? "ev-void" : "", fresh ? "ev-fresh" : ""];
  const name = cardName(ctx, view, id);
  const valued = c.innocence !== null && c.innocence !== undefined;
  // read out whole, in words: the card's name, its innocence, face down or not
  const label = [valued ? t(`${P}.ev_label`, { card: name, n: c.innocence }) : name, hidden ? t(`${P}.face_down`) : "", counted === false ? t(`${P}.not_counted`) : ""].filter(Boolean).join(" · ");
  return h(
    "span",
    { class: classes.join(" "), "data-card": id, role: "img", "aria-label": label, title: hidden ? t(`${P}.face_down`) : counted === false ? t(`${P}.not_counted`) : "" },
    h("span", { class: "ev-type" }, typeName(ctx, c.type)),
    h("span", { class: "ev-name" }, shortName(name)),
    valued ? h("span", { class: "ev-value", title: t(`${P}.innocence`) }, String(c.innocence)) : null,
  );
}

/**
 * @param {Ctx} ctx
 * @param {number} n
 */
export function backs(ctx, n) {
  const { h, t } = ctx;
  if (!n) return null;
  const cards = Array.from({ length: Math.min(n, 6) }, () => h("span", { class: "ev-back" }));
  return h("span", { class: "ev-backs", title: t(`${P}.face_down_n`, { n }) }, ...cards, ` ${t(`${P}.face_down_n`, { n })}`);
}

/**
 * @param {Ctx} ctx
 * @param {CpView} view
 */
export function investigatorWord(ctx, view) {
  return roleName(ctx, view, view.identities[String(view.investigator)] || (view.mode === "detective" ? "detective" : "sheriff"));
}
