// The shell: identity, lobby, room, seats, chat, log, scores, timers, connection banner.
// It knows no game by name: a room's table is drawn by games/<game>.js, or games/generic.js.

import { api, guest, me, Live } from "./net.js";
import { LANGS, detect, setLang, t, tOr, pick, lang, loadGame, shownName } from "./i18n.js";
import { icon } from "./icons.js";
import { tick, myDeadline } from "./clock.js";
import { attend, forget, soundButton } from "./turn.js";
import { rulesButton } from "./rules.js";
import { dealt, optionFields, readOptions, settingFields, readSettings, errorText, botName, botKind, defaultBot, optionSummary } from "./lobby.js";
import { logLines, standInNotice, awayNotice, breakBar, behindNote } from "./log.js";
import { h, keepingInputs, confirmStep } from "./dom.js";
import { playerPage, leaderboardPage } from "./player.js";
import { accountPage, signInForm } from "./account.js";
import { replayPage, replayButton } from "./replay.js";

const main = document.getElementById("main");
const banner = document.getElementById("banner");
let player = null;
let page = null; // the room page's state, or null in the lobby
// Draws the screen on show again, in the page's language: a language change redraws what is
// on screen (the welcome step stays the welcome step) and never routes anywhere.
let redraw = null;

function say(message, kind = "error") {
  banner.textContent = message;
  banner.className = kind;
  banner.hidden = !message;
}

// Runs a request; a refusal is said in the page's words (`game`: whose option names to use).
async function attempt(work, game = page && page.room && page.room.game) {
  try {
    say("");
    return await work();
  } catch (err) {
    say(err.code ? errorText(err.code, err.params, game) : t("error.unknown"));
    // no identity (the token was lost or is unknown here): back to the name step, then on
    // (a wrong account name or password is not a lost identity: the form stays)
    if (err.status === 401 && err.code !== "bad_credentials") signIn().then(route);
    return undefined;
  }
}

// ----- identity --------------------------------------------------------------------------

async function identify() {
  player = await me();
  if (player) return;
  await new Promise((done) => {
    redraw = () => {
      const input = h("input", { id: "name", maxlength: 40, required: true, autocomplete: "nickname" });
      const form = h(
        "form",
        { class: "card narrow", onsubmit: async (e) => {
          e.preventDefault();
          const made = await attempt(() => guest(input.value));
          if (made) done();
        } },
        h("h1", {}, t("welcome")),
        h("label", { for: "name" }, t("your_name")),
        input,
        h("button", { type: "submit" }, t("enter")),
        h("button", { type: "button", id: "have-account", class: "quiet",
          onclick: () => main.replaceChildren(signInForm(attempt, done)) }, t("account.have_account")),
      );
      main.replaceChildren(form);
    };
    redraw();
    document.getElementById("name").focus();
  });
  redraw = null;
  player = await me();
}

// The name step when there is no identity yet, then the name in the header.
async function signIn() {
  if (page && page.live) page.live.close();
  page = null;
  await identify();
  // the name leads to the account page (yamen/web/account.js)
  const link = player && h("a", { href: "#/account", id: "who-link" }, player.name);
  document.getElementById("who").replaceChildren(link || "");
}

async function accountChanged() {
  await signIn();
  await route();
}

// ----- lobby -------------------------------------------------------------------------------

let gamesCache = null;
async function games() {
  if (!gamesCache) {
    const list = await api("GET", "/api/games");
    await Promise.all(list.map((g) => loadGame(g.game)));
    gamesCache = list;
  }
  return gamesCache;
}

function gameTitle(name) {
  const game = (gamesCache || []).find((g) => g.game === name);
  return tOr(`${name}.title`, game ? game.title : name);
}

async function lobby() {
  const list = await games();
  const rooms = (await attempt(() => api("GET", "/api/rooms"))) || [];
  redraw = () => drawLobby(list, rooms);
  redraw();
}

