// @ts-check
// The page's building blocks, with no state of their own: an element from a tag, its
// attributes and children; a redraw that keeps what was typed; a yes/no question.

/** @type {Hyperscript} */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) el.addEventListener(key.slice(2), /** @type {EventListener} */ (value));
    else if (value === true) el.setAttribute(key, "");
    else if (value !== false && value != null) el.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child != null) el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

// Redraws the screen keeping what was typed: each field with an id gets its value back, in
// page order, so a select that shapes the fields after it (a game's options) comes first.
/**
 * @param {HTMLElement} main
 * @param {() => void} draw
 */
export function keepingInputs(main, draw) {
  const inputs = [.../** @type {NodeListOf<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>} */ (main.querySelectorAll("input[id], select[id], textarea[id]"))];
  const fields = inputs
    .filter((el) => el.type !== "file")
    .map((el) => ({ id: el.id, value: el.value, checked: el instanceof HTMLInputElement && el.checked }));
  const focused = document.activeElement && main.contains(document.activeElement) ? document.activeElement.id : "";
  draw();
  for (const { id, value, checked } of fields) {
    const el = /** @type {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null} */ (document.getElementById(id));
    if (!el || !main.contains(el)) continue;
    if (el instanceof HTMLInputElement && (el.type === "checkbox" || el.type === "radio")) el.checked = checked;
    else if (el.value !== value) {
      el.value = value;
      if (el.tagName === "SELECT") el.dispatchEvent(new Event("change"));
    }
  }
  if (focused) document.getElementById(focused)?.focus();
}

// A question in the page's words, answered in the page (Escape says no); true for yes.
/**
 * @param {string} message
 * @param {string} yes
 * @param {string} no
 * @returns {Promise<boolean>}
 */
export function confirmStep(message, yes, no) {
  return new Promise((done) => {
    const dialog = h("dialog", { class: "confirm", "aria-label": message });
    const answer = (/** @type {boolean} */ said) => {
      dialog.close();
      dialog.remove();
      done(said);
    };
    const stay = h("button", { type: "button", class: "quiet", id: "confirm-no", onclick: () => answer(false) }, no);
    dialog.append(h("p", {}, message), h("div", { class: "confirm-buttons" }, stay, h("button", { type: "button", id: "confirm-yes", onclick: () => answer(true) }, yes)));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      answer(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    stay.focus();
  });
}
