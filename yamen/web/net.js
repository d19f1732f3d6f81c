// The server, from the browser: the HTTP lobby and one live WebSocket connection.

const TOKEN = "yamen.token";
const SIGNED_OUT = 4001; // a live connection's close code once its token is revoked (yamen/server/revocation.py)

export function token() {
  return localStorage.getItem(TOKEN);
}

// An account's session (yamen/web/account.js) takes the place of the guest's token.
export function setToken(value) {
  localStorage.setItem(TOKEN, value);
}

export function forgetToken() {
  localStorage.removeItem(TOKEN);
}

export class ApiError extends Error {
  constructor(status, code, message, params = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.params = params; // the message's variable parts: the page words it from the code
  }
}

export async function api(method, path, body) {
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

export async function guest(name) {
  const made = await api("POST", "/api/guests", { name });
  localStorage.setItem(TOKEN, made.token);
  return made;
}

export async function me() {
  if (!token()) return null;
  try {
    return await api("GET", "/api/me");
  } catch (err) {
    if (err.status === 401) localStorage.removeItem(TOKEN);
    return null;
  }
}

// One room's live connection; reconnects with backoff and resynchronizes (the server sends
// the whole table after every hello). `on(frame)` gets every frame, `status(s)` the state of
// the connection: "connecting", "open", "lost", or "signed_out" (closed for good: its token was
// revoked, here or on another device; the server's close code SIGNED_OUT).
export class Live {
  constructor(room, invite, on, status) {
    this.room = room;
    this.invite = invite;
    this.on = on;
    this.status = status;
    this.closed = false;
    this.tries = 0;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${this.room}`);
    this.ws = ws;
    this.status("connecting");
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", v: 1, token: token(), invite: this.invite }));
    };
    ws.onmessage = (msg) => {
      const frame = JSON.parse(msg.data);
      if (frame.type === "welcome") {
        this.tries = 0;
        this.status("open");
      }
      this.on(frame);
    };
    ws.onclose = (event) => {
      if (this.closed) return;
      if (event.code === SIGNED_OUT) {
        this.closed = true; // connecting again with the same token would be refused
        this.status("signed_out");
        return;
      }
      this.status("lost");
      const wait = Math.min(10000, 500 * 2 ** this.tries++);
      setTimeout(() => !this.closed && this.connect(), wait);
    };
  }

  send(frame) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  close() {
    this.closed = true;
    this.ws.close();
  }
}