function drawLobby(list, rooms) {
  const select = h("select", { id: "game" }, list.map((g) => h("option", { value: g.game }, gameTitle(g.game))));
  const optionsBox = h("div", { class: "options-holder" });
  const showOptions = () => {
    const game = list.find((g) => g.game === select.value);
    optionsBox.replaceChildren(optionFields(h, game));
    for (const row of main.querySelectorAll(".deal-pause")) row.hidden = !dealt(game);
  };
  select.addEventListener("change", showOptions);
  showOptions();
  const form = h(
    "form",
    // the server checks every value and says what is wrong in the page's words
    { class: "card", novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      const game = select.value;
      const room = await attempt(() => {
        const { settings, public: isPublic } = readSettings();
        const options = readOptions(optionsBox);
        return api("POST", "/api/rooms", { game, options, public: isPublic, settings, seat: 0 });
      }, game);
      if (room) location.hash = `#/room/${room.id}?invite=${room.invite}`;
    } },
    h("h2", {}, t("new_room")),
    h("label", { for: "game" }, t("game")),
    select,
    optionsBox,
    settingFields(h, {}, true, "", dealt(list[0])),
    h("button", { type: "submit", id: "create" }, t("create_room")),
  );
  const rows = rooms.map((r) =>
    h(
      "li",
      {},
      h("a", { href: `#/room/${r.id}` }, `${gameTitle(r.game)} · ${r.seats.filter((s) => s.player || s.bot).length}/${r.seats.length} · ${t(`status.${r.status}`)}`),
    ),
  );
  main.replaceChildren(
    h("div", { class: "lobby" }, form, h("section", { class: "card" }, h("h2", {}, t("public_rooms")), rows.length ? h("ul", { class: "rooms" }, rows) : h("p", {}, t("no_rooms")),
      h("h2", {}, t("leaderboard")), h("ul", { class: "leaderboards" }, list.map((g) => h("li", {}, h("a", { href: `#/leaderboard/${g.game}` }, gameTitle(g.game))))))),
  );
}

// The host's room setup until the first game starts: the same fields as the lobby's form,
// filled from the room, saved in one PATCH. Built again only when the room's setup changed,
// so a frame arriving meanwhile does not undo what the host is typing.
function setupEditor(room) {
  const key = JSON.stringify([room.options, room.settings, room.public, lang()]);
  if (page.setup && page.setup.key === key) return page.setup.el;
  const game = (gamesCache || []).find((g) => g.game === room.game);
  const optionsBox = optionFields(h, game, room.options, "set-opt-");
  const el = h(
    "details",
    { class: "setup", id: "room-setup", open: page.setup ? page.setup.el.open : false },
    h("summary", {}, t("room_settings")),
    h("form", { novalidate: true, onsubmit: async (e) => {
      e.preventDefault();
      const saved = await attempt(() => {
        const { settings, public: isPublic } = readSettings("set-");
        return api("PATCH", `/api/rooms/${room.id}`, { options: readOptions(optionsBox), settings, public: isPublic });
      });
      if (saved) say(t("settings_saved"), "info");
    } },
    optionsBox,
    settingFields(h, room.settings, room.public, "set-", dealt(game)),
    h("button", { type: "submit", id: "save-settings" }, t("save_settings"))),
  );
  page.setup = { key, el };
  return el;
}

// The invite link to the clipboard; where there is no clipboard (plain http on a LAN) the
// link is shown selected in a field, to copy by hand. The button says "Copied" for 2 s.
async function copyInvite(link) {
  let copied = false;
  try {
    await navigator.clipboard.writeText(link);
    copied = true;
  } catch {
    page.showLink = true;
    drawRoom();
    document.getElementById("invite-link").select();
    copied = document.execCommand("copy");
  }
  if (copied) {
    page.copiedUntil = Date.now() + 2000;
    drawRoom();
    setTimeout(drawRoom, 2100);
  }
  if (page.showLink) document.getElementById("invite-link").select(); // drawn again: select it
}

// ----- a room ------------------------------------------------------------------------------

async function roomPage(roomId, invite) {
  const info = await attempt(() => api("GET", `/api/rooms/${roomId}${invite ? `?invite=${encodeURIComponent(invite)}` : ""}`));
  if (!info) return lobby();
  await games();
  useStyle(`/games/${info.game}.css`);
  let module;
  try {
    module = (await import(`./games/${info.game}.js`)).default;
  } catch {
    module = (await import("./games/generic.js")).default;
  }
  page = { id: roomId, invite: invite || info.invite, room: info, table: null, seat: null, chat: [], log: [], module, live: null };
  const table = h("div", { id: "table", class: "table" });
  const side = h("aside", { class: "side" });
  main.replaceChildren(h("section", { class: "room" }, h("div", { id: "room-head", class: "room-head" }), h("div", { class: "layout" }, table, side)));
  redraw = drawRoom;
  page.live = new Live(roomId, page.invite, onFrame, (status) => {
    if (status === "lost") say(t("connection_lost"), "warn");
    else if (status === "open") say("");
    else if (status === "signed_out") signIn().then(route); // its error frame said why: who is here now?
  });
  drawRoom();
}

