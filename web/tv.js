// The front door's live board (lichess's TV): the most-watched game in progress, spectated
// and animated click by click as any spectator sees it, with the game's own board module; when
// none is on, the latest finished game from the lobby, replayed from its stored history frame
// by frame, again and again; with neither, the server's demonstration (`demo` in the
// catalogue: a puzzle solved on the booklet's line) click by click. The board gets a watcher
// in place of a room: it sends nothing. The live board watches quietly (`spectate` with
// `quiet`: every visitor of the front door sees it, and counting them would make its game look
// watched by all of them, and choose it again), and stops watching (`unspectate`, which never
// touches a seat the visitor holds there) when it switches rooms or the front door closes.

import { boardOf } from './boards/index.js';
import { demo, gameName, isPuzzle, seatColour, systemOf } from './catalogue.js';
import { h } from './dom.js';

// A replayed frame stays this long (ms) before the next: slow enough to follow.
const DEMO_STEP = 900;

/** What a board module needs of a room, for a page that only watches. */
class Watcher {
  constructor() {
    this.s = null;
    this.seat = null;
    this.replaying = false;
    this.watchOnly = true; // the board adds no keys line or turn buttons
    this.hooks = {};
    this.hints = { seq: -1, sets: {} };
    this.el = { die: h('span'), note: h('span') };
  }

  act() {}
  sendMove() {}
  note() {}
  render() {}
  hint() { return []; }
  hintsPending() { return false; }
  afterHints() {}
  myColour() { return null; }
  isMyTurn() { return false; }
  colourOf(seat) {
    const s = this.s;
    return (s && s.colours[seat]) || (s ? seatColour(s.game, seat, s.options.players) : '');
  }
}

export class Tv {
  constructor(net) {
    this.net = net;
    this.room = null; // the room shown
    this.live = false; // spectating it (else replaying its history)
    this.seq = 0;
    this.watcher = new Watcher();
    this.caption = h('p', { id: 'tv-caption', class: 'tv-caption' }, 'Looking for a game to show\u2026');
    // Shown, not operated: out of the tab order and the accessibility tree (the caption says
    // what it is).
    this.host = h('div', { class: 'board-host tv-board', id: 'tv-board', inert: true });
    this.link = h('a', { id: 'tv-link', 'data-link': '', href: '/' }, '');
    this.el = h('figure', { class: 'tv', id: 'tv' }, this.host, h('figcaption', {}, this.caption, this.link));
    this.off = net.listen((m, at) => this.message(m, at));
    this.timer = null;
    this.hooks = window.__orion || (window.__orion = {});
  }

  close() { this.stopWatching(); this.off(); clearTimeout(this.timer); }

  /** Stops watching the live room shown, if one is. */
  stopWatching() {
    if (this.live && this.room) this.net.send({ t: 'unspectate', room: this.room });
    this.live = false;
  }

  /** The lobby's rooms: shows the most-watched game in progress, else the latest finished. */
  choose(rooms) {
    if (this.live && this.room && rooms.some((r) => r.room === this.room && r.status === 'playing')) return;
    const playing = rooms.filter((r) => r.status === 'playing' && !isPuzzle(r.game));
    playing.sort((a, b) => (b.spectators || 0) - (a.spectators || 0));
    const best = playing[0];
    if (best) {
      if (best.room === this.room && this.live) return;
      this.show(best, true);
      return;
    }
    if (this.room && !this.live) return; // a replay is on
    const finished = rooms.filter((r) => r.status === 'finished');
    if (finished.length) this.show(finished[finished.length - 1], false);
    else if (!this.room) this.demonstrate();
  }

  show(r, live) {
    clearTimeout(this.timer);
    this.stopWatching();
    this.demoOn = false;
    this.link.setAttribute('data-link', '');
    this.room = r.room;
    this.live = live;
    this.seq = 0;
    this.game = r.game;
    this.names = Object.values(r.seats || {}).filter(Boolean);
    this.history = [];
    this.caption.textContent = `${live ? 'Live' : 'Replay'}: ${gameName(r.game)}${this.names.length ? ` \u2014 ${this.names.join(' vs ')}` : ''}`;
    this.link.textContent = live ? 'watch' : 'see the record';
    this.link.setAttribute('href', live ? `/r/${r.room}` : `/g/${r.room}`);
    this.hooks.tv = { room: r.room, live };
    if (live) this.net.send({ t: 'spectate', room: r.room, quiet: true });
    else this.net.send({ t: 'history', room: r.room });
  }

