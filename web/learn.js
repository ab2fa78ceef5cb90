// Learning to play (`/learn`, `/learn/ID`): the lessons the server serves (`/api/lessons`),
// played on the game's own board module. The page judges nothing: every try goes to the
// server (`POST /api/lessons/ID/N/try`), whose engine answers with the events it caused or
// with its refusal (the room's own words) and the step's hint. Each step marks the element
// to act on with `data-hint`; `#lesson-status` says `step N/M`, then `done`; progress is kept
// in `localStorage` (`orion.learn`: steps done by lesson) and, for a claimed account, on the
// server too (`/api/progress`, with the account's token): `/learn` merges the two on load, so
// a lesson done on one device shows done on another. `app.js` loads this module only for
// `/learn` and `/learn/ID`.

import { boardOf } from './boards/index.js';
import { game as gameOf, gameName, seatColour, systemOf } from './catalogue.js';
import { h } from './dom.js';
import { playComputer } from './computer.js';

const PROGRESS = 'orion.learn';

// Its look, loaded with it (the front door does without).
if (!document.getElementById('learn-css')) {
  document.head.append(h('link', { id: 'learn-css', rel: 'stylesheet', href: '/assets/learn.css' }));
}
// How long the events of a try play (ms) before the replies, and the replies before the next
// step: long enough to see a quarter turn.
const PAUSE = 450;

/** Steps done by lesson id. */
function progress() {
  try { return JSON.parse(localStorage.getItem(PROGRESS)) || {}; } catch (e) { return {}; }
}

function saveProgress(id, done) {
  const p = progress();
  p[id] = Math.max(p[id] || 0, done);
  localStorage.setItem(PROGRESS, JSON.stringify(p));
}

/** The account's token as the progress calls send it, or null for a guest (whose progress
 *  stays in this browser). */
function bearer(net) {
  return net && net.account && net.token ? { authorization: `Bearer ${net.token}` } : null;
}

/** Tells the server a claimed account has done `done` steps of lesson `id`. */
function sendProgress(net, id, done) {
  const headers = bearer(net);
  if (!headers) return Promise.resolve();
  return fetch(`/api/progress/${encodeURIComponent(id)}/${done}`, { method: 'POST', headers }).catch(() => {});
}

/** A claimed account's progress on the server merged into this browser's (the most steps of
 *  either, by lesson); what this browser has beyond the server's is sent up. `steps`: each
 *  lesson's steps, which bound what is sent. True once merged. */
async function syncProgress(net, steps) {
  const headers = bearer(net);
  if (!headers) return false;
  let server;
  try {
    const r = await fetch('/api/progress', { headers });
    if (!r.ok) return false;
    server = (await r.json()).progress || {};
  } catch (e) { return false; }
  const local = progress();
  const merged = { ...local };
  for (const [id, n] of Object.entries(server)) merged[id] = Math.max(merged[id] || 0, n);
  localStorage.setItem(PROGRESS, JSON.stringify(merged));
  const ups = Object.entries(local)
    .filter(([id, n]) => steps[id] && n > (server[id] || 0))
    .map(([id, n]) => sendProgress(net, id, Math.min(n, steps[id])));
  await Promise.all(ups);
  return true;
}

/** `/learn`: every lesson, with how far this browser got. */
export class LessonList {
  constructor(host, net) {
    this.net = net;
    this.lessons = null;
    this.hooks = window.__orion || (window.__orion = {});
    this.list = h('ul', { id: 'lessons', class: 'lessons' });
    host.append(h('section', { class: 'learn' },
      h('h1', {}, 'Learn to play'),
      h('p', {}, 'Short lessons on the real board: each step says what to do, the server checks it. Start with the basics, then Hydra for Two. Or read ',
        h('a', { href: '/rules', 'data-link': '' }, 'the rules'), ' of every game.'),
      this.list));
    this.load();
  }

  async load() {
    const r = await fetch('/api/lessons');
    if (!r.ok) { this.list.replaceChildren(h('li', {}, 'The lessons could not be loaded.')); return; }
    this.lessons = (await r.json()).lessons;
    this.show();
    this.hooks.lessons = this.lessons.length;
    if (this.net && this.net.account) this.up();
  }

