// A room: seats you if you hold or can take a seat, otherwise you watch. Draws the snapshot,
// then applies each event in seq order (a gap asks the server to `resume`); sends what the
// player does. A finished room steps through its `history`, click by click (move by move in
// Orbit and Orbs, whose rooms get their own board and buttons).

import { Board, parseClick, colourName, COLOURS } from './board.js';
import { OrbitBoard } from './orbit.js';
import { OrbsBoard, ORB_COLOURS } from './orbs.js';
import { gameName, isPuzzle, builds, seatColour, systemOf, seatsOf } from './games.js';
import { h } from './dom.js';

const STONES = { B: 'black', W: 'white' };
const mmss = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};

export class Room {
  constructor(host, net, where, toast) {
    this.net = net;
    this.toast = toast;
    this.room = where.room || null;
    this.code = where.code || null;
    this.seat = null; // my seat, or null when watching
    this.entered = false;
    this.seq = 0;
    this.s = null; // the room's state as the snapshot and events say
    this.hooks = window.__orion || (window.__orion = {});
    this.hooks.room = this;
    this.build(host);
    this.off = net.listen((m, at) => this.message(m, at));
    this.tick = setInterval(() => this.clocks(), 250);
    this.keys = (e) => this.key(e);
    document.addEventListener('keydown', this.keys);
    if (net.up) this.up();
  }

  close() {
    this.off();
    clearInterval(this.tick);
    document.removeEventListener('keydown', this.keys);
  }

  build(host) {
    const btn = (id, text, on, cls) => h('button', { id, type: 'button', hidden: true, class: cls, on: { click: on } }, text);
    this.el = {
      game: h('h2', { class: 'game' }, 'Room'),
      status: h('b', { id: 'status' }, ''),
      turn: h('b', { id: 'turn' }, ''),
      clicks: h('span', { id: 'clicks' }),
      clock: h('span', { id: 'clock' }),
      spectators: h('span', { id: 'spectators' }),
      seats: h('ul', { id: 'seats', class: 'seats' }),
      note: h('p', { id: 'note', class: 'note', 'aria-live': 'polite' }),
      die: h('span', { id: 'die', class: 'die', hidden: true }),
      result: h('div', { id: 'result', class: 'result', hidden: true }),
      chat: h('ol', { id: 'chat-log', class: 'chat' }),
      link: h('p', { class: 'link' }),
      replay: h('div', { id: 'replay', class: 'replay', hidden: true }),
    };
    this.btn = {
      ready: btn('ready', 'Ready', () => this.act({ t: 'ready' })),
      roll: btn('roll', 'Throw the die', () => this.act({ t: 'roll' })),
      three: btn('three', 'Three clicks', () => this.act({ t: 'three' })),
      endTurn: btn('end-turn', 'End turn', () => this.act({ t: 'end_turn' })),
      claim: btn('claim', 'Claim!', () => this.act({ t: 'claim' }), 'big'),
      challenge: btn('challenge', 'Challenge…', () => this.setMode(this.mode === 'challenge' ? null : 'challenge')),
      leave: btn('leave', 'Leave', () => this.act({ t: 'leave' })),
      rematch: btn('rematch', 'Rematch', () => this.act({ t: 'rematch' }), 'big'),
      declineRematch: btn('decline-rematch', 'No rematch', () => this.act({ t: 'rematch', accept: false })),
      // Orbit and Orbs.
      black: btn('choose-black', 'Take black', () => this.sendMove('black')),
      white: btn('choose-white', 'Take white', () => this.sendMove('white')),
      pass: btn('pass', 'Pass', () => this.sendMove('pass')),
      draw: btn('draw', 'Offer a draw', () => this.act({ t: 'draw' })),
      acceptDraw: btn('accept-draw', 'Accept the draw', () => this.act({ t: 'draw', accept: true }), 'big'),
    };
    const input = h('input', { id: 'chat-text', maxlength: 500, placeholder: 'Say something', 'aria-label': 'chat' });
    const form = h('form', { class: 'say', on: { submit: (e) => {
      e.preventDefault();
      if (input.value.trim()) this.act({ t: 'chat', text: input.value.trim() });
      input.value = '';
    } } }, input, h('button', { type: 'submit' }, 'Send'));
    const boardHost = h('div', { class: 'board-host' });
    this.boardHost = boardHost;
    this.system = 'orion';
    this.board = new Board(boardHost, {
      onClick: (click) => this.click(click),
      onPlace: (slot) => this.place(slot),
      onPiece: (token, slot) => this.piece(token, slot),
    });
    const rp = (id, text, fn) => h('button', { id, type: 'button', on: { click: fn } }, text);
    this.el.replay.append(
      rp('replay-first', '\u23ee', () => this.step(-Infinity)), rp('replay-back', '\u25c0', () => this.step(-1)),
      h('span', { id: 'replay-at' }),
      rp('replay-fwd', '\u25b6', () => this.step(1)), rp('replay-last', '\u23ed', () => this.step(Infinity)),
    );
    const e = this.el;
    host.append(h('section', { class: 'room' },
      h('div', { class: 'bar' }, e.game,
        h('span', {}, 'status ', e.status), h('span', {}, 'to move ', e.turn), e.clicks, e.clock, e.spectators),
      h('div', { class: 'play' }, boardHost,
        h('aside', {},
          e.seats, e.note, e.die,
          h('div', { class: 'actions' }, this.btn.claim, this.btn.acceptDraw, this.btn.ready, this.btn.roll, this.btn.three,
            this.btn.endTurn, this.btn.challenge, this.btn.black, this.btn.white, this.btn.pass, this.btn.draw, this.btn.leave,
            this.btn.rematch, this.btn.declineRematch),
          e.result, e.replay, e.link, e.chat, form))));
  }

