// A finished room's replay: its stored `history`, a page at a time, then stepped through
// frame by frame (the events that change the board) with buttons or the arrow keys; the
// room's board module animates each step.

import { h } from './dom.js';
import { icon } from './icons.js';

const LABELS = { first: 'first position', back: 'one step back', fwd: 'one step on', last: 'last position' };

export class Replay {
  constructor(room) {
    this.room = room;
    this.on = false; // showing the replay (the room then takes no live events)
    this.frames = null;
    this.at = 0;
    const rp = (id, name, fn) => h('button', { id, type: 'button', 'aria-label': LABELS[name], title: LABELS[name], on: { click: fn } }, icon(name));
    this.atEl = h('span', { id: 'replay-at' });
    this.el = h('div', { id: 'replay', class: 'replay', hidden: true },
      rp('replay-first', 'first', () => this.step(-Infinity)), rp('replay-back', 'back', () => this.step(-1)),
      this.atEl,
      rp('replay-fwd', 'fwd', () => this.step(1)), rp('replay-last', 'last', () => this.step(Infinity)));
  }

  load() {
    const room = this.room;
    this.history = [];
    room.net.send(room.code ? { t: 'history', room: room.room, code: room.code } : { t: 'history', room: room.room });
  }

  /** One page of history; the last one starts the replay at the end. */
  page(m) {
    const room = this.room;
    this.history.push(...m.events);
    if (m.more && m.events.length) {
      const since = m.events[m.events.length - 1].seq;
      room.net.send({ t: 'history', room: room.room, since, ...(room.code ? { code: room.code } : {}) });
      return;
    }
    this.on = true;
    room.hooks.replaying = true;
    if (!room.s) {
      room.s = room.fresh(m.game, m.status);
      room.useBoard(m.game);
    }
    // Frames: the events that change the board, each with the position after it.
    this.frames = this.history.filter((x) => typeof x.ev.position === 'string');
    for (const x of this.history) this.fold(x.ev);
    room.replayed(this.history);
    this.at = this.frames.length - 1;
    this.el.hidden = false;
    if (this.at >= 0) room.board.set(this.frames[this.at].ev.position);
    this.showAt();
    room.render();
  }

  /** Folds an event into the room's state without touching the board (seats, result). */
  fold(ev) {
    const room = this.room;
    const s = room.s;
    if (ev.kind === 'joined') s.seats[ev.seat] = { name: ev.name, colour: room.colourOf(ev.seat) };
    if (room.board.fold) room.board.fold(ev, s);
    if (ev.kind === 'over') {
      s.status = 'finished';
      s.result = { ...ev.result, reason: ev.reason, seat: ev.seat, chain: ev.chain };
      s.scores = { ...(ev.result.scores || {}) };
    }
  }

  step(by) {
    if (!this.frames || !this.frames.length) return;
    const to = Math.max(0, Math.min(this.frames.length - 1, by === Infinity || by === -Infinity ? (by > 0 ? Infinity : 0) : this.at + by));
    if (to === this.at) return;
    this.room.board.step(this.frames[this.at].ev, this.frames[to].ev, to - this.at);
    this.at = to;
    this.showAt();
  }

  showAt() {
    const f = this.frames[this.at];
    const ev = f ? f.ev : null;
    const played = (x) => x.ev.kind === 'click' || x.ev.kind === 'move';
    const what = !ev ? '' : played(f) ? `${ev.seat} ${ev.click || ev.move}` : ev.kind;
    const count = `${this.frames.slice(0, this.at + 1).filter(played).length} / ${this.frames.filter(played).length}`;
    this.atEl.textContent = ` ${count} ${this.room.board.unit} \u00b7 ${what} `;
    this.room.hooks.replayAt = this.at;
  }

  /** The arrow keys step; true when the key was one of them. */
  key(e) {
    if (e.key === 'ArrowRight') this.step(1);
    else if (e.key === 'ArrowLeft') this.step(-1);
    else return false;
    return true;
  }
}
