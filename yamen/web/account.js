// @ts-check
// Accounts in the browser: a guest claims a name and a password (and keeps their games), signs
// in on another device, signs out here or everywhere, changes the password, deletes it; and the
// links to my games and my player page, first. The calls: docs/server.md, Accounts.
import { api, setToken, forgetToken } from "./net.js";
import { t } from "./i18n.js";
import { h, confirmStep } from "./dom.js";

// A name and a password; `id` keeps two forms on one page apart.
/** @typedef {import("./shell.js").Attempt} Attempt */

/**
 * @param {string} id
 * @param {boolean} fresh
 */
function credentials(id, fresh) {
  const name = h("input", { id: `${id}-name`, maxlength: 40, required: true, autocomplete: "username" });
  const password = h("input", {
    id: `${id}-password`, type: "password", minlength: 8, maxlength: 256, required: true,
    autocomplete: fresh ? "new-password" : "current-password",
  });
  const fields = [
    h("label", { for: name.id }, t("account.name")), name,
    h("label", { for: password.id }, t("account.password")), password,
  ];
  return { name, password, fields };
}

// Signing in: the session's token becomes this browser's, then `done()`.
/**
 * @param {Attempt} attempt
 * @param {() => void} done
 * @param {string | null} [hint]
 */
export function signInForm(attempt, done, hint = null) {
  const c = credentials("sign-in", false);
  const submit = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const body = { name: c.name.value, password: c.password.value };
    const got = await attempt(() => api("POST", "/api/account/sessions", body));
    if (!got) return;
    setToken(got.token);
    done();
  };
  return h(
    "form",
    { class: "card narrow", id: "sign-in", onsubmit: submit },
    h("h2", {}, t("account.sign_in")),
    hint ? h("p", {}, hint) : null,
    ...c.fields,
    h("button", { type: "submit" }, t("account.sign_in")),
  );
}

// The account page (#/account). A guest claims an account (the token stays, so does the
// player) or signs in to one; an account's player signs out here or everywhere (the token is
// forgotten: the welcome step follows, saying so), changes the password or deletes the account.
// `changed(notice)` once the identity changed (`notice`: a catalog key the welcome step says).
/**
 * @param {HTMLElement} main
 * @param {Me} player
 * @param {Attempt} attempt
 * @param {(notice?: string) => void} changed
 */
export function accountPage(main, player, attempt, changed) {
  const mine = myLinks(player);
  if (!player.account) {
    const c = credentials("claim", true);
    const submit = async (/** @type {SubmitEvent} */ e) => {
      e.preventDefault();
      const body = { name: c.name.value, password: c.password.value };
      if (await attempt(() => api("POST", "/api/account", body))) changed();
    };
    const claim = h(
      "form",
      { class: "card narrow", id: "claim", onsubmit: submit },
      h("h1", {}, t("account.claim")),
      h("p", {}, t("account.claim_hint")),
      ...c.fields,
      h("button", { type: "submit" }, t("account.claim")),
    );
    main.replaceChildren(mine, claim, signInForm(attempt, changed, t("account.sign_in_hint")));
    return;
  }
  const out = (/** @type {string} */ path) => async () => {
    if ((await attempt(() => api("DELETE", path))) === undefined) return; // refused: said
    forgetToken();
    location.hash = "#/";
    changed("account.signed_out");
  };
  main.replaceChildren(
    mine,
    h(
      "section",
      { class: "card narrow", id: "account" },
      h("h1", {}, t("account.title")),
      h("p", {}, t("account.signed_in_as", { account: player.account })),
      h("button", { type: "button", id: "sign-out", onclick: out("/api/account/sessions/current") }, t("account.sign_out")),
      h("button", { type: "button", id: "sign-out-all", class: "quiet", onclick: out("/api/account/sessions") }, t("account.sign_out_all")),
    ),
    passwordForm(attempt),
    deleteForm(attempt, changed),
  );
}

// What is mine, first on the page, whether a guest or an account's: my finished games
// (#/games, mygames.js) and my player page.
/** @param {Me} player */
function myLinks(player) {
  return h(
    "nav",
    { class: "card narrow account-links", "aria-label": t("my_games") },
    h("a", { class: "button", id: "my-games-link", href: "#/games" }, t("my_games")),
    h("a", { class: "button quiet", id: "my-page-link", href: `#/player/${encodeURIComponent(player.player)}` }, t("account.my_page")),
  );
}

/**
 * @param {string} id
 * @param {boolean} fresh
 */
function passwordField(id, fresh) {
  return h("input", {
    id, type: "password", maxlength: 256, required: true, minlength: fresh ? 8 : false,
    autocomplete: fresh ? "new-password" : "current-password",
  });
}

// A new password, given the old one: the server revokes every other session, this one stays.
/** @param {Attempt} attempt */
function passwordForm(attempt) {
  const old = passwordField("old-password", false);
  const fresh = passwordField("new-password", true);
  const done = h("p", { role: "status", id: "password-changed" });
  const submit = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    const body = { old: old.value, new: fresh.value };
    if ((await attempt(() => api("PUT", "/api/account/password", body))) === undefined) return;
    old.value = fresh.value = "";
    done.textContent = t("account.password_changed");
  };
  return h(
    "form",
    { class: "card narrow", id: "change-password", onsubmit: submit },
    h("h2", {}, t("account.change_password")),
    h("label", { for: old.id }, t("account.old_password")), old,
    h("label", { for: fresh.id }, t("account.new_password")), fresh,
    h("button", { type: "submit" }, t("account.change_password")),
    done,
  );
}

// Deleting the account, given its password and asked once more: the games stay, anonymous.
/**
 * @param {Attempt} attempt
 * @param {(notice?: string) => void} changed
 */
function deleteForm(attempt, changed) {
  const password = passwordField("delete-password", false);
  const submit = async (/** @type {SubmitEvent} */ e) => {
    e.preventDefault();
    if (!(await confirmStep(t("account.delete_confirm"), t("account.delete"), t("account.keep")))) return;
    const body = { password: password.value };
    if ((await attempt(() => api("DELETE", "/api/account", body))) === undefined) return;
    forgetToken();
    location.hash = "#/";
    changed("account.deleted");
  };
  return h(
    "form",
    { class: "card narrow", id: "delete-account", onsubmit: submit },
    h("h2", {}, t("account.delete")),
    h("p", {}, t("account.delete_hint")),
    h("label", { for: password.id }, t("account.password")), password,
    h("button", { type: "submit", class: "quiet" }, t("account.delete")),
  );
}