  /** The connection is up (first time, or again after a drop). */
  up() {
    if (!this.entered) { this.enter(); return; }
    if (this.replaying) return;
    if (this.seat) this.net.sendNow({ t: 'resume', room: this.room, since: this.seq });
    else this.net.sendNow({ t: 'spectate', room: this.room });
  }

  /** The room moved to another server node (`moved`): resume it there at once from the last
   *  seq, a watcher too (again each second while it answers `server`). */
  follow() {
    if (!this.entered || this.replaying || !this.net.up) return;
    this.following = this.net.sendNow({ t: 'resume', room: this.room, since: this.seq });
  }

  async enter() {
    this.entered = true;
    const joining = this.net.request(this.code ? { t: 'join', code: this.code } : { t: 'join', room: this.room });
    // A full or finished room is watched instead: its refusal is no news to the player.
    if (!this.code) this.quiet = this.net.lastId;
    const r = await joining;
    if (r.t === 'joined') {
      this.room = r.room;
      this.seat = r.seat;
      if (r.code) this.code = r.code;
      return; // the snapshot follows
    }
    if (this.code) { this.note(r.message || 'no such room'); return; }
    const watching = this.net.request({ t: 'spectate', room: this.room });
    this.quiet = this.net.lastId;
    const s = await watching;
    if (s.t === 'snapshot') return;
    // Gone from memory (finished and left): its stored history can still be replayed.
    this.loadHistory();
  }

  /** Orbit and Orbs rooms draw their own board in place of ORION's. */
  useBoard(game) {
    const system = systemOf(game);
    if (system === this.system) return;
    this.system = system;
    this.boardHost.replaceChildren();
    this.boardHost.classList.add(system);
    if (system === 'orbit') this.board = new OrbitBoard(this.boardHost, { onCell: (cell) => this.cell(cell) });
    else this.board = new OrbsBoard(this.boardHost, { onMove: (text) => this.sendMove(text) });
  }

  /** Sends an Orbit or Orbs move (`h8`, `pass`, `white`, `d2-e6`). */
  sendMove(text) {
    if (this.replaying) return;
    this.hooks.lastMoveSentAt = performance.timeOrigin + performance.now();
    this.act({ t: 'move', move: text });
  }

  /** An Orbit cell was tapped: a drop, when it is this player's and the cell is open. */
  cell(cell) {
    const s = this.s;
    if (!s || !this.isMyTurn() || !['opening', 'play'].includes(s.turn.phase)) return;
    if (this.board.stones.has(cell) || (s.turn.prohibited || []).includes(cell)) {
      this.note(this.board.stones.has(cell) ? `${cell} is taken` : `${cell} is prohibited for ${STONES[s.turn.colour]}`);
      return;
    }
    this.sendMove(cell);
  }