// A game's own stylesheet, if it has one (a missing file styles nothing).
function useStyle(href) {
  if (!document.querySelector(`link[href="${href}"]`)) document.head.append(h("link", { rel: "stylesheet", href }));
}

function onFrame(frame) {
  if (!page) return;
  switch (frame.type) {
    case "welcome":
      page.seat = frame.seat;
      break;
    case "state": {
      page.room = frame.room;
      page.table = frame.table;
      page.chat = frame.chat;
      page.seat = mySeat(page.room);
      // the room's log of this game, whole: a reload or a second tab loses nothing
      page.log = frame.table && frame.table.history ? logLines(frame.table.history, describe, names()) : [];
      // back after an absence: what the stand-in did meanwhile, once per point of the game
      const notice = frame.table && awayNotice(frame.table.history, page.seat, describe);
      if (notice && page.toldAway !== frame.table.seq) say(notice, "warn");
      if (frame.table) page.toldAway = frame.table.seq;
      break;
    }
    case "update": {
      if (page.table && page.table.number !== frame.table.number) page.log = []; // a new game
      page.table = frame.table;
      page.log.push(...logLines([frame], describe, names()));
      const notice = standInNotice(frame, page.seat, describe);
      if (notice) say(notice, "warn");
      break;
    }
    case "room":
      page.room = frame.room;
      page.seat = mySeat(page.room);
      break;
    case "presence":
      Object.assign(page.room.seats[frame.seat], { online: frame.online, away: frame.away });
      break;
    case "chat":
      page.chat.push(frame);
      break;
    case "error":
      say(errorText(frame.code, frame.params || {}, page.room && page.room.game), frame.code === "removed" ? "warn" : "error");
      break;
  }
  drawRoom();
}

function mySeat(room) {
  const seat = room.seats.findIndex((s) => player && s.player === player.player);
  return seat < 0 ? null : seat;
}

function describe(event) {
  const own = page.module.describe && page.module.describe(event, context());
  if (own) return own;
  const data = Object.entries(event.data).map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : v}`).join(" ");
  return `${tOr(`event.${event.kind}`, event.kind)} ${data}`;
}

function names() {
  // who left mid-game keeps their name: the results still say whose seat it was
  const base = page.room.seats.map((s, i) => (s.player ? shownName(s.name) : s.left != null ? shownName(s.left) : s.bot ? botName(page.room, i) : t("seat_n", { n: i })));
  // a name shared by several seats (two Annas) carries its seat number
  return base.map((name, i) => (base.indexOf(name) !== base.lastIndexOf(name) ? `${name} #${i}` : name));
}

function context() {
  return {
    room: page.room,
    table: page.table,
    seat: page.seat,
    names: names(),
    t,
    tOr,
    pick,
    lang: lang(),
    h,
    act: (action) => page.live.send({ type: "act", action, seq: page.table.seq }),
    chat: (text) => page.live.send({ type: "chat", text }),
    lines: page.chat,
    actText: (text) => page.live.send({ type: "act", text, seq: page.table.seq }),
    say,
  };
}