  /** Each lesson with how far this browser (and the account, once merged) got. */
  show() {
    const done = progress();
    this.list.replaceChildren(...this.lessons.map((l) => {
      const n = Math.min(done[l.id] || 0, l.steps);
      const mark = n >= l.steps ? 'done' : n ? `${n}/${l.steps} steps` : `${l.steps} steps`;
      return h('li', { 'data-lesson': l.id },
        h('a', { href: `/learn/${l.id}`, 'data-link': '' }, l.title),
        ` \u2014 ${l.about} `, h('span', { class: 'lesson-progress' }, `(${mark})`),
        ' ', h('a', { href: l.id === 'basics' ? '/rules' : `/rules/${l.game}`, 'data-link': '', class: 'lesson-rules' }, 'rules'));
    }));
  }

  /** The page speaks for a player now: a claimed account's progress is merged in. */
  async up() {
    if (!this.lessons || this.syncing) return;
    this.syncing = true;
    const steps = Object.fromEntries(this.lessons.map((l) => [l.id, l.steps]));
    const merged = await syncProgress(this.net, steps);
    this.syncing = false;
    if (merged) {
      this.show();
      this.hooks.progressMerged = (this.hooks.progressMerged || 0) + 1;
    }
  }

  close() {}
}

/** What a board module needs of a room (boards/index.js), for a lesson: its tries go to the
 *  lesson, its highlights are the server's hints for the step. */
class Teacher {
  constructor(lesson) {
    this.lesson = lesson;
    this.s = null;
    this.seat = null;
    this.replaying = false;
    this.watchOnly = false;
    this.hooks = window.__orion || (window.__orion = {});
    this.hints = { seq: 0, sets: {} };
    this.seq = 0;
    this.el = { die: h('span', { id: 'die', class: 'die', hidden: true }), note: lesson.el.note };
  }

  act(req) { this.lesson.attempt(req); }
  sendMove(text) { this.act({ t: 'move', move: text }); }
  note(text) { this.lesson.el.note.textContent = text || ''; }
  render() { this.lesson.render(); }
  hint(name) { return this.hints.sets[name] || []; }
  hintsPending() { return false; }
  afterHints(fn) { fn(); }
  colourOf(seat) { return (this.s && this.s.colours[seat]) || (this.s ? seatColour(this.s.game, seat, this.s.options.players) : ''); }
  myColour() { return this.seat ? this.colourOf(this.seat) : null; }
  isMyTurn() { return !!this.s && this.s.status === 'playing' && this.s.turn.seat === this.seat; }
}

/** The element a step's solution acts on, as the board module drew it. */
function target(root, board, req) {
  const q = (sel) => root.querySelector(sel);
  switch (req.t) {
    case 'click': return q(`[data-click="${req.click}"]`);
    case 'place': return q(`[data-place="${req.slot}"]`);
    case 'claim': return q('#claim');
    case 'end_turn': return q('#end-turn');
    case 'roll': return q('#roll');
    case 'three': return q('#three');
    case 'secret': return q(`[data-choice="${req.piece}"]`);
    case 'challenge': return board.mode === 'challenge' ? q(`[data-choice="${req.piece}"]`) : q('#challenge');
    case 'move': {
      const m = req.move;
      if (m === 'pass') return q('#pass');
      if (m === 'black' || m === 'white') return q(`#choose-${m}`);
      if (m.includes('-')) {
        const [from, to] = m.split('-');
        return board.from === from ? q(`[data-hole="${to}"]`) : q(`[data-hole="${from}"]`);
      }
      return q(`[data-cell="${m}"]`);
    }
    default: return null;
  }
}

/** Whether two game requests ask for the same thing (fields left out or null are alike). */
function sameRequest(a, b) {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((k) => (a[k] ?? null) === (b[k] ?? null));
}