  act(req) {
    if (!this.room) return;
    this.net.send({ ...req, room: this.room });
  }

  click(click) {
    if (this.replaying) return;
    this.hooks.lastClickSentAt = performance.timeOrigin + performance.now();
    this.act({ t: 'click', click });
  }

  place(slot) {
    const req = { t: 'place', slot };
    if (this.from) req.from = this.from;
    this.from = null;
    this.act(req);
  }

  piece(token, slot) {
    if (!this.s || this.replaying) return;
    const mine = token[0] === this.myColour();
    if (this.needsSecret() && mine) { this.act({ t: 'secret', piece: token }); return; }
    if (this.mode === 'challenge' && !mine) { this.act({ t: 'challenge', piece: token }); this.setMode(null); return; }
    if (builds(this.s.game) && mine && this.isMyTurn()) {
      this.from = this.from === slot ? null : slot;
      this.board.mark(this.from ? [slot] : [], 'from', 0);
      this.note(this.from ? `moving ${token}: tap an empty slot to place it` : '');
    }
  }

  setMode(mode) {
    this.mode = mode;
    this.note(mode === 'challenge' ? 'tap the piece you suspect' : '');
    this.render();
  }

  myColour() { return this.seat && this.s ? (this.s.seats[this.seat] || {}).colour || this.colourOf(this.seat) : null; }
  swatch(c) { return (this.system === 'orbit' ? { B: '#111', W: '#f4f4f4' } : { ...COLOURS, ...ORB_COLOURS })[c] || '#888'; }
  colourOf(seat) { return this.s.colours[seat] || seatColour(this.s.game, seat, this.s.options.players); }
  isMyTurn() { return !!this.s && this.s.status === 'playing' && !!this.seat && this.s.turn.seat === this.seat; }
  needsSecret() { return this.s && this.s.game === 'algol' && this.seat && this.s.status === 'playing' && !this.s.secrets[this.seat]; }
  note(text) { this.el.note.textContent = text || ''; }

  message(m, at) {
    if (m.t === 'error') {
      // The room is still between two server nodes: ask again shortly.
      if (m.re !== undefined && m.re === this.following && m.code === 'server') {
        this.note('the game is moving to another server…');
        setTimeout(() => this.follow(), 1000);
        return;
      }
      if (m.re === undefined || m.re !== this.quiet) this.toast(m.message || m.code);
      return;
    }
    if (m.t === 'moved' && m.room === this.room) { this.follow(); return; }
    if (m.t === 'left' && m.room === this.room) { location.href = '/'; return; }
    if (m.t === 'history' && m.room === this.room) { this.historyPage(m); return; }
    // A finished room may be showing its replay: rematch offers still reach it.
    if (m.t === 'event' && m.room === this.room && m.ev.kind === 'rematch') this.rematch(m.ev);
    if (m.room !== this.room || this.replaying) return;
    if (m.t === 'snapshot') this.snapshot(m);
    else if (m.t === 'event') this.event(m, at);
  }

  snapshot(m) {
    this.seq = m.seq;
    const seats = {};
    for (const k of Object.keys(m.seats || {})) seats[k] = m.seats[k];
    this.s = {
      game: m.game, options: m.options || {}, status: m.status, seats, spectators: m.spectators || 0,
      turn: { ...(m.turn || {}) }, scores: { ...(m.scores || {}) }, result: m.result || null,
      claims: (m.claims || []).map((c) => ({ colour: c.colour, until: c.until })),
      secrets: {}, eligible: [], roll: null, turnAt: Date.now(),
      colours: {}, out: [...(m.out || [])], draw: m.draw || null,
    };
    for (const [k, o] of Object.entries(seats)) if (o && o.colour) this.s.colours[k] = o.colour;
    if (m.secret && this.seat) this.s.secrets[this.seat] = m.secret;
    this.useBoard(m.game);
    if (this.system === 'orbs') this.board.setClosed(this.s.options.holes);
    this.board.set(m.position);
    this.board.markLast(null);
    this.render();
    if (m.status === 'finished') this.loadHistory();
  }

