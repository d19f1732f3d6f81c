// @ts-check
// The server, from the browser: the HTTP lobby and one live WebSocket connection.

const TOKEN = "yamen.token";
const SIGNED_OUT = 4001; // a live connection's close code once its token is revoked (yamen/server/revocation.py)
const BEAT_SECONDS = 15; // the server's heartbeat until its first beat says otherwise (yamen/server/beats.py)

export function token() {
  return localStorage.getItem(TOKEN);
}

// An account's session (yamen/web/account.js) takes the place of the guest's token.
/** @param {string} value */
export function setToken(value) {
  localStorage.setItem(TOKEN, value);
}

export function forgetToken() {
  localStorage.removeItem(TOKEN);
}

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message
   * @param {{ [name: string]: unknown }} [params]
   */
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params; // the message's variable parts: the page words it from the code
  }
}

// What the server answers is its own (docs/server.md): each caller reads the fields it asked for.
/**
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @returns {Promise<any>}
 */
export async function api(method, path, body) {
  /** @type {{ [name: string]: string }} */
  const headers = { "content-type": "application/json" };
  if (token()) headers.authorization = `Bearer ${token()}`;
  const answer = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = answer.status === 204 ? null : await answer.json().catch(() => null);
  if (!answer.ok) {
    const detail = (data && data.detail) || {};
    throw new ApiError(answer.status, detail.code || "invalid", detail.message || answer.statusText, detail.params || {});
  }
  return data;
}

/** @param {string} name */
export async function guest(name) {
  const made = await api("POST", "/api/guests", { name });
  localStorage.setItem(TOKEN, made.token);
  return made;
}

/** @returns {Promise<Me | null>} */
export async function me() {
  if (!token()) return null;
  try {
    return await api("GET", "/api/me");
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) localStorage.removeItem(TOKEN);
    return null;
  }
}

// One room's live connection; reconnects with backoff and resynchronizes (the server sends
// the whole table after every hello). `on(frame)` gets every frame, `status(s)` the state of
// the connection: "connecting", "open", "lost", "signed_out" (closed for good: its token was
// revoked, here or on another device; the server's close code SIGNED_OUT), "quiet" (nothing
// heard for too long: asking for the table again), "behind" (an update never came: asking for
// the table again) or "caught_up" (the table asked for arrived).
//
// Silence: the server sends something at least every `every` seconds (a `beat` frame when
// nothing else: it says its period), so a connection that hears nothing for twice that asks for
// the table (`sync`), and one whose ask is not answered as long connects again.
export class Live {
  /**
   * @param {string} room
   * @param {string | null | undefined} invite
   * @param {(frame: Frame) => void} on
   * @param {(status: string) => void} status
   */
  constructor(room, invite, on, status) {
    this.room = room;
    this.invite = invite;
    this.on = on;
    this.status = status;
    this.closed = false;
    this.tries = 0;
    this.every = BEAT_SECONDS; // the server's heartbeat, as its beats say
    this.heard = Date.now(); // when a frame last arrived
    /** @type {number | null} */
    this.asked = null; // when the table was asked for (a resync), until it arrives
    this.ws = this.connect();
    this.watch = setInterval(() => this.check(), 250);
  }

  /** @returns {WebSocket} the connection opened, now this.ws */
  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.room}`);
    this.ws = ws;
    this.heard = Date.now();
    this.asked = null;
    this.status("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", v: 1, token: token(), invite: this.invite }));
    };
    ws.onmessage = (msg) => {
      /** @type {Frame} */
      const frame = JSON.parse(msg.data);
      this.heard = Date.now();
      if (frame.type === "welcome") {
        this.tries = 0;
        this.status("open");
      } else if (frame.type === "beat") {
        this.every = frame.every;
      } else if (frame.type === "state" && this.asked !== null) {
        this.asked = null;
        this.status("caught_up");
      }
      this.on(frame);
    };
    ws.onclose = (event) => {
      if (this.closed || ws !== this.ws) return; // (a connection given up on: one replaced it)
      if (event.code === SIGNED_OUT) {
        this.close(); // connecting again with the same token would be refused
        this.status("signed_out");
        return;
      }
      this.status("lost");
      const wait = Math.min(10000, 500 * 2 ** this.tries++);
      setTimeout(() => !this.closed && this.ws === ws && this.connect(), wait);
    };
    return ws;
  }

  // Silence: twice the heartbeat with nothing heard asks for the table; as long again with no
  // answer connects again.
  check() {
    if (this.closed || this.ws.readyState !== WebSocket.OPEN) return;
    const now = Date.now();
    const bound = 2 * this.every * 1000;
    if (this.asked !== null && now - this.asked > bound) this.reconnect();
    else if (this.asked === null && now - this.heard > bound) this.resync("quiet");
  }

  // Ask for the whole table again (`why`: "quiet" or "behind", said through status).
  /** @param {string} why */
  resync(why) {
    if (this.asked !== null) return; // asked already
    this.asked = Date.now();
    this.send({ type: "sync" });
    this.status(why);
  }

  // Give this connection up and open another at once (its close may never come).
  reconnect() {
    const old = this.ws;
    old.onmessage = null;
    this.status("lost");
    this.connect();
    try {
      old.close();
    } catch {
      // (closing a broken connection may fail: it is given up all the same)
    }
  }

  /** @param {Outgoing} frame */
  send(frame) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  close() {
    this.closed = true;
    clearInterval(this.watch);
    this.ws.close();
  }
}

// Whether a frame shows that this page missed an update: a `beat` ahead of the table, or an
// `update` past the next step (both carry the game's number and its action count, seq).
/**
 * @param {Table | null} table
 * @param {BeatFrame | UpdateFrame} frame
 */
export function missed(table, frame) {
  const shown = frame.type === "beat" ? frame : frame.table;
  const number = table ? table.number : 0;
  const seq = table ? table.seq : 0;
  if (shown.number < number) return false; // older than the table: nothing missed
  if (frame.type === "beat") return shown.number > number || shown.seq > seq;
  if (shown.number > number) return shown.number > number + 1 || shown.seq > 0; // a new game starts at 0
  return shown.seq > seq + 1;
}

// An update's table whole: the view's lists it sent by their new items (`appended`: key → how
// many items of the page's own list come first) joined to the page's table; null when they
// cannot be, the page's table not being this game's at this step or the one before (then the
// state is asked for: docs/protocol.md).
/**
 * @param {Table | null} table
 * @param {Table} shown
 * @returns {Table | null}
 */
export function joined(table, shown) {
  const appended = shown.appended;
  if (!appended) return shown;
  if (!table || table.number !== shown.number || ![0, 1].includes(shown.seq - table.seq)) return null;
  const view = { ...shown.view };
  for (const [key, kept] of Object.entries(appended)) {
    const mine = /** @type {unknown[]} */ (table.view[key]);
    view[key] = mine.slice(0, kept).concat(/** @type {unknown[]} */ (view[key]));
  }
  return { ...shown, view };
}

// Whether an update is one this page has had already (or an older one): its table is not the
// page's next.
/**
 * @param {Table | null} table
 * @param {UpdateFrame} frame
 */
export function stale(table, frame) {
  if (!table || frame.table.number !== table.number) return table !== null && frame.table.number < table.number;
  return frame.table.seq < table.seq || (frame.table.seq === table.seq && frame.events.length > 0);
}