function drawRoom() {
  if (!page || !document.getElementById("table")) return;
  const { room, table } = page;
  const host = player && room.host === player.player;
  const head = document.getElementById("room-head");
  const buttons = [];
  if (host && room.status !== "playing") {
    buttons.push(h("button", { id: "start", onclick: () => attempt(() => api("POST", `/api/rooms/${room.id}/start`)) }, room.number ? t("rematch") : t("start")));
    if (room.seats.some((s) => !s.player && !s.bot)) {
      buttons.push(h("button", { class: "quiet", id: "fill-bots", onclick: () => attempt(() => api("POST", `/api/rooms/${room.id}/bots`, { bot: defaultBot(gamesCache, room.game) })) }, t("fill_bots")));
    }
  }
  if (page.seat !== null) buttons.push(h("button", { class: "quiet", id: "leave", onclick: leaveSeat }, t("leave")));
  buttons.push(...replayButton(room, page.invite)); // a finished game, step by step
  const link = `${location.origin}/#/room/${room.id}${page.invite ? `?invite=${page.invite}` : ""}`;
  head.replaceChildren(
    h("h1", {}, gameTitle(room.game)),
    h("span", { class: "status" }, t(`status.${room.status}`), room.number ? ` · ${t("game_n", { n: room.number })}` : ""),
    h("button", { class: "quiet", id: "copy-invite", onclick: () => copyInvite(link), title: link }, (page.copiedUntil || 0) > Date.now() ? t("copied") : t("copy_invite")),
    ...(page.showLink ? [h("input", { id: "invite-link", readonly: true, value: link, "aria-label": t("invite_link") })] : []),
    ...buttons,
    h("span", { class: "head-tools" }, rulesButton({ h, t, lang: lang() }, room.game, room.options), soundButton(h, t, drawRoom)),
  );
  const el = document.getElementById("table");
  if (table) page.module.render(el, context());
  else {
    const game = (gamesCache || []).find((g) => g.game === room.game);
    const summary = game ? h("p", { class: "room-options", id: "room-options" }, optionSummary(game, room.options)) : "";
    const hint = h("div", {}, h("p", { class: "hint" }, host ? t("hint_host") : t("hint_wait")), summary);
    const editor = host && room.status === "open" && !room.number ? setupEditor(room) : null;
    if (editor && el.contains(editor)) el.firstChild.replaceWith(hint);
    else el.replaceChildren(hint, ...(editor ? [editor] : []));
  }
  // my turn: legal actions offered to my seat (a countdown when the room has a turn timer)
  const playing = table && !table.result && page.seat !== null;
  myDeadline(el, playing ? (table.deadlines || {})[String(page.seat)] : null);
  attend(Boolean(playing && table.legal && table.legal.length), t("your_turn_title"));
  if (table) drawBreak(el);
  const behind = behindNote(h, room, table, page.seat); // a delayed spectator's table
  if (behind) el.prepend(behind);
  drawSide();
}

// The break between two deals: a bar over the table (yamen/web/log.js).
function drawBreak(el) {
  const bar = breakBar(context(), () => page.live.send({ type: "ready" }));
  if (bar) el.prepend(bar);
}

// Leaving during a game hands the seat to a bot for the rest of it: asked first.
async function leaveSeat() {
  const id = page.room.id;
  if (page.room.status === "playing" && !(await confirmStep(t("leave_confirm"), t("leave"), t("stay")))) return;
  await attempt(() => api("POST", `/api/rooms/${id}/leave`));
}

function drawSide() {
  const { room, table } = page;
  const host = player && room.host === player.player;
  const side = document.querySelector(".side");
  const deadlines = (table && table.result === null && table.deadlines) || {};
  const seats = room.seats.map((s, i) => {
    const label = s.player ? h("a", { class: "player-link", href: `#/player/${s.player}` }, shownName(s.name)) : (s.left != null ? t("left_seat", { name: shownName(s.left) }) : s.bot ? [icon("bot"), " ", botName(room, i), " ", h("small", { class: "bot-kind" }, botKind(s.bot))] : t("empty_seat"));
    const controls = seatControls(room, s, i, host);
    const pending = table && table.pending.includes(i);
    const left = deadlines[String(i)];
    return h(
      "li",
      { class: `${pending ? "pending" : ""} ${i === page.seat ? "mine" : ""}`, "data-seat": i },
      h("span", { class: "seat-no" }, i),
      pending ? icon("turn", t("to_act")) : null,
      h("span", { class: "seat-name" }, label, s.away ? ` (${t("away")})` : !s.online ? ` (${t("offline")})` : ""),
      h("span", { class: "score" }, (table && table.totals ? table.totals : room.scores)[i]), // the deals so far included
      left ? h("span", { class: "timer", "data-deadline": left }, "") : null,
      ...controls,
    );
  });
  const input = h("input", { id: "chat-text", maxlength: 500, placeholder: t("say_something"), "aria-label": t("chat") });
  const chat = h(
    "form",
    { class: "chat-form", onsubmit: (e) => {
      e.preventDefault();
      if (input.value.trim()) page.live.send({ type: "chat", text: input.value.trim() });
      input.value = "";
    } },
    input,
    h("button", { type: "submit" }, t("send")),
  );
  const focused = document.activeElement && document.activeElement.id === "chat-text";
  const typed = document.getElementById("chat-text")?.value || "";
  side.replaceChildren(
    h("h2", {}, t("seats"), " · ", t("scores")),
    h("ol", { class: room.seats.length > 12 ? "seats many" : "seats" }, seats),
    h("h2", {}, t("chat")),
    h("ul", { class: "chat" }, page.chat.slice(-50).map(chatLine)),
    // replaceChildren writes a null as the word "null": a spectator's missing form is left out
    ...(page.seat !== null ? [chat] : []),
    h("details", { class: "log" }, h("summary", {}, t("log")), h("ol", {}, page.log.map((line) => h("li", {}, line)))),
  );
  input.value = typed;
  if (focused) input.focus();
  tick();
}