  event(m, at) {
    if (!this.s || m.seq <= this.seq) return;
    if (m.seq > this.seq + 1) {
      // A gap: ask for what was missed (events in order, or a snapshot).
      if (this.seat) this.net.sendNow({ t: 'resume', room: this.room, since: this.seq });
      else this.net.sendNow({ t: 'spectate', room: this.room });
      return;
    }
    this.seq = m.seq;
    this.apply(m.ev, at, true);
    this.hooks.seq = this.seq;
    this.render();
  }

  /** One event on the state and board; `live` when it happens now (not a replay). */
  apply(ev, at, live) {
    const s = this.s;
    switch (ev.kind) {
      case 'joined':
        s.seats[ev.seat] = { player: ev.player, name: ev.name, colour: this.colourOf(ev.seat), connected: true, rating: ev.rating };
        break;
      case 'left': s.seats[ev.seat] = null; break;
      case 'start':
        s.status = 'playing';
        s.turn = { ...ev.turn };
        s.turnAt = Date.now();
        this.board.set(ev.position);
        break;
      case 'click':
        this.board.click(ev.click, ev.position, at);
        s.turn.used = (s.turn.used || 0) + 1;
        s.eligible = [];
        break;
      case 'place':
        this.board.set(ev.position);
        this.board.mark([ev.slot], 'placed', 700);
        s.eligible = s.eligible.filter((x) => x !== ev.slot);
        break;
      case 'eligible': s.eligible = ev.slots || []; break;
      case 'roll':
        s.roll = ev.value;
        break;
      case 'turn':
        if (isPuzzle(s.game)) break;
        if (s.turn.seat !== ev.seat || ev.clicks === null) s.roll = null;
        s.turn = { ...ev, used: s.turn.seat === ev.seat ? s.turn.used : 0 };
        delete s.turn.kind;
        s.eligible = [];
        s.turnAt = Date.now();
        this.from = null;
        break;
      case 'chain':
        if (ev.claim_until !== null && ev.claim_until !== undefined) {
          s.claims.push({ colour: ev.colour, until: ev.claim_until, seen: Date.now() });
        }
        this.note(`a ${colourName(ev.colour)} chain!`);
        break;
      case 'claim': {
        const colour = (s.seats[ev.seat] || {}).colour || seatColour(s.game, ev.seat);
        s.claims = s.claims.filter((c) => c.colour !== colour);
        this.note(`${ev.seat} claims: ${ev.ok ? 'the chain stands' : 'too late'}`);
        break;
      }
      case 'capture':
        this.board.set(ev.position);
        this.board.mark(ev.slots, 'captured', 1500);
        s.scores[ev.seat] = (s.scores[ev.seat] || 0) + (ev.points || 0);
        break;
      case 'secret': s.secrets[ev.seat] = s.secrets[ev.seat] || ev.commitment; break;
      case 'move': // Orbit and Orbs
        this.board.move(ev);
        if (ev.move === 'black' || ev.move === 'white') {
          // N chose ev.colour; S plays the other.
          const other = ev.colour === 'B' ? 'W' : 'B';
          for (const [k, c] of [[ev.seat, ev.colour], [ev.seat === 'S' ? 'N' : 'S', other]]) {
            s.colours[k] = c;
            if (s.seats[k]) s.seats[k].colour = c;
          }
        }
        for (const k of ev.out || []) if (!s.out.includes(k)) s.out.push(k);
        s.draw = null;
        if (live && ev.move === 'pass' && ev.seat !== this.seat) this.note(`${ev.seat} passes${ev.forced ? ' (no move)' : ''}`);
        break;
      case 'draw':
        s.draw = ev.agreed && ev.agreed.length ? { agreed: ev.agreed } : null;
        if (live) this.note(ev.accept ? `${ev.seat} accepts the draw` : `${ev.seat} offers a draw`);
        break;
      case 'challenge':
        this.board.set(ev.position);
        this.board.mark(ev.removed, 'captured', 1500);
        this.note(`${ev.seat} challenges ${ev.piece}: ${ev.hit ? 'found!' : 'wrong'}`);
        break;
      case 'try':
        this.board.markLast(parseClick(ev.click) && parseClick(ev.click).rotor);
        this.board.mark(ev.chain, 'chain', 2500);
        s.turn.used = ev.tries;
        s.scores.S = ev.hits;
        this.note(`try ${ev.tries}: ${ev.hit ? 'hit' : 'miss'} (${ev.hits} hits)`);
        break;
      case 'chat':
        if (live) this.el.chat.append(h('li', {}, h('b', {}, `${ev.name}${ev.seat ? ` (${ev.seat})` : ''}: `), ev.text));
        break;
      case 'over':
        s.status = 'finished';
        s.result = { ...ev.result, reason: ev.reason, seat: ev.seat, ratings: ev.ratings };
        // A rated game: each account's new rating in its seat.
        for (const [k, r] of Object.entries(ev.ratings || {})) if (s.seats[k]) s.seats[k].rating = r.rating;
        s.scores = { ...(ev.result.scores || {}) };
        s.claims = [];
        s.eligible = [];
        break;
      default: break;
    }
  }

