// @ts-check
// A table's panel that folds to its first line once read (the hand in reach, docs/web.md): a
// `<details>` open from the start of a game until the seat's first own decision of it is made
// (the seat read it while deciding), folded after that, its summary line still saying the
// essentials (a role, its goal); a tap on the line opens or folds it for the rest of the game.
// A replay, or a seat never asked yet, keeps it open. It names no game: a table module gives
// it the panel's parts.

/** @type {Map<string, { game: string, asked: boolean, read: boolean, open: boolean | null }>} */
const panels = new Map(); // panel id -> this game's fold: asked yet, answered since, a tap

/**
 * @param {Ctx} ctx
 * @param {{ [attribute: string]: unknown }} attrs the panel's (an id among them)
 * @param {Child} line its first line, the summary
 * @param {Child[]} body what folds away
 */
export function foldingPanel(ctx, attrs, line, ...body) {
  const { h, table } = ctx;
  const id = String(attrs.id);
  const game = `${table && table.game_id}:${table && table.number}`;
  let fold = panels.get(id);
  if (!fold || fold.game !== game) panels.set(id, (fold = { game, asked: false, read: false, open: null }));
  const asked = Boolean(table && table.legal.length);
  if (fold.asked && !asked) fold.read = true; // decided (or the table went on without me)
  fold.asked ||= asked;
  const tap = (/** @type {Event} */ e) => {
    if (fold) fold.open = !(/** @type {HTMLDetailsElement} */ (/** @type {HTMLElement} */ (e.currentTarget).parentElement)).open;
  };
  const cls = `fold-panel ${attrs.class || ""}`.trim();
  return h("details", { ...attrs, class: cls, open: fold.open ?? !fold.read }, h("summary", { class: "fold-head", onclick: tap }, line), ...body);
}