// One chat line: who said it (a seat's name, or the speaker's own name once they left the
// table), then what they said; never a missing field shown as "null".
function chatLine(c) {
  const who = c.seat != null && page.room.seats[c.seat] ? names()[c.seat] : shownName(c.name);
  return h("li", { class: "chat-line" }, who ? h("b", {}, who, " ") : null, c.text ?? "");
}

// Before a game (or between games): sit, and for the host a bot in an empty seat, a bot's
// kind, a bot out, a person out (asked first; they keep watching).
function seatControls(room, s, i, host) {
  const controls = [];
  if (room.status === "playing") return controls;
  const seatPath = `/api/rooms/${room.id}/seats/${i}`;
  if (!s.player && !s.bot) {
    if (page.seat === null) controls.push(h("button", { class: "small", onclick: () => attempt(() => api("POST", seatPath, { invite: page.invite })) }, t("sit")));
    if (host) controls.push(h("button", { class: "small", onclick: () => attempt(() => api("PUT", `${seatPath}/bot`, { bot: defaultBot(gamesCache, room.game) })) }, t("add_bot")));
  }
  if (s.bot && host) {
    const kinds = ((gamesCache || []).find((g) => g.game === room.game) || { bots: [s.bot] }).bots;
    const change = (e) => attempt(() => api("PUT", `${seatPath}/bot`, { bot: e.target.value }));
    controls.push(h("select", { class: "small bot-choice", "aria-label": t("bot_kind"), onchange: change }, kinds.map((k) => h("option", { value: k, selected: k === s.bot }, botKind(k)))));
    controls.push(h("button", { class: "small quiet", onclick: () => attempt(() => api("DELETE", `${seatPath}/bot`)) }, t("remove_bot")));
  }
  if (s.player && host && i !== page.seat) {
    const remove = async () => {
      if (await confirmStep(t("remove_confirm", { name: shownName(s.name) }), t("remove_person"), t("cancel"))) await attempt(() => api("DELETE", seatPath));
    };
    controls.push(h("button", { class: "small quiet remove-person", onclick: remove }, t("remove_person")));
  }
  return controls;
}

setInterval(tick, 1000); // clock.js: every turn timer on the page

// ----- routing -----------------------------------------------------------------------------

async function route() {
  if (!player) return; // the name step is on screen: it routes when done
  if (page && page.live) page.live.close();
  page = null;
  redraw = null;
  forget(); // turn.js: the page's own title again
  say("");
  const match = location.hash.match(/^#\/room\/([\w-]+)(?:\?invite=([\w-]+))?/);
  const standing = location.hash.match(/^#\/(player|leaderboard|replay)\/([^?]+)(?:\?(.*))?/);
  if (match) await roomPage(match[1], match[2]);
  else if (standing) await standings(standing[1], decodeURIComponent(standing[2]), standing[3]);
  else if (location.hash === "#/account") {
    redraw = () => accountPage(main, player, attempt, accountChanged);
    redraw();
  } else await lobby();
}

// A player's page, a game's leaderboard (player.js) or a replay (replay.js), drawn again on a language change.
async function standings(kind, id, query) {
  await games();
  const draw = await attempt(() => ({ player: playerPage, leaderboard: leaderboardPage, replay: replayPage })[kind](id, gameTitle, query));
  redraw = () => main.replaceChildren(draw ? draw() : "");
  redraw();
}

async function start() {
  const chooser = document.getElementById("lang");
  for (const [code, label] of Object.entries(LANGS)) chooser.append(h("option", { value: code }, label));
  const chosen = detect();
  chooser.value = chosen;
  await setLang(chosen, false);
  chooser.addEventListener("change", async () => {
    await setLang(chooser.value);
    if (redraw) keepingInputs(main, redraw);
  });
  await signIn();
  window.addEventListener("hashchange", route);
  await route();
}

start();