  /** The whole room panel from the state. */
  render() {
    const s = this.s;
    if (!s) return;
    const e = this.el;
    const puzzle = isPuzzle(s.game);
    e.game.textContent = `${gameName(s.game)} \u00b7 ${this.room}`;
    e.status.textContent = s.status;
    e.turn.textContent = s.status === 'playing' ? s.turn.seat || '' : '';
    if (puzzle) {
      e.clicks.textContent = s.game === 'aquarius'
        ? `tries ${s.turn.used || 0} / 5`
        : `clicks ${s.turn.used || 0} / ${s.turn.target ?? '\u2013'}`;
    } else if (this.system !== 'orion') {
      e.clicks.textContent = this.otherLine();
    } else if (s.status === 'playing') {
      const c = s.turn.clicks;
      e.clicks.textContent = c === 0 ? 'place a piece' : c === null || c === undefined ? 'die or three' : `clicks ${s.turn.used || 0} / ${c}`;
    } else e.clicks.textContent = '';
    e.spectators.textContent = `${s.spectators} watching`;
    if (this.system !== 'orion' && s.status !== 'finished') this.liveScores();
    e.seats.replaceChildren(...seatsOf(s.game, s.options.players).filter((k) => k in s.seats).map((k) => {
      const o = s.seats[k];
      const colour = (o && o.colour) || this.colourOf(k);
      const score = s.scores[k] !== undefined && !puzzle ? ` \u00b7 ${s.scores[k]}` : '';
      return h('li', { class: `${s.turn.seat === k && s.status === 'playing' ? 'moving' : ''} ${o && o.connected === false ? 'away' : ''}`, 'data-seat': k },
        h('i', { class: 'swatch', style: `background:${this.swatch(colour)}` }),
        `${k} `, h('b', {}, o ? o.name : 'free'),
        o && o.rating !== undefined && o.rating !== null ? h('span', { class: 'rating' }, ` ${o.rating}`) : '',
        o && k === this.seat ? ' (you)' : '',
        o && o.connected === false ? ' \u00b7 away' : '', score,
        s.game === 'algol' && s.secrets[k] ? ' \u00b7 secret chosen' : '',
        s.out && s.out.includes(k) ? ' \u00b7 out' : '');
    }));
    const mine = this.isMyTurn();
    const colour = this.myColour();
    this.btn.ready.hidden = !(s.status === 'waiting' && this.seat);
    this.btn.leave.hidden = !(this.seat && s.status !== 'finished');
    for (const b of [this.btn.black, this.btn.white, this.btn.pass, this.btn.draw, this.btn.acceptDraw]) b.hidden = true;
    if (this.system !== 'orion') {
      this.renderOther(mine, colour);
      this.renderEnd();
      return;
    }
    const choosing = mine && (s.turn.clicks === null || s.turn.clicks === undefined) && !puzzle && s.roll === null;
    this.btn.roll.hidden = !choosing;
    this.btn.three.hidden = !choosing;
    this.btn.endTurn.hidden = !(mine && !puzzle);
    this.btn.challenge.hidden = !(s.game === 'algol' && mine);
    this.btn.challenge.classList.toggle('on', this.mode === 'challenge');
    const claimable = colour && s.claims.some((c) => c.colour === colour);
    this.btn.claim.hidden = !(claimable && s.status === 'playing');
    e.die.hidden = s.roll === null || s.status !== 'playing';
    e.die.textContent = s.roll === null ? '' : `die: ${s.roll}`;
    // Building: eligible slots, or any empty slot on a placement turn (the server decides;
    // Auriga's entry is one of its two entry slots).
    let places = [];
    if (mine && !puzzle && s.turn.clicks === 0) places = s.game === 'auriga' ? ['C1s', 'C1n'] : this.emptySlots();
    else if (mine && builds(s.game)) places = s.eligible;
    this.board.setPlaces(places);
    this.board.markMovable(mine && !puzzle ? [colour] : null);
    if (this.needsSecret()) this.note('Choose your secret man: tap one of your pieces (only you will know)');
    this.renderEnd();
  }

