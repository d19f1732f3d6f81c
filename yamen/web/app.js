// @ts-check
// The shell's entry (index.html loads it): the language chooser, the name step, then the
// screen the address names (routes.js). The shell knows no game by name: a room's table is
// drawn by games/<game>.js, or games/generic.js (room.js).

import { LANGS, detect, setLang } from "./i18n.js";
import { tick } from "./clock.js";
import { h, keepingInputs } from "./dom.js";
import { signIn } from "./identity.js";
import { route } from "./routes.js";
import { shell, main, onIdentityLost } from "./shell.js";
import { startFriends } from "./friends.js";
import { startInvites } from "./invites.js";
import { sayInvalidInPageWords } from "./validity.js";

// a request refused for want of an identity: the name step again, then on
onIdentityLost(() => signIn().then(route));

setInterval(tick, 1000); // clock.js: every turn timer on the page
sayInvalidInPageWords(); // a form's own checks said in the page's language, not the browser's

async function start() {
  const chooser = /** @type {HTMLSelectElement} */ (document.getElementById("lang")); // (index.html has it)
  for (const [code, label] of Object.entries(LANGS)) chooser.append(h("option", { value: code }, label));
  const chosen = detect();
  chooser.value = chosen;
  await setLang(chosen, false);
  chooser.addEventListener("change", async () => {
    await setLang(chooser.value);
    if (shell.redraw) keepingInputs(main, shell.redraw);
  });
  await signIn();
  window.addEventListener("hashchange", route);
  startFriends(); // the header's friends list, and invites from friends on every screen
  startInvites();
  await route();
}

start();
