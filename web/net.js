// The socket: one WebSocket to this page's server, `hello` with the saved token, requests with
// ids and their replies, and reconnection (at once after a close 1012, a restarting node). After every (re)connection `onUp(welcome)` runs
// before queued requests go out, so the room can `resume` from its last seq (or a spectator
// re-`spectate`) first. A name that is claimed by an account is not retried: `onClaimed(error)`
// asks the player to log in (`login`, which needs no hello) or to choose another name.

const TOKEN = 'orion.token';
/** The close code of a node that stops after handing its rooms to others (Service Restart). */
const RESTART = 1012;

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
    this.onClaimed = null;
    this.claimed = null; // the refusal of a hello whose name is claimed, until a log-in
    this.account = false; // the player is a claimed account's (its welcome said so)
  }

  /** `fn(message, arrivedAt)` for every message from the server. */
  listen(fn) { this.listeners.add(fn); return () => this.listeners.delete(fn); }

  connect() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    this.ws = ws;
    ws.onopen = () => { this.retry = 0; if (!this.claimed) this.hello(); };
    ws.onmessage = (m) => {
      const at = performance.now();
      let msg;
      try { msg = JSON.parse(m.data); } catch { return; }
      this.receive(msg, at);
    };
    ws.onclose = (ev) => {
      if (this.ws !== ws) return;
      this.up = false;
      if (this.onDown) this.onDown();
      // 1012: the server is restarting and its rooms already run on another node of the
      // cluster: reconnect at once (behind the site's address, another node answers) and
      // resume. Anything else: back off.
      const wait = ev.code === RESTART ? 0 : Math.min(4000, 200 * 2 ** this.retry++);
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
        this.account = !!msg.account;
        localStorage.setItem(TOKEN, msg.token);
        this.becameUp(msg);
      } else if (msg.code === 'bad_request' && / is claimed/.test(msg.message || '')) {
        // Saying hello again would be refused again: the player logs in or renames.
        this.claimed = msg;
        if (this.onClaimed) this.onClaimed(msg);
        else this.emit(msg, at);
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
      this.account = !!msg.account;
      localStorage.setItem(TOKEN, msg.token);
      if (!this.up) this.becameUp(msg);
    }
    if (msg.re !== undefined && this.waiting.has(msg.re)) {
      const resolve = this.waiting.get(msg.re);
      this.waiting.delete(msg.re);
      resolve(msg);
    }
    this.emit(msg, at);
  }

  /** The connection speaks for a player (a hello's or a log-in's `welcome`). */
  becameUp(welcome) {
    this.claimed = null;
    this.up = true;
    if (this.onUp) this.onUp(welcome);
    const queued = this.queue;
    this.queue = [];
    for (const q of queued) this.ws.send(q);
  }

  /** Logs in: at once when the socket is open (a claimed name's page has said no hello),
   *  else once it is up. Resolves with the reply (`welcome` or `error`). */
  login(name, password) {
    const req = { t: 'login', name, password, version: 1 };
    if (this.up || !this.ws || this.ws.readyState !== WebSocket.OPEN) return this.request(req);
    return new Promise((resolve) => {
      const id = this.sendNow(req);
      this.waiting.set(id, resolve);
    });
  }

  /** Forgets this device's token and name: the next page load is a new guest. */
  forget() {
    this.token = null;
    this.account = false;
    localStorage.removeItem(TOKEN);
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