  /** A rematch offered, accepted or declined; once all agree, the players move to its room. */
  rematch(ev) {
    if (!this.s) return;
    this.s.rematch = ev.agreed || [];
    if (ev.room) {
      this.s.rematchRoom = ev.room;
      if (this.seat) { location.href = `/r/${ev.room}`; return; }
      this.note(`the rematch is in room ${ev.room}`);
    } else if (!ev.accept) this.note(`${ev.seat} declined the rematch`);
    else if (ev.seat !== this.seat) this.note(`${ev.seat} wants a rematch`);
    this.render();
  }

  /** The result, the room's link and the clocks. */
  renderEnd() {
    const s = this.s;
    const e = this.el;
    const agreed = s.rematch || [];
    const over = s.status === 'finished' && !!this.seat && !s.rematchRoom;
    this.btn.rematch.hidden = !over || agreed.includes(this.seat);
    this.btn.rematch.textContent = agreed.length ? 'Accept the rematch' : 'Rematch';
    this.btn.declineRematch.hidden = !over || agreed.length === 0;
    const puzzle = isPuzzle(s.game);
    e.result.hidden = s.status !== 'finished' || !s.result;
    if (s.result) {
      const w = s.result.winner;
      const scores = Object.entries(s.result.scores || {}).map(([k, v]) => `${k} ${v}`).join(', ');
      let text = puzzle
        ? (w ? `Solved in ${s.result.scores.S} clicks` : 'Not solved')
        : `${w ? `${w} wins` : 'No winner'}${w && w === this.seat ? ' \u2014 you!' : ''} (${scores})`;
      if (s.result.reason === 'time') text += ` \u2014 ${s.result.seat} ran out of time`;
      if (s.result.reason === 'abandoned') text += ' \u2014 abandoned';
      if (s.result.reason === 'aborted') text += ' \u2014 aborted before everyone had moved: unrated';
      const changes = Object.entries(s.result.ratings || {});
      if (changes.length) {
        text += ` \u00b7 ratings ${changes.map(([k, r]) => `${k} ${r.rating} (${r.delta >= 0 ? '+' : '\u2212'}${Math.abs(r.delta)})`).join(', ')}`;
      }
      if (s.result.territory) text += ` \u00b7 territory black ${s.result.territory.B}, white ${s.result.territory.W}`;
      if (s.result.end && this.system !== 'orion') text += ` \u00b7 ${s.result.end.replace('_', ' ')}`;
      const reveals = (s.result.reveals || []).map((r) => `${r.seat}: ${r.piece}`).join(', ');
      if (reveals) text += ` \u00b7 secret men ${reveals}`;
      e.result.textContent = text;
    }
    e.link.replaceChildren(this.code ? `Invite link: ${location.origin}/i/${this.code}` : `Link: ${location.origin}/r/${this.room}`);
    if (s.status === 'finished') {
      const q = this.code ? `?code=${this.code}` : '';
      e.link.append(' \u00b7 ', h('a', { id: 'record-link', href: `/g/${this.room}${q}` }, 'game record'),
        ' (', h('a', { href: `/g/${this.room}.txt${q}`, download: `${this.room}.txt` }, 'text'), ')');
    }
    this.clocks();
  }