/** `/learn/ID`: one lesson, step by step. */
export class LessonView {
  constructor(host, id, net, go) {
    this.id = id;
    this.net = net;
    this.go = go;
    this.at = 0; // the step shown (from 0)
    this.busy = false; // a try is out, or its events are playing
    this.hooks = window.__orion || (window.__orion = {});
    const btn = (bid, text, on, cls) => h('button', { id: bid, type: 'button', hidden: true, class: cls, on: { click: on } }, text);
    this.button = btn;
    this.el = {
      title: h('h1', {}, 'Lesson'),
      status: h('p', { id: 'lesson-status', class: 'lesson-status', 'aria-live': 'polite' }, 'loading\u2026'),
      text: h('p', { id: 'lesson-text', class: 'lesson-text' }),
      reason: h('p', { id: 'lesson-reason', class: 'lesson-reason', role: 'alert' }),
      note: h('p', { id: 'note', class: 'note', 'aria-live': 'polite' }),
      line: h('p', { id: 'clicks', class: 'clicks' }),
      board: h('div', { class: 'board-host' }),
      actions: h('div', { class: 'actions' }),
      end: h('div', { id: 'lesson-end', class: 'lesson-end', hidden: true }),
      retry: btn('lesson-retry', 'Retry this step', () => this.show(this.at, false)),
      reset: btn('lesson-reset', 'Start again', () => this.show(0, false)),
    };
    this.el.retry.hidden = false;
    this.el.reset.hidden = false;
    this.el.rules = h('a', { id: 'lesson-rules', href: '/rules', 'data-link': '' }, 'The rules');
    host.append(h('section', { class: 'learn lesson' },
      h('p', {}, h('a', { href: '/learn', 'data-link': '' }, '\u2190 All lessons'), ' \u00b7 ', this.el.rules),
      this.el.title, this.el.status, this.el.text, this.el.reason,
      this.el.board, this.el.line, this.el.actions, this.el.note,
      h('p', { class: 'lesson-buttons' }, this.el.retry, this.el.reset), this.el.end));
    this.teacher = new Teacher(this);
    this.hooks.lesson = this;
    this.load();
  }

  close() { clearTimeout(this.timer); }

  async load() {
    const r = await fetch(`/api/lessons/${encodeURIComponent(this.id)}`);
    if (!r.ok) {
      this.el.status.textContent = 'no such lesson';
      this.el.text.textContent = (await r.text()).trim();
      return;
    }
    this.lesson = await r.json();
    this.el.title.textContent = this.lesson.title;
    if (this.id !== 'basics') this.el.rules.setAttribute('href', `/rules/${this.lesson.game}`);
    this.el.rules.textContent = this.id === 'basics' ? 'The rules' : `The rules of ${gameName(this.lesson.game)}`;
    const system = systemOf(this.lesson.game);
    this.el.board.className = `board-host ${system}`;
    this.board = new (boardOf(system))(this.el.board, this.teacher);
    this.el.actions.replaceChildren(...this.board.controls(this.button), this.teacher.el.die);
    // A tap that only picks (an orb to move, a rotor on a phone) moves the hint on.
    for (const type of ['click', 'keydown']) this.el.board.addEventListener(type, () => this.markHint());
    this.show(0, false);
  }

  /** A state as the room keeps one, from a step's start snapshot. */
  fresh(m) {
    const s = {
      game: m.game, options: m.options || {}, status: m.status, seats: { ...(m.seats || {}) }, spectators: 0,
      turn: { ...(m.turn || {}) }, scores: { ...(m.scores || {}) }, result: m.result || null,
      claims: [...(m.claims || [])], secrets: {}, eligible: [], roll: null, turnAt: Date.now(), colours: {},
      out: [...(m.out || [])], draw: m.draw || null, gone: {},
    };
    for (const [k, o] of Object.entries(s.seats)) if (o && o.colour) s.colours[k] = o.colour;
    return s;
  }

  /** Step `i` at its start; `keep`: the board already shows it (the step before led there). */
  show(i, keep) {
    clearTimeout(this.timer);
    this.busy = false;
    this.done = false;
    this.at = i;
    const step = this.lesson.steps[i];
    const start = step.start;
    this.teacher.seat = start.seat;
    this.teacher.s = this.fresh(start.snapshot);
    this.teacher.hints = { seq: ++this.teacher.seq, sets: start.hints || {} };
    // Whatever the board had picked (an orb to move, a piece to build with) is let go.
    if (typeof this.board.select === 'function') this.board.select(null);
    else if ('from' in this.board) this.board.from = null;
    if (this.board.mode) this.board.mode = null;
    if (!keep) this.board.set(start.snapshot.position);
    if (this.board.markLast) this.board.markLast(null);
    this.el.status.textContent = `step ${i + 1}/${this.lesson.steps.length}`;
    this.el.text.textContent = step.text;
    this.el.reason.textContent = '';
    this.el.end.hidden = true;
    this.teacher.note('');
    this.render();
  }

  /** The board's buttons and marks, and the hint on the element to act on. */
  render() {
    const s = this.teacher.s;
    if (!s || !this.board) return;
    this.el.line.textContent = this.board.line(s);
    this.board.render(s, this.teacher.isMyTurn());
    this.markHint();
  }

  /** `data-hint` on the one element the step's solution acts on now. */
  markHint() {
    const root = this.el.board.parentNode;
    for (const e of root.querySelectorAll('[data-hint]')) e.removeAttribute('data-hint');
    const step = this.lesson && this.lesson.steps[this.at];
    if (this.done || !step || this.busy) return;
    const e = target(root, this.board, step.solution);
    if (e) e.setAttribute('data-hint', '');
  }

