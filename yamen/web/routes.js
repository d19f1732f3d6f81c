// @ts-check
// The screens by the address's hash: #/room/<id>[?invite=], #/player/<id>,
// #/leaderboard/<game>, #/replay/<game_id>[?…], #/game/<game_id>[?invite=], #/account,
// #/games (my games), else the lobby. Leaving a screen closes its room's connection and clears
// its banner and turn title.

import { forget } from "./turn.js";
import { playerPage, leaderboardPage } from "./player.js";
import { accountPage } from "./account.js";
import { replayPage } from "./replay.js";
import { gamePage } from "./gamepage.js";
import { myGamesPage } from "./mygames.js";
import { games, gameTitle } from "./gamelist.js";
import { lobby } from "./home.js";
import { roomPage } from "./room.js";
import { signIn } from "./identity.js";
import { shell, main, say, attempt } from "./shell.js";
import { acceptInvitation } from "./invitation.js";

export async function route() {
  if (!shell.player) return; // the name step is on screen: it routes when done
  shell.routed += 1;
  if (shell.page && shell.page.live) shell.page.live.close();
  shell.page = null;
  shell.redraw = null;
  forget(); // turn.js: the page's own title again
  say("");
  const match = location.hash.match(/^#\/room\/([\w-]+)(?:\?invite=([\w-]+))?/);
  const standing = location.hash.match(/^#\/(player|leaderboard|replay|game)\/([^?]+)(?:\?(.*))?/);
  if (match) await acceptInvitation().then(() => roomPage(match[1], match[2])); // (an invite link seats me)
  else if (standing) await standings(/** @type {Standing} */ (standing[1]), decodeURIComponent(standing[2]), standing[3]);
  else if (location.hash === "#/games") await standings("games", "", undefined);
  else if (location.hash === "#/account") {
    shell.redraw = () => accountPage(main, /** @type {Me} */ (shell.player), attempt, accountChanged);
    shell.redraw();
  } else await lobby();
}

// Signed in, out or as another: the header's name again (the name step first when signed
// out, saying so: `notice`), then the screen again.
/** @param {string} [notice] */
async function accountChanged(notice) {
  await signIn(notice);
  await route();
}

// A player's page, a game's leaderboard (player.js), a replay (replay.js), a finished game's
// page (gamepage.js) or my games (mygames.js), drawn again on a language change.
/** @typedef {"player" | "leaderboard" | "replay" | "game" | "games"} Standing */
/** @type {{ [kind in Standing]: (id: string, query: string | undefined) => Promise<() => Node> }} */
const SCREENS = {
  player: (id) => playerPage(id, gameTitle),
  leaderboard: (id) => leaderboardPage(id, gameTitle),
  replay: (id, query) => replayPage(id, gameTitle, query),
  game: (id, query) => gamePage(id, gameTitle, query),
  games: () => myGamesPage(/** @type {Me} */ (shell.player), gameTitle),
};

/**
 * @param {Standing} kind
 * @param {string} id
 * @param {string | undefined} query
 */
async function standings(kind, id, query) {
  const routed = shell.routed;
  await games();
  const draw = await attempt(() => SCREENS[kind](id, query));
  if (shell.routed !== routed) return; // another screen was asked for meanwhile
  shell.redraw = () => main.replaceChildren(draw ? draw() : "");
  shell.redraw();
}