  /** Orbit's and Orbs' turn line: the phase, the colour to drop, territory; who is out. */
  otherLine() {
    const s = this.s;
    const t = s.turn;
    if (this.system === 'orbit') {
      const a = this.board.analysis;
      const terr = a ? ` \u00b7 territory black ${a.territory.B}, white ${a.territory.W}` : '';
      if (s.status !== 'playing') return terr.slice(3);
      if (t.phase === 'opening') return `opening: ${t.seat} drops ${STONES[t.colour]} (${t.drop} of 3)${terr}`;
      if (t.phase === 'choice') return `${t.seat} chooses a colour${terr}`;
      return `${STONES[t.colour] || ''} to drop${terr}`;
    }
    const bits = [];
    if (s.out.length) bits.push(`out: ${s.out.join(', ')}`);
    if (s.draw) bits.push(`draw offered (agreed: ${s.draw.agreed.join(', ')})`);
    return bits.join(' \u00b7 ');
  }

  /** Scores as the board stands: Orbit's territory by seat, Orbs' orbs left. */
  liveScores() {
    const s = this.s;
    for (const k of seatsOf(s.game, s.options.players)) {
      const c = this.colourOf(k);
      if (this.system === 'orbit') s.scores[k] = c && this.board.analysis ? this.board.analysis.territory[c] : 0;
      else s.scores[k] = [...this.board.orbs.values()].filter((x) => x[0] === c).length;
    }
  }

  /** Orbit's and Orbs' buttons and board state. */
  renderOther(mine, colour) {
    const s = this.s;
    const playing = s.status === 'playing' && !this.replaying;
    if (this.system === 'orbit') {
      const dropping = mine && ['opening', 'play'].includes(s.turn.phase);
      this.btn.black.hidden = this.btn.white.hidden = !(mine && s.turn.phase === 'choice');
      this.btn.pass.hidden = !(mine && s.turn.phase === 'play');
      this.board.show(playing ? s.turn.prohibited : [], dropping);
      if (mine && s.turn.phase === 'choice') this.note('Choose your colour: black or white (white drops next)');
      else if (this.el.note.textContent.startsWith('Choose your colour')) this.note('');
      return;
    }
    const seated = playing && this.seat && !s.out.includes(this.seat);
    this.btn.draw.hidden = !(seated && !s.draw);
    this.btn.acceptDraw.hidden = !(seated && s.draw && !s.draw.agreed.includes(this.seat));
    this.board.setMovable(mine ? [colour] : null);
  }

  emptySlots() {
    return this.board.slotEls ? [...this.board.slotEls.keys()].filter((k) => !this.board.position.has(k)) : [];
  }

  /** Claim countdowns and the turn clock, every quarter second. */
  clocks() {
    const s = this.s;
    if (!s) return;
    const now = Date.now();
    const bits = [];
    const o = s.options || {};
    if (s.status === 'playing' && o.turn_clock) bits.push(`turn ${mmss(o.turn_clock - (now - s.turnAt))}`);
    if (o.time_bank) bits.push(`bank ${mmss(o.time_bank)}`);
    for (const c of s.claims) {
      // The server's clock may differ from ours: count from when we saw the window open.
      const left = c.seen ? c.until - c.seen - (now - c.seen) : c.until - now;
      bits.push(`claim ${colourName(c.colour)}: ${Math.max(0, left / 1000).toFixed(1)} s`);
    }
    this.el.clock.textContent = bits.join(' \u00b7 ');
    this.btn.claim.textContent = s.claims.length ? `Claim! ${bits.filter((b) => b.startsWith('claim')).join(' ')}` : 'Claim!';
  }

  // --- Replay -------------------------------------------------------------------------

  loadHistory() {
    this.history = [];
    this.net.send(this.code ? { t: 'history', room: this.room, code: this.code } : { t: 'history', room: this.room });
  }

  historyPage(m) {
    this.history.push(...m.events);
    if (m.more && m.events.length) {
      const since = m.events[m.events.length - 1].seq;
      this.net.send({ t: 'history', room: this.room, since, ...(this.code ? { code: this.code } : {}) });
      return;
    }
    this.replaying = true;
    this.hooks.replaying = true;
    if (!this.s) {
      this.s = {
        game: m.game, options: {}, status: m.status, seats: {}, spectators: 0, turn: {}, scores: {},
        result: null, claims: [], secrets: {}, eligible: [], roll: null, turnAt: Date.now(),
        colours: {}, out: [], draw: null,
      };
      this.useBoard(m.game);
    }
    // Frames: the events that change the board, each with the position after it.
    this.frames = this.history.filter((x) => typeof x.ev.position === 'string');
    for (const x of this.history) this.applyQuiet(x.ev);
    this.at = this.frames.length - 1;
    this.el.replay.hidden = false;
    if (this.at >= 0) this.board.set(this.frames[this.at].ev.position);
    this.showAt();
    this.render();
  }