  /** The catalogue's demonstration, click by click, again and again. */
  demonstrate() {
    const d = demo();
    if (!d || this.demoOn) {
      if (!d) this.caption.textContent = 'No game on right now: start one and it shows here.';
      return;
    }
    this.useBoard(d.game);
    if (!this.board.clicked) return;
    this.demoOn = true;
    this.room = null;
    this.live = false;
    this.caption.textContent = `Demonstration: ${gameName(d.game)} solved in ${d.clicks.length} clicks`;
    this.link.textContent = 'try it';
    this.link.removeAttribute('data-link');
    this.link.setAttribute('href', '#puzzles-title');
    // Each frame: the click that led to it and the position after it.
    let position = d.start;
    this.frames = [{ position }, ...d.clicks.map((click) => {
      position = this.board.clicked(position, click);
      return { kind: 'click', click, position };
    })];
    this.at = 0;
    this.hooks.tv = { demo: d.game };
    this.demo();
  }

  useBoard(game) {
    const system = systemOf(game);
    if (this.board && this.system === system) return;
    this.system = system;
    this.host.replaceChildren();
    this.host.className = `board-host tv-board ${system}`;
    this.board = new (boardOf(system))(this.host, this.watcher);
  }

  fresh(m) {
    const s = {
      game: m.game, options: m.options || {}, status: m.status, seats: { ...(m.seats || {}) }, spectators: m.spectators || 0,
      turn: { ...(m.turn || {}) }, scores: { ...(m.scores || {}) }, result: m.result || null,
      claims: [], secrets: {}, eligible: [], roll: null, turnAt: Date.now(), colours: {}, out: [...(m.out || [])], draw: m.draw || null,
    };
    for (const [k, o] of Object.entries(s.seats)) if (o && o.colour) s.colours[k] = o.colour;
    return s;
  }

  message(m, at) {
    if (m.room !== this.room) return;
    if (this.live && m.t === 'snapshot') {
      this.seq = m.seq;
      this.watcher.s = this.fresh(m);
      this.useBoard(m.game);
      this.board.set(m.position);
      this.board.markLast(null);
      this.hooks.tvSeq = this.seq;
    } else if (this.live && m.t === 'event' && this.watcher.s) {
      if (m.seq !== this.seq + 1) { if (m.seq > this.seq) this.net.send({ t: 'spectate', room: this.room, quiet: true }); return; }
      this.seq = m.seq;
      const s = this.watcher.s;
      const ev = m.ev;
      if (ev.kind === 'start') { s.status = 'playing'; s.turn = { ...ev.turn }; }
      if (ev.kind === 'turn') s.turn = { ...ev };
      if (ev.kind === 'over') s.status = 'finished';
      this.board.event(ev, at, true, s);
      this.hooks.tvSeq = this.seq;
      if (ev.kind === 'over') this.caption.textContent += ' (finished)';
    } else if (!this.live && m.t === 'history') {
      this.history.push(...m.events);
      if (m.more && m.events.length) {
        this.net.send({ t: 'history', room: this.room, since: m.events[m.events.length - 1].seq });
        return;
      }
      this.watcher.s = this.fresh({ game: m.game, status: m.status });
      this.useBoard(m.game);
      this.frames = this.history.filter((x) => typeof x.ev.position === 'string').map((x) => x.ev);
      this.at = 0;
      this.demo();
    }
  }

  /** One replayed frame, then the next after a pause; from the start again at the end. */
  demo() {
    if (!this.frames || !this.frames.length || this.live) return;
    this.hooks.tvFrames = this.frames.length;
    const ev = this.frames[this.at];
    if (this.at === 0) this.board.set(ev.position);
    else this.board.step(this.frames[this.at - 1], ev, 1);
    this.hooks.tvFrame = this.at;
    this.at = (this.at + 1) % this.frames.length;
    this.timer = setTimeout(() => this.demo(), this.at === 0 ? DEMO_STEP * 4 : DEMO_STEP);
  }
}
