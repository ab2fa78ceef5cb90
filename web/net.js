// The socket: one WebSocket to this page's server, `hello` with the saved token, requests with
// ids and their replies, and reconnection. After every (re)connection `onUp(welcome)` runs
// before queued requests go out, so the room can `resume` from its last seq (or a spectator
// re-`spectate`) first.

const TOKEN = 'orion.token';

export class Net {
  constructor(name) {
    this.name = name;
    this.token = localStorage.getItem(TOKEN) || null;
    this.nextId = 1;
    this.waiting = new Map(); // request id -> resolve
    this.queue = []; // requests sent while down
    this.up = false;
    this.listeners = new Set();
    this.retry = 0;
    this.onUp = null;
    this.onDown = null;
  }

  /** `fn(message, arrivedAt)` for every message from the server. */
  listen(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; this.hello(); };
    ws.onmessage = (m) => {
      const at = performance.now();
      let msg;
      try { msg = JSON.parse(m.data); } catch { return; }
      this.receive(msg, at);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.up = false;
      if (this.onDown) this.onDown();
      const wait = Math.min(4000, 200 * 2 ** this.retry++);
      setTimeout(() => this.connect(), wait);
    };
  }

  hello() {
    const msg = { t: 'hello', id: 'hello', name: this.name, version: 1 };
    if (this.token) msg.token = this.token;
    this.ws.send(JSON.stringify(msg));
  }

  receive(msg, at) {
    if (msg.re === 'hello') {
      if (msg.t === 'welcome') {
        this.token = msg.token;
        this.player = msg.player;
        localStorage.setItem(TOKEN, msg.token);
        this.up = true;
        if (this.onUp) this.onUp(msg);
        const queued = this.queue;
        this.queue = [];
        for (const q of queued) this.ws.send(q);
      } else if (this.token && msg.code === 'not_found') {
        // The server forgot us (a new store): a new identity.
        this.token = null;
        localStorage.removeItem(TOKEN);
        this.hello();
      } else {
        this.emit(msg, at);
      }
      return;
    }
    // `register` and `login` answer with a `welcome` too: from then on this is the account's
    // player, whose token the next connection says hello with.
    if (msg.t === 'welcome') {
      this.token = msg.token;
      this.player = msg.player;
      this.name = msg.name;
      localStorage.setItem(TOKEN, msg.token);
    }
    if (msg.re !== undefined && this.waiting.has(msg.re)) {
      const resolve = this.waiting.get(msg.re);
      this.waiting.delete(msg.re);
      resolve(msg);
    }
    this.emit(msg, at);
  }

  emit(msg, at) { for (const fn of this.listeners) fn(msg, at); }

  /** Sends a request (queued until the connection is up); returns its id. */
  send(req) {
    const id = this.nextId++;
    const text = JSON.stringify({ ...req, id });
    if (this.up && this.ws.readyState === WebSocket.OPEN) this.ws.send(text);
    else this.queue.push(text);
    return id;
  }

  /** Sends at once, ahead of the queue (used by `onUp` to resume). */
  sendNow(req) {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ ...req, id }));
    return id;
  }

  /** Sends a request and resolves with its direct reply (which may be an `error`). */
  request(req) {
    return new Promise((resolve) => {
      const id = this.send(req);
      this.lastId = id;
      this.waiting.set(id, resolve);
    });
  }
}
