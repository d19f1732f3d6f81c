// @ts-check
// Who I am: the name step while this browser has no identity the server knows (a guest's
// name, or an account's sign-in, account.js), then the name in the header, which leads to the
// account page. Until then the header names nobody: signed out, the old name goes at once and
// the welcome step says why it is back (`notice`, a catalog key).

import { guest, me } from "./net.js";
import { t } from "./i18n.js";
import { h } from "./dom.js";
import { signInForm } from "./account.js";
import { shell, main, attempt } from "./shell.js";
import { invitationLines } from "./invitation.js";

/** @param {string} notice */
async function identify(notice) {
  shell.player = await me();
  if (shell.player) return;
  const invited = await invitationLines(); // an invite link: who invited me, to which game
  await new Promise((/** @type {(value?: unknown) => void} */ done) => {
    shell.redraw = () => {
      const input = h("input", { id: "name", maxlength: 40, required: true, autocomplete: "nickname" });
      const form = h(
        "form",
        { class: "card narrow", onsubmit: async (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const made = await attempt(() => guest(input.value));
          if (made) done();
        } },
        h("h1", {}, t("welcome")),
        invited && invited(),
        notice ? h("p", { role: "status", id: "signed-out", class: "signed-out" }, t(notice)) : null,
        h("label", { for: "name" }, t("your_name")),
        input,
        h("button", { type: "submit" }, invited ? t("invite.join") : t("enter")), // (it seats me: routes.js)
        h("button", { type: "button", id: "have-account", class: "quiet",
          onclick: () => main.replaceChildren(signInForm(attempt, done)) }, t("account.have_account")),
      );
      main.replaceChildren(form);
    };
    shell.redraw();
    document.getElementById("name")?.focus();
  });
  shell.redraw = null;
  shell.player = await me();
}

// The name step when there is no identity yet, then the name in the header; `notice` says why
// the step is back (account.signed_out…).
export async function signIn(notice = "") {
  if (shell.page && shell.page.live) shell.page.live.close();
  shell.page = null;
  shell.player = null; // nobody until the server says who (a route meanwhile waits for the step)
  document.getElementById("who")?.replaceChildren();
  await identify(notice);
  const player = /** @type {Me | null} */ (shell.player); // (identify() set it)
  // the name leads to the account page (yamen/web/account.js)
  const link = player && h("a", { href: "#/account", id: "who-link" }, player.name);
  document.getElementById("who")?.replaceChildren(link || "");
}