  /** Folds an event into the replay's state without touching the board (seats, result). */
  applyQuiet(ev) {
    const s = this.s;
    if (ev.kind === 'joined') s.seats[ev.seat] = { name: ev.name, colour: this.colourOf(ev.seat) };
    if (ev.kind === 'move' && (ev.move === 'black' || ev.move === 'white')) {
      s.colours[ev.seat] = ev.colour;
      s.colours[ev.seat === 'S' ? 'N' : 'S'] = ev.colour === 'B' ? 'W' : 'B';
      for (const k of ['S', 'N']) if (s.seats[k]) s.seats[k].colour = s.colours[k];
    }
    if (ev.kind === 'over') {
      s.status = 'finished';
      s.result = { ...ev.result, reason: ev.reason, seat: ev.seat };
      s.scores = { ...(ev.result.scores || {}) };
    }
  }

  step(by) {
    if (!this.frames || !this.frames.length) return;
    const to = Math.max(0, Math.min(this.frames.length - 1, by === Infinity || by === -Infinity ? (by > 0 ? Infinity : 0) : this.at + by));
    if (to === this.at) return;
    const here = this.frames[this.at].ev;
    const next = this.frames[to].ev;
    if (to === this.at + 1 && next.kind === 'click') this.board.click(next.click, next.position, performance.now());
    else if (to === this.at - 1 && here.kind === 'click') {
      const c = parseClick(here.click);
      const back = c ? `${c.rotor}${c.dir > 0 ? 'L' : 'R'}` : here.click;
      this.board.click(back, next.position, performance.now());
    } else this.board.set(next.position);
    this.at = to;
    this.showAt();
  }

  showAt() {
    const f = this.frames[this.at];
    let what = f ? (f.ev.kind === 'click' ? `${f.ev.seat} ${f.ev.click}` : f.ev.kind) : '';
    let unit = 'clicks';
    if (this.system !== 'orion') {
      if (f && f.ev.kind === 'move') what = `${f.ev.seat} ${f.ev.move}`;
      unit = 'moves';
    }
    const count = (x) => x.ev.kind === 'click' || x.ev.kind === 'move';
    document.getElementById('replay-at').textContent = ` ${this.frames.slice(0, this.at + 1).filter(count).length} / ${this.frames.filter(count).length} ${unit} \u00b7 ${what} `;
    this.hooks.replayAt = this.at;
  }

  // --- Keyboard -----------------------------------------------------------------------

  key(e) {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (this.system !== 'orion' && !this.replaying) return;
    if (this.replaying) {
      if (e.key === 'ArrowRight') this.step(1);
      else if (e.key === 'ArrowLeft') this.step(-1);
      else return;
      e.preventDefault();
      return;
    }
    const cur = this.cursor || 'C3';
    const col = cur.charCodeAt(0) - 65;
    const row = Number(cur[1]);
    const moveTo = (c, r) => {
      this.cursor = `${String.fromCharCode(65 + Math.max(0, Math.min(4, c)))}${Math.max(1, Math.min(5, r))}`;
      this.board.cursor(this.cursor);
    };
    switch (e.key) {
      case 'ArrowLeft': moveTo(col - 1, row); break;
      case 'ArrowRight': moveTo(col + 1, row); break;
      case 'ArrowUp': moveTo(col, row + 1); break;
      case 'ArrowDown': moveTo(col, row - 1); break;
      case '[': case 'z': this.click(`${cur}L`); break;
      case ']': case 'x': this.click(`${cur}R`); break;
      case 'c': case '!': this.act({ t: 'claim' }); break;
      case 'e': if (this.isMyTurn()) this.act({ t: 'end_turn' }); break;
      default: return;
    }
    e.preventDefault();
  }
}
