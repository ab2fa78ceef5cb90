// A room: seats you if you hold or can take a seat, otherwise you watch. Draws the snapshot,
// then folds each event in seq order (a gap asks the server to `resume`); sends what the
// player does. What is on the board, its buttons and highlights belong to the game system's
// board module (boards/), which highlights what the server's `hints` name. A finished room
// is stepped through by `replay.js`. What the room says in words (turns, results) is
// `words.js`'s; the move list is `movelist.js`'s; moves, turns and the result are announced
// to screen readers in the `#announce` live region.

import { boardOf } from './boards/index.js';
import { game as gameOf, gameName, isPuzzle, seatColour, systemOf, seatsOf } from './catalogue.js';
import { Replay } from './replay.js';
import { h } from './dom.js';
import { MoveList } from './movelist.js';
import { Plan } from './plan.js';
import { announcement, nameAt, resultWords, scoresShown, turnWords } from './words.js';

const mmss = (ms) => {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
// Hints are asked for at most this often (ms), one at a time: well inside the request rate.
const HINTS_SPACING = 150;

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
    this.hints = { seq: -1, sets: {} }; // the server's last `hints` for this page
    this.hintsAsked = false; // a `hints` request is in flight or waiting its turn
    this.hintsAt = 0; // when the last one was sent (performance.now())
    this.waitingHints = []; // taps waiting for the hints of the current seq
    this.hooks = window.__orion || (window.__orion = {});
    this.hooks.room = this;
    this.plan = new Plan(this);
    this.build(host);
    this.replay = new Replay(this);
    this.el.replay.replaceWith(this.replay.el);
    this.moves = new MoveList(this);
    this.el.moves.replaceWith(this.moves.el);
    this.off = net.listen((m, at) => this.message(m, at));
    this.tick = setInterval(() => this.clocks(), 250);
    this.keys = (e) => this.key(e);
    document.addEventListener('keydown', this.keys);
    if (net.up) this.up();
  }

  get replaying() { return this.replay.on; }

  close() {
    // A watcher going elsewhere on the page (the socket stays) stops being counted here.
    if (this.entered && !this.seat && this.room && this.net.up) this.net.send({ t: 'unspectate', room: this.room });
    this.off();
    clearInterval(this.tick);
    document.removeEventListener('keydown', this.keys);
  }

  build(host) {
    const btn = (id, text, on, cls) => h('button', { id, type: 'button', hidden: true, class: cls, on: { click: on } }, text);
    this.button = btn;
    this.el = {
      game: h('h2', { class: 'game' }, 'Room'),
      // A puzzle's goal in the server's words (its catalogue entry): what the puzzle asks.
      goal: h('p', { id: 'puzzle-goal', class: 'goal', hidden: true }),
      status: h('b', { id: 'status' }, ''),
      turn: h('b', { id: 'turn' }, ''),
      clicks: h('span', { id: 'clicks' }),
      clock: h('span', { id: 'clock' }),
      spectators: h('span', { id: 'spectators' }),
      seats: h('ul', { id: 'seats', class: 'seats' }),
      note: h('p', { id: 'note', class: 'note', 'aria-live': 'polite' }),
      announce: h('p', { id: 'announce', class: 'announce', 'aria-live': 'polite', role: 'status' }),
      confirm: h('div', { id: 'leave-box', class: 'confirm', hidden: true }),
      moves: h('section'),
      die: h('span', { id: 'die', class: 'die', hidden: true }),
      result: h('div', { id: 'result', class: 'result', hidden: true }),
      chat: h('ol', { id: 'chat-log', class: 'chat' }),
      link: h('p', { class: 'link' }),
      replay: h('div'),
      actions: h('div', { class: 'actions' }),
    };
    this.btn = {
      ready: btn('ready', 'Ready', () => this.act({ t: 'ready' })),
      leave: btn('leave', 'Leave', () => this.askLeave()),
      rematch: btn('rematch', 'Rematch', () => this.act({ t: 'rematch' }), 'big'),
      declineRematch: btn('decline-rematch', 'No rematch', () => this.act({ t: 'rematch', accept: false })),
      addBot: btn('add-bot', 'Add a computer player', () => this.act({ t: 'add_bot', level: Number(this.el.botLevel.value) })),
      // Correspondence: a whole turn clicked as a preview the server checks, then sent.
      planTurn: btn('plan-turn', 'Plan the turn', () => this.plan.start()),
      sendTurn: btn('send-turn', 'Send turn', () => this.plan.send(), 'big'),
      dropPlan: btn('drop-plan', 'Drop plan', () => this.plan.drop('Plan dropped.')),
    };
    // The level of the computer player "Add a computer player" seats (4, the middle, unless chosen).
    this.el.botLevel = h('select', { id: 'bot-level', 'aria-label': 'computer player level', hidden: true },
      ...[1, 2, 3, 4, 5, 6, 7, 8].map((n) => h('option', { value: n, selected: n === 4 }, `level ${n}`)));
    const input = h('input', { id: 'chat-text', maxlength: 500, placeholder: 'Say something', 'aria-label': 'chat' });
    const form = h('form', { class: 'say', on: { submit: (e) => {
      e.preventDefault();
      if (input.value.trim()) this.act({ t: 'chat', text: input.value.trim() });
      input.value = '';
    } } }, input, h('button', { type: 'submit' }, 'Send'));
    this.boardHost = h('div', { class: 'board-host' });
    this.useBoard(null);
    const e = this.el;
    host.append(h('section', { class: 'room' },
      h('div', { class: 'bar' }, e.game,
        h('span', {}, 'status ', e.status), e.turn, e.clicks, e.clock, e.spectators),
      e.goal,
      h('div', { class: 'play' }, this.boardHost,
        h('aside', {}, e.seats, e.note, e.announce, e.die, e.actions, e.confirm, e.result, e.replay,
          e.moves, e.link, e.chat, form))));
  }

  /** The board module of `game`'s system, with its buttons among the room's. */
  useBoard(game) {
    const system = game ? systemOf(game) : null;
    if (this.board && system === this.system) return;
    this.system = system;
    this.boardHost.replaceChildren();
    this.boardHost.className = `board-host ${system || ''}`;
    this.board = new (boardOf(system))(this.boardHost, this);
    const b = this.btn;
    this.el.actions.replaceChildren(...this.board.controls(this.button), b.planTurn, b.sendTurn, b.dropPlan, b.ready, this.el.botLevel, b.addBot, b.leave, b.rematch, b.declineRematch);
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
    this.replay.load();
  }

  act(req) {
    if (!this.room) return;
    if (this.plan.takes(req)) { this.plan.add(req); return; }
    this.net.send({ ...req, room: this.room });
  }

  /** Sends a move of a system that plays by move text (`h8`, `pass`, `d2-e6`). */
  sendMove(text) {
    if (this.replaying) return;
    this.hooks.lastMoveSentAt = performance.timeOrigin + performance.now();
    this.act({ t: 'move', move: text });
  }

  myColour() { return this.seat && this.s ? (this.s.seats[this.seat] || {}).colour || this.colourOf(this.seat) : null; }
  colourOf(seat) { return this.s.colours[seat] || seatColour(this.s.game, seat, this.s.options.players); }
  isMyTurn() { return !!this.s && this.s.status === 'playing' && !!this.seat && this.s.turn.seat === this.seat; }
  note(text) { this.el.note.textContent = text || ''; }

  // --- Hints: what the server says this page may highlight ---------------------------

  /** A set the server's hints name for the current seq (empty while they are not in). */
  hint(name) { return (this.hints.seq === this.seq && this.hints.sets[name]) || []; }

  /** Whether hints for the current seq are wanted and not in yet. */
  hintsPending() {
    const s = this.s;
    return !!s && s.status === 'playing' && !this.replaying && (!!this.seat || !!this.board.watchHints)
      && this.hints.seq !== this.seq;
  }

  /** Runs `fn` once the hints of the current seq are in. */
  afterHints(fn) {
    if (!this.hintsPending()) { fn(); return; }
    this.waitingHints.push(fn);
    this.askHints();
  }

  askHints() {
    if (!this.hintsPending()) {
      const waiting = this.waitingHints;
      this.waitingHints = [];
      for (const fn of waiting) fn();
      return;
    }
    if (this.hintsAsked) return;
    this.hintsAsked = true;
    const wait = Math.max(0, this.hintsAt + HINTS_SPACING - performance.now());
    setTimeout(async () => {
      this.hintsAt = performance.now();
      const m = await this.net.request({ t: 'hints', room: this.room });
      this.hintsAsked = false;
      // A refusal (the room is gone) counts as no hints, so they are not asked again.
      this.hints = m.t === 'hints' ? { seq: m.seq, sets: m.hints } : { seq: this.seq, sets: {} };
      this.render();
    }, wait);
  }

  // --- Messages -----------------------------------------------------------------------

  message(m, at) {
    if (m.t === 'error') {
      // The room is still between two server nodes: ask again shortly.
      if (m.re !== undefined && m.re === this.following && m.code === 'server') {
        this.note('the game is moving to another server…');
        setTimeout(() => this.follow(), 1000);
        return;
      }
      if (this.plan.refused(m)) return;
      if (m.re === undefined || m.re !== this.quiet) this.toast(m.message || m.code);
      if (this.board.refused) this.board.refused(m);
      return;
    }
    if (m.t === 'moved' && m.room === this.room) { this.follow(); return; }
    if (m.t === 'chat_deleted' && m.room === this.room) {
      const li = this.el.chat.querySelector(`li[data-seq="${m.seq}"]`);
      if (li) li.lastChild.replaceWith(h('i', {}, 'deleted by a moderator'));
      return;
    }
    if (m.t === 'spectators' && m.room === this.room) {
      if (this.s) { this.s.spectators = m.count; this.render(); }
      return;
    }
    if (m.t === 'left' && m.room === this.room) { location.href = '/'; return; }
    if (m.t === 'history' && m.room === this.room) {
      if (this.moves.owns(m.re)) this.moves.page(m);
      else if (this.replay.history) this.replay.page(m);
      return;
    }
    // A finished room may be showing its replay: rematch offers still reach it.
    if (m.t === 'event' && m.room === this.room && m.ev.kind === 'rematch') this.rematch(m.ev);
    if (m.room !== this.room || this.replaying) return;
    if (m.t === 'snapshot') this.snapshot(m);
    else if (m.t === 'event') this.event(m, at);
  }

  /** A fresh state, as a snapshot or a stored history starts it. */
  fresh(game, status) {
    return {
      game, options: {}, status, seats: {}, spectators: 0, turn: {}, scores: {}, result: null,
      claims: [], secrets: {}, eligible: [], roll: null, turnAt: Date.now(), colours: {}, out: [], draw: null,
      gone: {}, decider: null,
    };
  }

  snapshot(m) {
    this.seq = m.seq;
    this.s = {
      ...this.fresh(m.game, m.status),
      options: m.options || {}, seats: { ...(m.seats || {}) }, spectators: m.spectators || 0,
      turn: { ...(m.turn || {}) }, scores: { ...(m.scores || {}) }, result: m.result || null,
      claims: (m.claims || []).map((c) => ({ colour: c.colour, until: c.until })),
      out: [...(m.out || [])], draw: m.draw || null,
    };
    for (const [k, o] of Object.entries(this.s.seats)) if (o && o.colour) this.s.colours[k] = o.colour;
    if (m.secret && this.seat) this.s.secrets[this.seat] = m.secret;
    this.useBoard(m.game);
    this.board.set(m.position);
    this.board.markLast(null);
    // The moves before the snapshot come from the stored history (a finished room's replay
    // loads it anyway).
    this.moves.snapshot(m);
    this.render();
    if (m.status === 'finished') this.replay.load();
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
    this.moves.event(m.seq, m.ev);
    this.apply(m.ev, at, true);
    this.announce(m.ev);
    this.hooks.seq = this.seq;
    this.render();
    this.plan.event(m.ev);
  }

  /** A finished room's replay loaded its history: the move list from it. */
  replayed(events) { this.moves.load(events); }

  /** Tells screen readers what just happened (a move, a turn, a seat, the end), each as a
   *  line of its own (a live region reads what is added), the last few kept. */
  announce(ev) {
    const say = announcement(this.s, ev, this.seat);
    if (!say) return;
    if (ev.kind === 'left') this.note(say);
    const lines = this.el.announce;
    lines.append(h('span', {}, `${say}. `));
    while (lines.childNodes.length > 5) lines.firstChild.remove();
  }

  /** Leave: in a game in progress it resigns (the other side wins), so the page asks first. */
  askLeave() {
    const s = this.s;
    // A puzzle is nobody else's game: leaving it needs no question.
    if (!s || s.status !== 'playing' || !this.seat || isPuzzle(s.game)) { this.act({ t: 'leave' }); return; }
    const others = Object.entries(s.seats).filter(([k, o]) => o && k !== this.seat).map(([k]) => nameAt(s, k));
    const box = this.el.confirm;
    box.replaceChildren(
      h('p', {}, `Leaving now resigns the game${others.length === 1 ? `: ${others[0]} wins` : ''}. Leave?`),
      h('button', { id: 'leave-confirm', type: 'button', on: { click: () => { box.hidden = true; this.act({ t: 'leave' }); } } }, 'Leave and resign'),
      h('button', { id: 'leave-cancel', type: 'button', on: { click: () => { box.hidden = true; this.btn.leave.focus(); } } }, 'Stay'));
    box.hidden = false;
    box.querySelector('#leave-cancel').focus();
  }

  /** One event on the state; the board module draws it and folds its system's own fields. */
  apply(ev, at, live) {
    const s = this.s;
    switch (ev.kind) {
      case 'joined':
        s.seats[ev.seat] = { player: ev.player, name: ev.name, colour: this.colourOf(ev.seat), connected: true, rating: ev.rating, bot: ev.bot };
        break;
      case 'left':
        if (s.seats[ev.seat]) s.gone[ev.seat] = s.seats[ev.seat].name;
        s.seats[ev.seat] = null;
        break;
      case 'ready': if (s.seats[ev.seat]) s.seats[ev.seat].ready = true; break;
      case 'chain': case 'capture': s.decider = { kind: ev.kind, colour: ev.colour }; break;
      case 'start':
        for (const o of Object.values(s.seats)) if (o) o.ready = false;
        s.status = 'playing';
        s.turn = { ...ev.turn };
        s.turnAt = Date.now();
        break;
      case 'turn':
        if (isPuzzle(s.game)) break;
        if (s.turn.seat !== ev.seat || ev.clicks === null) s.roll = null;
        s.turn = { ...ev, used: s.turn.seat === ev.seat ? s.turn.used : 0 };
        delete s.turn.kind;
        s.eligible = [];
        s.turnAt = Date.now();
        break;
      case 'secret': s.secrets[ev.seat] = s.secrets[ev.seat] || ev.commitment; break;
      case 'move':
        if (live && ev.move === 'pass' && ev.seat !== this.seat) this.note(`${ev.seat} passes${ev.forced ? ' (no move)' : ''}`);
        break;
      case 'chat':
        if (live) this.el.chat.append(this.chatLine(ev, this.seq));
        break;
      case 'over':
        s.status = 'finished';
        s.result = { ...ev.result, reason: ev.reason, seat: ev.seat, ratings: ev.ratings, chain: ev.chain };
        // A rated game: each account's new rating in its seat.
        for (const [k, r] of Object.entries(ev.ratings || {})) if (s.seats[k]) s.seats[k].rating = r.rating;
        s.scores = { ...(ev.result.scores || {}) };
        break;
      default: break;
    }
    this.board.event(ev, at, live, s);
  }

  /** A chat line; its name opens the menu about the speaker. */
  chatLine(ev, seq) {
    const o = ev.seat && this.s.seats[ev.seat];
    const who = { player: ev.player || (o ? o.player : null), name: ev.name };
    return h('li', { 'data-seq': seq },
      h('button', { type: 'button', class: 'name-button', 'aria-label': `${ev.name}${ev.seat ? ` (${ev.seat})` : ''}: report or block`, on: { click: () => this.about(who) } },
        `${ev.name}${ev.seat ? ` (${ev.seat})` : ''}`), ': ',
      ev.deleted ? h('i', {}, 'deleted by a moderator') : ev.text);
  }

  /** Report or block a player (moderation.js, loaded on use). */
  about(who) {
    import('./moderation.js').then((m) => m.playerDialog(this.net, { ...who, room: this.room }));
  }

  /** A computer player's mark on its seat: its level, and before the start a way to remove it. */
  botMark(seat, level, s) {
    const remove = s.status === 'waiting' && this.seat
      ? h('button', { type: 'button', class: 'remove-bot', 'aria-label': `remove the computer player at ${seat}`, on: { click: () => this.act({ t: 'remove_bot', seat }) } }, '\u00d7')
      : '';
    return h('span', { class: 'bot-mark', 'data-bot': level }, ` \u00b7 computer, level ${level} `, remove);
  }

  /** The seats in the order the catalogue gives them, then any other the room has. */
  seatOrder() {
    const s = this.s;
    const known = seatsOf(s.game, s.options.players).map((x) => x.seat);
    return [...known, ...Object.keys(s.seats).filter((k) => !known.includes(k))].filter((k) => k in s.seats);
  }

  /** The whole room panel from the state. */
  render() {
    const s = this.s;
    if (!s) return;
    const e = this.el;
    const puzzle = isPuzzle(s.game);
    e.game.textContent = `${gameName(s.game)} \u00b7 ${this.room}`;
    e.goal.textContent = puzzle ? (gameOf(s.game) || {}).goal || '' : '';
    e.goal.hidden = !e.goal.textContent;
    e.status.textContent = s.status;
    e.turn.textContent = turnWords(s, this.seat);
    // The seat to move, for scripts (and the tests) that want it rather than words.
    e.turn.dataset.seat = s.status === 'playing' ? s.turn.seat || '' : '';
    e.turn.classList.toggle('mine', this.isMyTurn());
    e.clicks.textContent = this.board.line(s);
    e.spectators.textContent = `${s.spectators} watching`;
    if (this.board.liveScores && s.status !== 'finished') this.board.liveScores(s);
    e.seats.replaceChildren(...this.seatOrder().map((k) => {
      const o = s.seats[k];
      const colour = (o && o.colour) || this.colourOf(k);
      const score = s.scores[k] !== undefined && !puzzle && scoresShown(s.scores) ? ` \u00b7 ${s.scores[k]}` : '';
      return h('li', { class: `${s.turn.seat === k && s.status === 'playing' ? 'moving' : ''} ${o && o.connected === false ? 'away' : ''}`, 'data-seat': k },
        h('i', { class: 'swatch', style: `background:${this.board.swatch(colour)}` }),
        `${k} `, h('b', {}, o ? o.name : 'free'),
        o && !o.bot && k !== this.seat
          ? h('button', { type: 'button', class: 'small about', 'aria-label': `report or block ${o.name}`, on: { click: () => this.about({ player: o.player, name: o.name }) } }, '\u2691')
          : '',
        o && o.rating !== undefined && o.rating !== null ? h('span', { class: 'rating' }, ` ${o.rating}`) : '',
        o && k === this.seat ? ' (you)' : '',
        o && o.connected === false ? ' \u00b7 away' : '', score,
        o && o.ready && s.status === 'waiting' ? h('span', { class: 'ready-mark' }, ' \u2713 ready') : '',
        o && o.bot ? this.botMark(k, o.bot, s) : '',
        s.secrets[k] ? ' \u00b7 secret chosen' : '',
        s.out && s.out.includes(k) ? ' \u00b7 out' : '');
    }));
    this.btn.ready.hidden = !(s.status === 'waiting' && this.seat);
    const plan = this.plan;
    this.btn.planTurn.hidden = !(plan.offered() && !plan.on && !plan.sending);
    this.btn.sendTurn.hidden = !(plan.on && plan.actions.length);
    this.btn.dropPlan.hidden = !plan.on;
    const free = Object.values(s.seats).some((o) => !o);
    this.btn.addBot.hidden = this.el.botLevel.hidden = !(s.status === 'waiting' && this.seat && free && !puzzle);
    this.btn.leave.hidden = !(this.seat && s.status !== 'finished');
    if (this.btn.leave.hidden) this.el.confirm.hidden = true;
    this.btn.ready.textContent = this.seat && s.seats[this.seat] && s.seats[this.seat].ready ? 'Ready \u2713' : 'Ready';
    this.board.render(s, this.isMyTurn());
    this.renderEnd();
    this.askHints();
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
    this.btn.rematch.textContent = isPuzzle(s.game) ? 'Try again' : agreed.length ? 'Accept the rematch' : 'Rematch';
    this.btn.declineRematch.hidden = !over || agreed.length === 0;
    const puzzle = isPuzzle(s.game);
    e.result.hidden = s.status !== 'finished' || !s.result;
    // The winning chain stays outlined on the board once the game is over.
    const chain = s.result && s.result.chain;
    if (chain && this.board.mark && this.moves.viewing === null) this.board.mark(chain.slots, 'won', 0);
    if (s.result) {
      const w = s.result.winner;
      let text = puzzle ? (w ? `Solved in ${s.result.scores.S} clicks` : 'Not solved') : resultWords(s, this.seat);
      const changes = Object.entries(s.result.ratings || {});
      if (changes.length) {
        text += ` \u00b7 ratings ${changes.map(([k, r]) => `${k} ${r.rating} (${r.delta >= 0 ? '+' : '\u2212'}${Math.abs(r.delta)})`).join(', ')}`;
      }
      if (s.result.territory) text += ` \u00b7 territory black ${s.result.territory.B}, white ${s.result.territory.W}`;
      if (s.result.end) text += ` \u00b7 ${s.result.end.replace('_', ' ')}`;
      const reveals = (s.result.reveals || []).map((r) => `${r.seat}: ${r.piece}`).join(', ');
      if (reveals) text += ` \u00b7 secret men ${reveals}`;
      e.result.textContent = text + (this.board.resultFigures ? this.board.resultFigures(s) : '');
    }
    e.link.replaceChildren(this.code ? `Invite link: ${location.origin}/i/${this.code}` : `Link: ${location.origin}/r/${this.room}`);
    if (s.status === 'finished') {
      const q = this.code ? `?code=${this.code}` : '';
      e.link.append(' \u00b7 ', h('a', { id: 'record-link', href: `/g/${this.room}${q}` }, 'game record'),
        ' (', h('a', { href: `/g/${this.room}.txt${q}`, download: `${this.room}.txt` }, 'text'), ')');
    }
    this.clocks();
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
    const name = (c) => (this.board.colourName ? this.board.colourName(c) : c);
    for (const c of s.claims) {
      // The server's clock may differ from ours: count from when we saw the window open.
      const left = c.seen ? c.until - c.seen - (now - c.seen) : c.until - now;
      bits.push(`claim ${name(c.colour)}: ${Math.max(0, left / 1000).toFixed(1)} s`);
    }
    this.el.clock.textContent = bits.join(' \u00b7 ');
    const claim = this.board.btn && this.board.btn.claim;
    if (claim) claim.textContent = s.claims.length ? `Claim! ${bits.filter((b) => b.startsWith('claim')).join(' ')}` : 'Claim!';
  }

  key(e) {
    if (e.target && /INPUT|TEXTAREA|SELECT/.test(e.target.tagName)) return;
    if (this.replaying ? this.replay.key(e) : this.board.key && this.board.key(e)) e.preventDefault();
  }
}