  /** A try: the server's engine judges it. */
  async attempt(req) {
    if (this.busy || this.done || !this.lesson) return;
    this.busy = true;
    this.render();
    const at = this.at;
    let answer;
    try {
      const r = await fetch(`/api/lessons/${encodeURIComponent(this.id)}/${at + 1}/try`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(req),
      });
      answer = r.ok ? await r.json() : { reached: false, reason: (await r.text()).trim(), hint: '' };
    } catch (e) {
      answer = { reached: false, reason: 'the server did not answer: try again', hint: '' };
    }
    if (at !== this.at) return;
    if (!answer.reached) {
      this.busy = false;
      this.el.reason.textContent = `${answer.reason}${answer.hint ? `. Hint: ${answer.hint}` : ''}`;
      this.hooks.lessonRefusals = (this.hooks.lessonRefusals || 0) + 1;
      this.render();
      return;
    }
    this.el.reason.textContent = '';
    this.play(answer.events);
    const step = this.lesson.steps[at];
    // Another right answer than the scripted one: the next step is drawn from its own start.
    this.scripted = sameRequest(req, step.solution);
    if (step.done) this.teacher.note(step.done);
    saveProgress(this.id, at + 1);
    this.saved = sendProgress(this.net, this.id, at + 1);
    this.timer = setTimeout(() => {
      this.play(answer.replies);
      this.timer = setTimeout(() => this.next(), answer.replies.length ? PAUSE : 0);
    }, PAUSE);
  }

  /** Events folded into the state and drawn by the board, as a room does. */
  play(events) {
    const s = this.teacher.s;
    for (const ev of events) {
      if (ev.kind === 'turn') {
        if (s.turn.seat !== ev.seat || ev.clicks === null) s.roll = null;
        s.turn = { ...ev, used: s.turn.seat === ev.seat ? s.turn.used : 0 };
        delete s.turn.kind;
        s.eligible = [];
      }
      if (ev.kind === 'over') { s.status = 'finished'; s.result = { ...ev.result }; }
      this.board.event(ev, performance.now(), true, s);
    }
    this.render();
  }

  next() {
    const steps = this.lesson.steps;
    if (this.at + 1 < steps.length) {
      const own = steps[this.at + 1].continues && !this.scripted;
      const note = own ? 'Right too. The lesson goes on from its own line.' : this.el.note.textContent;
      this.show(this.at + 1, steps[this.at + 1].continues && this.scripted);
      this.teacher.note(note);
      return;
    }
    this.finish();
  }

  /** The last screen: what next (a game against the computer, a quick match, the list). */
  finish() {
    this.done = true;
    this.busy = false;
    this.el.status.textContent = 'done';
    this.el.text.textContent = `Lesson complete: ${this.lesson.title}.`;
    this.render();
    const g = gameOf(this.lesson.game);
    const players = g ? g.default_players : 2;
    const end = [h('p', {}, `Now play ${gameName(this.lesson.game)}:`)];
    if (g && !g.puzzle) {
      end.push(h('button', { type: 'button', id: 'lesson-computer', class: 'big', on: { click: () => this.vsComputer(players) } }, 'Play the computer'),
        ' ', h('button', { type: 'button', id: 'lesson-quick', on: { click: () => this.quick(players) } }, 'Quick match'));
    }
    end.push(' ', h('a', { href: '/learn', 'data-link': '' }, 'More lessons'));
    this.el.end.replaceChildren(...end);
    this.el.end.hidden = false;
  }

  /** "Play the computer", as the front door does it: a room, a computer in every other seat,
   *  ready. */
  async vsComputer(players) {
    const refused = await playComputer(this.net, this.lesson.game, players, this.go);
    if (refused) this.el.reason.textContent = refused;
  }

  /** A quick match: the room follows when enough players are waiting. */
  async quick(players) {
    this.el.note.textContent = `Looking for ${players} players\u2026`;
    const m = await this.net.request({ t: 'quick', game: this.lesson.game, players });
    if (m.t === 'joined') this.go(`/r/${m.room}`);
    else if (m.t === 'queued') {
      const off = this.net.listen((x) => {
        if (x.t === 'joined') { off(); this.go(`/r/${x.room}`); }
      });
    } else this.el.reason.textContent = m.message || m.code || '';
  }
}
